"""Asset check of edge_reliability: every score in [0, 1], every label and coherence status an allowed string
(non-blocking, a Great Expectations 1.x suite, per research area in metadata; the DuckDB file read as `database`)."""

import dagster as dg

from recon_assets.judgement.verdict_scale import VERDICTS
from recon_assets.reliability.assets import edge_reliability
from recon_assets.reliability.labels import LABELS
from recon_assets.shared.metadata import database_file, suite_check_result
from recon_assets.shared.quality import share_by_group, validate_edge_reliability
from recon_assets.storage.duckdb_store import TableStore


@dg.asset_check(asset=edge_reliability, blocking=False)
def edge_reliability_values_valid(store: TableStore) -> dg.AssetCheckResult:
    """Every centrality, recency, coherence and reliability is in [0, 1]; every label and coherence status is
    one of the allowed strings (exact case)."""
    with store.connect() as con:
        table = con.query("edge_reliability_check_values")
        database = database_file(con)
    outcome = validate_edge_reliability(table, labels=LABELS, coherence_statuses=VERDICTS)
    per_area = share_by_group(table, "reliability", "research_area", lambda values: values.between(0.0, 1.0))
    return suite_check_result(outcome, per_area, database)
