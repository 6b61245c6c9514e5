"""Asset checks of the kg group: conservation of the KG's lines (blocking), publication year and DOI coverage
(blocking, Great Expectations 1.x suites, per research area in metadata). Every result names the DuckDB file it read
(`database`), so a check run against another database (`recon run --db`) is told apart on the asset's page."""

import dagster as dg
import pandas as pd
from pydantic import Field

from recon_assets.kg.assets import kg_snapshot, publications, research_areas_from_kg
from recon_assets.kg.ingest import current_snapshot_id
from recon_assets.shared.metadata import database_file, suite_check_result
from recon_assets.shared.quality import doi_is_well_formed, share_by_group, validate_publication_dois, validate_publication_years
from recon_assets.storage.duckdb_store import TableStore
from recon_assets.storage.tables import Tables


class YearCoverageConfig(dg.Config):
    min_share: float = Field(default=0.8, ge=0.0, le=1.0, description="Least share of publications with a parsed year.")


class DoiCoverageConfig(dg.Config):
    min_present_share: float = Field(default=0.8, ge=0.0, le=1.0, description="Least share of publications with a DOI.")
    min_well_formed_share: float = Field(
        default=0.95, ge=0.0, le=1.0, description="Least share of DOIs (as found in the KG) that normalise to a canonical DOI."
    )


@dg.asset_check(asset=kg_snapshot, blocking=True)
def kg_lines_conserved(store: TableStore) -> dg.AssetCheckResult:
    """Every line of the export is accounted for: lines read = nodes + relationships accepted + rejects,
    and the stored tables hold exactly those rows."""
    with store.connect() as con:
        snapshot_id = current_snapshot_id(con)
        lines, nodes, relationships, rejected = con.query_row("kg_snapshot_line_counts", [snapshot_id])
        stored = con.query_row("kg_stored_row_counts", [snapshot_id])
        database = database_file(con)
    passed = lines == nodes + relationships + rejected and stored == (nodes, relationships, rejected)
    return dg.AssetCheckResult(
        passed=passed,
        metadata={
            "database": database, "snapshot_id": snapshot_id, "lines_read": lines, "nodes_accepted": nodes,
            "relationships_accepted": relationships, "rejected": rejected,
            "stored_nodes_relationships_rejects": list(stored),
        },
    )


def _publications_by_area(con: Tables) -> pd.DataFrame:
    """Publications with their research areas, derived as the publication_research_areas asset derives them
    (it is downstream of publications, so cannot be read by its checks)."""
    table = con.query("publications_check_rows")
    areas = research_areas_from_kg(con, table)
    return table.merge(areas[["publication_id", "research_area"]], on="publication_id")


@dg.asset_check(asset=publications, blocking=True)
def publication_year_coverage(config: YearCoverageConfig, store: TableStore) -> dg.AssetCheckResult:
    """Enough publications have a parsed year (Great Expectations: expect year not null, mostly=min_share)."""
    with store.connect() as con:
        return _year_coverage(config, _publications_by_area(con), database_file(con))


@dg.asset_check(asset=publications, blocking=True)
def publication_doi_coverage(config: DoiCoverageConfig, store: TableStore) -> dg.AssetCheckResult:
    """Enough publications have a DOI, and enough of the DOIs found in the KG normalise to a canonical DOI
    (a malformed raw DOI is checked as found, so it fails the well-formed expectation)."""
    with store.connect() as con:
        return _doi_coverage(config, _publications_by_area(con), database_file(con))


def _year_coverage(config: YearCoverageConfig, by_area: pd.DataFrame, database: str) -> dg.AssetCheckResult:
    """The year suite over publications with their research areas (`_publications_by_area`), read from `database`."""
    outcome = validate_publication_years(by_area.drop_duplicates("publication_id"), min_share=config.min_share)
    return suite_check_result(outcome, share_by_group(by_area, "year", "research_area"), database)


def _doi_coverage(config: DoiCoverageConfig, by_area: pd.DataFrame, database: str) -> dg.AssetCheckResult:
    """The DOI suite over publications with their research areas (`_publications_by_area`), read from `database`."""
    by_area["doi_as_found"] = by_area["doi"].fillna(by_area["doi_raw"])
    outcome = validate_publication_dois(
        by_area.drop_duplicates("publication_id").assign(doi=lambda frame: frame["doi_as_found"]),
        min_present_share=config.min_present_share, min_well_formed_share=config.min_well_formed_share,
    )
    per_area = {
        area: {"rows": present["rows"], "present_share": present["share"], "well_formed_share": formed["share"]}
        for (area, present), formed in zip(
            share_by_group(by_area, "doi_as_found", "research_area").items(),
            share_by_group(by_area, "doi_as_found", "research_area", doi_is_well_formed).values(),
        )
    }
    return suite_check_result(outcome, per_area, database)
