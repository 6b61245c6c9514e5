"""dataset_verdicts materialized with a real Dagster instance on a copy of the shipped sample's pipeline run:
verdicts with history (a dataset moving PASS -> STALE when its version is superseded), evidence expansion
through the OpenAlex works cache and the citing works openalex_citing_works fetched from OpenAlex (a loopback fake
answering with the real recorded works), and the asset check passing and failing."""


import re

import dagster as dg
import duckdb
import pytest

from recon_assets.enrichment.assets import openalex_citing_works
from recon_assets.enrichment.resources import OpenAlexResource
from recon_assets.reliability.assets import edge_reliability
from recon_assets.shared.as_of import AsOfDate
from recon_assets.storage.duckdb_store import TableStore
from recon_assets.verdicts.assets import dataset_verdicts
from recon_assets.verdicts.checks import dataset_verdicts_one_valid_per_dataset

from recon_assets_tests.fake_openalex import FakeOpenAlex, real_works, serve_on_loopback
from recon_assets_tests.pipeline_runs import AS_OF, run_figures

AREA = "land_surface_agriculture_indicators"
AST_L1T_V003 = "kg:783cfd5c-9ba8-54da-b75f-4e18e456e177"  # 7 edges in AREA; V003, superseded by V031
MOD021KM = ("cryospheric_indicators", "kg:4dcb6ae2-1d54-52cc-9ba8-5718a94afc5c")  # 1 edge, version current
# A real recorded work cited by 7 of the recorded works (fixtures/openalex): the DOI the test dataset takes.
CITED_DOI = "10.3390/rs10081186"


@pytest.fixture
def database(sample_run, tmp_path):
    """A writable copy of the sample run's DuckDB file, without any verdicts yet."""
    return sample_run.copy_database(tmp_path / "recon.duckdb", "DROP TABLE IF EXISTS dataset_verdicts; DROP TABLE IF EXISTS dataset_verdict_history")


def _materialize(instance, database, assets, area, openalex=None) -> dg.ExecuteInProcessResult:
    return dg.materialize(
        [*assets, dataset_verdicts_one_valid_per_dataset], instance=instance, partition_key=area,
        resources={
            "store": TableStore(database=str(database)), "as_of": AsOfDate(as_of=AS_OF),
            "openalex": openalex or OpenAlexResource(offline=True),
        },
    )


def _query(database, sql, params=()):
    with duckdb.connect(str(database), read_only=True) as con:
        return con.execute(sql, list(params)).fetchall()


def _set_superseded(database, dataset_id, superseded):
    """The lineage change a new dataset version brings (or its withdrawal)."""
    with duckdb.connect(str(database)) as con:
        con.execute("UPDATE dataset_lineage SET superseded = ? WHERE dataset_id = ?", [superseded, dataset_id])


def test_a_dataset_moves_from_pass_to_stale_and_history_keeps_each_change(database):
    verdict_sql = (
        "SELECT verdict, previous_verdict, verdict_changed_at, judged_at, stale, contradicted, reason "
        "FROM dataset_verdicts WHERE research_area = ? AND dataset_id = ?"
    )
    with dg.instance_for_test() as instance:
        _set_superseded(database, AST_L1T_V003, False)
        first = _materialize(instance, database, [edge_reliability, dataset_verdicts], AREA)
        [(verdict, previous, changed_at, judged_at, stale, contradicted, reason)] = _query(database, verdict_sql, [AREA, AST_L1T_V003])
        assert (verdict, previous, stale, contradicted) == ("PASS", None, False, False)
        assert changed_at == judged_at
        assert reason.startswith("PASS: 7 edge(s), 7 assessed (not UNVERIFIED), 7 with reliability >= 0.40")
        assert "not stale: dataset version current" in reason

        _set_superseded(database, AST_L1T_V003, True)
        _materialize(instance, database, [edge_reliability, dataset_verdicts], AREA)
        [(verdict, previous, stale_changed_at, judged_at, stale, _, reason)] = _query(database, verdict_sql, [AREA, AST_L1T_V003])
        assert (verdict, previous, stale) == ("STALE", "PASS", True)
        assert stale_changed_at == judged_at > changed_at
        assert reason.startswith("STALE: dataset version V003 superseded by V031 since ") and "under all 7 edges" in reason
        listed = re.findall(r"\[[^\]]+\] \d\.\d+ [A-Z]+", reason)  # '[Pour et al., 2019] 0.39 DECLINING'
        assert listed and len(listed) == len(set(listed))  # each edge once (issue 24: twice when both causes held)

        # unchanged inputs, judged again (launched): the same verdict, when it changed kept, no history row
        _materialize(instance, database, [dataset_verdicts], AREA)
        [(verdict, previous, kept_changed_at, rejudged_at, *_)] = _query(database, verdict_sql, [AREA, AST_L1T_V003])
        assert (verdict, previous, kept_changed_at) == ("STALE", "PASS", stale_changed_at) and rejudged_at > judged_at

        history = _query(
            database, "SELECT verdict, previous_verdict, changed_at FROM dataset_verdict_history "
            "WHERE research_area = ? AND dataset_id = ? ORDER BY changed_at", [AREA, AST_L1T_V003],
        )
        assert history == [("PASS", None, changed_at), ("STALE", "PASS", stale_changed_at)]
        # one verdict per dataset with edges in the area, and the metadata counts them
        assert _query(database, "SELECT count(*) FROM dataset_verdicts WHERE research_area = ?", [AREA]) == _query(
            database, "SELECT count(DISTINCT dataset_id) FROM edge_reliability WHERE research_area = ?", [AREA]
        )
        distribution = run_figures(first.asset_materializations_for_node("dataset_verdicts")[0])["verdict_distribution"]
        assert distribution["PASS"] >= 1 and set(distribution) == {"PASS", "STALE", "CONTRADICTED", "INSUFFICIENT", "FORCED_PASS"}
        assert all(evaluation.passed for evaluation in first.get_asset_check_evaluations())


@pytest.mark.parametrize("carries", [True, False], ids=["carries-its-edge", "outweighed"])
def test_a_contradicting_pair_two_years_apart_makes_the_dataset_contradicted_even_when_stale(database, carries):
    """A contradiction counts for the dataset only when it carries its edge (edge_reliability.coherence_status
    CONTRADICTED); one the works read without objection outweigh does not (offline_judge.aggregate_edge_coherence)."""
    with duckdb.connect(str(database)) as con:
        older, newer = con.execute(
            "SELECT min_by(publication_id, publication_year), max_by(publication_id, publication_year) "
            "FROM edge_reliability WHERE research_area = ? AND dataset_id = ?", [AREA, AST_L1T_V003],
        ).fetchone()
        # a judged pair of the sample, turned into a contradiction of the dataset's oldest edge by its newest
        con.execute("CREATE TEMP TABLE pair AS SELECT * FROM coherence_judgements LIMIT 1")
        con.execute(
            "UPDATE pair SET research_area = ?, dataset_id = ?, older_publication_id = ?, newer_publication_id = ?, "
            "verdict = 'CONTRADICTED', coherence = 0.1, newer_citation = p.first_author_tag, newer_year = p.year "
            "FROM publications AS p WHERE p.publication_id = ?", [AREA, AST_L1T_V003, older, newer, newer],
        )
        con.execute("INSERT INTO coherence_judgements SELECT * FROM pair")
        # the edge's status, as scoring gives it when the contradiction carries it, or when others outweigh it
        con.execute(
            "UPDATE edge_reliability SET coherence_status = ? WHERE research_area = ? AND dataset_id = ? AND publication_id = ?",
            ["CONTRADICTED" if carries else "UNVERIFIED", AREA, AST_L1T_V003, older],
        )
    with dg.instance_for_test() as instance:
        _materialize(instance, database, [dataset_verdicts], AREA)
    [(verdict, stale, contradicted, reason)] = _query(
        database, "SELECT verdict, stale, contradicted, reason FROM dataset_verdicts WHERE research_area = ? AND dataset_id = ?",
        [AREA, AST_L1T_V003],
    )
    if carries:
        assert (verdict, stale, contradicted) == ("CONTRADICTED", True, True)
        assert " contradicts [" in reason and "years apart)" in reason and "also stale: dataset version V003 superseded" in reason
    else:
        assert (verdict, stale, contradicted) == ("STALE", True, False) and " contradicts [" not in reason


def _give_dataset_doi(database, dataset_id, doi):
    """The dataset takes `doi`, and the works cache forgets it (OpenAlex was never asked about it)."""
    with duckdb.connect(str(database)) as con:
        for table in ("datasets", "edge_reliability"):
            column = "doi" if table == "datasets" else "dataset_doi"
            con.execute(f"UPDATE {table} SET {column} = ? WHERE dataset_id = ?", [doi, dataset_id])
        con.execute("DELETE FROM openalex_cache WHERE doi = ?", [doi])


VERDICT_SQL = "SELECT verdict, n_edges, n_reliable_edges, expansion_rounds, expanded_publications, reason FROM dataset_verdicts WHERE dataset_id = ?"


def test_expansion_reads_what_the_enrichment_fetched_and_asks_openalex_nothing(database):
    """MOD021KM has one edge in its area: INSUFFICIENT. Given the DOI of a real cited work, openalex_citing_works
    looks the DOI up and fetches the works citing it; the verdict's round 1 then finds the 7 citing publications in
    the works cache, and dataset_verdicts itself sends no request. The KG's own edge is not reliable (0.33): its
    PageRank, without KG citations, is no evidence and adds nothing (it made 0.41 before)."""
    area, dataset_id = MOD021KM
    _give_dataset_doi(database, dataset_id, CITED_DOI)
    fake = FakeOpenAlex(real_works())
    with dg.instance_for_test() as instance, serve_on_loopback(fake) as base:
        _materialize(instance, database, [openalex_citing_works], area, OpenAlexResource(api_key="test-key", base_url=base))
        assert _query(database, "SELECT status FROM openalex_cache WHERE doi = ?", [CITED_DOI]) == [("found",)]
        requests_before = len(fake.requests)
        _materialize(instance, database, [dataset_verdicts], area)
    [(verdict, edges, reliable, rounds, expanded, reason)] = _query(database, VERDICT_SQL, [dataset_id])
    assert (verdict, edges, reliable, rounds, expanded) == ("PASS", 8, 7, 1, 7)
    assert "round 1, OpenAlex cache: 7 cached work(s) cite W2883746869: [" in reason
    assert len(fake.requests) == requests_before


def test_round_2_finds_the_citing_works_openalex_listed_when_the_works_cache_lacks_them(database):
    """The 7 citing works are not in the works cache (only their listing by openalex_citing_works has them):
    round 1 finds nothing, round 2 reads them from openalex_citing_works."""
    area, dataset_id = MOD021KM
    _give_dataset_doi(database, dataset_id, CITED_DOI)
    with dg.instance_for_test() as instance, serve_on_loopback(FakeOpenAlex(real_works())) as base:
        _materialize(instance, database, [openalex_citing_works], area, OpenAlexResource(api_key="test-key", base_url=base))
        with duckdb.connect(str(database)) as con:
            con.execute(
                "DELETE FROM openalex_cache WHERE doi IN (SELECT citing_doi FROM openalex_citing_works WHERE cited_doi = ?)", [CITED_DOI]
            )
        _materialize(instance, database, [dataset_verdicts], area)
    [(verdict, edges, reliable, rounds, expanded, reason)] = _query(database, VERDICT_SQL, [dataset_id])
    assert (verdict, edges, reliable, rounds, expanded) == ("PASS", 8, 7, 2, 7)
    assert "round 1, OpenAlex cache: 0 cached work(s) cite W2883746869" in reason
    assert "round 2, OpenAlex citing works: 7 OpenAlex work(s) cite W2883746869: [" in reason


def test_offline_an_insufficient_dataset_stays_insufficient_as_round_2_cannot_run(database):
    """Hostile finding 4: offline, OpenAlex was never asked for the dataset's citing works, so round 2 could not run
    and the ceiling of 2 rounds is not hit."""
    area, dataset_id = MOD021KM
    with dg.instance_for_test() as instance:
        _materialize(instance, database, [openalex_citing_works, dataset_verdicts], area)
    [(verdict, rounds, stale, reason)] = _query(
        database, "SELECT verdict, expansion_rounds, stale, reason FROM dataset_verdicts WHERE dataset_id = ?", [dataset_id]
    )
    # both checks ran first and neither fired
    assert (verdict, rounds, stale) == ("INSUFFICIENT", 1, False)
    assert reason.startswith(
        "INSUFFICIENT: 1 edge(s), 0 assessed (not UNVERIFIED), 0 with reliability >= 0.40 (3 of each needed); only 1 of 2 expansion round(s) ran"
    )
    assert "round 2, OpenAlex citing works could not run: not asked: offline: not in the recorded cache" in reason


@pytest.mark.parametrize(
    ("breakage", "failing"),
    [
        ("DELETE FROM dataset_verdicts WHERE dataset_id = '{dataset}'", {"missing": 1, "invalid": 0}),
        ("UPDATE dataset_verdicts SET verdict = 'Pass' WHERE dataset_id = '{dataset}'", {"missing": 0, "invalid": 1}),
    ],
    ids=["missing", "wrong-case"],
)
def test_the_check_fails_on_a_missing_or_invalid_verdict(database, breakage, failing):
    with dg.instance_for_test() as instance:
        _materialize(instance, database, [dataset_verdicts], AREA)
    resource = TableStore(database=str(database))
    assert dataset_verdicts_one_valid_per_dataset(store=resource).passed
    with duckdb.connect(str(database)) as con:
        con.execute(breakage.format(dataset=AST_L1T_V003))
    result = dataset_verdicts_one_valid_per_dataset(store=resource)
    assert not result.passed
    assert {name: result.metadata[name].value for name in failing} == failing
    assert result.metadata["failing_examples"].data == [AST_L1T_V003]
