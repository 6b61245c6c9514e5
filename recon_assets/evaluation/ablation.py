"""Score the labelled cases under every setting of the grid, and judge the labelled pairs.

Edges are re-scored by `scoring.score_edges`' own two halves (so any rule it gains, e.g. the lifecycle penalty,
is evaluated too) from the inputs stored in `edge_reliability`; the worked cases from their DOMAIN.md inputs:
`edge_signals` once per decay, then `label_edges` for each weight triple.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from datetime import date

import numpy as np
import pandas as pd

from recon_assets.evaluation.cases import KNOWN_CONTRADICTED, KNOWN_FOUNDATIONAL, KNOWN_SUPERSEDED
from recon_assets.evaluation.metrics import (
    AGE_ONLY_SETTING,
    CONTRADICTED,
    DEFAULT_SETTING,
    STALE_LABELS,
    Rate,
    contradiction_rate,
    flagged_rate,
    settings_grid,
    superseded_precision,
)
from recon_assets.judgement.offline_judge import judge_edges
from recon_assets.kg.doi import canonical_doi
from recon_assets.reliability.scoring import UNVERIFIED, Decay, EdgeSignals, ScoringSettings, Weights, edge_signals, label_edges

EDGE_KEY = ["dataset_id", "publication_id"]
# edge_reliability columns passed to score_edges as they are stored.
_STORED_INPUTS = [
    "dataset_doi", "publication_doi", "dataset_short_name", "pagerank_centrality", "cited_by_count", "citation_trend",
    "coherence", "coherence_status", "openalex_status",
    "dataset_superseded", "dataset_version", "successor_version", "superseded_since",
]
# Lifecycle inputs of a current dataset version (no penalty).
_CURRENT_VERSION = {"dataset_superseded": False, "dataset_version": None, "successor_version": None, "superseded_since": None}
# Each rate's columns in the evaluation table: (rate, numerator, denominator).
RATE_COLUMNS = {
    "staleness": ("staleness_catch_rate", "staleness_caught", "staleness_cases"),
    "foundational_false_flag": ("foundational_false_flag_rate", "foundational_flagged", "foundational_cases"),
    "contradiction": ("contradiction_catch_rate", "contradictions_caught", "contradiction_pairs"),
    "superseded_precision": ("superseded_precision", "superseded_known", "superseded_labelled"),
    # The base rate beside the staleness catch rate: a method flagging most edges catches most stale ones.
    "flagged_share": ("flagged_share_all_edges", "edges_flagged", "edges_scored"),
}
UNJUDGED = "NOT_JUDGED"  # verdict of a labelled pair without stored texts: counted apart, never as a miss


def edge_inputs(stored: pd.DataFrame) -> pd.DataFrame:
    """`score_edges` input rows rebuilt from `edge_reliability` rows, one per distinct (dataset, publication) edge.

    The stored table keeps the outputs of the year and retraction rules, not their raw inputs, so: the year goes
    back to kg_year or openalex_year by year_source; a retracted edge gets openalex_retracted (the retraction
    source name is not needed to label); the citation tag is the head of the stored reason.

    Args:
        stored: edge_reliability rows (any research areas).

    Returns:
        dataset_id, publication_id and the score_edges input columns, sorted by EDGE_KEY.
    """
    edges = stored.sort_values([*EDGE_KEY, "research_area"]).drop_duplicates(EDGE_KEY).reset_index(drop=True)
    year = edges["publication_year"].astype("Int64")
    return edges[EDGE_KEY + _STORED_INPUTS].assign(
        # only the reason would show it, and labels are all the evaluation reads
        dataset_collection_progress=None,
        kg_year=year.where(edges["year_source"] == "kg"),
        openalex_year=year.where(edges["year_source"] == "openalex"),
        year_issue=np.where(year.isna(), "unknown in edge_reliability", None),
        citation=edges["reason"].str.split(" reliability ", n=1).str[0],
        evidence=None,
        openalex_error=None,
        openalex_retracted=edges["is_retracted"].astype(bool),
        retraction_notice=False,
        crossref_notice_dois=None,
    )


def worked_case_inputs(cases: pd.DataFrame) -> tuple[pd.DataFrame, date]:
    """`score_edges` input rows of the worked cases (their `inputs` JSON: publication_year, cited_by_count,
    coherence, coherence_status, as_of), PageRank centrality 0 so the citation count alone sets centrality.

    Returns:
        (rows with case_id and EDGE_KEY set to the case id, the as_of they share).

    Raises:
        ValueError: the worked cases give different as_of dates.
    """
    worked = cases[cases["inputs"].notna()]
    given = [json.loads(text) for text in worked["inputs"]]
    as_of = {case["as_of"] for case in given}
    if len(as_of) > 1:
        raise ValueError(f"worked cases must share one as_of, got {sorted(as_of)}")
    rows = pd.DataFrame(
        {
            "case_id": worked["case_id"].to_numpy(),
            "dataset_id": worked["case_id"].to_numpy(),
            "publication_id": worked["case_id"].to_numpy(),
            "kg_year": pd.array([case["publication_year"] for case in given], dtype="Int64"),
            "openalex_year": pd.array([pd.NA] * len(given), dtype="Int64"),
            "year_issue": None,
            "pagerank_centrality": 0.0,
            "cited_by_count": [case["cited_by_count"] for case in given],
            "coherence": [case["coherence"] for case in given],
            "coherence_status": [case["coherence_status"] for case in given],
            "citation": [f"[worked case {case_id}]" for case_id in worked["case_id"]],
            "dataset_short_name": None, "dataset_doi": None, "evidence": None,
            "openalex_status": "found", "openalex_error": None, "citation_trend": np.nan,
            "openalex_retracted": False, "retraction_notice": False, "crossref_notice_dois": None,
            # The worked cases say nothing about the dataset version: current, so no lifecycle penalty.
            **_CURRENT_VERSION, "dataset_collection_progress": None,
        }
    )
    return rows, date.fromisoformat(as_of.pop() if as_of else "2026-01-01")


def match_edge_cases(cases: pd.DataFrame, edges: pd.DataFrame) -> pd.DataFrame:
    """Labelled edge cases (rows with a publication_doi and no newer_publication_doi) joined to the KG edges
    they name: by canonical (`kg.doi.canonical_doi`) dataset DOI and publication DOI, or by publication DOI
    alone when the case names no dataset (a retracted work labels every edge of the publication). A case
    matching no edge keeps one row with NA dataset_id: it is counted as not found, never dropped.

    Returns:
        columns case_id, kind, expected, source, dataset_id, publication_id (NA when not found).
    """
    edge_cases = cases[cases["publication_doi"].notna() & cases["newer_publication_doi"].isna()]
    # An edge without a publication DOI is named by no case (merge would pair its None with a case's).
    keys = _canonical(edges[[*EDGE_KEY, "dataset_doi", "publication_doi"]], "dataset_doi", "publication_doi")
    keys = keys.dropna(subset=["publication_doi"])
    wanted = _canonical(edge_cases, "dataset_doi", "publication_doi")
    with_dataset = wanted[wanted["dataset_doi"].notna()].merge(keys, on=["dataset_doi", "publication_doi"], how="left")
    any_dataset = wanted[wanted["dataset_doi"].isna()].drop(columns="dataset_doi").merge(keys, on="publication_doi", how="left")
    matched = pd.concat([with_dataset, any_dataset], ignore_index=True)
    return matched[["case_id", "kind", "expected", "source", *EDGE_KEY]].sort_values(["case_id", *EDGE_KEY]).reset_index(drop=True)


def _canonical(frame: pd.DataFrame, *columns: str) -> pd.DataFrame:
    """`frame` with each DOI column replaced by its canonical key (None when not a DOI), so that spellings
    (resolver prefix, case, trailing punctuation) of one DOI meet."""
    return frame.assign(**{column: frame[column].map(canonical_doi) for column in columns})


def judge_pairs(pairs: pd.DataFrame, texts: pd.DataFrame, stored: pd.DataFrame) -> pd.DataFrame:
    """The verdict on every labelled pair: the stored one when `coherence_judgements` holds the pair (DOIs
    compared canonical), else the offline judge's, run as `judgement.assets` runs it (`judge_edges`, default
    settings) on the stored texts with the pair alone in the evidence pool and as_of in the newer publication's
    year; a pair the judge emits no row for is UNVERIFIED. A pair without stored texts for both publications is NOT_JUDGED.

    Args:
        pairs: labelled cases with publication_doi (older) and newer_publication_doi.
        texts: `cases.load_pair_texts()`.
        stored: coherence_judgements rows as DOIs: older_doi, newer_doi, verdict, rationale.

    Returns:
        case_id, verdict, rationale, verdict_source ('coherence_judgements', 'offline judge' or 'no stored text').
    """
    by_doi = _canonical(texts, "doi").set_index("doi")
    found = _canonical(stored, "older_doi", "newer_doi")
    rows = []
    for case in _canonical(pairs, "publication_doi", "newer_publication_doi").itertuples(index=False):
        older, newer = case.publication_doi, case.newer_publication_doi
        in_kg = found[(found["older_doi"] == older) & (found["newer_doi"] == newer)]
        if len(in_kg):
            best = in_kg.iloc[0]
            rows.append((case.case_id, best["verdict"], best["rationale"], "coherence_judgements"))
        elif older in by_doi.index and newer in by_doi.index:
            rows.append((case.case_id, *_offline_verdict(by_doi.loc[[older, newer]]), "offline judge"))
        else:
            rows.append((case.case_id, UNJUDGED, "title and abstract not stored for both publications", "no stored text"))
    return pd.DataFrame(rows, columns=["case_id", "verdict", "rationale", "verdict_source"])


def _offline_verdict(pair: pd.DataFrame) -> tuple[str, str]:
    """(verdict, rationale) of the offline judge on one (older, newer) pair of text rows, indexed by DOI."""
    publications = pair.reset_index().rename(columns={"doi": "publication_id"}).assign(centrality=0.0)
    publications["year"] = publications["year"].astype("Int64")
    edges = publications[["publication_id"]].assign(dataset_id="labelled pair")
    newer_year = int(publications["year"].iloc[1])
    judged = judge_edges(edges, publications, as_of=date(newer_year, 12, 31))
    older_id, newer_id = publications["publication_id"]
    verdict = judged[(judged["older_publication_id"] == older_id) & (judged["newer_publication_id"] == newer_id)]
    if verdict.empty:
        return UNVERIFIED, "the judge emitted no pair (below the similarity gate, not newer, or a notice/erratum title)"
    return verdict["verdict"].iloc[0], verdict["rationale"].iloc[0]


def is_hit(expected: str, got: object) -> object:
    """Whether the label or verdict got meets the expectation: a stale label for known-superseded, a non-stale
    one for known-foundational, CONTRADICTED for known-contradicted; NA when nothing was got."""
    if got is None or pd.isna(got) or got == UNJUDGED:
        return pd.NA
    if expected == KNOWN_SUPERSEDED:
        return got in STALE_LABELS
    if expected == KNOWN_FOUNDATIONAL:
        return got not in STALE_LABELS
    return got == CONTRADICTED


def stored_scoring(stored: pd.DataFrame) -> dict[str, object]:
    """The centrality rule and lifecycle penalty the stored edges were scored with (edge_reliability.weights,
    read by `scoring.ScoringSettings`; the most frequent setting when areas were scored differently), as
    `edge_signals` keyword arguments, those the stored JSON holds; {} without edges. The stored thresholds and
    citation-trend rules are left out: the ablation evaluates the grid at their defaults."""
    # Counted on the two settings themselves: rows differing only in keys the ablation ignores are one setting.
    # Each distinct JSON text is read once, in order of first appearance (which breaks ties, as row order did).
    held: Counter[tuple] = Counter()
    for text, rows in stored["weights"].dropna().value_counts(sort=False).items():
        fields = ScoringSettings.stored_fields(text)
        held[tuple((key, fields[key]) for key in ("centrality_rule", "lifecycle_penalty") if key in fields)] += rows
    return dict(held.most_common(1)[0][0]) if held else {}


def evaluate(
    edges: pd.DataFrame,
    cases: pd.DataFrame,
    verdicts: pd.DataFrame,
    *,
    as_of: date,
    settings: Iterable[tuple[Weights, Decay]] | None = None,
    scoring: dict[str, object] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The four rates under every setting, and each case's outcome under the default.

    Args:
        edges: `edge_inputs` rows: every scored KG edge (all of them, and they alone, count for precision).
        cases: `cases.load_cases()`.
        verdicts: `judge_pairs` of the contradicted pairs.
        as_of: the date the KG edges were scored as of (edge_reliability.as_of).
        settings: (weights, decay) to run; default `settings_grid()` (198).
        scoring: other `edge_signals` keyword arguments of the KG edges, held fixed across the grid
            (`stored_scoring`: the centrality rule and lifecycle penalty they were scored with); the worked cases
            keep the defaults, as DOMAIN.md states them.

    Returns:
        (one row per setting: weights, decay, is_default, is_age_only, each rate of RATE_COLUMNS with
        numerator and denominator (the flagged share and SUPERSEDED precision over the KG edges alone: worked
        cases are not KG edges, they count in the staleness and foundational false-flag rates only),
        found / not-found counts; one row per case and matched edge: case_id, kind, expected,
        source, dataset_id, publication_id, found, got, hit, detail).
    """
    matched = match_edge_cases(cases, edges)
    found = matched[matched["dataset_id"].notna()]
    worked, worked_as_of = worked_case_inputs(cases)
    worked_cases = cases[cases["inputs"].notna()][["case_id", "kind", "expected", "source"]].merge(worked[["case_id", *EDGE_KEY]], on="case_id")
    scored_cases = pd.concat([found, worked_cases], ignore_index=True)
    superseded_keys = set(map(tuple, found.loc[found["expected"] == KNOWN_SUPERSEDED, EDGE_KEY].to_numpy()))
    pair_cases = cases[cases["expected"] == KNOWN_CONTRADICTED][["case_id", "kind", "expected", "source"]].merge(verdicts, on="case_id", how="left")
    judged = pair_cases[pair_cases["verdict"] != UNJUDGED]
    contradictions = contradiction_rate(judged["verdict"])
    counts = {
        "superseded_cases_found": _count(scored_cases, KNOWN_SUPERSEDED),
        "superseded_cases_not_found": _count(matched[matched["dataset_id"].isna()], KNOWN_SUPERSEDED),
        "foundational_cases_found": _count(scored_cases, KNOWN_FOUNDATIONAL),
        "foundational_cases_not_found": _count(matched[matched["dataset_id"].isna()], KNOWN_FOUNDATIONAL),
        "pairs_judged": len(judged),
        "pairs_not_judged": len(pair_cases) - len(judged),
    }
    # Every setting labels the same KG edges in the same order (the scoring keeps row order): which are
    # known-superseded is found once.
    known = np.array([key in superseded_keys for key in map(tuple, edges[EDGE_KEY].to_numpy())], dtype=bool)
    settings = list(settings or settings_grid())  # read twice below: a generator would be empty the second time
    # The signals depend on the decay alone (of what the grid varies): computed once per decay, not per setting.
    decays = dict.fromkeys(decay for _, decay in settings)
    kg_signals = _signals_by_decay(edges, decays, as_of=as_of, **(scoring or {}))
    worked_signals = _signals_by_decay(worked, decays, as_of=worked_as_of)
    rows, default_labels = [], None
    for weights, decay in settings:
        # Reasons only for the default: the case table shows them, and building them is most of a scoring's cost.
        explain = (weights, decay) == DEFAULT_SETTING
        kg_labels = _labels(kg_signals[decay], weights=weights, explain=explain)
        labels = pd.concat([kg_labels, _labels(worked_signals[decay], weights=weights, explain=explain)], ignore_index=True)
        with_labels = scored_cases.merge(labels, on=EDGE_KEY, how="left")
        rates = {
            "staleness": flagged_rate(with_labels.loc[with_labels["expected"] == KNOWN_SUPERSEDED, "label"]),
            "foundational_false_flag": flagged_rate(with_labels.loc[with_labels["expected"] == KNOWN_FOUNDATIONAL, "label"]),
            "contradiction": contradictions,
            "superseded_precision": superseded_precision(kg_labels["label"], known),
            "flagged_share": flagged_rate(kg_labels["label"]),
        }
        is_default = explain
        if is_default:
            default_labels = with_labels
        rows.append(
            {
                "weight_centrality": weights.centrality, "weight_recency": weights.recency, "weight_coherence": weights.coherence,
                "decay": decay, "is_default": is_default, "is_age_only": (weights, decay) == AGE_ONLY_SETTING,
                **_rate_columns(rates), **counts,
            }
        )
    return pd.DataFrame(rows), _case_outcomes(matched, default_labels, pair_cases)


def _count(frame: pd.DataFrame, expected: str) -> int:
    """Distinct cases with this expectation in `frame` (a retracted work may match several edges)."""
    return int(frame.loc[frame["expected"] == expected, "case_id"].nunique())


def _signals_by_decay(inputs: pd.DataFrame, decays: Iterable[Decay], **settings: object) -> dict[Decay, EdgeSignals | None]:
    """`edge_signals` of `inputs` under each decay; None without edges (an empty frame may lack the columns)."""
    return {decay: None if inputs.empty else edge_signals(inputs, decay=decay, **settings) for decay in decays}


def _labels(signals: EdgeSignals | None, *, weights: Weights, explain: bool) -> pd.DataFrame:
    """EDGE_KEY and label of every edge of `signals` under these weights, and its reason when `explain`."""
    columns = [*EDGE_KEY, "label", *(["reason"] if explain else [])]
    if signals is None:
        return pd.DataFrame(columns=columns)
    return label_edges(signals, weights=weights, explain=explain)[columns]


def _rate_columns(rates: dict[str, Rate]) -> dict[str, object]:
    columns: dict[str, object] = {}
    for key, (rate, numerator, denominator) in RATE_COLUMNS.items():
        columns.update({rate: rates[key].value, numerator: rates[key].numerator, denominator: rates[key].denominator})
    return columns


def _case_outcomes(matched: pd.DataFrame, default_labels: pd.DataFrame | None, pairs: pd.DataFrame) -> pd.DataFrame:
    """One row per case and matched edge under the default setting, plus the not-found cases and every pair."""
    edge_rows = pd.concat(
        [default_labels if default_labels is not None else matched.iloc[:0], matched[matched["dataset_id"].isna()]], ignore_index=True
    )
    edge_rows = edge_rows.assign(found=edge_rows["dataset_id"].notna(), got=edge_rows.get("label"), detail=edge_rows.get("reason"))
    pair_rows = pairs.assign(
        dataset_id=pd.NA, publication_id=pd.NA, found=pairs["verdict"] != UNJUDGED, got=pairs["verdict"],
        detail=pairs["verdict_source"] + ": " + pairs["rationale"].fillna(""),
    )
    outcomes = pd.concat([edge_rows, pair_rows], ignore_index=True)
    outcomes["hit"] = [is_hit(expected, got) for expected, got in zip(outcomes["expected"], outcomes["got"])]
    columns = ["case_id", "kind", "expected", "source", *EDGE_KEY, "found", "got", "hit", "detail"]
    return outcomes[columns].sort_values(["case_id", *EDGE_KEY], na_position="last").reset_index(drop=True)
