"""Assets of the `enrichment` group: each publication's OpenAlex work, the works OpenAlex lists as citing each
publication and dataset, its Crossref update notices (retractions, corrections) and its Crossref relations (comments,
replies), one partition per research area. The OpenAlex assets draw on one daily budget (`openalex_usage`)."""

import itertools
import json
from datetime import datetime, timedelta, timezone

import dagster as dg
import pandas as pd
from pydantic import Field

from recon_assets.declarations import ASSET_TABLES
from recon_assets.enrichment import citing_works
from recon_assets.enrichment import crossref as crossref_records
from recon_assets.enrichment import crossref_relations as relations
from recon_assets.enrichment.citing_plan import (
    SELECTIONS,
    CitedWork,
    CitingQuery,
    plan_citing_queries,
    planned_list_calls,
)
from recon_assets.enrichment.openalex_client import ERROR, MISMATCH, STATUSES, ListCallBudget, cache_rows, stale_dois
from recon_assets.enrichment.openalex_records import INVALID_RECORD, openalex_rows, unusable_cache_rows
from recon_assets.enrichment.openalex_usage import record_usage, run_allowance, spent_on
from recon_assets.enrichment.resources import CrossrefResource, OpenAlexResource
from recon_assets.kg.assets import OWNERS
from recon_assets.kg.partitions import research_area_partitions
from recon_assets.shared.credentials import redact
from recon_assets.shared.metadata import add_partition_metadata, distribution, partitioned_result, run_figures, table_description_metadata, written_version
from recon_assets.storage.duckdb_store import TableStore
from recon_assets.storage.tables import Tables

ENRICHMENT = dict(
    partitions_def=research_area_partitions,
    backfill_policy=dg.BackfillPolicy.single_run(),
    group_name="enrichment",
    owners=OWNERS,
    pool="duckdb",
)

# What each asset reads, its caches among them.
OPENALEX_WORKS, OPENALEX_CITING_WORKS, CROSSREF_RETRACTIONS, CROSSREF_RELATIONS = (
    ASSET_TABLES[name] for name in ("openalex_works", "openalex_citing_works", "crossref_retractions", "crossref_relations")
)
WORKS_PREVIEW = ["doi", "status", "cited_by_count", "citation_percentile_low", "is_retracted", "publication_year", "error"]
CITING_PREVIEW = ["cited_doi", "status", "citing_citation", "citing_title", "citing_year", "selections"]
RELATION_PREVIEW = ["doi", "record_doi", "relation", "update_type", "other_id", "other_type", "other_year"]


class OpenAlexConfig(dg.Config):
    ttl_days: float = Field(default=30, ge=0, description="A cached DOI is fetched again once older than this many days.")


def drop_unusable_cache_rows(con: Tables, dois: pd.DataFrame) -> dict[str, str]:
    """Delete the openalex_cache rows of `dois` (a frame with a doi column) that cannot be used
    (`openalex_records.unusable_cache_rows`: a record that no longer meets its schema), so that they are asked again;
    returns {doi: why each went}."""
    unusable = unusable_cache_rows(con.query("openalex_cache_records", [dois["doi"].dropna().tolist()]))
    if unusable:
        with con.transaction():
            con.run_sql("openalex_cache_delete", [list(unusable)])
    return unusable


@dg.asset(**OPENALEX_WORKS.asset_arguments(), kinds={"duckdb", "openalex"}, **ENRICHMENT)
def openalex_works(
    context: dg.AssetExecutionContext, config: OpenAlexConfig, store: TableStore, openalex: OpenAlexResource
) -> dg.MaterializeResult:
    """The OpenAlex work of every publication DOI in the research area: status found / not_found / mismatch / error,
    citations (cited_by_count, counts_by_year, the field-and-year citation percentile), is_retracted,
    publication_year, type, referenced_works, primary_topic and the abstract. Only DOIs missing from the openalex_cache table or
    older than the TTL are requested; when OpenAlex's daily budget runs out, what was fetched is kept and the
    step fails as retryable. Every record is checked against the schema of the fields used before it is cached
    (`openalex_records.OpenAlexWork`): one that fails is an error row with the reason, asked again next run, and
    a cached one that no longer passes is dropped and asked again; a lookup answered with another DOI's work is a
    mismatch row. Offline, or with no DOI due, nothing is requested: the rows come from the cache."""
    areas = list(context.partition_keys)
    now = datetime.now(timezone.utc)
    with store.connect() as con:
        con.create("openalex_cache", "openalex_works")
        requested = con.query("publication_dois_in_research_areas", [areas])
        wanted = requested[["doi"]].drop_duplicates()
        dropped = drop_unusable_cache_rows(con, wanted)
        fetched_at = dict(con.query_rows("openalex_fetched_at", [wanted["doi"].dropna().tolist()]))
        due = stale_dois(wanted["doi"], fetched_at, now=now, ttl=timedelta(days=config.ttl_days))
        budget = run_allowance(con, day=now.date(), daily_list_calls=openalex.daily_list_calls)
        report = openalex.fetch(due, context.log, budget)
        record_usage(con, day=now.date(), run_id=context.run.run_id, asset="openalex_works", list_calls=budget.spent, requests=report.requests)
        con.upsert("openalex_cache", cache_rows(report.results, fetched_at=report.fetched_at or now))
        # Redacted again where it is stored: an error text may come from any library or server.
        errors = {result.doi: redact(result.error) for result in report.results if result.status == ERROR}
        errors |= {doi: redact(f"not fetched: {report.budget_spent}") for doi in report.unfetched}
        mismatches = {result.doi: redact(result.error) for result in report.results if result.status == MISMATCH}
        for doi, why in dropped.items():  # asked again this run: what it answered, then why the cached record went
            for texts in (errors, mismatches):
                if doi in texts:
                    texts[doi] = f"{texts[doi]}; {why}"
        paired = con.query("openalex_work_rows", [
            requested["research_area"].tolist(), requested["doi"].tolist(), list(errors), list(errors.values()), list(mismatches), list(mismatches.values()),
        ])
        rows = openalex_rows(paired)
        con.replace_partitions("openalex_works", rows, areas)
        version = written_version(context, con, OPENALEX_WORKS.writes)
        metadata = table_description_metadata(
            con, "openalex_works",
            lineage=OPENALEX_WORKS.column_lineage({"doi": [("publications", "doi")], "research_area": [("publication_research_areas", "research_area")]}),
        )
        add_partition_metadata(context, con, "openalex_works", rows, works_figures, preview_columns=WORKS_PREVIEW)
    statuses = distribution(rows["status"], STATUSES)
    invalid = [result for result in report.results if result.status == ERROR and result.error.startswith(INVALID_RECORD)]
    fetch = {
        "dois_requested": len(wanted), "dois_due_for_refresh": len(due), "http_requests": report.requests,
        "openalex_list_calls": budget.spent, "statuses": statuses, "retryable": bool(report.budget_spent),
        "invalid_records": len(invalid), "cached_records_dropped": len(dropped), "mismatched_dois": len(mismatches),
    }
    offline = (
        " (offline: answered from the recording and the cache, nothing requested; an `error` row is a DOI neither holds, "
        "expected offline)" if openalex.offline else ""
    )
    context.log.info(
        f"OpenAlex: {len(wanted):,} DOIs, {len(due):,} due for refresh, {report.requests:,} requests{offline}: {statuses}"
    )
    if invalid or dropped:
        example = invalid[0].error if invalid else next(iter(dropped.values()))
        context.log.warning(
            f"OpenAlex: {len(invalid):,} records failed their schema and were not cached, {len(dropped):,} cached records "
            f"no longer pass it and were dropped (e.g. {example}); their DOIs are asked again next run"
        )
    if mismatches:
        context.log.warning(
            f"OpenAlex answered {len(mismatches):,} DOI lookups with a work carrying another DOI (e.g. {next(iter(mismatches.values()))}): "
            "mismatch rows, counted by the openalex_match_rate check, not cached"
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
    return partitioned_result(context, {**metadata, **run_figures(fetch)}, version)


def works_figures(rows: pd.DataFrame) -> dict[str, object]:
    """Figures of openalex_works rows (one research area's, or a run's): statuses {status: DOIs}."""
    return {"statuses": distribution(rows["status"], STATUSES)}


class CitingWorksConfig(dg.Config):
    ttl_days: float = Field(default=30, ge=0, description="A cited work's citing works are fetched again once older than this many days.")
    refresh_spread: float = Field(
        default=0.5, ge=0, le=1,
        description="Each cited work comes due up to this share of the TTL early (a fixed share per work), spreading refreshes over the TTL.",
    )
    per_work: int = Field(
        default=25, ge=1, le=200,
        description="Citing works wanted per cited work: all of them up to this many, else the most cited and the most recent pages of its group, plus every comment, reply or correction.",
    )
    max_list_calls_per_run: int = Field(
        default=3_000, ge=0, description="OpenAlex list calls one run may spend on citing works (a search page counts 10); the rest waits for the next run."
    )


@dg.asset(**OPENALEX_CITING_WORKS.asset_arguments(), kinds={"duckdb", "openalex"}, **ENRICHMENT)
def openalex_citing_works(
    context: dg.AssetExecutionContext, config: CitingWorksConfig, store: TableStore, openalex: OpenAlexResource
) -> dg.MaterializeResult:
    """The works OpenAlex lists as citing each publication and dataset DOI of the research area (filter `cites:`,
    `enrichment.citing_plan`): all of them for a work cited at most `per_work` times, else the most cited and most
    recent and every one titled as a comment, reply or correction. Cached by OpenAlex id with a TTL, "OpenAlex has
    none" included, so a re-run within the TTL makes no request; at most `max_list_calls_per_run` list calls a run
    and never past the day's shared OpenAlex budget: what is left out is counted, said, and fetched next run. A
    dataset DOI OpenAlex was not asked about yet is looked up first (its work goes to the works cache). Offline, or
    with nothing due, nothing is requested: the rows come from the caches."""
    areas = list(context.partition_keys)
    now = datetime.now(timezone.utc)
    ttl = timedelta(days=config.ttl_days)
    with store.connect() as con:
        con.create("openalex_cache", "openalex_citing_cache", "openalex_citing_works")

        def due_now() -> tuple[pd.DataFrame, list[str], dict[str, int], dict[str, int]]:
            # the targets; the dataset DOIs to look up; {cited OpenAlex id: cited_by_count} of the works found; the due ones
            targets = con.query("citing_works_targets", [areas])
            dataset_targets = targets.loc[targets["cited_kind"] == "dataset", "cited_doi"]
            known = dict(con.query_rows("openalex_fetched_at", [dataset_targets.tolist()]))
            found = targets[targets["openalex_status"].eq("found") & targets["cited_openalex_id"].notna()]
            counts = dict(zip(found["cited_openalex_id"], found["cited_by_count"].fillna(0).astype(int)))
            fetched_at = dict(con.query_rows("openalex_citing_fetched_at", [list(counts)]))
            # a work whose record counts no citation needs no request (its row says so); the others when due
            due = {i: n for i, n in counts.items() if n > 0 and citing_works.refresh_due(i, fetched_at.get(i), now=now, ttl=ttl, spread=config.refresh_spread)}
            return targets, stale_dois(dataset_targets, known, now=now, ttl=ttl), counts, due

        budget = run_allowance(con, day=now.date(), daily_list_calls=openalex.daily_list_calls, run_cap=config.max_list_calls_per_run)
        targets, _, _, _ = due_now()
        dropped = drop_unusable_cache_rows(con, targets.loc[targets["cited_kind"] == "dataset", ["cited_doi"]].rename(columns={"cited_doi": "doi"}))
        _, dataset_dois, _, _ = due_now()
        lookup = openalex.fetch(dataset_dois, context.log, budget)
        con.upsert("openalex_cache", cache_rows(lookup.results, fetched_at=lookup.fetched_at or now))
        targets, _, counts, due = due_now()
        queries = plan_citing_queries([CitedWork(i, i, n) for i, n in due.items()], per_work=config.per_work)
        context.log.info(
            f"citing works: {len(counts):,} cited works known to OpenAlex, {len(due):,} due; {len(queries):,} queries planned "
            f"(about {planned_list_calls(queries):,} list calls), {budget.allowed:,} allowed ({budget.why})"
        )
        fetch, citing_requests, beyond_page = _fetch_citing(context, openalex, budget, queries)
        con.upsert("openalex_citing_cache", citing_works.cache_rows(fetch, due, queries, fetched_at=now))
        requests = lookup.requests + citing_requests
        record_usage(con, day=now.date(), run_id=context.run.run_id, asset="openalex_citing_works", list_calls=budget.spent, requests=requests)
        cache = con.query("openalex_citing_cache_rows", [list(counts)])
        lookup_errors = {result.doi: redact(result.error) for result in lookup.results if result.status in (ERROR, MISMATCH)}
        lookup_errors |= {doi: f"not fetched: {lookup.budget_spent}" for doi in lookup.unfetched}
        lookup_errors |= {doi: f"{lookup_errors[doi]}; {why}" for doi, why in dropped.items() if doi in lookup_errors}
        rows = citing_works.citing_rows(targets, cache, fetch.failed | lookup_errors)
        con.replace_partitions("openalex_citing_works", rows, areas)
        version = written_version(context, con, OPENALEX_CITING_WORKS.writes)
        metadata = table_description_metadata(
            con, "openalex_citing_works",
            lineage=OPENALEX_CITING_WORKS.column_lineage({
                "cited_doi": [("openalex_works", "doi"), ("datasets", "doi")],
                "cited_openalex_id": [("openalex_works", "openalex_id")],
                "research_area": [("publication_research_areas", "research_area")],
            }),
        )
        add_partition_metadata(context, con, "openalex_citing_works", rows, citing_figures, preview_columns=CITING_PREVIEW)
        spent_today = spent_on(con, now.date())
    left_out = sorted(set(fetch.failed) & set(due))
    figures = {
        **citing_figures(rows),
        "cited_works_due": len(due),
        "queries_planned": {selection: sum(q.selection == selection for q in queries) for selection in SELECTIONS},
        "queries_run": fetch.queries_run,
        "http_requests": requests,
        "openalex_list_calls": budget.spent,
        "openalex_list_calls_allowed": budget.allowed,
        "openalex_list_calls_today_by_asset": spent_today,
        "openalex_daily_list_calls": openalex.daily_list_calls,
        "cited_works_left_for_next_run": len(left_out),
        "returned_works_unusable": fetch.unusable,
        "returned_works_beyond_page_cut": beyond_page,
        "cited_works_listed_in_part": len(fetch.partial),
        "returned_works_invalid": fetch.invalid,
        "returned_works_invalid_examples": fetch.invalid_examples,
        "dataset_records_dropped_from_cache": len(dropped),
    }
    if fetch.invalid:
        context.log.warning(
            f"citing works: {fetch.invalid:,} returned works failed their schema and were left out of the lists they "
            f"belong to (e.g. {fetch.invalid_examples[0]})"
        )
    if left_out:
        why = fetch.stopped or fetch.failed[left_out[0]]
        if openalex.client() is None:  # offline or without a key: nothing could be asked, as configured
            context.log.info(f"{len(left_out):,} due cited works not asked ({why}); they keep their cached citing works, if any")
        else:
            context.log.warning(
                f"{len(left_out):,} of {len(due):,} due cited works were not fetched ({why}); "
                "they keep their cached citing works, if any, and are asked on the next run"
            )
    context.log.info(f"citing works: {figures['citing_works']:,} rows; {figures['cited_dois_by_status']}; {requests:,} requests, {budget.spent:,} list calls")
    return partitioned_result(context, {**metadata, **run_figures(figures)}, version)


def citing_figures(rows: pd.DataFrame) -> dict[str, object]:
    """Figures of openalex_citing_works rows (one research area's, or a run's): cited_dois_by_status {status: cited
    DOIs} and citing_works (rows naming a citing work)."""
    cited_rows = rows.drop_duplicates(["research_area", "cited_doi"])
    return {
        "cited_dois_by_status": distribution(cited_rows["status"], citing_works.CITING_STATUSES),
        "citing_works": int(rows["citing_openalex_id"].notna().sum()),
    }


def _fetch_citing(
    context: dg.AssetExecutionContext, openalex: OpenAlexResource, budget: ListCallBudget, queries: list[CitingQuery]
) -> tuple[citing_works.CitingFetch, int, int]:
    """Run `queries` with a budgeted client, logging progress every 100 queries; offline or without a key nothing
    is asked and every queried work is failed with the reason. Returns the fetch, the HTTP requests sent and the
    works past a page's size that were cut."""
    client = openalex.client(budget)
    if client is None:
        why = "OpenAlex offline: not asked" if openalex.offline else "OPENALEX_API_KEY is not set: not asked"
        return citing_works.CitingFetch(failed={cited_id: why for query in queries for cited_id in query.cited_ids}), 0, 0

    def ask(query):
        asked = next(counter)
        if asked and asked % 100 == 0:
            context.log.info(f"citing works: {asked:,} of {len(queries):,} queries run, {budget.spent:,} list calls spent")
        return client.citing_works(query)

    counter = itertools.count()
    fetch = citing_works.fetch_citing(queries, ask)
    return fetch, client.requests_sent, client.works_beyond_page


@dg.asset(**CROSSREF_RETRACTIONS.asset_arguments(), kinds={"duckdb", "crossref"}, **ENRICHMENT)
def crossref_retractions(context: dg.AssetExecutionContext, store: TableStore, crossref: CrossrefResource) -> dg.MaterializeResult:
    """Crossref retraction notices pointing at each publication DOI of the research area
    (`/works?filter=updates:{doi}`, update type retraction): OpenAlex misses some retractions. A DOI that is
    itself the notice of another is not retracted. Every successful check is kept in crossref_cache, with every
    update notice of the answer (corrections and errata too, read by crossref_relations: no second request); a row
    is checked (the notices of the DOI's last successful check) or error when Crossref was never asked
    successfully (offline: not checked), so an offline run or a Crossref failure never loses a notice. Online every
    DOI is checked each run; offline the rows come from the cache."""
    areas = list(context.partition_keys)
    with store.connect() as con:
        con.create("crossref_cache", "crossref_retractions")
        requested = con.query("publication_dois_in_research_areas", [areas])
        report = crossref.check(requested["doi"], context.log)
        con.upsert("crossref_cache", crossref_records.cache_rows(report.results, checked_at=datetime.now(timezone.utc)))
        errors = {check.doi: redact(check.error) for check in report.results if check.status == crossref_records.ERROR}
        rows = con.query(
            "crossref_retraction_rows", [requested["research_area"].tolist(), requested["doi"].tolist(), list(errors), list(errors.values())]
        )
        con.replace_partitions("crossref_retractions", rows, areas)
        version = written_version(context, con, CROSSREF_RETRACTIONS.writes)
        metadata = table_description_metadata(
            con, "crossref_retractions",
            lineage=CROSSREF_RETRACTIONS.column_lineage({"doi": [("publications", "doi")], "research_area": [("publication_research_areas", "research_area")]}),
        )
        add_partition_metadata(context, con, "crossref_retractions", rows, retraction_figures)
    figures = retraction_figures(rows)
    context.log.info(
        f"Crossref: {len(rows):,} DOI rows, {report.requests:,} requests, {figures['dois_with_retraction_notices']} with retraction "
        f"notices: {figures['statuses']}"
        + (" (offline: an `error` row is a DOI never checked, expected offline; RECON_CROSSREF=online to check)" if crossref.offline else "")
    )
    return partitioned_result(context, {**metadata, **run_figures({**figures, "http_requests": report.requests})}, version)


def retraction_figures(rows: pd.DataFrame) -> dict[str, object]:
    """Figures of crossref_retractions rows (one research area's, or a run's): statuses {status: DOI rows} and
    dois_with_retraction_notices."""
    return {
        "statuses": {status: int(n) for status, n in rows["status"].value_counts().sort_index().items()},
        "dois_with_retraction_notices": int(rows["notice_dois"].map(len).gt(0).sum()),
    }


@dg.asset(**CROSSREF_RELATIONS.asset_arguments(), kinds={"duckdb", "crossref"}, **ENRICHMENT)
def crossref_relations(context: dg.AssetExecutionContext, store: TableStore, crossref: CrossrefResource) -> dg.MaterializeResult:
    """Crossref relation entries that can record a dispute or correction of each publication of the research area:
    the comment, reply and peer-review relations of its Crossref record (`/works?filter=doi:A,doi:B`, `select` of
    DOI, type, title, relation and dates), of the works those comments and replies name (two works away: a reply to
    a comment), and its update notices (corrections, errata, retractions) from the check crossref_retractions made.
    Every answer is kept in crossref_record_cache, so an offline run or a Crossref failure reads the records found
    before. Read as recorded disputes by recorded_disputes. Online the records are asked for each run; offline they
    come from the caches."""
    areas = list(context.partition_keys)
    now = datetime.now(timezone.utc)
    with store.connect() as con:
        con.create("crossref_cache", "crossref_record_cache", "crossref_relations")
        requested = con.query("publication_dois_in_research_areas", [areas])
        reports: list[crossref_records.RecordReport] = []

        def ask(dois: list[str]) -> dict[str, dict]:
            # ask Crossref (nothing offline), keep what it answered, and read back every record held for `dois`
            reports.append(report := crossref.records(dois, context.log))
            con.upsert("crossref_record_cache", crossref_records.record_cache_rows(report.results, checked_at=now))
            return {doi: json.loads(record) for doi, record in con.query_rows("crossref_found_records", [list(dois)])}

        records = relations.collect_records(requested["doi"], ask)
        checked_at = dict(con.query_rows("crossref_checked_at", [list(records)]))
        updates = con.query("crossref_updates", [requested["doi"].dropna().drop_duplicates().tolist()])
        rows = relations.relation_rows(requested, records, checked_at, updates)
        con.replace_partitions("crossref_relations", rows, areas)
        version = written_version(context, con, CROSSREF_RELATIONS.writes)
        metadata = table_description_metadata(
            con, "crossref_relations",
            lineage=CROSSREF_RELATIONS.column_lineage({"doi": [("publications", "doi")], "research_area": [("publication_research_areas", "research_area")]}),
        )
        add_partition_metadata(context, con, "crossref_relations", rows, preview_columns=RELATION_PREVIEW)
    fetch, example_error = relations.fetch_summary(requested["doi"], reports, records, rows)
    context.log.info(
        f"Crossref relations: {fetch['kg_dois']:,} DOIs ({fetch['kg_dois_with_a_record']:,} with a record; this run "
        f"{fetch['kg_dois_this_run']}), {fetch['related_works_asked']:,} related works asked, {fetch['http_requests']:,} "
        f"requests, {len(rows):,} entries"
        + (" (offline: `error` is a DOI not asked this run, expected offline; the records cached before are read)" if crossref.offline else "")
    )
    if not crossref.offline and fetch["kg_dois"] and fetch["kg_dois_this_run"][crossref_records.ERROR] == fetch["kg_dois"]:
        context.log.warning(
            f"Crossref answered for none of the {fetch['kg_dois']:,} DOIs (e.g. {example_error}): the records cached "
            "before are used; re-materialize when Crossref is reachable"
        )
    return partitioned_result(context, {**metadata, **run_figures(fetch)}, version)
