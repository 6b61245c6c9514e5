"""Judge every dataset of some research areas: the tables' rows in, dataset_verdicts and history rows out."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime

import numpy as np
import pandas as pd

from recon_assets.reliability.scoring import score_edges
from recon_assets.reliability.settings import ScoringSettings
from recon_assets.reliability.signals import superseded_before
from recon_assets.verdicts.critic import (
    ContradictingPair,
    Edge,
    ExpansionRound,
    Lifecycle,
    RecordedDispute,
    VerdictRules,
    judge,
    needs_more_evidence,
)
from recon_assets.verdicts.expansion import CitingWork, expansion_edges

KEY = ["research_area", "dataset_id"]
Key = tuple[str, str]
# Columns of the dataset copied onto the score_edges rows of its expanded publications.
DATASET_COLUMNS = [
    "research_area", "dataset_id", "dataset_doi", "dataset_short_name", "dataset_superseded", "dataset_version",
    "successor_version", "superseded_since", "dataset_collection_progress", "succession_basis",
]
VERDICT_COLUMNS = [
    *KEY, "dataset_doi", "dataset_short_name", "dataset_version", "verdict", "stale", "staleness_reason", "contradicted",
    "contradiction_reason", "n_edges", "n_reliable_edges", "expansion_rounds", "expanded_publications", "reason",
]


@dataclass(frozen=True)
class DatasetEvidence:
    """What each (research_area, dataset_id) is judged on, derived once from recon_assets/verdicts/sql/verdict_evidence.sql rows.

    evidence: its scored edges (`evidence_by_dataset`), keys sorted.
    datasets: its dataset's columns ({column: value} of its first edge row: dataset_doi, dataset_short_name,
        the lifecycle columns, scoring_settings).
    dataset_dois: its dataset DOI, None when the dataset has none.
    known_dois: the publication DOIs already among its edges (keys without any are absent).
    """

    evidence: dict[Key, list[Edge]]
    datasets: dict[Key, dict[str, object]]
    dataset_dois: dict[Key, str | None]
    known_dois: dict[Key, set[str]]


def dataset_evidence(edges: pd.DataFrame) -> DatasetEvidence:
    """The `DatasetEvidence` of recon_assets/verdicts/sql/verdict_evidence.sql rows, for `expansion.expand`, `expanded_edge_scorer`
    and `judge_datasets`."""
    datasets = edges.drop_duplicates(KEY).set_index(KEY).to_dict("index")
    return DatasetEvidence(
        evidence=evidence_by_dataset(edges),
        datasets=datasets,
        dataset_dois={key: doi if isinstance(doi := dataset["dataset_doi"], str) else None for key, dataset in datasets.items()},
        known_dois=edges.dropna(subset=["publication_doi"]).groupby(KEY)["publication_doi"].agg(set).to_dict(),
    )


def evidence_by_dataset(edges: pd.DataFrame) -> dict[Key, list[Edge]]:
    """{(research_area, dataset_id): its edges}, keys sorted, from recon_assets/verdicts/sql/verdict_evidence.sql rows (citation,
    reliability, label), in one pass over the rows."""
    evidence = defaultdict(list)
    for area, dataset, citation, reliability, label in zip(
        edges["research_area"], edges["dataset_id"], edges["citation"], edges["reliability"], edges["label"]
    ):
        evidence[(area, dataset)].append(Edge(citation, float(reliability), label))
    return dict(sorted(evidence.items()))


def disputes_by_dataset(disputes: pd.DataFrame) -> dict[Key, list[RecordedDispute]]:
    """{(research_area, dataset_id): the recorded comments on its publications} from recon_assets/verdicts/sql/dataset_disputes.sql rows."""
    found = defaultdict(list)
    for row in disputes.itertuples(index=False):
        found[(row.research_area, row.dataset_id)].append(RecordedDispute(row.commented, row.comment, bool(row.answered)))
    return dict(found)


def pairs_by_dataset(pairs: pd.DataFrame) -> dict[Key, list[ContradictingPair]]:
    """{(research_area, dataset_id): its contradicting pairs} from recon_assets/verdicts/sql/contradicting_pairs.sql rows."""
    found = defaultdict(list)
    for row in pairs.itertuples(index=False):
        found[(row.research_area, row.dataset_id)].append(
            ContradictingPair(row.older_citation, _year(row.older_year), row.newer_citation, _year(row.newer_year))
        )
    return dict(found)


def lifecycle(dataset: Mapping[str, object], as_of: date) -> Lifecycle:
    """The dataset's lifecycle as of `as_of`: a successor released after as_of does not supersede it yet
    (`signals.superseded_before`, the rule of the lifecycle penalty)."""
    since = dataset["superseded_since"] if isinstance(dataset["superseded_since"], str) else None
    return Lifecycle(
        superseded=bool(dataset["dataset_superseded"]) and superseded_before(since, as_of),
        version=dataset["dataset_version"] if isinstance(dataset["dataset_version"], str) else None,
        successor_version=dataset["successor_version"] if isinstance(dataset["successor_version"], str) else None,
        since=since,
    )


def expanded_edge_scorer(datasets: Mapping[Key, Mapping[str, object]], *, as_of: date):
    """A `score` function for `expansion.expand`: the new works of a (research_area, dataset_id) scored by
    `score_edges` with the settings its edges were scored with (edge_reliability.scoring_settings), so they
    count toward the reliability bar exactly as the KG's edges do.

    Args:
        datasets: `DatasetEvidence.datasets`.
    """

    def score(key: Key, works: Sequence[CitingWork]) -> list[Edge]:
        dataset = datasets[key]
        columns = {**dict(zip(KEY, key)), **{column: dataset[column] for column in DATASET_COLUMNS[2:]}}
        frame = expansion_edges(works, columns)
        # Only reliability and label are kept: no reasons (explain=False), the costliest part of scoring.
        scored = score_edges(frame, as_of=as_of, settings=ScoringSettings.model_validate_json(dataset["scoring_settings"]), explain=False)
        return [Edge(row.citation, float(row.reliability), row.label) for row in scored.itertuples(index=False)]

    return score


def expansion_predicate(evidence: DatasetEvidence, pairs: pd.DataFrame, disputes: pd.DataFrame, *, as_of: date, rules: VerdictRules):
    """An `insufficient` function for `expansion.expand`: `critic.needs_more_evidence` of a key's evidence."""
    contradictions, comments = pairs_by_dataset(pairs), disputes_by_dataset(disputes)

    def insufficient(key: Key, edges: Sequence[Edge]) -> bool:
        return needs_more_evidence(edges, lifecycle(evidence.datasets[key], as_of), contradictions.get(key, []), comments.get(key, []), rules)

    return insufficient


def judge_datasets(
    evidence: DatasetEvidence,
    pairs: pd.DataFrame,
    disputes: pd.DataFrame,
    rounds: Mapping[Key, Sequence[ExpansionRound]],
    *,
    as_of: date,
    rules: VerdictRules,
) -> pd.DataFrame:
    """One verdict row per (research_area, dataset_id) of `evidence`.

    Args:
        evidence: `dataset_evidence` of the recon_assets/verdicts/sql/verdict_evidence.sql rows.
        pairs: recon_assets/verdicts/sql/contradicting_pairs.sql rows.
        disputes: recon_assets/verdicts/sql/dataset_disputes.sql rows (recorded comments on the publications of each dataset's edges).
        rounds: the expansion rounds tried per key (`expansion.expand`); keys without rounds had enough edges.
            The expansion_rounds column counts those that ran (`ExpansionRound.ran`).

    Returns:
        DataFrame with VERDICT_COLUMNS.
    """
    contradictions, comments = pairs_by_dataset(pairs), disputes_by_dataset(disputes)
    rows = []
    for key, edges in evidence.evidence.items():
        dataset = evidence.datasets[key]
        result = judge(edges, lifecycle(dataset, as_of), contradictions.get(key, []), rules, rounds.get(key, ()), comments.get(key, []))
        rows.append({
            **dict(zip(KEY, key)),
            "dataset_doi": dataset["dataset_doi"], "dataset_short_name": dataset["dataset_short_name"],
            "dataset_version": dataset["dataset_version"],
            "verdict": result.verdict,
            "stale": result.staleness.flagged,
            "staleness_reason": result.staleness.why,
            "contradicted": result.contradiction.flagged,
            "contradiction_reason": result.contradiction.why,
            "n_edges": result.n_edges, "n_reliable_edges": result.n_reliable,
            "expansion_rounds": result.expansion_rounds, "expanded_publications": result.expanded_publications,
            "reason": result.reason,
        })
    return pd.DataFrame(rows, columns=VERDICT_COLUMNS)


def with_history(verdicts: pd.DataFrame, latest: pd.DataFrame, *, judged_at: datetime) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The verdict rows with previous_verdict and verdict_changed_at, and the history rows to append.

    A verdict is new (no history) or changed (differs from the latest history row): it is recorded in
    history with changed_at = judged_at and the verdict it replaces. Otherwise nothing is appended and the
    row keeps the latest change: previous_verdict is the verdict before it, verdict_changed_at its time.

    Args:
        verdicts: rows with research_area, dataset_id, verdict, as_of and snapshot_id.
        latest: recon_assets/verdicts/sql/latest_dataset_verdicts.sql rows (verdict, previous_verdict, changed_at per key).

    Returns:
        (verdicts plus previous_verdict, verdict_changed_at and judged_at; dataset_verdict_history rows).
    """
    merged = verdicts.merge(latest, on=KEY, how="left", suffixes=("", "_latest"))
    changed = (merged["verdict_latest"].isna() | (merged["verdict"] != merged["verdict_latest"])).to_numpy()
    merged["previous_verdict"] = np.where(changed, merged["verdict_latest"], merged["previous_verdict"])
    merged["previous_verdict"] = merged["previous_verdict"].where(merged["previous_verdict"].notna(), None)
    merged["verdict_changed_at"] = pd.Series(
        np.where(changed, pd.Timestamp(judged_at), merged["changed_at"]), index=merged.index
    ).astype("datetime64[us, UTC]")
    merged["judged_at"] = judged_at
    history = merged.loc[changed, [*KEY, "verdict", "previous_verdict", "verdict_changed_at", "as_of", "snapshot_id"]]
    return merged.drop(columns=["verdict_latest", "changed_at"]), history.rename(columns={"verdict_changed_at": "changed_at"})


def _year(value: object) -> int | None:
    return None if pd.isna(value) else int(value)
