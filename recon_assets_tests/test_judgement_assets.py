"""The caches under `coherence_judgements`: a launched run judges every research area it covers (which ones is
Dagster's staleness), embeds only texts not in `text_embeddings`, writes the rows a fresh judge writes, and gives
the same data version when it writes the same rows. Real Dagster instance, real DuckDB: a copy of the shared sample
run's database."""

from __future__ import annotations

import shutil
import socket
from pathlib import Path

import dagster as dg
import duckdb
import pytest
import respx

from recon_assets.judgement import assets, text_embedding
from recon_assets.judgement.llm_prompt import PROMPT_VERSION
from recon_assets.judgement.resources import GroqJudgeResource
from recon_assets.shared.as_of import AsOfDate
from recon_assets.shared.data_versions import TABLE_DIGESTS, table_digest, version_of
from recon_assets.shared.metadata import PARTITION_ROW_COUNT
from recon_assets.storage.duckdb_store import TableStore
from recon_assets_tests.groq_fakes import BASE_URL, COMPLETIONS, FakeGroq
from recon_assets_tests.pipeline_runs import AREAS, AS_OF, RANGE_TAGS, run_figures

ROW_COLUMNS = (
    "research_area, dataset_id, older_publication_id, newer_publication_id, similarity, verdict, coherence, "
    "rationale, judge, newer_centrality"
)
CACHE_TABLES = ("coherence_judgements", "text_embeddings", "judge_text_readings")
CHANGED_ABSTRACT = "We show that the earlier retrieval overestimated rainfall; a revised product replaces it."


class Spies:
    """Counts judge_edges calls and records the texts of every embed call."""

    def __init__(self, patch: pytest.MonkeyPatch) -> None:
        self.judge_calls = 0
        self.embedded: list[list[object]] = []
        judge, embed = assets.judge_edges, text_embedding.embed

        def counting_judge(*args, **kwargs):
            self.judge_calls += 1
            return judge(*args, **kwargs)

        def recording_embed(texts):
            self.embedded.append(list(texts))
            return embed(texts)

        patch.setattr(assets, "judge_edges", counting_judge)
        patch.setattr(text_embedding, "embed", recording_embed)


@pytest.fixture
def database(sample_run, tmp_path) -> Path:
    """A private copy of the sample run's database (already judged once by the pipeline)."""
    return sample_run.copy_database(tmp_path / "recon.duckdb")


@pytest.fixture
def instance(tmp_path):
    with dg.instance_for_test(temp_dir=str(tmp_path)) as instance:
        yield instance


def _materialize(
    database: Path, instance: dg.DagsterInstance, *, as_of: str = AS_OF, top_k: int | None = None, groq: GroqJudgeResource | None = None
) -> dict:
    """coherence_judgements for every research area in one run (the LLM judge offline unless `groq` is given); the
    metadata of its materialization."""
    config = {"ops": {"coherence_judgements": {"config": {"top_k": top_k}}}} if top_k else None
    result = dg.materialize(
        [assets.coherence_judgements],
        instance=instance,
        resources={"store": TableStore(database=str(database)), "as_of": AsOfDate(as_of=as_of), "groq_judge": groq or GroqJudgeResource(offline=True)},
        tags=RANGE_TAGS,
        run_config=config,
    )
    materializations = result.asset_materializations_for_node("coherence_judgements")
    assert sorted(m.partition for m in materializations) == sorted(AREAS)
    by_area = {m.partition: m.metadata for m in materializations}
    assert not [area for area, metadata in by_area.items() if "skipped" in metadata]
    return run_figures(materializations[0]) | {
        "data_version": materializations[0].tags["dagster/data_version"],
        "rows_per_research_area": {area: metadata[PARTITION_ROW_COUNT].value for area, metadata in by_area.items()},
    }


def _query(database: Path, sql: str, params=()) -> list[tuple]:
    with duckdb.connect(str(database), read_only=True) as con:
        return con.execute(sql, list(params)).fetchall()


def _rows(database: Path) -> list[tuple]:
    return _query(database, f"SELECT {ROW_COLUMNS} FROM coherence_judgements ORDER BY ALL")


def _fresh_rows(database: Path, tmp_path: Path, **kwargs) -> list[tuple]:
    """The rows a judge with empty caches writes for the same inputs and settings."""
    fresh = tmp_path / "fresh.duckdb"
    shutil.copy(database, fresh)
    with duckdb.connect(str(fresh)) as con:
        for table in CACHE_TABLES:
            con.execute(f"DROP TABLE {table}")
    with dg.instance_for_test() as instance:
        assert _materialize(fresh, instance, **kwargs)["research_areas_judged"] == len(AREAS)
    return _rows(fresh)


def _version(database: Path) -> str:
    """The data version of coherence_judgements as the database holds it (`metadata.written_version`)."""
    with duckdb.connect(str(database), read_only=True) as con:
        return version_of({"coherence_judgements": table_digest(con, "coherence_judgements")})


def _areas_using(database: Path, publication_id: str) -> set[str]:
    """Research areas whose evidence pool holds a dataset used by this publication."""
    return {area for (area,) in _query(
        database,
        "SELECT DISTINCT a.research_area FROM publication_research_areas AS a "
        "JOIN dataset_publication_edges AS e USING (publication_id) "
        "WHERE e.dataset_id IN (SELECT dataset_id FROM dataset_publication_edges WHERE publication_id = ?)",
        [publication_id],
    )}


def _rows_by_area(database: Path) -> dict[str, list[tuple]]:
    """{research area: its rows but judged_at}."""
    by_area: dict[str, list[tuple]] = {}
    for row in _rows(database):
        by_area.setdefault(row[0], []).append(row)
    return by_area


def test_sample_run_judged_pairs_and_recorded_every_area(sample_run):
    assert sample_run.query("SELECT count(*) FROM coherence_judgements")[0][0] > 0
    materializations = [
        event.materialization for result in sample_run.results for event in result.get_asset_materialization_events()
        if event.asset_key == dg.AssetKey("coherence_judgements")
    ]
    # each partition's own table digest ('<rows>:<hash sum>:<columns>'): what `recon run` compares with the database
    recorded = {m.partition: int(m.metadata[TABLE_DIGESTS].data["coherence_judgements"].split(":")[0]) for m in materializations}
    stored = dict(sample_run.query("SELECT research_area, count(*) FROM coherence_judgements GROUP BY 1"))
    assert set(recorded) == set(AREAS)
    assert {area: pairs for area, pairs in recorded.items() if pairs} == stored
    assert sample_run.query("SELECT count(DISTINCT model_id), count(*) > 0 FROM text_embeddings") == [(1, True)]


@pytest.mark.parametrize(
    "as_of",
    [
        pytest.param(AS_OF, id="same-as-of"),
        # The evidence window is measured in years: another day of the same year changes nothing.
        pytest.param("2026-12-31", id="same-year"),
    ],
)
def test_unchanged_inputs_rejudged_embed_nothing_and_keep_the_data_version(sample_run, database, instance, monkeypatch, as_of):
    before = _rows(database)
    spies = Spies(monkeypatch)
    metadata = _materialize(database, instance, as_of=as_of)
    # judged again (Dagster launched it), every text's vector from the cache
    assert (spies.judge_calls, spies.embedded) == (1, [])
    assert metadata["research_areas_judged"] == len(AREAS)
    # the same judgements; at the same as_of the same rows (judged_at aside), so the same data version as the
    # pipeline's: nothing below turns stale (another day's as_of is in each row)
    assert _rows(database) == before
    pipeline = next(
        event.materialization for result in sample_run.results for event in result.get_asset_materialization_events()
        if event.asset_key == dg.AssetKey("coherence_judgements")
    )
    assert (metadata["data_version"] == pipeline.tags["dagster/data_version"]) is (as_of == AS_OF)
    assert sum(metadata["rows_per_research_area"].values()) == len(before)


def test_changed_abstract_changes_only_its_areas_rows_and_embeds_only_its_text(database, instance, monkeypatch, tmp_path):
    version = _version(database)
    publication_id, title = _query(
        database,
        "SELECT publication_id, title FROM publications WHERE publication_id IN "
        "(SELECT newer_publication_id FROM coherence_judgements) ORDER BY publication_id LIMIT 1",
    )[0]
    expected_areas = _areas_using(database, publication_id)
    assert 0 < len(expected_areas) < len(AREAS)
    with duckdb.connect(str(database)) as con:
        con.execute("UPDATE publications SET abstract = ? WHERE publication_id = ?", [CHANGED_ABSTRACT, publication_id])
    before = _rows_by_area(database)

    spies = Spies(monkeypatch)
    second = _materialize(database, instance)

    assert second["research_areas_judged"] == len(AREAS)
    assert spies.judge_calls == 1
    assert spies.embedded == [[f"{title}. {CHANGED_ABSTRACT}"]]
    after = _rows_by_area(database)
    assert {area for area in set(before) | set(after) if before.get(area) != after.get(area)} <= expected_areas
    assert second["data_version"] != version
    assert _rows(database) == _fresh_rows(database, tmp_path)


@pytest.mark.parametrize(
    "change",
    [
        pytest.param({"top_k": 1}, id="judge-config"),
        pytest.param({"as_of": "2027-03-01"}, id="as-of-year"),
    ],
)
def test_settings_change_rejudges_every_area_from_cached_vectors(database, instance, monkeypatch, tmp_path, change):
    version = _version(database)
    spies = Spies(monkeypatch)
    second = _materialize(database, instance, **change)
    assert second["research_areas_judged"] == len(AREAS)
    # Every text was embedded by the pipeline's run: judging again needs no model call.
    assert (spies.judge_calls, spies.embedded) == (1, [])
    assert second["data_version"] != version
    assert _rows(database) == _fresh_rows(database, tmp_path, **change)


def test_lost_rows_are_judged_again(database, instance):
    area, = _query(database, "SELECT research_area FROM coherence_judgements GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")[0]
    before = _rows(database)
    with duckdb.connect(str(database)) as con:
        con.execute("DELETE FROM coherence_judgements WHERE research_area = ?", [area])
    metadata = _materialize(database, instance)
    assert metadata["rows_per_research_area"][area] > 0
    assert _rows(database) == before


def test_an_unreachable_llm_judge_is_named_in_the_metadata_and_its_pairs_keep_the_offline_verdicts(sample_run, tmp_path):
    """Hostile pass (issue 24): a wrong GROQ_BASE_URL (here a port nobody listens on: a real refused connection)
    stops LLM judging at the first request, and the materialization says the LLM judge was unavailable, why, and how
    many pairs kept the offline judge's verdict, instead of "online"; the table is what an offline run writes."""
    database = sample_run.copy_database(tmp_path / "unreachable.duckdb")
    offline_database = sample_run.copy_database(tmp_path / "offline.duckdb")
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    groq = GroqJudgeResource(api_key="gsk_test", base_url=f"https://127.0.0.1:{port}")
    with dg.instance_for_test() as instance:
        unreachable = _materialize(database, instance, groq=groq)
        offline = _materialize(offline_database, instance)
    totals = unreachable["llm_judge_totals"]
    assert totals["http_requests"] == 1 and totals["retries"] == 0 and totals["not_sent"] > 0
    assert unreachable["llm_judge"] == totals["unavailable"] == (
        f"unavailable: cannot connect to https://127.0.0.1:{port}: [Errno 111] Connection refused; "
        f"{totals['not_sent'] - totals['triaged_out']} pairs kept the offline judge's verdict"
    )
    assert offline["llm_judge"].startswith("Groq LLM judge offline")
    assert _rows(database) == _rows(offline_database)


def test_the_llm_judge_answers_triaged_pairs_takes_precedence_and_is_asked_nothing_again(sample_run, tmp_path):
    """With a Groq key the LLM judge reads the pairs triage picks (Groq faked at the transport by respx: the stand-in
    reader of groq_fakes, never a measure of judging); its answers replace the offline verdicts of their pairs,
    name their judge and prompt version, and a re-run with unchanged inputs asks Groq nothing."""
    database = sample_run.copy_database(tmp_path / "llm.duckdb")
    # budgets wide enough for every triaged pair in one run (the budgets have tests of their own)
    budgets = {"max_tokens_per_run": 10**7, "daily_tokens": 10**7}
    groq = GroqJudgeResource(
        api_key="gsk_test", base_url=BASE_URL, settings={"requests_per_minute": 100_000, "tokens_per_minute": 10**9, **budgets}
    )
    fake = FakeGroq()
    with respx.mock(assert_all_called=False) as router, dg.instance_for_test() as instance:
        router.post(COMPLETIONS).mock(side_effect=fake)
        first = _materialize(database, instance, groq=groq)
        asked = len(fake.requests)
        second = _materialize(database, instance, groq=groq)
    assert asked > 0 and len(fake.requests) == asked  # the second run found every answer in llm_judgements
    totals = first["llm_judge_totals"]
    assert first["llm_judge"] == "online" and totals["http_requests"] == asked
    assert second["llm_judge_totals"]["http_requests"] == 0
    assert "Offline and LLM verdicts agree on" in first["judge_agreement"]
    rows = _query(database, "SELECT judge, prompt_version, offline_verdict IS NOT NULL FROM coherence_judgements")
    llm_rows = [row for row in rows if row[0].startswith("groq/")]
    assert llm_rows and all(version == PROMPT_VERSION and replaced for _, version, replaced in llm_rows)
    assert all(version is None for judge, version, _ in rows if judge.startswith("offline/"))
    # offline, the stored answers still hold (only the pairs that have one are looked at; nothing is sent)
    with dg.instance_for_test() as instance:
        offline = _materialize(database, instance, groq=GroqJudgeResource(offline=True))
    assert offline["llm_judge_totals"]["http_requests"] == 0
    assert _query(database, "SELECT count(*) FROM coherence_judgements WHERE judge LIKE 'groq/%'")[0][0] == len(llm_rows)
