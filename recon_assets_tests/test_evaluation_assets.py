"""reliability_evaluation materialized on the shipped sample (which holds the labelled real cases), after the whole
pipeline, in a real Dagster instance."""

import dagster as dg
import duckdb
import pytest

from recon_assets.evaluation.assets import reliability_evaluation
from recon_assets.evaluation.cases import load_cases
from recon_assets.evaluation.measure import CASE_SETS, COMPARED, MEASURES, RULES, TARGETS
from recon_assets.shared.as_of import AsOfDate
from recon_assets.storage.duckdb_store import TableStore
from recon_assets_tests.pipeline_runs import AS_OF


def _evaluate(sample_run, database, as_of=AS_OF, before=None):
    """reliability_evaluation on a copy of the sample run's database (the shared run stays read-only), after
    running the SQL `before` on the copy."""
    sample_run.copy_database(database, before)
    resources = {"store": TableStore(database=str(database)), "as_of": AsOfDate(as_of=as_of)}
    return dg.materialize([reliability_evaluation], resources=resources, instance=sample_run.instance)


@pytest.fixture(scope="module")
def evaluation(sample_run, tmp_path_factory):
    database = tmp_path_factory.mktemp("evaluation") / "recon.duckdb"
    result = _evaluate(sample_run, database)
    assert result.success
    with duckdb.connect(str(database), read_only=True) as con:
        yield result, con


def test_every_measure_of_every_setting_condition_and_split(evaluation):
    _, con = evaluation
    settings, defaults = con.execute(
        "SELECT count(DISTINCT setting), count(DISTINCT setting) FILTER (is_default) FROM reliability_evaluation"
    ).fetchone()
    assert (settings, defaults) == (198, 1)
    assert con.execute("SELECT DISTINCT setting FROM reliability_evaluation WHERE is_default").fetchone() == ("0.4/0.3/0.3 linear",)
    measured = {row[0] for row in con.execute("SELECT DISTINCT measure FROM reliability_evaluation WHERE is_default").fetchall()}
    assert measured == set(MEASURES)
    assert {row for row in con.execute("SELECT DISTINCT condition, split FROM reliability_evaluation").fetchall()} == {
        ("online", "all"), ("online", "held_out"), ("offline", "all"), ("offline", "held_out"),
    }
    assert {row[0] for row in con.execute("SELECT DISTINCT case_set FROM reliability_evaluation").fetchall()} == set(CASE_SETS)


def test_every_rate_is_its_numerator_over_its_denominator_inside_its_wilson_interval(evaluation):
    _, con = evaluation
    wrong = con.execute(
        "SELECT count(*) FROM reliability_evaluation WHERE measure <> 'roc_auc' AND ("
        "(denominator = 0 AND value IS NOT NULL) OR (denominator > 0 AND abs(value - numerator / denominator) > 1e-12) "
        "OR (denominator > 0 AND NOT (ci_low <= value AND value <= ci_high)))"
    ).fetchone()[0]
    assert wrong == 0


def test_the_default_labels_are_edge_reliability_labels(evaluation):
    """Scoring again from the stored inputs gives the stored labels (as_of and settings the same): the evaluation
    measures the method the pipeline runs."""
    _, con = evaluation
    compared, differing = con.execute(
        "SELECT count(*), count(*) FILTER (c.label <> e.label) FROM reliability_evaluation_cases AS c "
        "JOIN edge_reliability AS e USING (dataset_id, publication_id) WHERE c.condition = 'online'"
    ).fetchone()
    assert compared >= 100 and differing == 0


def test_every_case_is_reported_in_both_conditions_found_or_not(evaluation):
    _, con = evaluation
    cases = load_cases()
    for condition in ("online", "offline"):
        reported = {row[0] for row in con.execute("SELECT case_id FROM reliability_evaluation_cases WHERE condition = ?", [condition]).fetchall()}
        assert reported == set(cases["case_id"])
    found = con.execute("SELECT count(*) FILTER (found), count(*) FROM reliability_evaluation_cases WHERE condition = 'offline'").fetchone()
    assert found[0] >= 0.9 * found[1]


def test_online_counts_only_cases_with_an_openalex_record_and_says_over_how_many(evaluation):
    _, con = evaluation
    with_record = con.execute(
        "SELECT count(*) FROM reliability_evaluation_cases WHERE condition = 'online' AND has_openalex_record AND grade <> 'C' "
        "AND class = 'superseded_version'"
    ).fetchone()[0]
    assert con.execute(
        "SELECT denominator FROM reliability_evaluation WHERE is_default AND split = 'all' AND condition = 'online' "
        "AND case_set = 'IF' AND measure = 'staleness_catch'"
    ).fetchone()[0] == with_record
    # offline no case has a record
    assert con.execute("SELECT count(*) FILTER (has_openalex_record) FROM reliability_evaluation_cases WHERE condition = 'offline'").fetchone()[0] == 0


def test_the_base_rate_counts_every_scored_kg_edge(evaluation):
    """Beside the staleness catch: how many of ALL the KG's edges the default flags."""
    _, con = evaluation
    stored = con.execute(
        "SELECT count(*) FILTER (label IN ('DECLINING', 'SUPERSEDED')), count(*) "
        "FROM (SELECT DISTINCT dataset_id, publication_id, label FROM edge_reliability)"
    ).fetchone()
    assert con.execute(
        "SELECT DISTINCT numerator, denominator FROM reliability_evaluation WHERE is_default AND split = 'all' AND condition = 'online' "
        "AND measure = 'base_rate'"
    ).fetchall() == [stored]  # the same in every case set: it runs over every KG edge


def test_circular_cases_stay_out_of_the_headline_rates(evaluation):
    _, con = evaluation
    graded_superseded, circular_superseded = con.execute(
        "SELECT count(*) FILTER (grade <> 'C'), count(*) FILTER (grade = 'C') FROM reliability_evaluation_cases "
        "WHERE condition = 'offline' AND found AND class = 'superseded_version'"
    ).fetchone()
    staleness, circular = (
        con.execute(
            "SELECT denominator FROM reliability_evaluation WHERE is_default AND split = 'all' AND condition = 'offline' "
            "AND measure = 'staleness_catch' AND case_set = ?",
            [case_set],
        ).fetchone()[0]
        for case_set in ("IF", "C")
    )
    assert staleness == graded_superseded and circular == circular_superseded > 0


def test_settings_are_ranked_by_discrimination_on_the_i_cases(evaluation):
    _, con = evaluation
    best = con.execute(
        "SELECT value FROM reliability_evaluation WHERE condition = 'offline' AND split = 'all' AND measure = 'roc_auc' "
        "AND case_set = 'I' AND auc_rank = 1"
    ).fetchall()
    assert best and best[0][0] == con.execute(
        "SELECT max(value) FROM reliability_evaluation WHERE condition = 'offline' AND split = 'all' AND measure = 'roc_auc' AND case_set = 'I'"
    ).fetchone()[0]
    # a setting's rank is the same on every case set's rows
    assert con.execute(
        "SELECT count(*) FROM (SELECT condition, split, setting FROM reliability_evaluation GROUP BY ALL HAVING count(DISTINCT auc_rank) > 1)"
    ).fetchone()[0] == 0


def test_the_default_stands_beside_every_baseline_on_the_same_cases(evaluation):
    _, con = evaluation
    keys = con.execute("SELECT count(*), count(DISTINCT (condition, split, case_set, measure, rule)) FROM reliability_evaluation_baselines").fetchone()
    assert keys[0] == keys[1] == 2 * 2 * len(CASE_SETS) * len(COMPARED) * len(RULES)
    # the default's figures are the ablation's default figures
    differing = con.execute(
        "SELECT count(*) FROM reliability_evaluation_baselines b JOIN reliability_evaluation e USING (condition, split, case_set, measure) "
        "WHERE e.is_default AND b.rule = 'default' AND (b.numerator IS DISTINCT FROM e.numerator OR b.denominator IS DISTINCT FROM e.denominator "
        "OR abs(b.value - e.value) > 1e-12)"
    ).fetchone()[0]
    assert differing == 0
    # lifecycle_only flags a superseded-version case exactly when its edge rests on a superseded dataset version (offline: no retraction)
    flagged = con.execute(
        "SELECT count(*) FILTER (list_contains(evidence, 'superseded_version')), count(*) FROM reliability_evaluation_cases "
        "WHERE condition = 'offline' AND found AND grade IN ('I', 'F') AND class = 'superseded_version'"
    ).fetchone()
    assert con.execute(
        "SELECT numerator, denominator FROM reliability_evaluation_baselines WHERE condition = 'offline' AND split = 'all' "
        "AND case_set = 'IF' AND measure = 'staleness_catch' AND rule = 'lifecycle_only'"
    ).fetchone() == flagged
    # flag_everything flags every case of a set, and orders nothing
    assert con.execute(
        "SELECT count(*) FROM reliability_evaluation_baselines WHERE rule = 'flag_everything' AND measure NOT IN ('flag_precision', 'roc_auc') "
        "AND numerator <> denominator"
    ).fetchone()[0] == 0
    assert {row[0] for row in con.execute(
        "SELECT DISTINCT value FROM reliability_evaluation_baselines WHERE rule = 'flag_everything' AND measure = 'roc_auc' AND value IS NOT NULL"
    ).fetchall()} <= {0.5}
    # the paired difference is the default's figure minus the rule's; counted per node, never more nodes than cases
    wrong = con.execute(
        "SELECT count(*) FROM reliability_evaluation_baselines b JOIN reliability_evaluation_baselines d "
        "ON d.rule = 'default' AND (d.condition, d.split, d.case_set, d.measure) = (b.condition, b.split, b.case_set, b.measure) "
        "WHERE b.rule <> 'default' AND b.value IS NOT NULL AND d.value IS NOT NULL "
        "AND (b.difference IS NULL OR abs(b.difference - (d.value - b.value)) > 1e-12)"
    ).fetchone()[0]
    assert wrong == 0
    assert con.execute(
        "SELECT count(*) FROM reliability_evaluation_baselines WHERE node_denominator > denominator OR node_numerator > node_denominator "
        "OR (rule = 'default' AND difference IS NOT NULL)"
    ).fetchone()[0] == 0


def test_metadata_gives_numbers_targets_and_the_headline_beside_its_base_rates(evaluation):
    result, _ = evaluation
    metadata = result.asset_materializations_for_node("reliability_evaluation")[0].metadata
    assert isinstance(metadata["offline_staleness_catch"].value, float)
    assert isinstance(metadata["offline_base_rate"].value, float)
    headline = metadata["headline"].value
    assert "| staleness_catch |" in headline and "| base_rate |" in headline and "| labelled_prevalence |" in headline
    targets = metadata["targets"].value
    assert "foundational_false_flag" in targets and "lifecycle_only" in targets
    statuses = ("targets_met", "targets_tied_at_zero", "targets_missed", "targets_not_measured")
    assert sum(metadata[status].value for status in statuses) == len(TARGETS)
    assert "lifecycle_only" in metadata["baselines"].value.splitlines()[0]


def test_an_edgeless_kg_gives_an_empty_evaluation_not_a_failure(sample_run, tmp_path):
    database = tmp_path / "recon.duckdb"
    result = _evaluate(sample_run, database, before="DELETE FROM dataset_publication_edges")
    assert result.success
    with duckdb.connect(str(database), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM reliability_evaluation").fetchone() == (0,)
        assert con.execute("SELECT count(*) FILTER (found) FROM reliability_evaluation_cases").fetchone() == (0,)


def test_edges_published_after_as_of_are_left_out_as_scoring_leaves_them_out(sample_run, tmp_path):
    """New-user finding: with `--as-of 2024-06-30` edge_reliability held 151 edges but the evaluation's base rate ran
    over all 164, and 2025 papers were evaluated as CURRENT cases. The evaluation now leaves out the edges scoring
    leaves out (`edge_scores.published_by`): nothing dated after as_of is used."""
    database = tmp_path / "recon.duckdb"
    result = _evaluate(sample_run, database, as_of="2024-06-30")
    assert result.success
    with duckdb.connect(str(database), read_only=True) as con:
        existing, later = con.execute(
            "SELECT count(*) FILTER (publication_year IS NULL OR publication_year <= 2024), count(*) FILTER (publication_year > 2024) "
            "FROM (SELECT DISTINCT dataset_id, publication_id, publication_year FROM edge_reliability)"
        ).fetchone()
        assert later > 0
        assert con.execute(
            "SELECT DISTINCT denominator FROM reliability_evaluation WHERE is_default AND split = 'all' AND measure = 'base_rate'"
        ).fetchall() == [(existing,)]
        found_late = con.execute(
            "SELECT count(*) FROM reliability_evaluation_cases c JOIN edge_reliability e USING (dataset_id, publication_id) "
            "WHERE c.found AND e.publication_year > 2024"
        ).fetchone()[0]
        assert found_late == 0
        left_out = con.execute("SELECT count(*) FROM edge_reliability WHERE publication_year > 2024").fetchone()[0]
    metadata = result.asset_materializations_for_node("reliability_evaluation")[0].metadata
    assert metadata["edges_left_out_after_as_of"].value == left_out
