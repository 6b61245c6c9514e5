"""crossref_relations and recorded_disputes in Dagster, over Crossref faked at httpx's transport with the records of
fixtures/crossref (PROVENANCE.md): the requests a run makes, what the cache keeps through an offline or failed run,
a crossref_cache written by an older recon_assets, and the Crossref readings beside the title readings."""

from __future__ import annotations

import logging

import dagster as dg
import duckdb
import httpx
import pytest
import respx

from recon_assets.enrichment.assets import crossref_relations, crossref_retractions
from recon_assets.enrichment.resources import CrossrefResource
from recon_assets.judgement.assets import recorded_disputes

from recon_assets.storage.duckdb_store import TableStore
from recon_assets.storage.ownership import OWNER_MARK
from recon_assets_tests.fake_crossref import FakeCrossref, fixture_works
from recon_assets_tests.pipeline_runs import run_figures

AREA = "water_quality"
URL = "https://crossref.test"
PAPER, COMMENT, REPLY = "10.2113/gsjfr.48.1.29", "10.5555/recon-constructed-comment-1", "10.5555/recon-constructed-reply-1"
CORRECTED, NOTICE = "10.1371/journal.pone.0200549", "10.1371/journal.pone.0203153"
PREPRINT = "10.5194/acp-2021-781"
RECORDS = [
    *fixture_works("constructed_comment_relations.json"), *fixture_works("records/10.1371_journal.pone.0203153.json"),
    *fixture_works("records/10.5194_acp-2021-781.json"),
]
# The KG: the paper, the corrected paper, the preprint, and a work citing the paper titled as a comment on it (the
# constructed comment itself, as if the KG held it: title and Crossref name the same work).
KG = [
    (PAPER, "Benthic Foraminifera in Hypersaline Salwa Bay", 2018),
    (CORRECTED, "Pollination in a new climate", 2018),
    (PREPRINT, "Microphysical processes producing high ice water contents", 2021),
]


def _database(tmp_path, *, comment_in_kg: bool = False) -> str:
    path = str(tmp_path / "recon.duckdb")
    rows = KG + ([(COMMENT, "Comment on “Benthic Foraminifera in Hypersaline Salwa Bay”", 2019)] if comment_in_kg else [])
    with duckdb.connect(path) as con:
        con.execute("CREATE TABLE publications (publication_id VARCHAR, doi VARCHAR, title VARCHAR, year BIGINT, first_author_tag VARCHAR)")
        con.executemany("INSERT INTO publications VALUES (?, ?, ?, ?, ?)", [(doi, doi, title, year, None) for doi, title, year in rows])
        con.execute("CREATE TABLE publication_research_areas AS SELECT publication_id, ? AS research_area FROM publications", [AREA])
        con.execute("CREATE TABLE publication_citations (citing_publication_id VARCHAR, cited_publication_id VARCHAR)")
        if comment_in_kg:
            con.execute("INSERT INTO publication_citations VALUES (?, ?)", [COMMENT, PAPER])
    return path


def _run(database: str, crossref: CrossrefResource, instance: dg.DagsterInstance | None = None):
    return dg.materialize(
        [crossref_retractions, crossref_relations, recorded_disputes], partition_key=AREA,
        resources={"store": TableStore(database=database), "crossref": crossref}, instance=instance,
    )


def _query(database: str, sql: str, params=()):
    with duckdb.connect(database, read_only=True) as con:
        return con.execute(sql, list(params)).fetchall()


ONLINE = CrossrefResource(base_url=URL, retries=0)
DISPUTES = "SELECT publication_id, relation, other_key, other_year, source FROM recorded_disputes ORDER BY ALL"
EXPECTED = [
    (CORRECTED, "correction", NOTICE, 2018, "crossref update-to"),
    (PAPER, "comment", COMMENT, 2019, "crossref relation"),
    (PAPER, "reply", REPLY, 2020, "crossref relation"),
]


def _metadata(result, asset: str) -> dict:
    [event] = [e for e in result.get_asset_materialization_events() if e.asset_key == dg.AssetKey(asset)]
    return run_figures(event.materialization)


def test_relations_and_corrections_are_fetched_in_few_requests_and_survive_offline_and_failed_runs(tmp_path):
    database = _database(tmp_path)
    fake = FakeCrossref(RECORDS)
    with respx.mock(base_url=URL) as mock:
        route = mock.get("/works").mock(side_effect=fake)
        result = _run(database, ONLINE)
    assert result.success
    # one updates: request for the three DOIs; records: the three, then the comment (named by the paper), then the
    # reply (named by the comment); the preprint's interactive-discussion comments are not asked for
    assert route.call_count == 4
    assert fake.asked == {"updates": [sorted([PAPER, CORRECTED, PREPRINT])], "doi": [sorted([PAPER, CORRECTED, PREPRINT]), [COMMENT], [REPLY]]}
    relations = _metadata(result, "crossref_relations")
    # Crossref has no record of the corrected paper in this fixture (its notice points at it): not_found, no relations
    assert relations["http_requests"] == 3 and relations["kg_dois_with_a_record"] == 2
    assert relations["kg_dois_this_run"] == {"found": 2, "not_found": 1, "error": 0}
    assert relations["related_works_asked"] == 2 and relations["related_works_with_a_record"] == 2
    assert relations["other_relation_entries_not_stored"] == {"is-preprint-of": 1}
    assert _query(database, DISPUTES) == EXPECTED
    disputes = _metadata(result, "recorded_disputes")
    # 4 entries of the comment chain, 1 correction notice; AC1-AC3 and RC1-RC2 of the preprint set aside
    assert (disputes["crossref_entries_read"], disputes["crossref_entries_made_disputes"], disputes["crossref_entries_set_aside"]) == (10, 5, 5)
    relations_rows = _query(database, "SELECT count(*) FROM crossref_relations")

    # offline, then with Crossref failing: no notice, record or dispute is lost, nothing is duplicated
    for resource, requests in ((CrossrefResource(offline=True), 0), (ONLINE, 4)):
        with respx.mock(base_url=URL, assert_all_called=False) as mock, dg.instance_for_test() as instance:
            route = mock.get("/works").mock(return_value=httpx.Response(503))
            result = _run(database, resource, instance)
            assert result.success and route.call_count == requests
            warnings = [e.user_message for e in instance.all_logs(result.run_id) if e.level == logging.WARNING]
        # a Crossref outage is said, with its error; offline is the default and is not
        assert any("Crossref answered for none of the 3 DOIs (e.g. HTTP 503" in w for w in warnings) is (not resource.offline)
        assert _query(database, DISPUTES) == EXPECTED
        assert _query(database, "SELECT count(*) FROM crossref_relations") == relations_rows
        assert _query(database, "SELECT count(*), count(DISTINCT doi) FROM crossref_record_cache") == [(5, 5)]


def test_a_comment_read_from_its_title_and_recorded_by_crossref_is_one_row_with_both_sources(tmp_path):
    database = _database(tmp_path, comment_in_kg=True)
    with respx.mock(base_url=URL) as mock:
        mock.get("/works").mock(side_effect=FakeCrossref(RECORDS))
        result = _run(database, ONLINE)
    # the comment is a KG publication too, and the reply answers it as well (as a "Reply to" citing both would)
    assert _query(database, DISPUTES) == [
        EXPECTED[0], (PAPER, "comment", COMMENT, 2019, "crossref relation + kg title"), EXPECTED[2],
        (COMMENT, "reply", REPLY, 2020, "crossref relation"),
    ]
    assert _metadata(result, "recorded_disputes")["sources"] == {
        "crossref relation": 2, "crossref relation + kg title": 1, "crossref update-to": 1,
    }


OLD_CROSSREF_CACHE = f"""
CREATE TABLE crossref_cache (doi VARCHAR PRIMARY KEY, notice_dois VARCHAR[] NOT NULL, checked_at TIMESTAMPTZ NOT NULL);
COMMENT ON TABLE crossref_cache IS '{OWNER_MARK}';
INSERT INTO crossref_cache VALUES ('10.1371/journal.pone.0200549', ['10.5555/old-notice'], '2026-01-05 10:00:00+00');
"""


@pytest.mark.parametrize("offline", [True, False], ids=["offline", "online"])
def test_a_crossref_cache_written_before_update_notices_were_kept_is_migrated_not_broken(tmp_path, offline):
    """A database written by the previous recon_assets: crossref_cache without `updates`. CREATE TABLE IF NOT EXISTS
    keeps it as it was; the column is added, the retraction notices it holds stay, and a new check fills it."""
    database = _database(tmp_path)
    with duckdb.connect(database) as con:
        con.execute(OLD_CROSSREF_CACHE)
    with respx.mock(base_url=URL, assert_all_called=False) as mock:
        mock.get("/works").mock(side_effect=FakeCrossref(RECORDS))
        assert _run(database, CrossrefResource(offline=True) if offline else ONLINE).success
    columns = [name for name, *_ in _query(database, "DESCRIBE crossref_cache")]
    assert columns == ["doi", "notice_dois", "checked_at", "updates"]
    [(notices, updates)] = _query(database, "SELECT notice_dois, updates FROM crossref_cache WHERE doi = ?", [CORRECTED])
    if offline:
        # the old check stands: its notice is still there, its update notices unknown (NULL), not an error
        assert (notices, updates) == (["10.5555/old-notice"], None)
        assert _query(database, "SELECT status, notice_dois FROM crossref_retractions WHERE doi = ?", [CORRECTED]) == [
            ("checked", ["10.5555/old-notice"])
        ]
        assert _query(database, DISPUTES) == []
    else:
        assert notices == [] and '"update_type": "correction"' in updates
        assert _query(database, DISPUTES) == EXPECTED
