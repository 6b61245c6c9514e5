"""The shipped sample KG (recon_assets/sample, built by tools/build_sample.py) has the APOC export's shape and the cases the pipeline needs."""

from __future__ import annotations

import io
import json
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from lxml import etree

from recon_assets.kg.apoc_format import ApocGraphmlWriter, ApocJsonLinesWriter, graphml_key_types
from recon_assets.kg.doi import canonical_doi
from recon_assets.shared.paths import SAMPLE_DIR

SAMPLE = SAMPLE_DIR
AREAS = Path(__file__).resolve().parents[1] / "recon_assets" / "reference" / "applied_research_areas.json"
GRAPHML = "{http://graphml.graphdrawing.org/xmlns}"


@pytest.fixture(scope="module")
def lines() -> list[dict]:
    with (SAMPLE / "graph.json").open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


@pytest.fixture(scope="module")
def nodes(lines) -> dict[str, dict]:
    return {line["id"]: line for line in lines if line["type"] == "node"}


@pytest.fixture(scope="module")
def relationships(lines) -> list[dict]:
    return [line for line in lines if line["type"] == "relationship"]


@pytest.fixture(scope="module")
def graphml() -> etree._ElementTree:
    return etree.parse(str(SAMPLE / "graph.graphml"))


def test_ids_are_unique_strings(lines):
    for kind in ("node", "relationship"):
        ids = [line["id"] for line in lines if line["type"] == kind]
        assert all(isinstance(i, str) for i in ids)
        assert len(ids) == len(set(ids)), kind


def test_node_lines_come_before_relationship_lines(lines):
    kinds = [line["type"] for line in lines]
    assert kinds == sorted(kinds)  # "node" < "relationship"
    assert set(kinds) == {"node", "relationship"}


def test_every_relationship_endpoint_exists_with_its_labels(nodes, relationships):
    for rel in relationships:
        for end in ("start", "end"):
            assert rel[end]["id"] in nodes, rel
            assert rel[end]["labels"] == nodes[rel[end]["id"]]["labels"], rel


def test_properties_key_is_left_out_when_empty(lines):
    assert all(line["properties"] for line in lines if "properties" in line)
    assert not any("properties" in line for line in lines if line["type"] == "relationship")  # no v1 edge has any


@pytest.mark.parametrize(
    "label, minimum",
    [("Dataset", 150), ("Publication", 44), ("ScienceKeyword", 100), ("DataCenter", 2), ("Platform", 1), ("Instrument", 1), ("Project", 1)],
)
def test_label_counts(nodes, label, minimum):
    assert sum(1 for n in nodes.values() if n["labels"] == [label]) >= minimum


@pytest.mark.parametrize(
    "rel_type, start_label, end_label",
    [
        ("USES_DATASET", "Publication", "Dataset"),
        ("CITES", "Publication", "Publication"),
        ("HAS_APPLIEDRESEARCHAREA", "Publication", "ScienceKeyword"),
        ("HAS_DATASET", "DataCenter", "Dataset"),
        ("HAS_SCIENCEKEYWORD", "Dataset", "ScienceKeyword"),
        ("HAS_SUBCATEGORY", "ScienceKeyword", "ScienceKeyword"),
        ("HAS_PLATFORM", "Dataset", "Platform"),
        ("HAS_INSTRUMENT", "Platform", "Instrument"),
    ],
)
def test_relationship_directions(relationships, rel_type, start_label, end_label):
    typed = [r for r in relationships if r["label"] == rel_type]
    assert typed
    assert {(r["start"]["labels"][0], r["end"]["labels"][0]) for r in typed} == {(start_label, end_label)}


def test_the_real_of_project_edge_ending_on_a_platform_is_kept(relationships):
    assert any(r["label"] == "OF_PROJECT" and r["end"]["labels"] == ["Platform"] for r in relationships)


@pytest.mark.parametrize("key", ["doi", "DOI"])
def test_publications_use_both_doi_keys(nodes, key):
    assert any(key in n["properties"] for n in nodes.values() if n["labels"] == ["Publication"])


def test_one_publication_is_duplicated_under_another_doi_spelling(nodes):
    publications = [n["properties"] for n in nodes.values() if n["labels"] == ["Publication"]]
    by_doi = Counter(canonical_doi(p.get("doi", p.get("DOI"))) for p in publications)
    # DOI-less publications (labelled comments whose DOI was never printed) share no DOI: None is not a duplicate
    assert [doi for doi, count in by_doi.items() if count > 1 and doi is not None] == ["10.3390/rs12081239"]


@pytest.mark.parametrize("label", ["Publication", "Dataset"])
def test_pagerank_is_on_most_nodes_but_not_all(nodes, label):
    of_label = [n["properties"] for n in nodes.values() if n["labels"] == [label]]
    with_rank = [p["pagerank_publication_dataset"] for p in of_label if "pagerank_publication_dataset" in p]
    assert 0.6 * len(of_label) <= len(with_rank) < len(of_label)
    assert min(with_rank) == pytest.approx(0.15)  # isolated nodes on the Neo4j GDS scale


def test_the_21_research_areas_are_science_keywords(nodes):
    areas = json.loads(AREAS.read_text(encoding="utf-8"))["label_to_id"]
    names = {n["properties"]["name"] for n in nodes.values() if n["labels"] == ["ScienceKeyword"]}
    assert len(areas) == 21
    assert {a.upper() for a in areas} <= names


def test_publications_have_at_most_one_area_and_some_have_none(nodes, relationships):
    per_publication = Counter(r["start"]["id"] for r in relationships if r["label"] == "HAS_APPLIEDRESEARCHAREA")
    publications = [i for i, n in nodes.items() if n["labels"] == ["Publication"]]
    assert max(per_publication.values()) == 1
    # the rules classify by keywords of title and abstract; labelled cases without an open abstract often match none
    assert 0 < sum(1 for i in publications if i not in per_publication) < len(publications)


def test_datasets_and_version_families_have_enough_evidence(nodes, relationships):
    users: dict[str, set[str]] = defaultdict(set)
    for r in relationships:
        if r["label"] == "USES_DATASET":
            users[r["end"]["id"]].add(r["start"]["id"])
    assert sum(1 for publications in users.values() if len(publications) >= 3) >= 3
    versions_used = defaultdict(set)
    for dataset_id in users:
        properties = nodes[dataset_id]["properties"]
        versions_used[properties["shortName"]].add(properties["longName"])
    assert len(versions_used["AST_L1T"]) >= 2  # V003 and V031: needed for staleness


def test_graphml_has_the_same_nodes_and_edges(nodes, relationships, graphml):
    graph_nodes = graphml.findall(f"{GRAPHML}graph/{GRAPHML}node")
    graph_edges = graphml.findall(f"{GRAPHML}graph/{GRAPHML}edge")
    assert {n.get("id") for n in graph_nodes} == {f"n{i}" for i in nodes}
    assert len(graph_edges) == len(relationships)
    assert {(e.get("source"), e.get("target"), e.get("label")) for e in graph_edges} == {
        (f"n{r['start']['id']}", f"n{r['end']['id']}", r["label"]) for r in relationships
    }


def test_graphml_is_apoc_flavoured(graphml):
    keys = {k.get("attr.name"): k.get("attr.type") for k in graphml.findall(f"{GRAPHML}key")}
    assert "labels" not in keys and "label" not in keys  # APOC writes the data but declares no key
    assert keys["pagerank_publication_dataset"] == "double"
    node = graphml.find(f"{GRAPHML}graph/{GRAPHML}node")
    assert node.find(f"{GRAPHML}data[@key='labels']").text == node.get("labels")
    list_authors = [
        d.text for d in graphml.iterfind(f".//{GRAPHML}data[@key='authors']") if d.text and d.text.startswith("[")
    ]
    assert list_authors and all(isinstance(json.loads(text), list) for text in list_authors)


def test_the_sample_files_are_what_the_one_apoc_writer_writes(lines):
    """graph.json and graph.graphml, written by recon_assets.kg.apoc_format (the writer tools/build_sample.py and
    benchmarks/generate_kg.py share) from the sample's own elements, are the shipped files byte for byte (the GraphML
    was first written with lxml, so this also checks the writer's XML against an independent serializer)."""
    nodes = [line for line in lines if line["type"] == "node"]
    relationships = [line for line in lines if line["type"] == "relationship"]
    jsonl = io.StringIO()
    writer = ApocJsonLinesWriter(jsonl)
    for node in nodes:
        writer.node(node["id"], node["labels"], node.get("properties", {}))
    for rel in relationships:
        start, end = rel["start"], rel["end"]
        writer.relationship(rel["id"], rel["label"], (start["id"], start["labels"]), (end["id"], end["labels"]), rel.get("properties", {}))
    assert jsonl.getvalue() == (SAMPLE / "graph.json").read_text(encoding="utf-8")
    graphml = io.StringIO()
    writer = ApocGraphmlWriter(graphml, node_keys=graphml_key_types(node.get("properties", {}) for node in nodes))
    for node in nodes:
        writer.node(node["id"], node["labels"], node.get("properties", {}))
    for rel in relationships:
        writer.relationship(rel["id"], rel["label"], rel["start"]["id"], rel["end"]["id"], rel.get("properties", {}))
    writer.close()
    assert graphml.getvalue() == (SAMPLE / "graph.graphml").read_text(encoding="utf-8")
