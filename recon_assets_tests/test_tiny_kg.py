"""The tiny KG fixture (`tiny_kg`) is what the shipped sample gives, and a valid KG with what the process-level tests
need: one version chain, publications using it, a citation between them, at most two research areas."""

import json

from recon_assets.kg.export_reader import detect_format

from recon_assets_tests.tiny_kg import MAX_AREAS, TINY_KG, tiny_kg_records


def test_the_tiny_kg_fixture_is_what_the_sample_gives():
    records = [json.loads(line) for line in TINY_KG.read_text().splitlines()]
    assert records == tiny_kg_records(), "regenerate it: python -m recon_assets_tests.tiny_kg"
    detect_format(TINY_KG)  # a readable KG export (raises otherwise)
    labels = [r["labels"][0] for r in records if r["type"] == "node"]
    relationships = [r["label"] for r in records if r["type"] == "relationship"]
    assert labels.count("Dataset") >= 2 and labels.count("Publication") >= 2
    assert {"USES_DATASET", "CITES", "HAS_APPLIEDRESEARCHAREA"} <= set(relationships)
    names = {r["id"]: r["properties"].get("name") for r in records if r["type"] == "node"}
    areas = {names[r["end"]["id"]] for r in records if r["type"] == "relationship" and r["label"] == "HAS_APPLIEDRESEARCHAREA"}
    # the MAX_AREAS research areas most used by the chain's publications, named (the process tests run their partitions)
    assert sorted(areas) == ["ATMOSPHERIC/OCEAN INDICATORS", "FLOODS"] and len(areas) == MAX_AREAS
    ids = {r["id"] for r in records if r["type"] == "node"}
    assert all(r["start"]["id"] in ids and r["end"]["id"] in ids for r in records if r["type"] == "relationship")
    assert len(ids) <= 20
