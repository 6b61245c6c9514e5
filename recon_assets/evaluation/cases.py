"""The labelled cases (`recon_assets/reference/labelled_cases.csv`) and the texts the judge reads for the
contradicted pairs (`contradiction_pair_texts.json`); LABELLED_CASES.md beside them says where every label
comes from."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date
from itertools import combinations
from pathlib import Path

import pandas as pd

from recon_assets.judgement.offline_judge import VERDICTS
from recon_assets.kg.doi import canonical_doi
from recon_assets.kg.years import MIN_YEAR
from recon_assets.reliability.scoring import is_number

REFERENCE_DIR = Path(__file__).resolve().parents[1] / "reference"
LABELLED_CASES = REFERENCE_DIR / "labelled_cases.csv"
PAIR_TEXTS = REFERENCE_DIR / "contradiction_pair_texts.json"

KNOWN_SUPERSEDED, KNOWN_FOUNDATIONAL, KNOWN_CONTRADICTED = "known_superseded", "known_foundational", "known_contradicted"
EXPECTATIONS = (KNOWN_SUPERSEDED, KNOWN_FOUNDATIONAL, KNOWN_CONTRADICTED)
COLUMNS = [
    "labels_version", "case_id", "kind", "expected", "dataset_doi", "dataset_concept_id", "publication_doi",
    "newer_publication_doi", "inputs", "source",
]
DOI_COLUMNS = ("dataset_doi", "publication_doi", "newer_publication_doi")
# The DOMAIN.md inputs a worked case gives (its `inputs` JSON object), all needed to score it.
WORKED_CASE_INPUTS = ("publication_year", "cited_by_count", "coherence", "coherence_status", "as_of")
# A worked case's publication_year range: kg.years' oldest plausible year, and a bound no real case reaches.
WORKED_CASE_YEARS = (MIN_YEAR, 2100)
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")  # fromisoformat alone also takes 20260101 and 2026-W48-7


@dataclass(frozen=True)
class KindRule:
    """What a case of one kind may expect, the columns it must fill and those it may fill (LABELLED_CASES.md)."""

    expected: frozenset[str]
    required: tuple[str, ...]
    optional: tuple[str, ...] = ()


KIND_RULES = {
    "superseded_dataset_version": KindRule(frozenset({KNOWN_SUPERSEDED}), ("dataset_doi", "publication_doi")),
    # A retracted work labels every edge of its publication, or the one edge its dataset DOI names.
    "retracted_work": KindRule(frozenset({KNOWN_SUPERSEDED}), ("publication_doi",), ("dataset_doi",)),
    "worked_case": KindRule(frozenset({KNOWN_SUPERSEDED, KNOWN_FOUNDATIONAL}), ("inputs",)),
    "foundational_work": KindRule(frozenset({KNOWN_FOUNDATIONAL}), ("publication_doi",), ("dataset_doi",)),
    "contradicted_pair": KindRule(frozenset({KNOWN_CONTRADICTED}), ("publication_doi", "newer_publication_doi")),
}
KINDS = tuple(KIND_RULES)
# The columns whose use depends on the kind; the others are required (source) or free (dataset_concept_id).
_KIND_COLUMNS = (*DOI_COLUMNS, "inputs")


def load_cases(path: Path = LABELLED_CASES) -> pd.DataFrame:
    """The labelled cases, one row per case, columns COLUMNS (strings, stripped; empty cells are NA). DOIs are kept
    as written: compare them through `kg.doi.canonical_doi`.

    Raises:
        ValueError: naming the file and, for a row, its case_id and line (header = line 1; exact while no cell
            spans lines): an empty file, no case, missing columns, a blank or several labels_version values, a
            missing or duplicate case_id, an unknown kind or expectation, an expectation the kind does not allow,
            a column the kind needs left empty or one it does not use filled, a value of a DOI column that is not
            a DOI, a worked case's `inputs` not a JSON object with WORKED_CASE_INPUTS of the right type and range
            (`_inputs_problem`), no source, an edge labelled by two cases (canonical DOIs; a case without
            dataset_doi labels every edge of its publication), and a pair whose two DOIs are one publication or
            that is labelled twice.
    """
    try:
        cases = pd.read_csv(path, dtype=str, keep_default_na=False)
    except pd.errors.EmptyDataError as error:
        raise ValueError(f"{path} is empty: no header, no case") from error
    missing = sorted(set(COLUMNS) - set(cases.columns))
    if missing:
        raise ValueError(f"{path} lacks columns {missing}")
    if cases.empty:
        raise ValueError(f"{path} has a header but no case")
    cases = cases.apply(lambda column: column.str.strip()).replace("", pd.NA)
    # How each row is named in an error: its case_id and its line (+2: the header, and 1-based lines).
    names = cases["case_id"].fillna("<no case_id>") + [f" (line {index + 2})" for index in cases.index]
    inputs_problems = cases["inputs"].dropna().map(_inputs_problem).dropna()
    problems = {
        "labels_version values (one expected)": sorted(cases["labels_version"].dropna().unique()) if cases["labels_version"].nunique() > 1 else [],
        "no labels_version": names[cases["labels_version"].isna()].tolist(),
        "no case_id": names[cases["case_id"].isna()].tolist(),
        "duplicate case_id": names[cases["case_id"].notna() & cases["case_id"].duplicated()].tolist(),
        "unknown kind": names[~cases["kind"].isin(KINDS)].tolist(),
        "unknown expected": names[~cases["expected"].isin(EXPECTATIONS)].tolist(),
        "no source": names[cases["source"].isna()].tolist(),
        **_kind_problems(cases, names),
        **{f"{column} not a DOI": names[cases[column].notna() & cases[column].map(canonical_doi).isna()].tolist() for column in DOI_COLUMNS},
        **{f"inputs: {problem}": names[inputs_problems.index[inputs_problems == problem]].tolist() for problem in inputs_problems.unique()},
        **_label_clashes(cases, names),
    }
    problems = {what: found for what, found in problems.items() if found}
    if problems:
        raise ValueError(f"{path}: {problems}")
    return cases[COLUMNS]


def _kind_problems(cases: pd.DataFrame, names: pd.Series) -> dict[str, list[str]]:
    """Rows (by name) whose expectation the kind does not allow, or whose kind-dependent columns break KIND_RULES."""
    problems: dict[str, list[str]] = {}
    for kind, rule in KIND_RULES.items():
        of_kind = cases["kind"] == kind
        problems[f"expected does not fit the kind {kind} ({', '.join(sorted(rule.expected))})"] = names[
            of_kind & cases["expected"].notna() & ~cases["expected"].isin(rule.expected)
        ].tolist()
        for column in _KIND_COLUMNS:
            if column in rule.required:
                problems[f"{column} missing on a {kind} case"] = names[of_kind & cases[column].isna()].tolist()
            elif column not in rule.optional:
                problems[f"{column} given on a {kind} case, which does not use it"] = names[of_kind & cases[column].notna()].tolist()
    return problems


def _label_clashes(cases: pd.DataFrame, names: pd.Series) -> dict[str, list[str]]:
    """Rows (by name) labelling an edge an earlier row labels (or both rows named, when their expectations
    differ), and pairs whose newer DOI is the older one or that an earlier row labels; DOIs compared canonical."""
    doi = cases[list(DOI_COLUMNS)].apply(lambda column: column.map(canonical_doi, na_action="ignore"))
    edge_cases = doi[doi["publication_doi"].notna() & cases["newer_publication_doi"].isna()]
    twice, contradictory = [], []
    for _, same_publication in edge_cases.groupby("publication_doi"):
        for first, second in combinations(same_publication.index, 2):
            datasets = doi.loc[[first, second], "dataset_doi"]
            # a case without a dataset DOI labels every edge of the publication, so it meets any other case on it
            if datasets.isna().any() or datasets.nunique() == 1:
                if cases.at[first, "expected"] == cases.at[second, "expected"]:
                    twice.append(names[second])
                else:
                    contradictory += [names[first], names[second]]
    pairs = doi[doi["newer_publication_doi"].notna()]
    return {
        "edge labelled by two cases": sorted(set(twice)),
        "edge labelled by two cases with different expectations": sorted(set(contradictory)),
        "newer_publication_doi is the publication_doi": names[pairs.index[pairs["publication_doi"] == pairs["newer_publication_doi"]]].tolist(),
        "pair labelled by two cases": names[pairs.index[pairs.duplicated(["publication_doi", "newer_publication_doi"])]].tolist(),
    }


def _inputs_problem(text: str) -> str | None:
    """What is wrong with a worked case's `inputs`, None when nothing: it must be a JSON object with every
    WORKED_CASE_INPUTS key, publication_year an int in WORKED_CASE_YEARS, cited_by_count an int >= 0,
    coherence a number in [0, 1], coherence_status one of the offline judge's VERDICTS and as_of a
    YYYY-MM-DD date (what `ablation.worked_case_inputs` and `score_edges` take)."""
    try:
        given = json.loads(text)
    except ValueError:
        return "not JSON"
    if not isinstance(given, dict):
        return "not a JSON object"
    if absent := [key for key in WORKED_CASE_INPUTS if key not in given]:
        return f"missing {', '.join(absent)}"
    year, cites, coherence = given["publication_year"], given["cited_by_count"], given["coherence"]
    checks = {
        f"publication_year not an integer in {WORKED_CASE_YEARS[0]}..{WORKED_CASE_YEARS[1]}":
            _is_int(year) and WORKED_CASE_YEARS[0] <= year <= WORKED_CASE_YEARS[1],
        "cited_by_count not an integer >= 0": _is_int(cites) and cites >= 0,
        "coherence not a number in [0, 1]": is_number(coherence) and 0 <= coherence <= 1,
        f"coherence_status not one of {', '.join(VERDICTS)}": given["coherence_status"] in VERDICTS,
        "as_of not a YYYY-MM-DD date": _is_iso_date(given["as_of"]),
    }
    return next((problem for problem, ok in checks.items() if not ok), None)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)  # JSON true is a Python int


def _is_iso_date(value: object) -> bool:
    if not isinstance(value, str) or not _ISO_DATE.fullmatch(value):
        return False
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


def load_pair_texts(path: Path = PAIR_TEXTS) -> pd.DataFrame:
    """Title, abstract (None when the source has none) and year of every publication the judge reads, by DOI.

    Returns:
        columns doi, title, abstract, year (int), source.
    """
    works = json.loads(path.read_text())["works"]
    return pd.DataFrame(
        [{"doi": doi, "title": w["title"], "abstract": w.get("abstract"), "year": int(w["year"]), "source": w["source"]} for doi, w in works.items()]
    )
