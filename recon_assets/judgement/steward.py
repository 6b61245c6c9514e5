"""Steward judgements: what a data steward records about a pair or an edge, and how it takes precedence over every
machine judge (DOMAIN.md "coherence": a judgement is evidence; a person who read both papers outranks a cue word or a
model).

The judgements live in a versioned CSV file (default `recon_assets/reference/steward_judgements.csv`, one row per
judgement; STEWARD_COLUMNS says what each column holds):

- scope `pair`: the steward judged the newer work (newer_doi) against the edge's publication (publication_doi) for
  the dataset. It replaces the machine judgement of that pair, or is added when no machine judge read the pair;
- scope `edge`: the steward judged the edge itself. Its coherence and verdict replace the edge's coherence, whatever
  the judged pairs and recorded disputes say.

A verdict is SUPPORTED, CONTRADICTED or SUPERSEDED (a steward who cannot say records nothing), with its coherence on
DOMAIN.md's scale (0 to 1). A judgement dated after as_of was not known then and does not apply to that as_of.

`read_steward_file` checks every row (read with the `csv` module, so a quoted rationale may hold commas and line
breaks): a row that breaks a rule (a wrong number of fields, text that is not UTF-8, a bad value) is kept as `rejected`
with its reason and its lines, never dropped (rows in = rows that apply + rows naming no KG edge + rows rejected, and
every line but blank ones is in one row: a quote left open is rejected with its line range, not allowed to swallow the
rows below it: a record that breaks the quoting and runs over a line starting with `pair,` or `edge,` ends before
that line, while a quote well closed may hold such a line); a
file that is missing, not a regular file, too large or without the header is refused whole, its content never
echoed. `resolve` finds the KG dataset and publications each row names (dataset by its KG id, in any case, or its
DOI; publications by DOI). When several rows judge the same pair or edge, the latest one recorded on or before as_of
applies (`applicable`): a later judgement replaces an earlier one from its day on.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping
from datetime import date
from pathlib import Path
from typing import Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from recon_assets.judgement.verdict_scale import (
    CONSENSUS_COHERENCE,
    CONTRADICTED,
    DEBATED_COHERENCE,
    SUPERSEDED,
    SUPPORTED,
    Stance,
)
from recon_assets.kg.doi import canonical_doi
from recon_assets.shared.paths import is_pseudo_file
from recon_assets.shared.table_docs import declared_columns
from recon_assets.shared.validation import problem_line

STEWARD_FILE = Path(__file__).resolve().parents[1] / "reference" / "steward_judgements.csv"
STEWARD_COLUMNS: dict[str, str] = {
    "scope": "pair (the newer work judged against the edge's publication) or edge (the edge itself).",
    "dataset": "The dataset: its KG id (kg:...) or its DOI.",
    "publication_doi": "DOI of the edge's publication (the older paper of a pair).",
    "newer_doi": "DOI of the newer work (scope pair); empty for an edge.",
    "verdict": "SUPPORTED, CONTRADICTED or SUPERSEDED.",
    "coherence": "On DOMAIN.md's scale: 1.0 consensus, 0.7 refined, 0.5 debated, 0.3 superseded, 0.1 contradicted (any value in [0, 1]).",
    "rationale": "Why, in a sentence a reader of the reason can check.",
    "steward": "Who judged (a name or handle).",
    "judged_on": "When (YYYY-MM-DD): the judgement applies from that day on.",
}
APPLIES, NO_SUCH_EDGE, REJECTED = "applies", "no_such_edge", "rejected"
# A steward file is a few hundred lines; a bigger file is not one (and would be read whole).
MAX_FILE_BYTES = 10_000_000
# A rationale is a sentence the reason quotes, not a document.
MAX_RATIONALE_CHARACTERS = 1_000
# The verdicts' span of DOMAIN.md's coherence scale (a steward may record any value in it): support is at least
# debated, a contradiction or a supersession at most.
VERDICT_COHERENCE: dict[Stance, tuple[float, float]] = {
    SUPPORTED: (DEBATED_COHERENCE, CONSENSUS_COHERENCE),
    CONTRADICTED: (0.0, DEBATED_COHERENCE),
    SUPERSEDED: (0.0, DEBATED_COHERENCE),
}
SCOPES = ("pair", "edge")
RESOLVED_COLUMNS = declared_columns("steward_judgements")


class StewardJudgement(BaseModel):
    """One row of the steward file, checked (STEWARD_COLUMNS)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    scope: Literal["pair", "edge"]
    dataset: str = Field(min_length=1)
    publication_doi: str
    newer_doi: str | None = None
    verdict: Stance
    coherence: float = Field(ge=0.0, le=1.0, allow_inf_nan=False)
    rationale: str = Field(min_length=1, max_length=MAX_RATIONALE_CHARACTERS)
    steward: str = Field(min_length=1)
    judged_on: date

    @field_validator("publication_doi", "newer_doi")
    @classmethod
    def _doi(cls, value: str | None) -> str | None:
        if value in (None, ""):
            return None
        doi = canonical_doi(value)
        if doi is None:
            raise ValueError(f"{value!r} is not a DOI")
        return doi

    @model_validator(mode="after")
    def _scope_fits(self) -> StewardJudgement:
        if self.publication_doi is None:
            raise ValueError("publication_doi is required")
        if self.scope == "pair" and self.newer_doi is None:
            raise ValueError("a pair judgement needs newer_doi")
        if self.scope == "edge" and self.newer_doi is not None:
            raise ValueError("an edge judgement has no newer_doi (use scope pair)")
        if self.scope == "pair" and self.newer_doi == self.publication_doi:
            raise ValueError("newer_doi is the publication itself")
        low, high = VERDICT_COHERENCE[self.verdict]
        if not low <= self.coherence <= high:
            raise ValueError(f"a {self.verdict} verdict has a coherence from {low} to {high} on DOMAIN.md's scale, got {self.coherence}")
        return self


def read_steward_file(path: Path = STEWARD_FILE) -> pd.DataFrame:
    """Every row of the steward file, checked: STEWARD_COLUMNS (canonical DOIs, coherence a float, judged_on a
    date), `line` and `last_line` (the lines the row spans) and `status` / `reason`: '' and None when the row is well
    formed, REJECTED and why (every broken rule, named by column) otherwise. Blank lines are no rows; every other line
    after the header belongs to exactly one row (a quote left open ends its row before the next line that starts a
    judgement, or at the end of the file, and the row is rejected naming the quote and its lines: `_records`). An empty file holds no judgement.

    Raises:
        FileNotFoundError: no file at `path` (a typo must not silently drop every judgement).
        ValueError: `path` is not a regular file, is a kernel pseudo-file, is larger than MAX_FILE_BYTES, or its first
            line is not STEWARD_COLUMNS (the file's content is never quoted: it may not be a steward file at all).
    """
    if not path.exists():
        raise FileNotFoundError(f"no steward file at {path}: fix the path, or create the file with its header line")
    if not path.is_file() or is_pseudo_file(path):
        raise ValueError(f"{path} is not a regular file: a steward file is a CSV file")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise ValueError(f"{path} is {path.stat().st_size:,} bytes, more than a steward file holds ({MAX_FILE_BYTES:,})")
    # undecodable bytes stay as surrogates, so the rows holding them are rejected one by one; the physical lines
    # as the csv module counts them (\n, \r\n or \r)
    lines = io.StringIO(path.read_bytes().decode("utf-8-sig", errors="surrogateescape"), newline="").readlines()
    header = next(csv.reader(lines[:1]), None)
    columns = list(STEWARD_COLUMNS)
    rows: list[dict] = []
    if header is None:
        return pd.DataFrame(columns=[*columns, "line", "last_line", "status", "reason"])
    if [name.strip() for name in header] != columns:
        raise ValueError(
            f"{path}: the first line must be the header {','.join(columns)}; it has {len(header)} fields, "
            f"{len(set(header) - set(columns))} of them not steward columns"
        )
    for line, last_line, record, quote_problem in _records(lines):
        lines_of = {"line": line, "last_line": last_line}
        if quote_problem:
            rows.append({**dict.fromkeys(columns), **lines_of, "status": REJECTED, "reason": quote_problem})
            continue
        if not any(cell.strip() for cell in record):
            continue
        problem = _row_problem(record, len(columns))
        if problem:
            rows.append({**dict.fromkeys(columns), **lines_of, "status": REJECTED, "reason": problem})
            continue
        values = dict(zip(columns, record))
        try:
            checked = StewardJudgement.model_validate({key: (value if value.strip() != "" else None) for key, value in values.items()})
        except ValidationError as error:
            reason = "; ".join(problem_line(e, "row") for e in error.errors(include_url=False))
            rows.append({**values, "coherence": None, "judged_on": None, **lines_of, "status": REJECTED, "reason": reason})
            continue
        rows.append({**checked.model_dump(), **lines_of, "status": "", "reason": None})
    return pd.DataFrame(rows, columns=[*columns, "line", "last_line", "status", "reason"])


def _records(lines: list[str]) -> Iterator[tuple[int, int, list[str] | None, str | None]]:
    """The CSV records after the header line of `lines` (the file's physical lines), each with the first and last
    line it spans (1-based; a quoted rationale may span lines, and a line of it may start with `edge,`) and None, or
    None for its fields and why when a quote is left open:

    - a record that spans lines and is not well formed (`_quoting`: a quote closed where no field ends, or not closed
      at all, or a wrong number of fields) and runs over a line starting a judgement (`_starts_a_judgement`) ends on
      the last line before that one that is not blank; reading starts again on that line, so the rows after it are
      read;
    - a record whose quote is still open at the end of the file ends on its last line that is not blank.
    """
    start = 1  # lines before the next reader's first line
    while start < len(lines):
        reader = csv.reader(lines[index] for index in range(start, len(lines)))
        read = 0
        for record in reader:
            first, last, read = start + read + 1, start + reader.line_num, reader.line_num
            quoting = _quoting(lines[first - 1 : last])
            broken = quoting is not None or len(record) != len(STEWARD_COLUMNS)
            cut = next((line for line in range(first + 1, last + 1) if _starts_a_judgement(lines[line - 1])), None) if broken else None
            if cut is not None:
                end = _last_filled(lines, first, cut - 1)
                yield first, end, None, f"{_span(first, end)}: a quote opened here is not closed before the next line, which starts another judgement ({_CLOSE_IT})"
                start = cut - 1
                break
            if quoting == _OPEN_AT_END:
                end = _last_filled(lines, first, last)
                yield first, end, None, f"{_span(first, end)}: a quote opened here is not closed before the end of the file ({_CLOSE_IT})"
                continue
            yield first, last, record, None
        else:
            return


_OPEN_AT_END = "unexpected end of data"  # the csv module's strict reader's words for a quote open at the end
_CLOSE_IT = "close the quote; a quoted rationale may span lines"


def _quoting(record_lines: list[str]) -> str | None:
    """Why the lines of one record break RFC 4180's quoting, in the csv module's strict reader's words
    (_OPEN_AT_END: a quote not closed), or None. The lenient reader `_records` uses reads on after such a break (a
    quote left open takes in the lines below it up to the next quote), so this tells a quoted rationale spanning
    lines from a quote left open."""
    try:
        for _ in csv.reader(record_lines, strict=True):
            pass
    except csv.Error as error:
        return str(error)
    return None


def _last_filled(lines: list[str], first: int, last: int) -> int:
    """The last line from `first` to `last` (1-based) that is not blank, or `first`."""
    return next((line for line in range(last, first, -1) if lines[line - 1].strip()), first)


def _span(first: int, last: int) -> str:
    return f"line {first}" if first == last else f"lines {first}-{last}"


def _starts_a_judgement(line: str) -> bool:
    """Whether a physical line starts a judgement row: its first field is a scope, followed by a comma."""
    fields = next(csv.reader([line]), [])
    return len(fields) > 1 and fields[0].strip() in SCOPES


def _row_problem(record: list[str], expected: int) -> str | None:
    """Why a CSV record cannot be a judgement before its values are read: its number of fields, or bytes that are
    not UTF-8 text (decoded as surrogates)."""
    if len(record) != expected:
        return f"{len(record)} fields, {expected} expected (a comma inside a rationale needs the rationale in double quotes)"
    if any("\udc80" <= character <= "\udcff" for cell in record for character in cell):
        return "not UTF-8 text (save the file as UTF-8)"
    return None


def resolve(judgements: pd.DataFrame, datasets: pd.DataFrame, publications: pd.DataFrame, edges: pd.DataFrame) -> pd.DataFrame:
    """The checked rows with the KG dataset and publications they name (RESOLVED_COLUMNS).

    Args:
        judgements: `read_steward_file` rows.
        datasets: dataset_id, doi (canonical) of the KG's datasets.
        publications: publication_id, doi (canonical) of the KG's publications.
        edges: dataset_id, publication_id of the KG's Dataset->Publication edges.

    Returns:
        Rows in file order. A well-formed row whose dataset and publication make a KG edge APPLIES (its newer work
        keyed by its KG id, or 'doi:<doi>' when the KG lacks it); else NO_SUCH_EDGE with what was not found. A row a
        later-dated judgement of the same pair or edge replaces keeps APPLIES, its reason saying from when
        (`applicable` picks the judgement that holds on a given as_of).
    """
    dataset_by_doi = dict(zip(datasets["doi"], datasets["dataset_id"]))
    dataset_by_id = {str(dataset_id).casefold(): dataset_id for dataset_id in datasets["dataset_id"]}
    publication_by_doi = publications.dropna(subset=["doi"]).drop_duplicates("doi").set_index("doi")["publication_id"]
    edge_set = set(zip(edges["dataset_id"], edges["publication_id"]))
    rows = []
    for row in judgements.to_dict("records"):
        resolved = {**row, "dataset_id": None, "publication_id": None, "newer_publication_id": None}
        if row["status"] != REJECTED:
            dataset_id = dataset_by_id.get(row["dataset"].casefold()) or dataset_by_doi.get(canonical_doi(row["dataset"]))
            publication_id = publication_by_doi.get(row["publication_doi"])
            newer = row["newer_doi"] if isinstance(row["newer_doi"], str) else None
            resolved |= {
                "dataset_id": dataset_id, "publication_id": publication_id,
                "newer_publication_id": (publication_by_doi.get(newer) or f"doi:{newer}") if newer else None,
            }
            missing = _what_is_missing(row, dataset_id, publication_id, edge_set)
            resolved |= {"status": NO_SUCH_EDGE, "reason": missing} if missing else {"status": APPLIES, "reason": None}
        rows.append(resolved)
    frame = pd.DataFrame(rows, columns=list(RESOLVED_COLUMNS))
    applies = frame[frame["status"] == APPLIES].assign(target=lambda f: _targets(f))
    for _, same in applies.sort_values(["judged_on", "line"]).groupby("target", sort=False):
        for earlier, later in zip(same.itertuples(), same.iloc[1:].itertuples()):
            frame.loc[earlier.Index, "reason"] = f"line {later.line} (judged on {later.judged_on}) replaces it from that day"
    return frame


def _what_is_missing(row: Mapping, dataset_id: str | None, publication_id: str | None, edges: set[tuple[str, str]]) -> str | None:
    if dataset_id is None:
        return f"no KG dataset has the id or DOI {row['dataset']!r}"
    if publication_id is None:
        return f"no KG publication has the DOI {row['publication_doi']}"
    if (dataset_id, publication_id) not in edges:
        return f"the KG has no edge between {dataset_id} and {publication_id}"
    return None


def applicable(resolved: pd.DataFrame, scope: str, as_of: date) -> pd.DataFrame:
    """The rows of `scope` that apply as of `as_of`: status APPLIES, judged_on on or before it, and for each pair or
    edge judged more than once the latest such judgement (the later line on the same day)."""
    judged_on = pd.to_datetime(resolved["judged_on"]).dt.date
    known = resolved[(resolved["status"] == APPLIES) & (resolved["scope"] == scope) & (judged_on <= as_of)]
    latest = known.assign(target=_targets(known)).sort_values(["judged_on", "line"]).drop_duplicates("target", keep="last")
    return latest.drop(columns="target").sort_values("line")


def _targets(frame: pd.DataFrame) -> pd.Series:
    """What a row judges: scope, dataset, publication and newer work, as one key."""
    if frame.empty:
        return pd.Series(dtype=object, index=frame.index)
    return frame[["scope", "dataset_id", "publication_id", "newer_publication_id"]].fillna("").astype(str).agg("|".join, axis=1)


def steward_judge(steward: str) -> str:
    """The judge name of a steward's judgement: 'steward/<name>'."""
    return f"steward/{steward}"


def steward_evidence(row: Mapping) -> str:
    """The reason's words for a steward's judgement: 'by steward <name> on <date> (precedes the machine judges): <rationale>'."""
    return f"by steward {row['steward']} on {pd.Timestamp(row['judged_on']).date().isoformat()} (precedes the machine judges): {row['rationale']}"


def prefer_steward_pairs(pairs: pd.DataFrame, stewards: pd.DataFrame, texts: pd.DataFrame) -> pd.DataFrame:
    """`pairs` (coherence_judgements columns) with the steward's pair judgements in precedence: a pair a steward
    judged takes the steward's verdict, coherence and rationale (`judge` steward/<name>, the machine's verdict kept
    in `offline_verdict` and `offline_coherence`); a pair no machine judge read is added (similarity NULL, evidence_kind 'steward', the newer
    work's centrality 1.0: a steward's reading weighs as the most central evidence).

    Args:
        stewards: `applicable(..., "pair", as_of)` rows.
        texts: key, year, citation of publications (for an added pair's newer_year and newer_citation).
    """
    if stewards.empty:
        return pairs
    key = ["dataset_id", "older_publication_id", "newer_publication_id"]
    judged = stewards.rename(columns={"publication_id": "older_publication_id"}).set_index(key)
    index = pd.MultiIndex.from_frame(pairs[key]) if len(pairs) else pd.MultiIndex.from_tuples([], names=key)
    hit = index.isin(judged.index)
    merged = pairs.copy()
    chosen = judged.reindex(index[hit])
    merged.loc[hit, "offline_verdict"] = merged.loc[hit, "verdict"].to_numpy()
    merged.loc[hit, "offline_coherence"] = merged.loc[hit, "coherence"].astype(float).to_numpy()
    merged.loc[hit, "verdict"] = chosen["verdict"].to_numpy()
    merged.loc[hit, "coherence"] = chosen["coherence"].astype(float).to_numpy()
    merged.loc[hit, "rationale"] = [steward_evidence(row) for row in chosen.reset_index().to_dict("records")]
    merged.loc[hit, "judge"] = [steward_judge(name) for name in chosen["steward"]]
    merged.loc[hit, "prompt_version"] = None
    added = judged[~judged.index.isin(index)].reset_index()
    if added.empty:
        return merged
    text = texts.drop_duplicates("key").set_index("key")
    extra = pd.DataFrame({
        **{column: added[column] for column in key},
        "similarity": None, "verdict": added["verdict"], "coherence": added["coherence"].astype(float),
        "rationale": [steward_evidence(row) for row in added.to_dict("records")],
        "judge": [steward_judge(name) for name in added["steward"]], "prompt_version": None, "offline_verdict": None,
        "offline_coherence": None,
        "newer_centrality": 1.0, "newer_via_successor": False, "evidence_kind": "steward",
        "newer_citation": [text["citation"].get(newer) or f"[{doi}]" for newer, doi in zip(added["newer_publication_id"], added["newer_doi"])],
        "newer_year": pd.array([text["year"].get(newer) for newer in added["newer_publication_id"]], dtype="Int64"),
    })
    return pd.concat([merged, extra[[c for c in merged.columns if c in extra.columns]]], ignore_index=True)


def apply_steward_edges(frame: pd.DataFrame, stewards: pd.DataFrame) -> pd.DataFrame:
    """Edge rows (dataset_id, publication_id, coherence, coherence_status, coherence_evidence, coherence_judges) with
    the steward's edge judgements in precedence over the judged pairs and the recorded disputes' cap.

    Args:
        stewards: `applicable(..., "edge", as_of)` rows.
    """
    if stewards.empty:
        return frame
    judged = stewards.drop_duplicates(["dataset_id", "publication_id"], keep="last").set_index(["dataset_id", "publication_id"])
    index = pd.MultiIndex.from_frame(frame[["dataset_id", "publication_id"]])
    hit = index.isin(judged.index)
    chosen = judged.reindex(index[hit])
    result = frame.copy()
    result.loc[hit, "coherence"] = chosen["coherence"].astype(float).to_numpy()
    result.loc[hit, "coherence_status"] = chosen["verdict"].to_numpy()
    result.loc[hit, "coherence_evidence"] = [steward_evidence(row) for row in chosen.to_dict("records")]
    result.loc[hit, "coherence_judges"] = [steward_judge(name) for name in chosen["steward"]]
    return result
