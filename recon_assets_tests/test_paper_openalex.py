"""Paper analysis online with OpenAlex (issue 22): citation gaps from OpenAlex search, only with the papers' own opt-in
(a search text is made of the paper's own terms), and a DOI the graph lacks read from OpenAlex (title, abstract,
references). OpenAlex is faked at the HTTP transport (`responses`) with the recorded real works of fixtures/openalex
(search envelopes assembled around them by the fake: fixtures/openalex/PROVENANCE.md). The papers' searches are cached
in their own paper_search_cache, apart from the briefs'.

Every recorded work is a publication of the sample graph, so these tests remove some from the graph's
`publications` (a module's own copy): those are then works the graph lacks; the records are unchanged."""

import re

import dagster as dg
import duckdb
import pytest
import responses

from recon_assets.cli.main import main as recon
from recon_assets.definitions import build_defs
from recon_assets.enrichment.resources import OpenAlexResource
from recon_assets.papers.gaps import search_texts
from recon_assets.papers.intake import doi_key
from recon_assets.papers.partitions import PAPERS_PARTITIONS
from recon_assets.papers.report import SENT_ONLINE
from recon_assets.papers.resources import OPT_IN_OFF, PaperIntake
from recon_assets.shared.table_docs import TABLE_DOCS

from recon_assets_tests.fake_openalex import FakeOpenAlex, real_works
from recon_assets_tests.pipeline_runs import SAMPLE_JSONL, pipeline_defs

API = re.compile(r"https://api\.openalex\.org/works.*")
# The paper analysed for its gaps (in the graph: uses ASTER AST_05, AST_07XT, AST_L1T)
PAPER = "10.3390/rs12081239"
OTHER_PAPER = "10.3390/rs15081974"  # uses AST_05 and AST_L1T in the graph
# Removed from this module's graph: real works on ASTER / Landsat-8 mineral mapping the searches find
GONE = ("10.3390/rs11202430", "10.3390/rs10081186", "10.3390/rs11182122")
# A paper given by a DOI the graph lacks: a real work whose references include works of the graph
UNKNOWN = "10.3390/rs11182122"
KEY = "oa-paper-key-91"


class Papers:
    def __init__(self, workdir, instance):
        self.database, self.folder, self.instance = workdir / "recon.duckdb", workdir / "papers", instance
        self.folder.mkdir()

    def defs(self, openalex: OpenAlexResource, opt_in: bool) -> dg.Definitions:
        resources = dict(pipeline_defs(SAMPLE_JSONL, self.database, openalex=openalex).resources)
        resources["papers"] = PaperIntake(folder=str(self.folder), send_text_online=opt_in)
        return build_defs(resources)

    def analyse(self, key: str, openalex: OpenAlexResource, opt_in: bool = False):
        if not self.instance.has_dynamic_partition(PAPERS_PARTITIONS, key):
            self.instance.add_dynamic_partitions(PAPERS_PARTITIONS, [key])
        return self.defs(openalex, opt_in).resolve_job_def("paper_analysis_job").execute_in_process(
            instance=self.instance, partition_key=key, raise_on_error=False)

    def rows(self, sql: str, params=()) -> list[tuple]:
        with duckdb.connect(str(self.database), read_only=True) as con:
            return con.execute(sql, list(params)).fetchall()


@pytest.fixture(scope="module")
def papers(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("paper_openalex")
    (workdir / "home").mkdir()
    with dg.instance_for_test(temp_dir=str(workdir / "home")) as instance:
        built = Papers(workdir, instance)
        defs = built.defs(OpenAlexResource(offline=True), False)
        assert defs.resolve_job_def("kg_tables_job").execute_in_process(instance=instance).success
        with duckdb.connect(str(built.database)) as con:
            con.execute("DELETE FROM publications WHERE list_contains(?, doi)", [list(GONE)])
        yield built


@pytest.fixture
def fake():
    fake = FakeOpenAlex(real_works())
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mocked:
        mocked.add_callback(responses.GET, API, callback=fake.responses_callback)
        yield fake


ONLINE = OpenAlexResource(offline=False, api_key=KEY)


@pytest.mark.parametrize(("terms", "names", "texts"), [
    # found on a real paper (10.3390/rs11182122): bigram terms repeated their words in the search text
    (["barramiya mueilha", "zones", "gold", "barramiya", "mueilha belts"], [], ["barramiya mueilha zones gold belts"]),
    (["aster", "alteration", "gold", "lineaments"], ["AST_L1T", "AST_05", "AST_07XT"],
     ["aster alteration gold lineaments", "AST_L1T aster alteration gold", "AST_05 aster alteration gold"]),
    ([], [], []),
    ([], ["AST_L1T", "AST_L1T"], ["AST_L1T"]),
])
def test_search_texts_hold_the_top_terms_and_at_most_two_dataset_queries(terms, names, texts):
    assert search_texts(terms, names) == texts


def _gaps_row(papers, key):
    found = papers.rows("SELECT sent, service, outcome, requests, cached_answers, reason, summary FROM paper_llm_use "
                        "WHERE paper_key = ? AND stage = 'citation_gaps_search'", [key])
    return found[0] if found else None


def test_without_the_papers_opt_in_no_search_is_sent_and_the_report_says_why(papers, fake):
    key = doi_key(OTHER_PAPER)  # not PAPER: its searches may be cached by the opt-in test (tests run in any order)
    assert papers.analyse(key, ONLINE, opt_in=False).success
    assert [q for _, q in fake.requests if "search=" in q] == []
    sent, service, outcome, requests, _, reason, summary = _gaps_row(papers, key)
    assert (sent, service, outcome, requests) == (False, None, "not sent", 0) and OPT_IN_OFF in reason and OPT_IN_OFF in summary
    assert papers.rows("SELECT count(*) FROM paper_citation_gaps WHERE paper_key = ? AND work_key LIKE 'openalex:%'", [key]) == [(0,)]


def test_with_the_opt_in_gaps_come_from_openalex_search_counted_on_the_budget_and_said_in_the_report(papers, fake):
    key = doi_key(PAPER)
    result = papers.analyse(key, ONLINE, opt_in=True)
    assert result.success
    searches = [q for _, q in fake.requests if "search=" in q]
    assert len(searches) == 3  # the paper matches 3 datasets: 3 search texts (gaps.search_texts caps them at 3)
    sent, service, outcome, requests, cached, _, summary = _gaps_row(papers, key)
    assert (sent, outcome, requests, cached) == (True, "searched", len(searches), 0) and service.startswith("OpenAlex search")
    assert f"{len(searches)} OpenAlex search(es) built from the paper's terms and dataset names sent to https://api.openalex.org" in summary
    assert ("paper_citation_gaps", 10 * len(searches)) in papers.rows("SELECT asset, sum(list_calls) FROM openalex_usage GROUP BY asset")
    gaps = papers.rows("SELECT work_key, doi, severity, why FROM paper_citation_gaps WHERE paper_key = ? AND work_key LIKE 'openalex:%'", [key])
    assert gaps, "OpenAlex search found works the graph lacks"
    assert {doi for _, doi, _, _ in gaps} <= set(GONE)  # only works the graph lacks; the graph's own are read from the graph
    assert all(severity == "medium" and why.startswith("found by OpenAlex search; ") for _, _, severity, why in gaps)
    (html,) = [e.event_specific_data.materialization.metadata["html"].value for e in result.get_asset_materialization_events()
               if e.asset_key == dg.AssetKey("paper_reports")]
    page = open(html, encoding="utf-8").read()
    assert SENT_ONLINE.split(":")[0] in page and "OpenAlex search(es) built from the paper" in page

    # again: every search answered from the cache, nothing sent, nothing more charged, the same gaps
    before = len(fake.requests)
    assert papers.analyse(key, ONLINE, opt_in=True).success
    assert len(fake.requests) == before
    assert _gaps_row(papers, key)[:5] == (False, "OpenAlex search (https://api.openalex.org)", "cached", 0, len(searches))
    assert papers.rows("SELECT work_key, doi, severity, why FROM paper_citation_gaps WHERE paper_key = ? AND work_key LIKE 'openalex:%'",
                       [key]) == gaps
    assert papers.rows("SELECT count(*), min(asked_by) FROM paper_search_cache") == [(len(searches), "paper_citation_gaps")]
    assert dict(papers.rows("SELECT column_name, comment FROM duckdb_columns() WHERE table_name = 'paper_search_cache'")) == \
        TABLE_DOCS["paper_search_cache"]
    assert papers.rows("SELECT count(*) FROM duckdb_tables() WHERE table_name = 'openalex_search_cache'") == [(0,)]


def test_searches_that_fail_are_said_to_have_failed_not_to_be_cached(papers):
    """Hostile pass: with OpenAlex unreachable the row said "nothing of the paper sent to OpenAlex (every search
    answered from the cache)", with no cache at all."""
    key = doi_key("10.3390/rs11192314")
    # Every search is retried as a user's is (OpenAlexResource.retries), with no backoff between the attempts (its
    # documented backoff_seconds: 1 s doubled each retry, about 21 s of sleep here; issue 23, suite time)
    unreachable = OpenAlexResource(offline=False, api_key=KEY, backoff_seconds=0.0)
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mocked:
        mocked.add(responses.GET, API, status=500, json={"error": "unavailable"})
        assert papers.analyse(key, unreachable, opt_in=True).success
    sent, _, outcome, requests, cached, _, summary = _gaps_row(papers, key)
    assert (sent, outcome, cached) == (False, "not sent", 0) and requests > 0
    assert summary.startswith("citation gaps: no answer from OpenAlex (") and "search(es) failed after" in summary
    assert "answered from the cache" not in summary


def test_offline_no_request_and_no_openalex_row(papers, fake):
    key = doi_key("10.3390/min11050474")
    assert papers.analyse(key, OpenAlexResource(offline=True), opt_in=True).success
    assert fake.requests == []
    assert papers.rows("SELECT stage FROM paper_llm_use WHERE paper_key = ? ORDER BY stage", [key]) == [("argumentation",), ("claims",)]


def test_a_doi_the_graph_lacks_is_read_from_openalex_with_its_references(papers, fake):
    key = doi_key(UNKNOWN)
    assert papers.analyse(key, ONLINE).success
    work = next(w for w in real_works() if w["doi"].lower().endswith(UNKNOWN))
    (document,) = papers.rows("SELECT kind, source, title, paragraphs, reference_count FROM paper_documents WHERE paper_key = ?", [key])
    assert document == ("doi", f"OpenAlex (doi:{UNKNOWN})", work["title"], 1, len(set(work["referenced_works"])))
    (abstract,) = papers.rows("SELECT text FROM paper_texts WHERE paper_key = ? AND part = 'paragraph'", [key])[0]
    assert len(abstract) > 200
    # its references that are recorded works come back with their DOIs (one OR filter by OpenAlex id)
    recorded = {w["id"]: w["doi"].rsplit("doi.org/", 1)[1].lower() for w in real_works()}
    expected = {recorded[ref] for ref in work["referenced_works"] if ref in recorded}
    with_doi = {doi for (doi,) in papers.rows("SELECT doi FROM paper_texts WHERE paper_key = ? AND part = 'reference' AND doi IS NOT NULL", [key])}
    assert expected and with_doi == expected
    lookups = [(path, q) for path, q in fake.requests if "search=" not in q]
    assert any("openalex:" in q for _, q in lookups) and len(lookups) <= 3  # the DOI (batch, single if missed) + references
    (sent, service, outcome, requests, summary), = papers.rows(
        "SELECT sent, service, outcome, requests, summary FROM paper_llm_use WHERE paper_key = ? AND stage = 'doi_lookup'", [key])
    assert (sent, service, outcome, requests) == (True, "OpenAlex (https://api.openalex.org)", "looked up", len(lookups))
    assert "its DOI and" in summary and "references without a DOI" in summary
    assert ("paper_documents", len(lookups)) in papers.rows("SELECT asset, sum(requests) FROM openalex_usage GROUP BY asset")
    # offline afterwards: nothing sent, and the lookup is not kept in the research areas' openalex_cache (the scores'
    # input): the partition fails in one line, as a DOI unknown offline does
    sent_before = len(fake.requests)
    assert not papers.analyse(key, OpenAlexResource(offline=True)).success
    assert len(fake.requests) == sent_before
    assert papers.rows("SELECT count(*) FROM duckdb_tables() WHERE table_name = 'openalex_cache'") == [(0,)]


def test_a_doi_neither_the_graph_nor_openalex_has_fails_in_one_line(papers, fake):
    result = papers.analyse(doi_key("10.9999/not-anywhere"), ONLINE)
    (failure,) = result.get_step_failure_events()
    assert failure.step_failure_data.user_failure_data.description == (
        "DOI 10.9999/not-anywhere is no publication of the graph, and OpenAlex has no work with that DOI")
    offline = papers.analyse(doi_key("10.9999/not-anywhere-2"), OpenAlexResource(offline=True))
    (failure,) = offline.get_step_failure_events()
    assert failure.step_failure_data.user_failure_data.description == (
        "DOI 10.9999/not-anywhere-2 is no publication of the graph and OpenAlex is not asked (RECON_OPENALEX=offline)")


def test_recon_paper_refuses_an_unknown_doi_only_when_openalex_is_offline(papers, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("RECON_DB_PATH", str(papers.database))
    monkeypatch.setenv("RECON_OPENALEX", "offline")
    assert recon(["paper", "10.9999/Not-Anywhere", "--db", str(papers.database)]) == 2
    assert capsys.readouterr().err == (
        f"error: recon paper: DOI 10.9999/not-anywhere is no publication of the graph in {papers.database} and OpenAlex, which "
        "would give its title, abstract and references, is offline (RECON_OPENALEX=offline, or OPENALEX_API_KEY is not set): "
        "set OPENALEX_API_KEY, or give the paper's PDF instead, `recon paper PATH.pdf`\n")
    assert not (tmp_path / "home").exists()
