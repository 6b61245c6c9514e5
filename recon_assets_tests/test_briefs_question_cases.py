"""The labelled research questions (reference/evaluation/question_cases.yaml) against the files they are built from
and the graph they must run on: every paper a sample publication, from the case or pair it names, with an edge to a
dataset of its question's scope; the counts issue 21 asks for; bad files refused."""

from __future__ import annotations

import json
from collections import defaultdict
from functools import cache

import pandas as pd
import pytest
import yaml
from pydantic import ValidationError

from recon_assets.briefs.question_cases import CONTROL, DISPUTE, QUESTION_CASES_FILE, VERSION_CHAIN, read_question_cases
from recon_assets.briefs.questions import DatasetRow, resolve_scope
from recon_assets.kg.doi import canonical_doi
from recon_assets.shared.paths import SAMPLE_DIR

EVALUATION = QUESTION_CASES_FILE.parent


@cache
def sample() -> tuple[dict[str, str], dict[str, set[str]], list[DatasetRow], set[str]]:
    """(publication node id by canonical DOI, dataset short names each publication uses, the Dataset rows, the
    publication titles) of the shipped sample graph."""
    nodes, relationships = {}, []
    for line in (SAMPLE_DIR / "graph.json").read_text().splitlines():
        record = json.loads(line)
        (nodes.__setitem__(record["id"], record) if record["type"] == "node" else relationships.append(record))
    publications = {
        canonical_doi(node["properties"].get("doi") or node["properties"].get("DOI")): node_id
        for node_id, node in nodes.items() if "Publication" in node["labels"]
    }
    uses = defaultdict(set)
    for relationship in relationships:
        if relationship["label"] == "USES_DATASET":
            uses[relationship["start"]["id"]].add(nodes[relationship["end"]["id"]]["properties"]["shortName"])
    datasets = [DatasetRow(node_id, node["properties"]["shortName"]) for node_id, node in nodes.items() if "Dataset" in node["labels"]]
    titles = {node["properties"].get("title") for node in nodes.values() if "Publication" in node["labels"]}
    return publications, uses, datasets, titles


@cache
def labelled() -> tuple[pd.DataFrame, pd.DataFrame]:
    return pd.read_csv(EVALUATION / "labelled_edges.csv"), pd.read_csv(EVALUATION / "labelled_pairs.csv")


CASES = read_question_cases().cases


def test_counts_meet_issue_21():
    kinds = [case.kind for case in CASES]
    assert kinds.count(VERSION_CHAIN) >= 10 and kinds.count(DISPUTE) >= 5 and kinds.count(CONTROL) >= 10
    assert len(CASES) >= 30


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_every_paper_is_in_the_sample_from_its_case_with_an_edge_in_scope(case):
    publications, uses, datasets, _ = sample()
    edges, pairs = labelled()
    scope = resolve_scope(case.scope, datasets)
    assert scope.problem is None and not scope.unknown, scope
    in_scope = {row.short_name for row in datasets if row.dataset_id in scope.dataset_ids}
    for paper in (*case.stale, *case.rely_on, *case.foundational):
        assert canonical_doi(paper.doi) == paper.doi, f"{paper.doi} is not canonical"
        assert paper.doi in publications, f"{case.id}: {paper.doi} is not a sample publication"
        if paper.case:
            row = edges[edges.case_id == paper.case]
            assert list(row.publication_doi) == [paper.doi], f"{case.id}: {paper.case} is not {paper.doi}"
            assert uses[publications[paper.doi]] & in_scope, f"{case.id}: {paper.doi} uses none of {sorted(in_scope)}"
        else:
            row = pairs[pairs.pair_id == paper.pair].iloc[0]
            assert paper.doi in (row.original_doi, row.comment_doi, row.reply_doi)


@pytest.mark.parametrize("case", [case for case in CASES if case.kind == DISPUTE], ids=lambda case: case.id)
def test_dispute_original_and_comments_are_in_the_sample(case):
    publications, _, _, titles = sample()
    edges, pairs = labelled()
    original = case.dispute.original
    assert original.doi in publications
    assert edges.loc[edges.case_id == original.case, "class"].tolist() == ["disputed"]
    for comment in case.dispute.comments:
        row = pairs[pairs.pair_id == comment.pair].iloc[0]
        assert row.original_doi == original.doi and row.kind == "dispute"
        # A comment without a DOI on record is a Publication node of its title.
        assert comment.doi in publications if comment.doi else comment.title in titles


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_labels_agree_with_the_case_classes(case):
    edges, _ = labelled()
    classes = dict(zip(edges.case_id, edges["class"]))
    assert {classes[paper.case] for paper in case.foundational} <= {"foundational"}
    assert {classes[paper.case] for paper in case.rely_on if paper.case} <= {"current_version", "disputed"}
    assert {classes[paper.case] for paper in case.stale} <= {"superseded_version", "disputed"}


def _edited(change) -> str:
    data = yaml.safe_load(QUESTION_CASES_FILE.read_text())
    change(data)
    return yaml.safe_dump(data)


@pytest.mark.parametrize(("change", "message"), [
    (lambda data: data["cases"].append(dict(data["cases"][0])), "duplicate case ids"),
    (lambda data: data["cases"][0].update(expected_verdict="PASS"), "expects STALE"),
    (lambda data: data["cases"][0].update(stale=[]), "at least one stale paper"),
    (lambda data: data["cases"][0].update(question="x" * 10_000), "at most 1000 characters"),
    (lambda data: data["cases"][0]["stale"][0].update(pair="d-01"), "exactly one of case and pair"),
    (lambda data: data["cases"][0].update(rely_on=data["cases"][0]["stale"][:1]), "two roles"),
])
def test_a_bad_case_is_refused_with_its_reason(change, message):
    with pytest.raises(ValidationError, match=message):
        read_question_cases(_edited(change))
