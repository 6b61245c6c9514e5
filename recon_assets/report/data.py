"""What the reliability report shows, read from the final tables (`sql/report_*.sql`, bound parameters). No Dagster
import: a test or a notebook can gather a report from any DuckDB file the pipeline wrote."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import duckdb
import pandas as pd

from recon_assets.reliability.labels import SUPERSEDED
from recon_assets.storage.tables import Tables
from recon_assets.verdicts.critic import CONTRADICTED, STALE, VERDICTS

# Dataset verdicts the report lists with their reasons (DOMAIN.md "Verdicts over an evidence set").
FLAGGED_VERDICTS = (STALE, CONTRADICTED)
# Rows the report lists at most: the flagged (research area, dataset) verdicts with the most evidence, and the
# SUPERSEDED edges of the most central publications. The real KG has ~14,000 flagged verdicts (docs/OPERATIONS.md "Benchmarks at full scale"):
# a page listing them all is read by nobody; the totals are always shown beside the rows listed.
MAX_VERDICTS_LISTED = 50
MAX_EDGES_LISTED = 20


@dataclass(frozen=True)
class ReportData:
    """Everything the report shows, as read from the tables.

    Attributes:
        as_of: the run's as_of.
        run_id: the Dagster run that wrote the report ('' outside Dagster).
        label_counts: research_area, label, edges (one row per area and label with edges).
        reliabilities: reliability in [0, 1] and label of every scored edge.
        flagged_verdicts: the STALE and CONTRADICTED verdicts listed (research_area, dataset_short_name,
            dataset_version, dataset_doi, verdict, n_edges, n_reliable_edges, reliable_bar (the verdict rules'
            `reliable`), staleness_reason, contradiction_reason, reason), at most MAX_VERDICTS_LISTED.
        verdict_counts: {verdict: (research area, dataset) verdicts}, every verdict string (0 included).
        central_superseded: the SUPERSEDED edges of the most central publications (research_area,
            dataset_short_name, dataset_doi, publication_doi, title, publication_year, centrality, reliability,
            dominant_signal, reason), at most MAX_EDGES_LISTED.
        superseded_total: how many SUPERSEDED edges there are in all.
        evaluation: the default setting's measures over all labelled I and F cases (condition, measure, value,
            numerator, denominator, ci_low, ci_high; rates in [0, 1], NaN when nothing was measured).
        baselines: the default beside each baseline rule (reliability_evaluation_baselines rows, all cases, case sets
            IF and I).
        dispute_evaluation: the measures on the labelled dispute pairs (measure, what, value, numerator,
            denominator, ci_low, ci_high, target, met).
        lineage: snapshot_id, source, sha256, format, as_of, scoring_settings (JSON), edges: one row per
            combination found in edge_reliability.
        judges: judge, prompt_version, pairs, stance_pairs (those not UNVERIFIED) (coherence_judgements).
        verdict_rules: verdict_rules (JSON), verdicts.
    """

    as_of: date
    run_id: str
    label_counts: pd.DataFrame
    reliabilities: pd.DataFrame
    flagged_verdicts: pd.DataFrame
    verdict_counts: dict[str, int]
    central_superseded: pd.DataFrame
    superseded_total: int
    evaluation: pd.DataFrame
    baselines: pd.DataFrame
    dispute_evaluation: pd.DataFrame
    lineage: pd.DataFrame
    judges: pd.DataFrame
    verdict_rules: pd.DataFrame

    @property
    def flagged_verdicts_total(self) -> int:
        """STALE and CONTRADICTED verdicts in all, listed or not."""
        return sum(self.verdict_counts[verdict] for verdict in FLAGGED_VERDICTS)


def gather_report(con: duckdb.DuckDBPyConnection | Tables, *, as_of: date, run_id: str = "") -> ReportData:
    """Read the report's figures from the pipeline's final tables.

    Raises:
        duckdb.CatalogException: a table the report reads (edge_reliability, dataset_verdicts, reliability_evaluation,
            reliability_evaluation_baselines, dispute_evaluation, coherence_judgements, publications, kg_snapshots) does not exist yet.
    """
    con = Tables.of(con)
    verdicts = con.query("report_verdict_counts").set_index("verdict")["verdicts"]
    superseded = con.query("report_central_superseded", [SUPERSEDED, MAX_EDGES_LISTED])
    return ReportData(
        as_of=as_of,
        run_id=run_id,
        label_counts=con.query("report_label_distribution"),
        reliabilities=con.query("report_reliabilities"),
        flagged_verdicts=con.query("report_flagged_verdicts", [list(FLAGGED_VERDICTS), MAX_VERDICTS_LISTED]),
        verdict_counts={verdict: int(verdicts.get(verdict, 0)) for verdict in VERDICTS},
        central_superseded=superseded.drop(columns="total_superseded"),
        superseded_total=int(superseded["total_superseded"].iloc[0]) if len(superseded) else 0,
        evaluation=con.query("report_evaluation"),
        baselines=con.query("report_evaluation_baselines"),
        dispute_evaluation=con.query("report_dispute_evaluation"),
        lineage=con.query("report_lineage"),
        judges=con.query("report_judges"),
        verdict_rules=con.query("report_verdict_rules"),
    )
