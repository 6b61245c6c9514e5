"""automation.staleness holds Dagster's own stale status: on a small graph of recon_assets' shapes, its status of
every asset partition equals the `staleStatus` the UI reads through GraphQL (served here by dagster_graphql's test
utilities from a code server of fixtures/staleness/graph.py), after each change that matters to `recon run`."""

from pathlib import Path

import dagster as dg
import pytest
from dagster_graphql.test.utils import define_out_of_process_context, execute_dagster_graphql

from recon_assets.automation.staleness import DATABASE, FRESH, MISSING, STALE, freshness, stale_partitions

GRAPH = Path(__file__).parent / "fixtures" / "staleness" / "graph.py"
AREAS = ["atmosphere", "land", "ocean"]
ASSETS = ["publications", "edge_reliability", "dataset_verdicts", "reliability_evaluation"]
PARTITIONED = ["edge_reliability", "dataset_verdicts"]
STATUS_QUERY = """
query Stale($keys: [AssetKeyInput!]) { assetNodes(assetKeys: $keys) { assetKey { path } staleStatus } }
"""
PARTITION_STATUS_QUERY = """
query Stale($keys: [AssetKeyInput!], $partitions: [String!]) {
  assetNodes(assetKeys: $keys) { assetKey { path } staleStatusByPartition(partitions: $partitions) }
}
"""


def load_graph():
    """The graph as this process loads it now (its code versions read from the environment)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("staleness_graph", GRAPH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def dagster_says(instance: dg.DagsterInstance) -> dict[tuple[str, str | None], str]:
    """{(asset, partition or None): MISSING / STALE / FRESH} as the UI's GraphQL resolves it."""
    keys = lambda names: [{"path": [name]} for name in names]  # noqa: E731
    with define_out_of_process_context(str(GRAPH), "defs", instance) as context:
        whole = execute_dagster_graphql(context, STATUS_QUERY, variables={"keys": keys(set(ASSETS) - set(PARTITIONED))})
        split = execute_dagster_graphql(context, PARTITION_STATUS_QUERY, variables={"keys": keys(PARTITIONED), "partitions": AREAS})
    assert not whole.errors and not split.errors, (whole.errors, split.errors)
    said = {(node["assetKey"]["path"][0], None): node["staleStatus"] for node in whole.data["assetNodes"]}
    for node in split.data["assetNodes"]:
        said.update({(node["assetKey"]["path"][0], area): status for area, status in zip(AREAS, node["staleStatusByPartition"])})
    return said


def we_say(instance: dg.DagsterInstance) -> dict[tuple[str, str | None], str]:
    module = load_graph()
    statuses = freshness(instance, module.defs.resolve_all_asset_specs(), [dg.AssetKey("as_of")])
    return {(status.asset.to_user_string(), status.partition): status.status for status in statuses}


def materialize(instance: dg.DagsterInstance, selection: list[str]) -> None:
    """Materialize `selection` (every partition of a partitioned asset, one run per partition) with the graph's whole
    asset job, as a launched run of a job would: assets left out are still known to it, so what they hold is recorded
    as read (`dg.materialize` would see them as external assets never observed)."""
    job = load_graph().defs.resolve_implicit_global_asset_job_def()
    order = [name for name in ASSETS if name in selection]
    for name in order:
        key = dg.AssetKey(name)
        for area in AREAS if name in PARTITIONED else [None]:
            assert job.execute_in_process(instance=instance, asset_selection=[key], partition_key=area).success


def observe_as_of(instance: dg.DagsterInstance, as_of: str) -> None:
    instance.report_runless_asset_event(dg.AssetObservation("as_of", tags={"dagster/data_version": as_of}))


@pytest.fixture
def instance(tmp_path, monkeypatch):
    for name in list(__import__("os").environ):
        if name.startswith("STALENESS_"):
            monkeypatch.delenv(name)
    with dg.instance_for_test(temp_dir=str(tmp_path)) as instance:
        observe_as_of(instance, "2026-11-29")
        yield instance


def assert_same(instance: dg.DagsterInstance) -> dict[tuple[str, str | None], str]:
    ours = we_say(instance)
    assert ours == dagster_says(instance)
    return ours


def test_missing_then_fresh_after_a_run_then_same_data_version_stays_fresh(instance):
    assert set(assert_same(instance).values()) == {MISSING}
    materialize(instance, ASSETS)
    assert set(assert_same(instance).values()) == {FRESH}
    materialize(instance, ["publications"])  # materialized again, same data version: nothing below is stale
    assert set(assert_same(instance).values()) == {FRESH}


def test_a_changed_code_version_makes_that_asset_stale_and_nothing_else(instance, monkeypatch):
    materialize(instance, ASSETS)
    monkeypatch.setenv("STALENESS_CODE_DATASET_VERDICTS", "2")
    statuses = assert_same(instance)
    assert {key for key, status in statuses.items() if status == STALE} == {("dataset_verdicts", area) for area in AREAS}


def test_a_new_as_of_makes_its_readers_stale_and_what_is_below_them_follows_once_they_change(instance, monkeypatch):
    materialize(instance, ASSETS)
    observe_as_of(instance, "2026-12-01")
    statuses = assert_same(instance)
    assert {key for key, status in statuses.items() if status == STALE} == {("edge_reliability", area) for area in AREAS}
    cause = next(s for s in freshness(instance, load_graph().defs.resolve_all_asset_specs(), [dg.AssetKey("as_of")])
                 if s.status == STALE)
    assert cause.why == "input as_of has a new data version (2026-11-29 -> 2026-12-01)"
    # edge_reliability re-materialized with a new data version in one area: its readers of that area (and the
    # unpartitioned evaluation, which reads every area) are stale, the others stay fresh
    monkeypatch.setenv("STALENESS_DATA_EDGE_RELIABILITY_LAND", "v2")
    materialize(instance, ["edge_reliability"])
    statuses = assert_same(instance)
    assert {key for key, status in statuses.items() if status == STALE} == {("dataset_verdicts", "land"), ("reliability_evaluation", None)}


def test_an_upstream_materialized_again_with_a_new_data_version(instance, monkeypatch):
    materialize(instance, ASSETS)
    monkeypatch.setenv("STALENESS_DATA_PUBLICATIONS", "v2")
    materialize(instance, ["publications"])
    statuses = assert_same(instance)
    assert {key for key, status in statuses.items() if status == STALE} == {("edge_reliability", area) for area in AREAS}
    materialize(instance, ["edge_reliability"])  # same data versions as before: nothing below is stale
    assert set(assert_same(instance).values()) == {FRESH}


def test_a_database_that_no_longer_holds_the_recorded_rows_is_stale(instance):
    """The one cause Dagster cannot see: what the database being run holds (another --db, a table rewritten)."""
    module = load_graph()

    @dg.asset(code_version="1")
    def publications(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
        context.add_asset_metadata({"table_digests": {"publications": "3:42:abcd"}})
        return dg.MaterializeResult(data_version=dg.DataVersion("3:42:abcd"))

    assert dg.materialize([publications], instance=instance).success
    specs = [spec for spec in module.defs.resolve_all_asset_specs() if spec.key.to_user_string() in ("as_of", "publications")]
    held = {"publications": "3:42:abcd"}
    same = freshness(instance, specs, [dg.AssetKey("as_of")], database_digests=lambda tables, areas: {None: held})
    assert [s.status for s in same] == [FRESH]
    other = freshness(instance, specs, [dg.AssetKey("as_of")], database_digests=lambda tables, areas: {None: {"publications": "0:0:abcd"}})
    assert [(s.status, [c.kind for c in s.causes]) for s in other] == [(STALE, [DATABASE])]
    assert stale_partitions(other) == {dg.AssetKey("publications"): [None]}


@pytest.mark.parametrize(
    ("due", "ranges"),
    [
        (["land"], [("land", "land")]),
        (["atmosphere", "land", "ocean"], [("atmosphere", "ocean")]),
        (["ocean", "atmosphere"], [("atmosphere", "atmosphere"), ("ocean", "ocean")]),  # not land: two runs, land not redone
        ([], []),
    ],
)
def test_stale_research_areas_are_launched_as_ranges_that_cover_exactly_them(due, ranges):
    from recon_assets.automation.staleness import partition_ranges

    assert partition_ranges(due, AREAS) == ranges
