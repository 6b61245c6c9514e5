"""reliability_evaluation materialized on the shipped sample, after the whole pipeline, in a real Dagster instance."""


import dagster as dg
import duckdb
import pytest
from dagster_duckdb import DuckDBResource

from recon_assets.evaluation.assets import reliability_evaluation
from recon_assets.evaluation.cases import load_cases
from recon_assets.resources import AsOfDate
from recon_assets_tests.pipeline_runs import AS_OF


def _evaluate(sample_run, database, as_of=AS_OF, before=None):
    """reliability_evaluation on a copy of the sample run's database (the shared run stays read-only), after
    running the SQL `before` on the copy."""
    sample_run.copy_database(database, before)
    resources = {"duckdb": DuckDBResource(database=str(database)), "as_of": AsOfDate(as_of=as_of)}
    return dg.materialize([reliability_evaluation], resources=resources, instance=sample_run.instance)


@pytest.fixture(scope="module")
def evaluation(sample_run, tmp_path_factory):
    database = tmp_path_factory.mktemp("evaluation") / "recon.duckdb"
    result = _evaluate(sample_run, database)
    assert result.success
    with duckdb.connect(str(database), read_only=True) as con:
        yield result, con


def test_one_row_per_setting_with_default_and_age_only_marked(evaluation):
    _, con = evaluation
    rows, defaults, age_only = con.execute(
        "SELECT count(*), count(*) FILTER (is_default), count(*) FILTER (is_age_only) FROM reliability_evaluation"
    ).fetchone()
    assert (rows, defaults, age_only) == (198, 1, 1)
    assert con.execute(
        "SELECT weight_centrality, weight_recency, weight_coherence, decay FROM reliability_evaluation WHERE is_default"
    ).fetchone() == (0.4, 0.3, 0.3, "linear")


@pytest.mark.parametrize(
    "rate, numerator, denominator",
    [
        ("staleness_catch_rate", "staleness_caught", "staleness_cases"),
        ("foundational_false_flag_rate", "foundational_flagged", "foundational_cases"),
        ("contradiction_catch_rate", "contradictions_caught", "contradiction_pairs"),
        ("superseded_precision", "superseded_known", "superseded_labelled"),
        ("flagged_share_all_edges", "edges_flagged", "edges_scored"),
    ],
)
def test_every_rate_is_its_numerator_over_its_denominator(evaluation, rate, numerator, denominator):
    _, con = evaluation
    wrong = con.execute(
        f"SELECT count(*) FROM reliability_evaluation WHERE "
        f"({denominator} = 0 AND {rate} IS NOT NULL) OR ({denominator} > 0 AND abs({rate} - {numerator} / {denominator}) > 1e-12)"
    ).fetchone()[0]
    assert wrong == 0


def test_default_labels_reproduce_edge_reliability(evaluation):
    """Re-scoring from the stored inputs gives the stored labels: the ablation measures the real method."""
    _, con = evaluation
    differing = con.execute(
        "SELECT count(*) FROM reliability_evaluation_cases AS c JOIN edge_reliability AS e USING (dataset_id, publication_id) "
        "WHERE c.got <> e.label"
    ).fetchone()[0]
    compared = con.execute("SELECT count(*) FROM reliability_evaluation_cases AS c JOIN edge_reliability AS e USING (dataset_id, publication_id)").fetchone()[0]
    assert compared >= 20 and differing == 0


def test_every_labelled_case_is_reported_found_or_not(evaluation):
    _, con = evaluation
    reported = {case for (case,) in con.execute("SELECT DISTINCT case_id FROM reliability_evaluation_cases").fetchall()}
    assert reported == set(load_cases()["case_id"])
    not_found = dict(con.execute("SELECT case_id, found FROM reliability_evaluation_cases WHERE kind = 'retracted_work'").fetchall())
    assert not_found == {"b-01": False, "b-02": False}  # the sample's retracted works use no dataset


@pytest.mark.parametrize("case_id, got", [("c-1", "FOUNDATIONAL"), ("c-2", "SUPERSEDED")])
def test_worked_cases_hit(evaluation, case_id, got):
    _, con = evaluation
    assert con.execute("SELECT got, hit FROM reliability_evaluation_cases WHERE case_id = ?", [case_id]).fetchone() == (got, True)


def test_metadata_puts_the_default_beside_the_earlier_baseline(evaluation):
    result, _ = evaluation
    metadata = result.asset_materializations_for_node("reliability_evaluation")[0].metadata
    assert metadata["earlier_age_only_method"].value == {"staleness_catch_rate": "52%", "contradiction_catch_rate": "0%"}
    assert set(metadata["default"].value) == {
        "setting", "staleness_catch_rate", "flagged_share_all_edges", "foundational_false_flag_rate", "contradiction_catch_rate", "superseded_precision"
    }
    assert set(metadata["best_setting_per_rate"].value) == {"staleness_catch_rate", "foundational_false_flag_rate", "contradiction_catch_rate", "superseded_precision"}


def test_base_rate_counts_every_scored_kg_edge(evaluation):
    """Beside the staleness catch rate: how many of ALL the KG's edges the default flags (hostile finding 6)."""
    _, con = evaluation
    stored = con.execute(
        "SELECT count(*), count(*) FILTER (label IN ('DECLINING', 'SUPERSEDED')) "
        "FROM (SELECT DISTINCT dataset_id, publication_id, label FROM edge_reliability)"
    ).fetchone()
    assert con.execute("SELECT edges_scored, edges_flagged FROM reliability_evaluation WHERE is_default").fetchone() == stored
    assert stored[0] >= 20


@pytest.mark.parametrize(
    "labels, counted",
    [
        (["DECLINING", "SUPERSEDED"], "edges_flagged"),
        # second hostile pass, finding 3: worked case 2 (SUPERSEDED by design) is no KG edge
        (["SUPERSEDED"], "superseded_labelled"),
    ],
)
def test_kg_edge_counts_leave_the_worked_cases_out(evaluation, labels, counted):
    _, con = evaluation
    stored = con.execute(
        "SELECT count(*) FILTER (list_contains(?, label)) FROM (SELECT DISTINCT dataset_id, publication_id, label FROM edge_reliability)",
        [labels],
    ).fetchone()[0]
    assert con.execute(f"SELECT {counted} FROM reliability_evaluation WHERE is_default").fetchone()[0] == stored


@pytest.mark.parametrize("as_of", ["2026-01-15"])
def test_empty_edge_reliability_still_evaluates_worked_cases_and_pairs(sample_run, tmp_path, as_of):
    """A KG with no USES_DATASET edge (hostile finding 10): the edge rates are n/a, the rest is measured as of AsOfDate."""
    database = tmp_path / "recon.duckdb"
    assert _evaluate(sample_run, database, as_of, before="DELETE FROM edge_reliability").success
    with duckdb.connect(str(database), read_only=True) as con:
        row = con.execute(
            "SELECT CAST(as_of AS VARCHAR), staleness_cases, foundational_cases, contradiction_pairs, edges_scored, flagged_share_all_edges "
            "FROM reliability_evaluation WHERE is_default"
        ).fetchone()
    assert row == (as_of, 1, 1, 4, 0, None)  # the two worked cases; the four pairs with stored texts
