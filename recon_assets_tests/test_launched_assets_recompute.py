"""What to re-run is Dagster's decision (issue 23): an asset launched on a database that already holds its tables
computes them again, with the rows a fresh run writes, and gives the data version of the tables it wrote; an asset
check evaluates each time it runs. (That an unchanged re-run launches nothing and a new as_of launches only its
readers is `recon run`'s: test_end_to_end.py's wheel test and test_staleness.py.)"""

import dagster as dg
import duckdb

from recon_assets.automation.jobs import STANDALONE_CHECKS
from recon_assets.declarations import ASSET_TABLES
from recon_assets.shared.data_versions import TABLE_DIGESTS, table_digest, version_of
from recon_assets.shared.run_tags import AS_OF_TAG
from recon_assets_tests.pipeline_runs import AREAS, RANGE_TAGS, SAMPLE_JSONL, pipeline_defs

TYPED = ["publications", "datasets", "dataset_publication_edges", "publication_citations", "publication_research_areas", "science_keywords"]
ENRICHMENT = ["openalex_works", "openalex_citing_works", "crossref_retractions", "crossref_relations"]
LAUNCHED = [
    *TYPED, "publication_centrality", "dataset_lineage", *ENRICHMENT, "recorded_disputes", "coherence_judgements", "edge_reliability",
    "dataset_verdicts", "reliability_evaluation", "dispute_evaluation",
]
COMPARED = [
    *TYPED, "publication_centrality", "dataset_lineage", *ENRICHMENT, "recorded_disputes", "coherence_judgements", "edge_reliability",
    "dataset_verdicts", "reliability_evaluation_cases", "dispute_evaluation_pairs",
]
# Columns that say when a row was written: a recomputation changes them, nothing else.
WRITTEN_AT = {
    "edge_reliability": "scored_at", "dataset_verdicts": "judged_at", "coherence_judgements": "judged_at", "recorded_disputes": "recorded_at",
}
MOVED = {AS_OF_TAG: "2027-03-01"}


def rows(database, table: str) -> list[tuple]:
    with duckdb.connect(str(database), read_only=True) as con:
        columns = [name for name, *_ in con.execute(f"DESCRIBE {table}").fetchall() if name != WRITTEN_AT.get(table)]
        if table == "dataset_verdicts":  # its history: what the previous judging of this database said, and when
            columns = [name for name in columns if name not in ("previous_verdict", "verdict_changed_at")]
        shown = ", ".join(f'"{name}"' for name in columns)
        return con.execute(f"SELECT {shown} FROM {table} ORDER BY ALL").fetchall()


def instance(path):
    path.mkdir()
    return dg.instance_for_test(temp_dir=str(path))


def run_jobs(defs, instance, tags) -> list[dg.AssetMaterialization]:
    """Every materialization of the three jobs `recon run` launches, run in this process with `tags`."""
    results = [
        defs.resolve_job_def("kg_tables_job").execute_in_process(instance=instance, tags=tags),
        defs.resolve_job_def("openalex_refresh_job").execute_in_process(instance=instance, tags={**RANGE_TAGS, **tags}),
        defs.resolve_job_def("reliability_evaluation_job").execute_in_process(instance=instance, tags=tags),
    ]
    return [event.materialization for result in results for event in result.get_asset_materialization_events()]


def check_results(defs, instance) -> dict[str, dg.AssetCheckEvaluation]:
    """{check: its evaluation} of one run of every asset check that runs without its asset."""
    job = dg.Definitions.merge(defs, dg.Definitions(jobs=[dg.define_asset_job("checks", selection=STANDALONE_CHECKS)]))
    result = job.resolve_job_def("checks").execute_in_process(instance=instance, raise_on_error=False)
    return {evaluation.check_name: evaluation for evaluation in result.get_asset_check_evaluations()}


def test_a_launched_asset_recomputes_with_a_fresh_runs_rows_and_its_checks_evaluate_each_run(sample_run, tmp_path):
    # Another snapshot (the sample with one publication's title revised) and another as_of, on the sample's database
    revised = tmp_path / "graph.json"
    revised.write_text(SAMPLE_JSONL.read_text().replace('"title":"', '"title":"Revised: ', 1))
    database = sample_run.copy_database(tmp_path / "recon.duckdb")
    defs = pipeline_defs(revised, database)
    with instance(tmp_path / "home") as dagster_instance:
        materializations = run_jobs(defs, dagster_instance, MOVED)
        assert not [m.asset_key for m in materializations if "skipped" in m.metadata or "computed" in m.metadata]

        recomputed = {table: rows(database, table) for table in COMPARED}
        # the data version is that of the tables written, as the database holds them; each partition records its own digests
        last = {m.asset_key.to_user_string(): m for m in materializations}
        assert set(LAUNCHED) <= set(last)
        with duckdb.connect(str(database), read_only=True) as con:
            for name in LAUNCHED:
                whole = {table: table_digest(con, table) for table in ASSET_TABLES[name].writes}
                assert last[name].tags["dagster/data_version"] == version_of(whole), name
            by_area = {
                m.partition: m.metadata[TABLE_DIGESTS].data for m in materializations if m.asset_key == dg.AssetKey("edge_reliability")
            }
            assert set(by_area) == set(AREAS)
            assert by_area == {area: {"edge_reliability": table_digest(con, "edge_reliability", area)} for area in AREAS}
            assert last["publications"].metadata[TABLE_DIGESTS].data == {"publications": table_digest(con, "publications")}

        # Asset checks evaluate on every run: rows made invalid fail the check now, and again on the next run
        with duckdb.connect(str(database)) as con:
            con.execute("UPDATE edge_reliability SET reliability = 1.5 WHERE rowid = (SELECT min(rowid) FROM edge_reliability)")
        first, again = check_results(defs, dagster_instance), check_results(defs, dagster_instance)
        for checks in (first, again):
            assert checks["edge_reliability_values_valid"].passed is False
            assert checks["publication_year_coverage"].passed is True
            assert not [name for name, evaluation in checks.items() if "skipped" in evaluation.metadata]
            assert checks["edge_reliability_values_valid"].metadata["database"].value == str(database)

    fresh_database = tmp_path / "fresh.duckdb"
    with instance(tmp_path / "fresh_home") as dagster_instance:
        run_jobs(pipeline_defs(revised, fresh_database), dagster_instance, MOVED)
    with duckdb.connect(str(fresh_database), read_only=True) as con:
        (moved_as_of,) = con.execute("SELECT DISTINCT as_of FROM edge_reliability").fetchone()
    assert str(moved_as_of) == MOVED[AS_OF_TAG]
    assert recomputed["publications"] != rows(sample_run.database, "publications")
    for table in COMPARED:
        assert recomputed[table] == rows(fresh_database, table), table
