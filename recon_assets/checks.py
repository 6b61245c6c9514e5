"""Asset checks: conservation of KG lines, publication year and DOI coverage (blocking, Great Expectations 1.x
suites), one OpenAlex cache row per DOI (blocking), the OpenAlex match rate and share of retracted works
(non-blocking, per research area in metadata) and the validity of every score and label string in
edge_reliability (non-blocking)."""

from collections.abc import Callable

import dagster as dg
import pandas as pd
from dagster_duckdb import DuckDBResource
from pydantic import Field

from recon_assets.enrichment.assets import openalex_works
from recon_assets.judgement.offline_judge import VERDICTS
from recon_assets.kg.assets import kg_snapshot, publications, research_areas_from_kg
from recon_assets.kg.ingest import current_snapshot_id
from recon_assets.shared.quality import (
    doi_is_well_formed,
    share_by_group,
    validate_edge_reliability,
    validate_publication_dois,
    validate_publication_years,
)
from recon_assets.reliability.assets import edge_reliability
from recon_assets.reliability.labels import LABELS
from recon_assets.verdicts.checks import dataset_verdicts_one_valid_per_dataset


class YearCoverageConfig(dg.Config):
    min_share: float = Field(default=0.8, ge=0.0, le=1.0, description="Least share of publications with a parsed year.")


class DoiCoverageConfig(dg.Config):
    min_present_share: float = Field(default=0.8, ge=0.0, le=1.0, description="Least share of publications with a DOI.")
    min_well_formed_share: float = Field(
        default=0.95, ge=0.0, le=1.0, description="Least share of DOIs (as found in the KG) that normalise to a canonical DOI."
    )


class OpenAlexMatchConfig(dg.Config):
    min_match_rate: float = Field(default=0.8, ge=0.0, le=1.0, description="Least share of requested DOIs found in OpenAlex.")


class RetractedShareConfig(dg.Config):
    max_retracted_share: float = Field(
        default=0.1, ge=0.0, le=1.0,
        description="Most share of found works flagged retracted (about 0.04% of the literature is; far more means a misread flag).",
    )


@dg.asset_check(asset=kg_snapshot, blocking=True)
def kg_lines_conserved(duckdb: DuckDBResource) -> dg.AssetCheckResult:
    """Every line of the export is accounted for: lines read = nodes + relationships accepted + rejects,
    and the stored tables hold exactly those rows."""
    with duckdb.get_connection() as con:
        snapshot_id = current_snapshot_id(con)
        lines, nodes, relationships, rejected = con.execute(
            "SELECT lines_read, nodes_accepted, relationships_accepted, rejected FROM kg_snapshots WHERE snapshot_id = ?", [snapshot_id]
        ).fetchone()
        stored = con.execute(
            "SELECT (SELECT count(*) FROM kg_nodes), (SELECT count(*) FROM kg_relationships), "
            "(SELECT count(*) FROM kg_rejects WHERE snapshot_id = ?)", [snapshot_id]
        ).fetchone()
    passed = lines == nodes + relationships + rejected and stored == (nodes, relationships, rejected)
    return dg.AssetCheckResult(
        passed=passed,
        metadata={
            "snapshot_id": snapshot_id, "lines_read": lines, "nodes_accepted": nodes,
            "relationships_accepted": relationships, "rejected": rejected,
            "stored_nodes_relationships_rejects": list(stored),
        },
    )


def _publications_by_area(con) -> pd.DataFrame:
    """Publications with their research areas, derived as the publication_research_areas asset derives them
    (it is downstream of publications, so cannot be read by its checks)."""
    table = con.execute("SELECT publication_id, year, doi, doi_raw, node_ids FROM publications").df()
    areas = research_areas_from_kg(con, table)
    return table.merge(areas[["publication_id", "research_area"]], on="publication_id")


def _check_result(outcome, per_area: dict) -> dg.AssetCheckResult:
    """The check result of a GX suite; its description names each unmet expectation and what was observed."""
    unmet = [
        f"{e['expectation']}({e['column'] or 'table'}): observed {_observed(e)}, required {e['mostly'] if e['mostly'] is not None else 'at least 1 row'}"
        for e in outcome.expectations
        if not e["success"]
    ]
    return dg.AssetCheckResult(
        passed=outcome.success,
        description="; ".join(unmet) or "every expectation met",
        metadata={"great_expectations": outcome.as_metadata(), "per_research_area": per_area},
    )


def _observed(expectation: dict) -> str:
    share = expectation["observed_share"]
    return f"share {share:.3f}" if share is not None else f"{expectation['observed_value']} rows"


@dg.asset_check(asset=publications, blocking=True)
def publication_year_coverage(config: YearCoverageConfig, duckdb: DuckDBResource) -> dg.AssetCheckResult:
    """Enough publications have a parsed year (Great Expectations: expect year not null, mostly=min_share)."""
    with duckdb.get_connection() as con:
        by_area = _publications_by_area(con)
    outcome = validate_publication_years(by_area.drop_duplicates("publication_id"), min_share=config.min_share)
    return _check_result(outcome, share_by_group(by_area, "year", "research_area"))


@dg.asset_check(asset=publications, blocking=True)
def publication_doi_coverage(config: DoiCoverageConfig, duckdb: DuckDBResource) -> dg.AssetCheckResult:
    """Enough publications have a DOI, and enough of the DOIs found in the KG normalise to a canonical DOI
    (a malformed raw DOI is checked as found, so it fails the well-formed expectation)."""
    with duckdb.get_connection() as con:
        by_area = _publications_by_area(con)
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
    return _check_result(outcome, per_area)


@dg.asset_check(asset=edge_reliability, blocking=False)
def edge_reliability_values_valid(duckdb: DuckDBResource) -> dg.AssetCheckResult:
    """Every centrality, recency, coherence and reliability is in [0, 1]; every label and coherence status is
    one of the allowed strings (exact case)."""
    with duckdb.get_connection() as con:
        table = con.execute(
            "SELECT research_area, centrality, recency, coherence, reliability, label, coherence_status FROM edge_reliability"
        ).df()
    outcome = validate_edge_reliability(table, labels=LABELS, coherence_statuses=VERDICTS)
    per_area = share_by_group(table, "reliability", "research_area", lambda values: values.between(0.0, 1.0))
    return _check_result(outcome, per_area)


@dg.asset_check(asset=openalex_works, blocking=True)
def openalex_cache_one_row_per_doi(duckdb: DuckDBResource) -> dg.AssetCheckResult:
    """The OpenAlex cache holds at most one row per canonical DOI (a second row would make the refresh and
    the join to publications ambiguous)."""
    with duckdb.get_connection() as con:
        duplicated = con.execute(
            "SELECT doi, count(*) AS n FROM openalex_cache GROUP BY doi HAVING count(*) > 1 ORDER BY n DESC, doi"
        ).fetchall()
        rows = con.execute("SELECT count(*) FROM openalex_cache").fetchone()[0]
    return dg.AssetCheckResult(
        passed=not duplicated,
        metadata={"cache_rows": rows, "duplicated_dois": len(duplicated), "examples": [doi for doi, _ in duplicated[:10]]},
    )


@dg.asset_check(asset=openalex_works, blocking=False)
def openalex_match_rate(config: OpenAlexMatchConfig, duckdb: DuckDBResource) -> dg.AssetCheckResult:
    """Enough of the DOIs OpenAlex answered for were found (found / (found + not_found + mismatch), all research
    areas): a low rate means DOIs that do not match, whatever is offline. A mismatch (a lookup answered with a work
    carrying another DOI) is an answer that did not match. DOIs without an answer (error: offline, not fetched, a
    failed request, an invalid record) are counted beside it, not against it; per research area: found, not_found,
    mismatch, error, answered and the match rate."""
    return _per_area_share(
        duckdb,
        "SELECT research_area, count(*) FILTER (status = 'found'), count(*) FILTER (status = 'not_found'), "
        "count(*) FILTER (status = 'mismatch'), count(*) FILTER (status = 'error'), count(*) FILTER (status <> 'error') "
        "FROM openalex_works GROUP BY 1 ORDER BY 1",
        counts=("found", "not_found", "mismatch", "error", "answered"), share="match_rate", empty=1.0,
        passes=lambda rate: rate >= config.min_match_rate,
    )


@dg.asset_check(asset=openalex_works, blocking=False)
def openalex_retracted_share(config: RetractedShareConfig, duckdb: DuckDBResource) -> dg.AssetCheckResult:
    """The share of found works that are retracted (OpenAlex is_retracted, retraction notices left out) is
    plausible; per research area: retracted works, found works and their share."""
    return _per_area_share(
        duckdb,
        "SELECT research_area, count(*) FILTER (is_retracted AND NOT is_retraction_notice), count(*) "
        "FROM openalex_works WHERE status = 'found' GROUP BY 1 ORDER BY 1",
        counts=("retracted", "found"), share="retracted_share", empty=0.0,
        passes=lambda share: share <= config.max_retracted_share,
    )


def _per_area_share(
    duckdb: DuckDBResource, sql: str, *, counts: tuple[str, ...], share: str, empty: float, passes: Callable[[float], bool]
) -> dg.AssetCheckResult:
    """A check on a share over all research areas: `sql` gives one row per research area, the area then the
    `counts` (named in order; the share is the first over the last). Metadata: the share (`empty` when the
    last count is 0), each count summed, and per research area the counts and the share."""
    with duckdb.get_connection() as con:
        per_area = con.execute(sql).fetchall()
    totals = {name: sum(row[index + 1] for row in per_area) for index, name in enumerate(counts)}
    overall = totals[counts[0]] / totals[counts[-1]] if totals[counts[-1]] else empty
    return dg.AssetCheckResult(
        passed=passes(overall),
        description=f"{share} {overall:.3f} ({', '.join(f'{name} {value:,}' for name, value in totals.items())})",
        metadata={
            share: overall, **totals,
            "per_research_area": {
                area: {**dict(zip(counts, values)), share: values[0] / values[-1] if values[-1] else empty} for area, *values in per_area
            },
        },
    )


asset_checks = [
    kg_lines_conserved,
    publication_year_coverage,
    publication_doi_coverage,
    openalex_cache_one_row_per_doi,
    openalex_match_rate,
    openalex_retracted_share,
    edge_reliability_values_valid,
    dataset_verdicts_one_valid_per_dataset,
]
