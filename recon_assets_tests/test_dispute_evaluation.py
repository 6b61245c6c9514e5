"""The pair-level dispute evaluation (evaluation/pairs.py): its rules on small frames, and on the shipped sample's
pipeline run, where every in-scope labelled dispute must be judged (issue 10: "the pipeline judges every known
pair"), every pair is reported, each rate carries its Wilson interval and the LLM judge is said not measured."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from recon_assets.evaluation.metrics import Rate
from recon_assets.evaluation.pairs import (
    CONTROL,
    DISPUTE,
    PAIR_MEASURES,
    evaluate_pairs,
    judged_on_texts,
    load_pairs,
    pipeline_outcomes,
)


def _pairs(*rows) -> pd.DataFrame:
    columns = ["pair_id", "kind", "original_doi", "original_title", "original_year", "original_abstract",
               "newer_doi", "newer_title", "newer_year", "newer_abstract"]
    return pd.DataFrame(rows, columns=columns)


def _fixed_embedder(texts):
    """Every text the same unit vector: similarity 1 (the citing path has no gate, so it does not matter)."""
    return np.ones((len(texts), 2)) / np.sqrt(2)


def test_the_labelled_pairs_are_64_with_their_texts():
    pairs = load_pairs()
    assert (pairs["kind"] == DISPUTE).sum() == 27 and (pairs["kind"] == CONTROL).sum() == 37
    assert pairs["newer_title"].notna().all()  # every pair has at least the newer paper's title to read


def test_content_and_title_readings_of_a_pair():
    pairs = _pairs(
        ("d-x", DISPUTE, "10.1000/a", "Forests green up in drought", "2007", None, "10.1000/b",
         "Comment on 'Forests green up in drought'", "2008", "These estimates are inconsistent with the observations."),
        ("k-x", CONTROL, "10.1000/a", "Forests green up in drought", "2007", None, "10.1000/c",
         "Greening of forests from a second sensor", "2012", "We use a second sensor to map greening."),
    )
    read = judged_on_texts(pairs, embedder=_fixed_embedder).set_index("pair_id")
    assert read.loc["d-x", "title_relation"] == "comment" and pd.isna(read.loc["k-x", "title_relation"])
    assert read.loc["d-x", "content_verdict"] == "CONTRADICTED" and read.loc["d-x", "content_cue"]
    assert read.loc["k-x", "content_verdict"] == "UNVERIFIED" and read["content_judged"].all()


def test_pipeline_outcomes_find_the_pair_by_doi_or_title_and_say_what_the_run_holds():
    pairs = judged_on_texts(_pairs(
        ("d-1", DISPUTE, "10.1000/a", "A", "2007", None, "10.1000/b", "B", "2008", None),
        ("d-2", DISPUTE, "10.1000/a", "A", "2007", None, None, "Comment on A, no DOI", "2009", None),
        ("d-3", DISPUTE, "10.1000/z", "Z", "2001", None, "10.1000/y", "Y", "2002", None),
        ("k-1", CONTROL, "10.1000/a", "A", "2007", None, "10.1000/c", "C", "2012", None),
    ), embedder=_fixed_embedder)
    publications = pd.DataFrame({
        "publication_id": ["pa", "pb", "pc", "pt", "pz", "py"],
        "doi": ["10.1000/a", "10.1000/b", "10.1000/c", None, "10.1000/z", "10.1000/y"],
        "title": ["A", "B", "C", "Comment on A, no DOI", "Z", "Y"],
    })
    edges = pd.DataFrame({"dataset_id": ["kg:d"], "publication_id": ["pa"]})  # pz uses no KG dataset: d-3 is out of scope
    judgements = pd.DataFrame({"older_publication_id": ["pa", "pa"], "newer_publication_id": ["pb", "pb"], "verdict": ["CONTRADICTED", "SUPPORTED"]})
    recorded = pd.DataFrame({"publication_id": ["pa"], "relation": ["comment"], "other_key": ["pt"], "other_doi": [None]})
    # d-1's comment cites the original, d-2's does not (the graph has no CITES for it); k-1's newer work cites it
    citations = pd.DataFrame({"citing_publication_id": ["pb", "pc", "py"], "cited_publication_id": ["pa", "pa", "pz"]})
    outcomes = pipeline_outcomes(pairs, publications, edges, judgements, recorded, citations).set_index("pair_id")
    assert outcomes.loc["d-1", "pipeline_verdicts"] == ["CONTRADICTED", "SUPPORTED"] and outcomes.loc["d-1", "pipeline_contradicted"]
    assert outcomes.loc["d-2", "newer_publication_id"] == "pt" and outcomes.loc["d-2", "pipeline_recorded"]
    assert not outcomes.loc["d-3", "in_scope"] and outcomes.loc["d-3", "in_kg"]
    assert outcomes.loc["k-1", "in_scope"] and not outcomes.loc["k-1", "pipeline_judged"]
    assert outcomes["in_graph"].to_dict() == {"d-1": True, "d-2": False, "d-3": False, "k-1": True}  # d-3: out of scope
    result = evaluate_pairs(outcomes.reset_index())
    measures = result.measures
    assert (measures["pipeline_pairs_judged"].numerator, measures["pipeline_pairs_judged"].denominator) == (2, 2)
    assert measures["disputes_in_scope"].numerator == 2
    assert (measures["pipeline_content_catch_unrecorded"].numerator, measures["pipeline_content_catch_unrecorded"].denominator) == (1, 1)
    # the dispute catch and the controls' false-positive rate both run over the pairs in the graph, judged or not
    assert (measures["pipeline_dispute_catch"].numerator, measures["pipeline_dispute_catch"].denominator) == (1, 1)
    assert (measures["pipeline_control_false_positive"].numerator, measures["pipeline_control_false_positive"].denominator) == (0, 1)
    assert (measures["disputes_in_graph"], measures["controls_in_graph"]) == (Rate(1, 3), Rate(1, 1))
    assert measures["llm_judge"] is None
    targets = result.targets.set_index("measure")
    assert targets.loc["pipeline_dispute_catch", "met"] and targets.loc["pipeline_control_false_positive", "met"]


@pytest.fixture(scope="module")
def dispute_rows(sample_run):
    return {
        "measures": {row[0]: row for row in sample_run.query(
            "SELECT measure, value, numerator, denominator, ci_low, ci_high, target, met FROM dispute_evaluation"
        )},
        "pairs": sample_run.query("SELECT pair_id, kind, in_scope, pipeline_judged FROM dispute_evaluation_pairs"),
    }


def test_the_sample_run_judges_every_in_scope_labelled_dispute(dispute_rows):
    measures = dispute_rows["measures"]
    assert set(measures) == set(PAIR_MEASURES)
    _, value, numerator, denominator, *_ , met = measures["pipeline_pairs_judged"]
    assert numerator == denominator > 0 and value == 1.0 and met is True
    in_scope = [row for row in dispute_rows["pairs"] if row[1] == DISPUTE and row[2]]
    assert len(in_scope) == denominator and all(row[3] for row in in_scope)
    assert len(dispute_rows["pairs"]) == 64  # every pair is reported, in scope or not


def test_every_rate_lies_in_its_wilson_interval_and_the_llm_is_not_measured(dispute_rows):
    for measure, value, numerator, denominator, low, high, _, _ in dispute_rows["measures"].values():
        if measure == "llm_judge":
            assert value is None and denominator is None
        elif denominator:
            assert value == pytest.approx(numerator / denominator) and low <= value <= high
