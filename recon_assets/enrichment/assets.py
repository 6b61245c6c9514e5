"""Assets of the `enrichment` group: each publication's OpenAlex work and its Crossref retraction notices, one
partition per research area."""

from datetime import datetime, timedelta, timezone

import dagster as dg
from dagster_duckdb import DuckDBResource
from pydantic import Field

from recon_assets.credentials import redact
from recon_assets.enrichment import crossref as crossref_records
from recon_assets.enrichment.openalex_client import ERROR, STATUSES, cache_rows, stale_dois
from recon_assets.enrichment.openalex_records import openalex_rows
from recon_assets.kg.assets import OWNERS, publication_research_areas, publications
from recon_assets.metadata import table_metadata
from recon_assets.partitions import research_area_partitions
from recon_assets.resources import CrossrefResource, OpenAlexResource
from recon_assets.sql_files import load_sql
from recon_assets.storage import replace_partitions, upsert

ENRICHMENT = dict(
    deps=[publications, publication_research_areas],
    partitions_def=research_area_partitions,
    backfill_policy=dg.BackfillPolicy.single_run(),
    group_name="enrichment",
    owners=OWNERS,
    pool="duckdb",
)


class OpenAlexConfig(dg.Config):
    ttl_days: float = Field(default=30, ge=0, description="A cached DOI is fetched again once older than this many days.")


@dg.asset(kinds={"duckdb", "openalex"}, **ENRICHMENT)
def openalex_works(
    context: dg.AssetExecutionContext, config: OpenAlexConfig, duckdb: DuckDBResource, openalex: OpenAlexResource
) -> dg.MaterializeResult:
    """The OpenAlex work of every publication DOI in the research area: status found / not_found / error,
    citations (cited_by_count, counts_by_year, the field-and-year citation percentile), is_retracted,
    publication_year, type, referenced_works, primary_topic and the abstract. Only DOIs missing from the openalex_cache table or
    older than the TTL are requested; when OpenAlex's daily budget runs out, what was fetched is kept and the
    step fails as retryable."""
    areas = list(context.partition_keys)
    now = datetime.now(timezone.utc)
    with duckdb.get_connection() as con:
        con.execute(load_sql("openalex_cache"))
        con.execute(load_sql("openalex_works"))
        requested = con.execute(load_sql("publication_dois_in_research_areas"), [areas]).df()
        wanted = requested[["doi"]].drop_duplicates()
        fetched_at = dict(con.execute("SELECT doi, fetched_at FROM openalex_cache JOIN wanted USING (doi)").fetchall())
        due = stale_dois(wanted["doi"], fetched_at, now=now, ttl=timedelta(days=config.ttl_days))
        report = openalex.fetch(due, context.log)
        upsert(con, "openalex_cache", cache_rows(report.results, fetched_at=report.fetched_at or now))
        cache = con.execute("SELECT doi, status, work, fetched_at FROM openalex_cache JOIN wanted USING (doi)").df()
        # Redacted again where it is stored: an error text may come from any library or server.
        errors = {result.doi: redact(result.error) for result in report.results if result.status == ERROR}
        errors |= {doi: redact(f"not fetched: {report.budget_spent}") for doi in report.unfetched}
        rows = openalex_rows(requested, cache, errors)
        replace_partitions(con, "openalex_works", rows, areas)
        metadata = table_metadata(
            con, "openalex_works", where="list_contains(?, research_area)", params=[areas],
            preview_columns=["doi", "status", "cited_by_count", "citation_percentile_low", "is_retracted", "publication_year", "error"],
            lineage={
                "doi": [("publications", "doi")],
                "research_area": [("publication_research_areas", "research_area")],
            },
        )
    statuses = {status: int((rows["status"] == status).sum()) for status in STATUSES}
    fetch = {
        "dois_requested": len(wanted), "dois_due_for_refresh": len(due), "http_requests": report.requests,
        "statuses": statuses, "retryable": bool(report.budget_spent),
    }
    offline = " (offline: answered from the recording and the cache, nothing requested)" if openalex.offline else ""
    context.log.info(
        f"OpenAlex: {len(wanted):,} DOIs, {len(due):,} due for refresh, {report.requests:,} requests{offline}: {statuses}"
    )
    if not openalex.offline and errors and len(errors) == len(due):
        example = next(iter(errors.values()))
        context.log.warning(
            f"OpenAlex answered none of the {len(due):,} DOIs due (e.g. {example}): their edges are scored without "
            "citation counts; re-materialize when OpenAlex is reachable"
        )
    if report.budget_spent:
        resets_at = now + timedelta(seconds=report.reset_seconds) if report.reset_seconds is not None else None
        raise dg.Failure(
            description=(
                f"{report.budget_spent}: {len(report.unfetched):,} of {len(due):,} DOIs were not fetched. What was fetched "
                f"is cached and written; re-materialize these partitions after the reset"
                f"{f' ({resets_at:%Y-%m-%d %H:%M} UTC)' if resets_at else ''} and only the rest is requested."
            ),
            metadata={
                **fetch, "unfetched_dois": len(report.unfetched), "reset_seconds": report.reset_seconds,
                "resets_at": resets_at.isoformat() if resets_at else None,
            },
            allow_retries=True,
        )
    return dg.MaterializeResult(metadata={**metadata, **fetch})


@dg.asset(kinds={"duckdb", "crossref"}, **ENRICHMENT)
def crossref_retractions(context: dg.AssetExecutionContext, duckdb: DuckDBResource, crossref: CrossrefResource) -> dg.MaterializeResult:
    """Crossref retraction notices pointing at each publication DOI of the research area
    (`/works?filter=updates:{doi}`, update type retraction): OpenAlex misses some retractions. A DOI that is
    itself the notice of another is not retracted. Every successful check is kept in crossref_cache; a row is
    checked (the notices of the DOI's last successful check) or error when Crossref was never asked
    successfully (offline: not checked), so an offline run or a Crossref failure never loses a notice."""
    areas = list(context.partition_keys)
    with duckdb.get_connection() as con:
        con.execute(load_sql("crossref_cache"))
        con.execute(load_sql("crossref_retractions"))
        requested = con.execute(load_sql("publication_dois_in_research_areas"), [areas]).df()
        report = crossref.check(requested["doi"], context.log)
        upsert(con, "crossref_cache", crossref_records.cache_rows(report.results, checked_at=datetime.now(timezone.utc)))
        wanted = requested[["doi"]].drop_duplicates()
        cache = con.execute("SELECT doi, notice_dois, checked_at FROM crossref_cache JOIN wanted USING (doi)").df()
        errors = {check.doi: redact(check.error) for check in report.results if check.status == crossref_records.ERROR}
        rows = crossref_records.retraction_rows(requested, cache, errors)
        replace_partitions(con, "crossref_retractions", rows, areas)
        metadata = table_metadata(
            con, "crossref_retractions", where="list_contains(?, research_area)", params=[areas],
            lineage={"doi": [("publications", "doi")], "research_area": [("publication_research_areas", "research_area")]},
        )
    statuses = rows["status"].value_counts().to_dict()
    with_notices = int(rows["notice_dois"].map(len).gt(0).sum())
    context.log.info(f"Crossref: {len(rows):,} DOI rows, {report.requests:,} requests, {with_notices} with retraction notices: {statuses}")
    return dg.MaterializeResult(
        metadata={**metadata, "http_requests": report.requests, "statuses": statuses, "dois_with_retraction_notices": with_notices}
    )
