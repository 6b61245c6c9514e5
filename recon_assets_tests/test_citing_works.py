"""Works citing a publication or dataset, from OpenAlex (`cites:` filter): the request plan and its cost, the
client's queries (OR filter, sort, select, title search, cursor paging) against the fake serving the 44 real
recorded works and their real referenced_works, the budget that stops a run cleanly, the refresh spread, and the
openalex_citing_works asset in Dagster: zero requests on a re-run within the TTL ("none" cached too), one daily
budget shared with openalex_works, what a per-run cap leaves out counted and said, and the offline mode."""

from __future__ import annotations

import json
import logging
from collections import Counter
from datetime import datetime, timedelta, timezone
from urllib.parse import parse_qs, urlsplit

import dagster as dg
import duckdb
import pandas as pd
import pytest

from recon_assets.enrichment import citing_works
from recon_assets.enrichment.assets import openalex_citing_works, openalex_works
from recon_assets.enrichment.citing_plan import (
    ALL_CITING,
    COMMENT_TITLES,
    MOST_CITED,
    MOST_RECENT,
    CitedWork,
    CitingQuery,
    plan_citing_queries,
    planned_list_calls,
)
from recon_assets.enrichment.openalex_client import BudgetSpent, ListCallBudget, OpenAlexClient, short_work_id
from recon_assets.enrichment.openalex_records import CITING_FIELDS
from recon_assets.enrichment.resources import OpenAlexResource
from recon_assets.enrichment.retries import RetryPolicy
from recon_assets.kg.doi import canonical_doi

from recon_assets.storage.duckdb_store import TableStore
from recon_assets_tests.fake_openalex import FakeOpenAlex, real_works, serve_on_loopback
from recon_assets_tests.pipeline_runs import run_figures

WORKS = real_works()
BY_ID = {short_work_id(work["id"]): work for work in WORKS}
# The real citations among the recorded works: {cited id: ids of the recorded works citing it}.
CITED_BY: dict[str, set[str]] = {}
for _work in WORKS:
    for _reference in _work.get("referenced_works") or ():
        if short_work_id(_reference) in BY_ID:
            CITED_BY.setdefault(short_work_id(_reference), set()).add(short_work_id(_work["id"]))
MOST_CITED_ID = "W2883746869"  # 10.3390/rs10081186: 7 of the recorded works cite it
AREA = "land_surface_agriculture_indicators"
SECRET = "oa-citing-secret-51c2"


def _client(base: str, budget: ListCallBudget | None = None) -> OpenAlexClient:
    return OpenAlexClient(api_key=SECRET, base_url=base, timeout=5, retry=RetryPolicy(retries=0), budget=budget)


# --- the plan -------------------------------------------------------------------------------------------------


def test_a_work_openalex_counts_no_citation_for_needs_no_request():
    assert plan_citing_queries([CitedWork("a", "W1", 0), CitedWork("b", "W2", -1)], per_work=20) == []


def test_lightly_cited_works_share_one_request_while_their_counts_fit_a_page():
    works = [CitedWork(str(n), f"W{n}", count) for n, count in enumerate([5, 20, 190, 1, 1])]
    queries = plan_citing_queries(works, per_work=200)
    assert [(q.selection, q.cited_ids) for q in queries] == [(ALL_CITING, ("W3", "W4", "W0", "W1")), (ALL_CITING, ("W2",))]
    assert all(q.all_pages and q.sort == ("publication_date", "desc") and q.per_page == 200 for q in queries)


def test_an_or_filter_holds_at_most_100_ids():
    queries = plan_citing_queries([CitedWork(str(n), f"W{n}", 1) for n in range(250)], per_work=5)
    assert [len(q.cited_ids) for q in queries] == [100, 100, 50]


def test_heavily_cited_works_ask_for_the_most_cited_the_most_recent_and_the_comments_in_groups():
    works = [CitedWork(str(n), f"W{n}", 1000 - n) for n in range(20)]
    queries = plan_citing_queries(works, per_work=25)  # 200 // 25 = 8 works per group
    assert Counter(q.selection for q in queries) == {MOST_CITED: 3, MOST_RECENT: 3, COMMENT_TITLES: 1}
    first = queries[0]
    assert first.cited_ids == tuple(f"W{n}" for n in range(8)) and first.sort == ("cited_by_count", "desc") and not first.all_pages
    [comments] = [q for q in queries if q.selection == COMMENT_TITLES]
    assert len(comments.cited_ids) == 20 and comments.title_search and comments.list_calls_per_page == 10
    assert planned_list_calls(queries) == 6 + 10


@pytest.mark.parametrize(("per_work", "page_size"), [(0, 200), (201, 200), (10, 0), (10, 201)])
def test_the_plan_refuses_bounds_out_of_range(per_work, page_size):
    with pytest.raises(ValueError, match="must be"):
        plan_citing_queries([], per_work=per_work, page_size=page_size)


# --- the client and fetch_citing against the fake serving real works -----------------------------------------


def test_one_or_filter_request_returns_every_citing_work_attributed_by_its_referenced_works():
    cited = sorted(CITED_BY)
    queries = plan_citing_queries([CitedWork(i, i, len(CITED_BY[i])) for i in cited], per_work=25)
    fake = FakeOpenAlex(WORKS)
    with serve_on_loopback(fake) as base:
        fetch = citing_works.fetch_citing(queries, _client(base).citing_works)
    assert len(queries) == 1 and len(fake.requests) == 1 and fetch.queries_run == 1
    assert {i: set(works) for i, works in fetch.works.items()} == CITED_BY
    path, query = fake.requests[0]
    params = parse_qs(query)
    assert path == "/works" and params["filter"][0] == "cites:" + "|".join(queries[0].cited_ids)
    assert params["sort"] == ["publication_date:desc"] and params["per-page"] == ["200"] and params["cursor"] == ["*"]
    assert params["select"][0].split(",") == list(CITING_FIELDS)
    record = fetch.works[MOST_CITED_ID][sorted(CITED_BY[MOST_CITED_ID])[0]]
    assert record["selections"] == [ALL_CITING] and record["citation"] == "[Sheikhrahimi et al., 2019]"


def test_cursor_paging_fetches_every_page_and_charges_each():
    query = CitingQuery((MOST_CITED_ID,), ALL_CITING, ("publication_date", "desc"), per_page=2, all_pages=True)
    budget = ListCallBudget(100, "test")
    fake = FakeOpenAlex(WORKS)
    with serve_on_loopback(fake) as base:
        works = _client(base, budget).citing_works(query)
    assert {short_work_id(w["id"]) for w in works} == CITED_BY[MOST_CITED_ID]
    assert len(fake.requests) == 4 == budget.spent  # 7 works, 2 a page
    assert [parse_qs(q)["cursor"][0] for _, q in fake.requests] == ["*", "2", "4", "6"]


def test_a_title_search_finds_the_citing_works_titled_as_comments_and_costs_a_search():
    comment = {**WORKS[5], "id": "https://openalex.org/W9000000001", "doi": "https://doi.org/10.5555/comment",
               "title": "Comment on a recorded paper", "referenced_works": [f"https://openalex.org/{MOST_CITED_ID}"]}
    query = plan_citing_queries([CitedWork("x", MOST_CITED_ID, 500)], per_work=25)[-1]
    budget = ListCallBudget(100, "test")
    fake = FakeOpenAlex([*WORKS, comment])
    with serve_on_loopback(fake) as base:
        works = _client(base, budget).citing_works(query)
    assert query.selection == COMMENT_TITLES and [w["title"] for w in works] == ["Comment on a recorded paper"]
    assert "title.search:comment OR" in parse_qs(fake.requests[0][1])["filter"][0] and budget.spent == 10


def test_a_spent_budget_stops_the_run_cleanly_and_no_work_is_half_fetched():
    works = [CitedWork(i, i, 500) for i in sorted(CITED_BY)[:3]]
    queries = plan_citing_queries(works, per_work=25)  # most cited, most recent, comments
    fake = FakeOpenAlex(WORKS)
    with serve_on_loopback(fake) as base:
        fetch = citing_works.fetch_citing(queries, _client(base, ListCallBudget(1, "the per-run cap of 1 list calls")).citing_works)
    assert len(fake.requests) == 1 and fetch.queries_run == 1
    assert fetch.works == {}  # the most recent page was never asked: nothing cached half
    assert set(fetch.failed) == {w.openalex_id for w in works}
    assert fetch.stopped == "OpenAlex allowance spent: 1 of 1 list calls used (the per-run cap of 1 list calls)"


class _Refusing(FakeOpenAlex):
    """OpenAlex answering 503 to the first citing query and normally after."""

    def answer(self, url):
        if "cites" in url and not getattr(self, "_refused", False):
            self._refused = True
            self.requests.append(("/works", "refused"))
            return 503, {"error": "Service Unavailable"}
        return super().answer(url)


def test_a_failed_query_marks_its_works_and_the_others_go_on():
    light = plan_citing_queries([CitedWork(i, i, len(CITED_BY[i])) for i in sorted(CITED_BY)], per_work=5, page_size=10)
    assert len(light) > 1
    with serve_on_loopback(_Refusing(WORKS)) as base:
        fetch = citing_works.fetch_citing(light, _client(base).citing_works)
    assert set(fetch.failed) == set(light[0].cited_ids) and fetch.stopped is None
    assert all(reason == "HTTP 503 Service Unavailable from /works" for reason in fetch.failed.values())
    assert set(fetch.works) == set(CITED_BY) - set(light[0].cited_ids)


def test_a_returned_work_without_an_id_or_citing_none_asked_is_counted_not_kept():
    query = CitingQuery((MOST_CITED_ID,), ALL_CITING, ("publication_date", "desc"), 200, all_pages=False)
    citing = [work for work in WORKS if short_work_id(work["id"]) in CITED_BY[MOST_CITED_ID]]
    answer = [{k: v for k, v in citing[0].items() if k != "id"}, {**citing[1], "referenced_works": []}, *citing[2:]]
    fetch = citing_works.fetch_citing([query], lambda _: answer)
    # the work without an id fails its schema (invalid, with the reason); the other cites none of the asked-for works
    assert (fetch.invalid, fetch.unusable) == (1, 1) and len(fetch.works[MOST_CITED_ID]) == len(citing) - 2
    assert fetch.invalid_examples == ["a work: invalid OpenAlex record: id: Field required"]


def test_the_key_is_never_logged(caplog):
    caplog.set_level(logging.DEBUG)
    query = plan_citing_queries([CitedWork("x", MOST_CITED_ID, 7)], per_work=25)[0]
    with serve_on_loopback(FakeOpenAlex(WORKS)) as base:
        _client(base).citing_works(query)
    assert SECRET not in caplog.text


def test_a_budget_refuses_a_charge_past_its_allowance_and_charges_nothing():
    budget = ListCallBudget(10, "why")
    budget.charge(9)
    with pytest.raises(BudgetSpent, match=r"9 of 10 list calls used \(why\)"):
        budget.charge(10)
    assert budget.spent == 9
    with pytest.raises(ValueError):
        ListCallBudget(-1, "why")


def test_refreshes_of_works_fetched_together_spread_over_the_ttl():
    fetched = datetime(2026, 1, 1, tzinfo=timezone.utc)
    ids = [f"W{n}" for n in range(1000)]
    ttl = timedelta(days=30)
    due_day = [
        next(day for day in range(31) if citing_works.refresh_due(i, fetched, now=fetched + timedelta(days=day, hours=1), ttl=ttl, spread=0.5))
        for i in ids
    ]
    assert min(due_day) == 15 and max(due_day) == 30
    assert max(Counter(due_day).values()) < 150  # no day takes more than about 1/16 + noise
    assert not citing_works.refresh_due("W1", fetched, now=fetched + timedelta(days=29), ttl=ttl, spread=0.0)
    assert citing_works.refresh_due("W1", None, now=fetched, ttl=ttl, spread=0.0)


# --- the asset in Dagster ------------------------------------------------------------------------------------

DATASET_DOI = canonical_doi(BY_ID[MOST_CITED_ID]["doi"])  # a real cited work stands for a dataset DOI
PUBLICATION_DOIS = [canonical_doi(work["doi"]) for work in WORKS if canonical_doi(work["doi"]) != DATASET_DOI]


def _database(tmp_path) -> str:
    """A DuckDB file with the KG tables the assets read: the recorded works but one as publications, that one as a
    dataset used by the first publication."""
    path = str(tmp_path / "recon.duckdb")
    with duckdb.connect(path) as con:
        con.execute("CREATE TABLE publications AS SELECT unnest(?) AS publication_id, unnest(?) AS doi", [PUBLICATION_DOIS, PUBLICATION_DOIS])
        con.execute("CREATE TABLE publication_research_areas AS SELECT publication_id, ? AS research_area FROM publications", [AREA])
        con.execute("CREATE TABLE datasets AS SELECT 'kg:ds' AS dataset_id, ? AS doi", [DATASET_DOI])
        con.execute("CREATE TABLE dataset_publication_edges AS SELECT 'kg:ds' AS dataset_id, ? AS publication_id", [PUBLICATION_DOIS[0]])
    return path


def _materialize(database: str, openalex: OpenAlexResource, instance, **citing_config):
    return dg.materialize(
        [openalex_works, openalex_citing_works],
        partition_key=AREA,
        resources={"store": TableStore(database=database), "openalex": openalex},
        run_config={"ops": {"openalex_citing_works": {"config": citing_config}}},
        instance=instance,
        raise_on_error=True,
    )


def _metadata(result, asset: str = "openalex_citing_works") -> dict:
    [materialization] = [m for m in result.asset_materializations_for_node(asset)]
    return run_figures(materialization)


def _query(database: str, sql: str, params: list | None = None):
    with duckdb.connect(database, read_only=True) as con:
        return con.execute(sql, params or []).fetchall()


def test_the_asset_fetches_citing_works_once_and_a_rerun_within_the_ttl_asks_nothing(tmp_path):
    database = _database(tmp_path)
    fake = FakeOpenAlex(WORKS)
    with serve_on_loopback(fake) as base, dg.instance_for_test() as instance:
        openalex = OpenAlexResource(api_key=SECRET, base_url=base, retries=0)
        first = _metadata(_materialize(database, openalex, instance))
        asked = len(fake.requests)
        second = _metadata(_materialize(database, openalex, instance))
    assert first["queries_run"] > 0 and second["http_requests"] == 0 and len(fake.requests) == asked
    # every cited DOI has a status; works OpenAlex counts no citation for are "none" without a request
    statuses = first["cited_dois_by_status"]
    # 19 recorded works are cited by recorded works; the other 25 are "none": 2 without a citation asked nothing,
    # 23 asked (the fake serves only the recorded works, so their real citing works are absent)
    assert statuses == {"fetched": len(CITED_BY), "none": len(WORKS) - len(CITED_BY), "not_in_openalex": 0, "not_asked": 0}
    assert second["cited_dois_by_status"] == statuses
    rows = dict(_query(database, "SELECT cited_doi, count(*) FILTER (citing_openalex_id IS NOT NULL) FROM openalex_citing_works GROUP BY 1"))
    assert rows[DATASET_DOI] == len(CITED_BY[MOST_CITED_ID])  # the dataset DOI, looked up first, has its 7
    assert _query(database, "SELECT DISTINCT cited_kind FROM openalex_citing_works WHERE cited_doi = ?", [DATASET_DOI]) == [("dataset",)]
    # both assets drew on the one daily budget, and the ledger says who spent what
    usage = dict(_query(database, "SELECT asset, sum(list_calls) FROM openalex_usage GROUP BY 1"))
    assert usage["openalex_citing_works"] == first["openalex_list_calls"] > 0 and usage["openalex_works"] > 0
    assert second["openalex_list_calls_today_by_asset"] == usage


def test_a_per_run_cap_leaves_works_for_the_next_run_and_says_how_many(tmp_path):
    database = _database(tmp_path)
    fake = FakeOpenAlex(WORKS)
    with serve_on_loopback(fake) as base, dg.instance_for_test() as instance:
        openalex = OpenAlexResource(api_key=SECRET, base_url=base, retries=0)
        capped = _materialize(database, openalex, instance, max_list_calls_per_run=1)
        messages = [entry.user_message for entry in instance.all_logs(capped.run_id)]
        first = _metadata(capped)
        second = _metadata(_materialize(database, openalex, instance, max_list_calls_per_run=1000))
    assert first["openalex_list_calls"] <= 1 and first["cited_works_left_for_next_run"] > 0
    assert first["cited_dois_by_status"]["not_asked"] == first["cited_works_left_for_next_run"]
    assert any(f"{first['cited_works_left_for_next_run']} of {first['cited_works_due']} due cited works were not fetched "
               "(OpenAlex allowance spent: 1 of 1 list calls used (the per-run cap of 1 list calls))" in message for message in messages)
    assert second["cited_dois_by_status"]["not_asked"] == 0 and second["cited_works_due"] == first["cited_works_left_for_next_run"]


def test_the_daily_budget_spent_by_openalex_works_is_not_spent_again(tmp_path):
    database = _database(tmp_path)
    fake = FakeOpenAlex(WORKS)
    with serve_on_loopback(fake) as base, dg.instance_for_test() as instance:
        openalex = OpenAlexResource(api_key=SECRET, base_url=base, retries=0, daily_list_calls=1)
        result = _metadata(_materialize(database, openalex, instance))
    assert result["openalex_list_calls_allowed"] == 0 and result["openalex_list_calls"] == 0
    assert result["openalex_list_calls_today_by_asset"] == {"openalex_works": 1}  # a step that spent nothing writes no row


def test_offline_nothing_is_asked_and_every_cited_doi_says_why(tmp_path):
    database = _database(tmp_path)
    with dg.instance_for_test() as instance:
        result = _metadata(_materialize(database, OpenAlexResource(offline=True), instance))
    assert result["http_requests"] == 0 and result["openalex_list_calls"] == 0
    notes = dict(_query(database, "SELECT status, any_value(note) FROM openalex_citing_works GROUP BY 1"))
    assert set(notes) <= {"not_asked", "none"} and notes["not_asked"] in ("OpenAlex offline: not asked", "offline: not in the recorded cache")
    assert json.loads(json.dumps(result["cited_dois_by_status"]))["fetched"] == 0
    # what OpenAlex never answered is not cached as if it had: a work counting no citation is "none" without a
    # cache row or a fetched_at, and nothing is written to the budget ledger
    assert _query(database, "SELECT count(*) FROM openalex_citing_cache") == [(0,)]
    assert _query(database, "SELECT count(*) FROM openalex_citing_works WHERE status = 'none' AND fetched_at IS NULL")[0][0] == 2
    assert _query(database, "SELECT count(*) FROM openalex_usage") == [(0,)]


# --- hostile-pass findings: a cursor that never ends, a page larger than asked, works that fail the schema ---


class _EndlessCursor(FakeOpenAlex):
    """Every cursor page answers one work and the same next cursor."""

    def _citing_page(self, expression, query, per_page):
        page = super()._citing_page(expression, {**query, "cursor": ["*"]}, 1)
        page["meta"]["next_cursor"] = "same-cursor"
        return page


def test_a_cursor_that_never_ends_stops_the_query_not_the_budget():
    query = CitingQuery((MOST_CITED_ID,), ALL_CITING, ("publication_date", "desc"), per_page=200, all_pages=True)
    budget = ListCallBudget(3000, "test")
    fake = _EndlessCursor(WORKS)
    with serve_on_loopback(fake) as base:
        fetch = citing_works.fetch_citing([query], _client(base, budget).citing_works)
    assert len(fake.requests) == 2 and budget.spent == 2  # the second answer repeats the cursor: stop
    assert "OpenAlex's paging did not end (a cursor came back twice)" in fetch.failed[MOST_CITED_ID]


class _Flooding(FakeOpenAlex):
    """Answers a page of 3 works with 7 (more than per-page)."""

    def _citing_page(self, expression, query, per_page):
        return super()._citing_page(expression, query, 7)


def test_a_page_larger_than_asked_is_cut_and_counted():
    query = CitingQuery((MOST_CITED_ID,), MOST_CITED, ("cited_by_count", "desc"), per_page=3, all_pages=False)
    with serve_on_loopback(_Flooding(WORKS)) as base:
        client = _client(base)
        works = client.citing_works(query)
    assert len(works) == 3 and client.works_beyond_page == 4


def test_works_that_fail_the_schema_never_make_a_cited_work_none_or_complete():
    query = CitingQuery((MOST_CITED_ID, "W0000000001"), ALL_CITING, ("publication_date", "desc"), 200, all_pages=False)
    citing = [work for work in WORKS if short_work_id(work["id"]) in CITED_BY[MOST_CITED_ID]]
    broken = [{**work, "publication_year": "2020"} for work in citing[:2]]
    fetch = citing_works.fetch_citing([query], lambda _: [*broken, *citing[2:]])
    assert fetch.invalid == 2 and MOST_CITED_ID in fetch.partial
    # the other cited work got nothing but unreadable works may have been its: not "none", asked again next run
    assert "W0000000001" in fetch.failed and "fail the schema" in fetch.failed["W0000000001"]
    rows = citing_works.cache_rows(fetch, {MOST_CITED_ID: 7}, [query], fetched_at=datetime.now(timezone.utc))
    assert rows.set_index("openalex_id")["complete"].to_dict() == {MOST_CITED_ID: False}


def test_a_count_composed_from_a_page_has_no_openalex_id_to_ask_about_and_says_so():
    """A work whose record is composed from a public page's count (openalex_records.ComposedWork, issue 20) is found
    with a count but no OpenAlex id: it is not asked about, and its row says why, not 'OpenAlex has no record'."""
    import pandas as pd

    targets = pd.DataFrame([{
        "research_area": "hydrology", "cited_doi": "10.1175/jhm560.1", "cited_kind": "publication", "openalex_status": "found",
        "openalex_error": None, "cited_openalex_id": None, "cited_by_count": 4459,
    }])
    rows = citing_works.citing_rows(targets, pd.DataFrame(columns=["openalex_id", "works", "complete", "fetched_at"]), {})
    assert rows[["status", "cited_openalex_id", "citing_openalex_id"]].values.tolist() == [[citing_works.NOT_ASKED, None, None]]
    assert rows.loc[0, "note"].startswith("the work's record is a citation count composed from a public page")
