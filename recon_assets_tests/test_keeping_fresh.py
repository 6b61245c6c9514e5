"""Keeping fresh on a real Dagster instance: the scheduled refresh leaves nothing stale, the KG source sensor sees a
changed export, and kg_snapshot_diff says what changed between two snapshots and why."""

import json
import shutil
from datetime import datetime
from pathlib import Path

import dagster as dg
import duckdb
import httpx2
import pytest
from dagster._core.definitions.data_version import CachingStaleStatusResolver, StaleStatus
from dagster._core.loader import LoadingContextForTest

from recon_assets.automation import kg_source_sensor as source_sensor
from recon_assets.automation.kg_source_sensor import kg_source_sensor
from recon_assets.kg.checksum import file_sha256
from recon_assets.kg.hub_source import PINNED_REVISION, REPO_ID
from recon_assets.kg.partitions import every_research_area_tags
from recon_assets.kg.resources import HuggingFaceKgExport, LocalKgExport
from recon_assets.shared.run_tags import AS_OF_TAG, KG_SHA256_TAG, KG_SOURCE_TAG
from recon_assets.shared.sql_files import load_sql
from recon_assets_tests.pipeline_runs import SAMPLE_JSONL, PipelineRun, pipeline_defs

# the fake Hugging Face transport and its recorded exchanges (fixtures/huggingface/PROVENANCE.md)
from recon_assets_tests.test_hub_source import BODY_SHA256, FakeHub, go_offline, hub  # noqa: F401 (hub is a fixture)

NEW_AS_OF = "2031-06-01"


def stale_assets(run: PipelineRun) -> dict[str, list]:
    """{asset: [(partition, stale causes)]} of every asset (and partition) Dagster's resolver calls STALE."""
    graph = run.defs.resolve_asset_graph()
    resolver = CachingStaleStatusResolver(run.instance, graph, LoadingContextForTest(run.instance))
    stale: dict[str, list] = {}
    for key in graph.materializable_asset_keys:
        partitions = graph.get(key).partitions_def
        # a paper's or a question's partitions (dynamic) are read from the instance
        keys = partitions.get_partition_keys(dynamic_partitions_store=run.instance) if partitions else [None]
        for partition in keys:
            if resolver.get_status(key, partition) == StaleStatus.STALE:
                causes = [f"{cause.reason} {cause.dependency}" for cause in resolver.get_stale_causes(key, partition)]
                stale.setdefault(key.to_user_string(), []).append((partition, causes[:2]))
    return stale


def _line_of(test) -> int:
    """The index of the first line of the shipped sample that `test` accepts (the sample is regenerated now and then)."""
    return next(index for index, line in enumerate(SAMPLE_JSONL.read_text().splitlines()) if test(json.loads(line)))


PUBLICATION_LINE = _line_of(lambda element: element.get("properties", {}).get("doi") == "10.1175/jhm-d-13-094.1")
CITES_LINE = _line_of(lambda element: element.get("label") == "CITES")


def changed_sample(path: Path) -> Path:
    """The sample with one Publication's DOI and year changed, one CITES relationship left out and a DataCenter added."""
    lines = SAMPLE_JSONL.read_text().splitlines()
    publication = json.loads(lines[PUBLICATION_LINE])
    assert publication["properties"]["doi"] == "10.1175/jhm-d-13-094.1"
    publication["properties"].update(doi="10.1175/JHM-D-13-094.2", year="2015")
    lines[PUBLICATION_LINE] = json.dumps(publication)
    assert json.loads(lines[CITES_LINE])["label"] == "CITES"
    del lines[CITES_LINE]
    lines.append(json.dumps({"type": "node", "id": "999999", "labels": ["DataCenter"], "properties": {"globalId": "new-data-center", "shortName": "NEW"}}))
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def refreshed(sample_run, tmp_path_factory) -> PipelineRun:
    """The session's sample run, copied (its Dagster instance's storage and its database, which the tests below write
    to; the shared run stays as it is), its definitions pointed at a copy of the sample, then the daily schedule's run
    as the daemon would launch it. The tests below run in file order on this one instance (a pipeline run each would
    add minutes to the suite; issue 23: a copy in place of this file's own run of the sample)."""
    workdir = tmp_path_factory.mktemp("fresh") / "run"
    # sample_run's folder: its instance (temp_dir) and recon.duckdb; nothing writes to it once its run is done
    shutil.copytree(sample_run.database.parent, workdir)
    kg = workdir / "graph.json"
    kg.write_bytes(SAMPLE_JSONL.read_bytes())
    database = workdir / "recon.duckdb"
    with dg.instance_for_test(temp_dir=str(workdir)) as instance:
        defs = pipeline_defs(kg, database)
        assert instance.get_latest_materialization_event(dg.AssetKey("reliability_evaluation")) is not None  # the copy's history
        schedule = defs.resolve_schedule_def("edge_reliability_daily_schedule")
        context = dg.build_schedule_context(instance=instance, scheduled_execution_time=datetime(2026, 11, 30, 6))
        (request,) = schedule.evaluate_tick(context).run_requests
        result = defs.resolve_job_def(schedule.job_name).execute_in_process(instance=instance, tags=request.tags)
        assert result.success
        yield PipelineRun(instance, defs, database, [result])


def test_added_and_removed_elements_are_named_the_first_10_and_the_rest_counted():
    """Hostile pass: the diff said "1 Dataset removed" without saying which. Each row names its elements by DOI, else
    globalId (the key of a record kept before names were), the first 10 by name, and counts the rest."""
    con = duckdb.connect()
    con.execute(load_sql("kg_snapshot_history"))
    con.execute(load_sql("kg_snapshot_diff"))
    con.execute("INSERT INTO kg_snapshot_history VALUES ('previous', 'old', now()), ('current', 'new', now())")
    rows = [
        ("previous", "node", "Dataset", "g-dataset", 1, None, None, "10.5067/gone"),
        ("previous", "node", "Dataset", "g-old-record", 1, None, None, None),
        *[("previous", "node", "Publication", f"g-p{n:02}", 1, f"10.1000/p{n:02}", 2020, f"10.1000/p{n:02}") for n in range(12)],
        ("previous", "relationship", "USES_DATASET", "k1", 1, None, None, "10.1000/a -> 10.5067/d"),
        ("current", "relationship", "USES_DATASET", "k1", 3, None, None, "10.1000/a -> 10.5067/d"),  # two parallel copies more
    ]
    con.executemany("INSERT INTO kg_snapshot_history_elements VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    con.execute(f"INSERT INTO kg_snapshot_diff {load_sql('kg_snapshot_diff_rows')}")
    assert con.execute("SELECT change, element_type, elements, names, reason FROM kg_snapshot_diff ORDER BY 1, 2").fetchall() == [
        ("node_removed", "Dataset", 2, ["10.5067/gone", "g-old-record"], "in snapshot old, not in new: 10.5067/gone, g-old-record"),
        ("node_removed", "Publication", 12, [f"10.1000/p{n:02}" for n in range(10)],
         "in snapshot old, not in new: " + ", ".join(f"10.1000/p{n:02}" for n in range(10)) + " and 2 more"),
        ("relationship_added", "USES_DATASET", 2, ["10.1000/a -> 10.5067/d"], "in snapshot new, not in old: 10.1000/a -> 10.5067/d"),
    ]


def test_first_snapshot_diff_is_empty_and_says_why(sample_run):
    assert sample_run.query("SELECT count(*) FROM kg_snapshot_diff") == [(0,)]
    event = sample_run.instance.get_latest_materialization_event(dg.AssetKey("kg_snapshot_diff"))
    metadata = event.asset_materialization.metadata
    assert metadata["previous_snapshot_id"].value == ""
    assert "first one recorded" in metadata["compared"].value


def test_the_daily_refresh_leaves_nothing_stale(refreshed):
    assert stale_assets(refreshed) == {}


def test_a_one_area_run_writing_the_same_rows_leaves_everything_fresh(refreshed):
    """A partitioned asset's data version is that of its whole tables (shared.data_versions), so edge_reliability_job
    run for one area, as the schedule ran it before, leaves everything fresh when it writes the rows the all-area run
    wrote (it left what reads every area stale when a run's version was that of its own areas), and stale what reads
    every area when its rows change (a later as_of). (Runs on the module's instance; the next test's refresh makes
    everything fresh again.)"""
    job = refreshed.defs.resolve_job_def("edge_reliability_job")
    [scheduled] = refreshed.instance.get_runs(limit=1)  # the daily schedule's run, the fixture's last
    # an area with scored edges, whose rows a later as_of changes (an area without rows stays as it was: still fresh)
    [(area,)] = refreshed.query("SELECT research_area FROM edge_reliability GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1")
    job.execute_in_process(instance=refreshed.instance, partition_key=area, tags={AS_OF_TAG: scheduled.tags[AS_OF_TAG]})
    assert stale_assets(refreshed) == {}
    job.execute_in_process(instance=refreshed.instance, partition_key=area, tags={AS_OF_TAG: NEW_AS_OF})
    assert "reliability_evaluation" in stale_assets(refreshed)


def sensor_tick(run: PipelineRun, kg: Path, cursor: str | None = None):
    context = dg.build_sensor_context(instance=run.instance, cursor=cursor, resources={"kg_export": LocalKgExport(path=str(kg))})
    return kg_source_sensor(context), context


def test_sensor_skips_an_unchanged_export_and_says_why(refreshed):
    kg = refreshed.database.parent / "graph.json"
    result, context = sensor_tick(refreshed, kg)
    assert isinstance(result, dg.SkipReason)
    assert f"unchanged: {kg} has sha256 {file_sha256(kg)} (hashed), the snapshot last ingested" == result.skip_message
    again, _ = sensor_tick(refreshed, kg, context.cursor)
    assert "size and modification time unchanged" in again.skip_message


def test_sensor_skips_a_missing_export_without_failing(refreshed, tmp_path):
    result, context = sensor_tick(refreshed, tmp_path / "nowhere.json")
    assert isinstance(result, dg.SkipReason)
    assert "does not exist: set RECON_KG_PATH" in result.skip_message
    assert context.cursor is None


def test_sensor_skips_an_empty_export_a_link_loop_and_a_file_changed_while_hashed(refreshed, tmp_path, monkeypatch):
    """Hostile findings: an empty file requested a refresh (the SHA-256 of nothing), a symbolic-link loop failed the
    tick, and a file rewritten while it was hashed was recorded with its old size and time beside the new digest."""
    empty = tmp_path / "empty.json"
    empty.touch()
    result, context = sensor_tick(refreshed, empty)
    assert "is empty: no snapshot to ingest" in result.skip_message and context.cursor is None
    loop = tmp_path / "loop.json"
    loop.symlink_to(loop)
    result, _ = sensor_tick(refreshed, loop)
    assert isinstance(result, dg.SkipReason) and "cannot be read" in result.skip_message
    growing = tmp_path / "growing.json"
    growing.write_bytes(SAMPLE_JSONL.read_bytes())

    def hash_while_appending(path):
        digest = file_sha256(path)
        with path.open("ab") as file:
            file.write(b"\n")
        return digest

    monkeypatch.setattr(source_sensor, "file_sha256", hash_while_appending)
    result, context = sensor_tick(refreshed, growing)
    assert "changed while it was hashed" in result.skip_message and context.cursor is None


def test_a_refresh_request_tags_the_source_without_its_credentials(tmp_path):
    """Left from the hostile pass (issue 24): the sensor's RunRequest carried the KG source in its recon/kg_source tag
    in clear; a URL's user information in the path is redacted there (a fresh instance: nothing ingested yet)."""
    kg = tmp_path / "https:" / "reader:s3cret@kg.example" / "graph.json"
    kg.parent.mkdir(parents=True)
    kg.write_bytes(SAMPLE_JSONL.read_bytes())
    with dg.instance_for_test(temp_dir=str(tmp_path)) as instance:
        request = kg_source_sensor(dg.build_sensor_context(instance=instance, resources={"kg_export": LocalKgExport(path=str(kg))}))
    assert isinstance(request, dg.RunRequest)
    assert request.tags[KG_SOURCE_TAG] == str(tmp_path / "https:" / "[redacted]@kg.example" / "graph.json")


@pytest.mark.parametrize("shape", ["a symbolic-link loop", "not a regular file", "missing"])
def test_a_skip_reason_never_shows_a_secret(tmp_path, monkeypatch, shape):
    """Hostile pass (issue 24): the symbolic-link loop's file-system error text was put in the skip reason, which
    Dagster stores with the tick, without `redact`. Every reason passes through it: here the secret is in the path,
    which both the error text and the reason quote."""
    secret = "gsk_sensorsecret1234567890abcd"
    monkeypatch.setenv("GROQ_API_KEY", secret)
    folder = tmp_path / secret
    folder.mkdir()
    kg = folder / "graph.json"
    if shape == "a symbolic-link loop":
        kg.symlink_to(kg)
    elif shape == "not a regular file":
        kg.mkdir()
    with dg.instance_for_test(temp_dir=str(tmp_path)) as instance:
        result = kg_source_sensor(dg.build_sensor_context(instance=instance, resources={"kg_export": LocalKgExport(path=str(kg))}))
    assert isinstance(result, dg.SkipReason)
    assert secret not in result.skip_message and str(tmp_path / "[redacted]" / "graph.json") in result.skip_message


def test_changed_export_requests_a_refresh_whose_diff_says_what_changed_and_why(refreshed, tmp_path):
    kg = refreshed.database.parent / "graph.json"
    _, context = sensor_tick(refreshed, kg)
    changed_sample(kg)
    request, context = sensor_tick(refreshed, kg, context.cursor)
    digest = file_sha256(kg)
    assert isinstance(request, dg.RunRequest)
    assert request.run_key == f"kg/{digest}"
    assert request.tags[KG_SOURCE_TAG] == str(kg) and request.tags[KG_SHA256_TAG] == digest
    repeated, _ = sensor_tick(refreshed, kg, context.cursor)
    assert "already requested" in repeated.skip_message

    tags = {**request.tags, **every_research_area_tags(), AS_OF_TAG: NEW_AS_OF}
    result = refreshed.defs.resolve_job_def("kg_refresh_job").execute_in_process(instance=refreshed.instance, tags=tags)
    assert result.success
    assert stale_assets(refreshed) == {}
    snapshot_ids = refreshed.query("SELECT DISTINCT previous_snapshot_id, current_snapshot_id FROM kg_snapshot_diff")
    assert snapshot_ids == [(file_sha256(SAMPLE_JSONL)[:16], digest[:16])]
    graph_rows = refreshed.query(
        "SELECT change, element_type, elements, element_key, before, after, causes FROM kg_snapshot_diff WHERE change <> 'edge_label_changed' ORDER BY 1, 2"
    )
    publication = json.loads(SAMPLE_JSONL.read_text().splitlines()[PUBLICATION_LINE])["properties"]["globalId"]
    assert graph_rows == [
        ("node_added", "DataCenter", 1, None, None, None, ["graph"]),
        ("publication_doi_changed", "Publication", 1, publication, "10.1175/jhm-d-13-094.1", "10.1175/jhm-d-13-094.2", ["graph"]),
        ("publication_year_changed", "Publication", 1, publication, "2014", "2015", ["graph"]),
        ("relationship_removed", "CITES", 1, None, None, None, ["graph"]),
    ]
    # Hostile pass: "1 ... removed" without saying which. A node by its globalId (a DataCenter has no DOI), a
    # relationship by the DOIs of its ends.
    cites = json.loads(SAMPLE_JSONL.read_text().splitlines()[CITES_LINE])
    ends = [refreshed.query("SELECT doi FROM publications WHERE list_contains(node_ids, ?)", [str(cites[end]["id"])])[0][0] for end in ("start", "end")]
    named = refreshed.query("SELECT change, names, reason FROM kg_snapshot_diff WHERE names IS NOT NULL ORDER BY 1")
    assert named == [
        ("node_added", ["new-data-center"], f"in snapshot {digest[:16]}, not in {file_sha256(SAMPLE_JSONL)[:16]}: new-data-center"),
        ("relationship_removed", [f"{ends[0]} -> {ends[1]}"], f"in snapshot {file_sha256(SAMPLE_JSONL)[:16]}, not in {digest[:16]}: {ends[0]} -> {ends[1]}"),
    ]
    edges = refreshed.query("SELECT before, after, causes, reason FROM kg_snapshot_diff WHERE change = 'edge_label_changed'")
    assert edges, "moving as_of five years on changes labels (recency, evidence window)"
    for before, after, causes, reason in edges:
        assert before != after
        # both scorings are recorded: the snapshot and as_of changed for every edge, settings never did
        assert {"graph", "as_of"} <= set(causes) and "settings" not in causes
        assert f"as_of 2026-11-30 -> {NEW_AS_OF}" in reason


def hub_tick(instance: dg.DagsterInstance, revision: str = "main"):
    context = dg.build_sensor_context(instance=instance, resources={"kg_export": HuggingFaceKgExport(revision=revision)})
    return kg_source_sensor(context)


def test_sensor_requests_a_refresh_for_the_hub_file_at_a_new_revision(hub: FakeHub, tmp_path):
    with dg.instance_for_test(temp_dir=str(tmp_path)) as instance:
        request = hub_tick(instance)
    assert isinstance(request, dg.RunRequest)
    assert request.tags[KG_SHA256_TAG] == BODY_SHA256
    assert request.tags[KG_SOURCE_TAG] == f"hf://{REPO_ID}@{PINNED_REVISION}/graph.json"
    assert [(r.method, r.url.path) for r in hub.requests] == [("HEAD", f"/datasets/{REPO_ID}/resolve/main/graph.json")]


def test_sensor_skips_when_the_hub_cannot_be_asked(hub: FakeHub, tmp_path, monkeypatch):
    with dg.instance_for_test(temp_dir=str(tmp_path)) as instance:
        hub.fail_with = httpx2.ConnectError("connection refused")
        unreachable = hub_tick(instance)
        go_offline(monkeypatch)
        offline = hub_tick(instance)
    assert isinstance(unreachable, dg.SkipReason) and "cannot look at" in unreachable.skip_message
    assert isinstance(offline, dg.SkipReason) and "HF_HUB_OFFLINE" in offline.skip_message
