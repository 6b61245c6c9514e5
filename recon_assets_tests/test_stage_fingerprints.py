"""An unchanged re-run keeps every fingerprinted table and says why; a changed snapshot, setting, code version or
as_of recomputes what depends on it, with the rows a fresh run writes (`storage.fingerprints`)."""

import dagster as dg
import duckdb

from recon_assets.automation.jobs import STANDALONE_CHECKS
from recon_assets.shared.run_tags import AS_OF_TAG
from recon_assets.storage.fingerprints import Stage, table_digest
from recon_assets_tests.pipeline_runs import RANGE_TAGS, SAMPLE_GRAPHML, SAMPLE_JSONL, pipeline_defs

TYPED = ["publications", "datasets", "dataset_publication_edges", "publication_citations", "publication_research_areas", "science_keywords"]
# Offline, as the sample run is: nothing is requested, so an unchanged re-run may keep them.
ENRICHMENT = ["openalex_works", "openalex_citing_works", "crossref_retractions", "crossref_relations"]
AS_OF_FREE = [*TYPED, "publication_centrality", "dataset_lineage", *ENRICHMENT, "recorded_disputes"]
AS_OF_BOUND = ["edge_reliability", "dataset_verdicts", "reliability_evaluation", "dispute_evaluation"]
# Columns that say when a row was written: a recomputation changes them, nothing else.
WRITTEN_AT = {
    "edge_reliability": "scored_at", "dataset_verdicts": "judged_at", "coherence_judgements": "judged_at", "recorded_disputes": "recorded_at",
}


def outcomes(results) -> dict[str, str]:
    """{asset: its `skipped` or `computed` text} over the results (one partition stands for a partitioned asset)."""
    found = {}
    for result in results:
        for event in result.get_asset_materialization_events():
            metadata = event.materialization.metadata
            text = metadata.get("skipped") or metadata.get("computed")
            if text is not None:
                found[event.asset_key.to_user_string()] = text.value
    return found


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


def run_jobs(defs, dagster_instance, tags=None, run_config=None):
    tags = tags or {}
    return [
        defs.resolve_job_def("kg_tables_job").execute_in_process(instance=dagster_instance, tags=tags),
        defs.resolve_job_def("openalex_refresh_job").execute_in_process(instance=dagster_instance, tags={**RANGE_TAGS, **tags}, run_config=run_config),
        defs.resolve_job_def("reliability_evaluation_job").execute_in_process(instance=dagster_instance, tags=tags),
    ]


def test_unchanged_rerun_skips_and_changed_as_of_redoes_only_what_depends_on_it(sample_run, tmp_path):
    database = sample_run.copy_database(tmp_path / "recon.duckdb")
    defs = pipeline_defs(SAMPLE_JSONL, database)
    with instance(tmp_path / "home") as dagster_instance:
        unchanged = outcomes(run_jobs(defs, dagster_instance))
        for asset in [*AS_OF_FREE, "coherence_judgements", *AS_OF_BOUND]:
            assert unchanged[asset].startswith("skipped: inputs unchanged since"), (asset, unchanged[asset])
        assert "as_of 2026-11-29" in unchanged["edge_reliability"]
        for table in [*AS_OF_FREE, "coherence_judgements", *AS_OF_BOUND]:
            assert rows(database, table) == rows(sample_run.database, table), table

        moved = {AS_OF_TAG: "2027-03-01"}
        changed = outcomes(run_jobs(defs, dagster_instance, tags=moved))
        for asset in AS_OF_FREE:
            assert changed[asset].startswith("skipped:"), (asset, changed[asset])
        # the judge reads as_of's year only (its evidence window)
        assert changed["coherence_judgements"] == "changed: settings (as_of_year 2026 -> 2027)"
        for asset in AS_OF_BOUND:
            assert changed[asset].startswith("changed: as_of 2026-11-29 -> 2027-03-01"), (asset, changed[asset])

    # the same rows as a fresh run at that as_of
    fresh_database = tmp_path / "fresh.duckdb"
    with instance(tmp_path / "fresh_home") as dagster_instance:
        fresh = outcomes(run_jobs(pipeline_defs(SAMPLE_JSONL, fresh_database), dagster_instance, tags=moved))
    assert {fresh[asset] for asset in [*AS_OF_FREE, *AS_OF_BOUND]} == {"first run"}
    for table in ["coherence_judgements", "edge_reliability", "dataset_verdicts", "reliability_evaluation_cases", "dispute_evaluation_pairs"]:
        assert rows(database, table) == rows(fresh_database, table), table


def test_changed_snapshot_and_settings_recompute_with_a_fresh_runs_rows(sample_run, tmp_path):
    database = sample_run.copy_database(tmp_path / "recon.duckdb")
    # Another snapshot: the sample with one publication's title revised.
    revised = tmp_path / "graph.json"
    revised.write_text(SAMPLE_JSONL.read_text().replace('"title":"', '"title":"Revised: ', 1))
    defs = pipeline_defs(revised, database)
    with instance(tmp_path / "home") as dagster_instance:
        changed = outcomes([
            defs.resolve_job_def("kg_tables_job").execute_in_process(instance=dagster_instance),
            defs.resolve_job_def("openalex_refresh_job").execute_in_process(instance=dagster_instance, tags=RANGE_TAGS),
        ])
        for asset in [*TYPED, "publication_centrality"]:
            assert changed[asset].startswith("changed: snapshot_id "), (asset, changed[asset])
        # the lineage reads the datasets only, which the revised title leaves as they were
        assert changed["dataset_lineage"].startswith("skipped: inputs unchanged since")
        for asset in ["openalex_works", "crossref_retractions", "crossref_relations", "recorded_disputes"]:
            assert changed[asset].startswith("changed: table publications"), (asset, changed[asset])
        assert changed["coherence_judgements"].startswith("changed: table publications")

        scoring = defs.resolve_job_def("edge_reliability_job")
        other = {"ops": {"edge_reliability": {"config": {"weights": {"centrality": 0.5, "recency": 0.2, "coherence": 0.3}}}}}
        reweighted = outcomes([scoring.execute_in_process(instance=dagster_instance, tags=RANGE_TAGS, run_config=other)])
        assert reweighted["edge_reliability"].startswith("changed:") and "settings" in reweighted["edge_reliability"]
        back = outcomes([scoring.execute_in_process(instance=dagster_instance, tags=RANGE_TAGS)])
        assert back["edge_reliability"] == "changed: settings (weights)"

    fresh_database = tmp_path / "fresh.duckdb"
    with instance(tmp_path / "fresh_home") as dagster_instance:
        fresh_defs = pipeline_defs(revised, fresh_database)
        fresh_defs.resolve_job_def("kg_tables_job").execute_in_process(instance=dagster_instance)
        fresh_defs.resolve_job_def("openalex_refresh_job").execute_in_process(instance=dagster_instance, tags=RANGE_TAGS)
    assert rows(database, "publications") != rows(sample_run.database, "publications")
    for table in [*AS_OF_FREE, "coherence_judgements", "edge_reliability"]:
        assert rows(database, table) == rows(fresh_database, table), table


def test_a_changed_code_version_or_a_table_changed_after_writing_recomputes(tmp_path):
    with duckdb.connect(str(tmp_path / "f.duckdb")) as con:
        con.execute("CREATE TABLE t AS SELECT range AS x, now() AS recorded_at FROM range(10)")
        con.execute("CREATE TABLE out AS SELECT 1 AS y")
        inputs = {"code_version": "a", "settings": {"k": 1}, "table t": table_digest(con, "t")}
        first = Stage("asset", ("",), inputs, ("out",))
        assert first.skip_reason(con) == (None, "first run")
        first.record(con)
        skipped, why = first.skip_reason(con)
        assert skipped.startswith("skipped: inputs unchanged since") and why == ""
        # a row rewritten at another time, same content: unchanged
        con.execute("UPDATE t SET recorded_at = now() + INTERVAL 1 HOUR")
        assert Stage("asset", ("",), {**inputs, "table t": table_digest(con, "t")}, ("out",)).skip_reason(con)[0] is not None
        assert Stage("asset", ("",), {**inputs, "code_version": "b"}, ("out",)).skip_reason(con) == (None, "changed: code_version a -> b")
        assert Stage("asset", ("",), {**inputs, "settings": {"k": 2}}, ("out",)).skip_reason(con) == (None, "changed: settings (k 1 -> 2)")
        con.execute("UPDATE t SET x = x + 1 WHERE x = 3")
        assert Stage("asset", ("",), {**inputs, "table t": table_digest(con, "t")}, ("out",)).skip_reason(con) == (None, "changed: table t")
        con.execute("INSERT INTO out VALUES (2)")
        assert first.skip_reason(con) == (None, "out changed since it was written")


def check_outcomes(defs, dagster_instance, run_config=None) -> dict[str, tuple[bool, str, dict]]:
    """{check: (passed, its `skipped` or `computed` text, its metadata)} of one run of every asset check that runs
    without its asset."""
    job = dg.Definitions.merge(defs, dg.Definitions(jobs=[dg.define_asset_job("checks", selection=STANDALONE_CHECKS)]))
    result = job.resolve_job_def("checks").execute_in_process(instance=dagster_instance, run_config=run_config, raise_on_error=False)
    found = {}
    for evaluation in result.get_asset_check_evaluations():
        metadata = {name: value.value for name, value in evaluation.metadata.items()}
        found[evaluation.check_name] = (evaluation.passed, metadata.pop("skipped", None) or metadata.pop("computed", None), metadata)
    return found


def test_a_check_keeps_its_result_while_what_it_reads_is_unchanged_and_still_fails_when_it_should(sample_run, tmp_path):
    database = sample_run.copy_database(tmp_path / "recon.duckdb")
    defs = pipeline_defs(SAMPLE_JSONL, database)
    suites = ["publication_year_coverage", "publication_doi_coverage", "edge_reliability_values_valid"]
    with instance(tmp_path / "home") as dagster_instance:
        first = check_outcomes(defs, dagster_instance)
        again = check_outcomes(defs, dagster_instance)
        for check in suites:
            assert again[check][1].startswith("skipped: inputs unchanged since") and again[check][1].endswith("(passed)"), again[check]
            # the same result, naming the file it read now
            assert again[check][0] is first[check][0] is True and again[check][2] == first[check][2], check
            assert again[check][2]["database"] == str(database)

        # another config: evaluated again; the same config again: its result kept
        stricter = {"ops": {"publications_publication_year_coverage": {"config": {"min_share": 0.9}}}}
        evaluated = check_outcomes(defs, dagster_instance, stricter)["publication_year_coverage"]
        assert evaluated[1] == "changed: settings (min_share 0.8 -> 0.9)"
        assert check_outcomes(defs, dagster_instance, stricter)["publication_year_coverage"][1].startswith("skipped:")

        # publications without years: evaluated again, and failed; unchanged again, it stays failed
        with duckdb.connect(str(database)) as con:
            con.execute("UPDATE publications SET year = NULL")
        failed = check_outcomes(defs, dagster_instance, stricter)["publication_year_coverage"]
        assert failed[0] is False and failed[1] == "changed: table publications"
        kept = check_outcomes(defs, dagster_instance, stricter)["publication_year_coverage"]
        assert kept[0] is False and kept[1].endswith("(failed)") and kept[2] == failed[2]

        # changed rows: evaluated again, with the result a first evaluation of those rows gives
        with duckdb.connect(str(database)) as con:
            con.execute("UPDATE edge_reliability SET reliability = 1.5 WHERE rowid = (SELECT min(rowid) FROM edge_reliability)")
        changed = check_outcomes(defs, dagster_instance)["edge_reliability_values_valid"]
        assert changed[0] is False and changed[1] == "changed: table edge_reliability"
    with instance(tmp_path / "fresh_home") as dagster_instance:
        with duckdb.connect(str(database)) as con:
            con.execute("DELETE FROM stage_fingerprints")
        fresh = check_outcomes(defs, dagster_instance)["edge_reliability_values_valid"]
    assert fresh[1] == "first run" and (fresh[0], fresh[2]) == (changed[0], changed[2])
