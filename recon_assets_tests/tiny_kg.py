"""A tiny, valid KG for process-level tests (`recon run` in a subprocess: killed workers, Ctrl-C, a full disk, OpenAlex
answers), which test process handling, not the science: the whole shipped sample (601 nodes) made each of their runs
take minutes on 2 cores. Not for the keys-in-transit run (test_browser.py): with a Groq key set, a `recon run`
of this KG sent the Groq stand-in no request (2026-12-04), so that run stays on the sample.

TINY_KG (recon_assets_tests/fixtures/tiny_kg/graph.json) is written once by `python -m recon_assets_tests.tiny_kg`
from the shipped sample (recon_assets/sample/graph.json, JSON lines) by `tiny_kg_records`; `test_tiny_kg` checks
the file is still what the sample gives. It keeps sample lines unchanged (ids and properties as shipped):

- one version chain: the dataset family (`lifecycle.versions.parse_version` of short name, long name, DOI) with
  at least two versions whose datasets the most publications of the sample use (ties: the family name);
- the publications using those datasets (USES_DATASET) that have one of at most two research areas (the areas
  most of them have), and every publication a kept one cites or is cited by (CITES, both ends kept), so that the
  judge (offline or Groq) has citing pairs to read;
- the research-area keywords of the kept publications in those areas (HAS_APPLIEDRESEARCHAREA), the kept
  datasets' data centers (HAS_DATASET) and science keywords (HAS_SCIENCEKEYWORD);
- every relationship of the sample between two kept nodes.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from recon_assets.kg.research_areas import research_area_slug
from recon_assets.lifecycle.versions import parse_version
from recon_assets.shared.paths import SAMPLE_DIR

TINY_KG = Path(__file__).resolve().parent / "fixtures" / "tiny_kg" / "graph.json"
SAMPLE_JSONL = SAMPLE_DIR / "graph.json"
MAX_AREAS = 2


def tiny_kg_records(sample: Path = SAMPLE_JSONL) -> list[dict]:
    """The records (nodes, then relationships, in the sample's order) of the tiny KG described above, from the
    JSON-lines export `sample`. Raises ValueError when the sample has no version family used by a publication."""
    records = [json.loads(line) for line in sample.read_text().splitlines() if line.strip()]
    nodes = {r["id"]: r for r in records if r["type"] == "node"}
    relationships = [r for r in records if r["type"] == "relationship"]

    def ends(label: str) -> list[tuple[str, str]]:
        return [(r["start"]["id"], r["end"]["id"]) for r in relationships if r["label"] == label]

    families: dict[str, list[str]] = {}
    for node_id, node in nodes.items():
        if "Dataset" in node["labels"]:
            p = node["properties"]
            parsed = parse_version(p.get("shortName") or "", p.get("longName"), p.get("doi"))
            if parsed.family and parsed.sort_key:
                families.setdefault(parsed.family, []).append(node_id)
    users: dict[str, set[str]] = {}
    for publication, dataset in ends("USES_DATASET"):
        users.setdefault(dataset, set()).add(publication)
    chains = {family: ids for family, ids in families.items() if len(ids) >= 2}
    if not chains:
        raise ValueError(f"{sample}: no dataset family with two versions")
    family = max(sorted(chains), key=lambda f: len(set().union(*(users.get(d, set()) for d in chains[f]))))
    datasets = set(chains[family])

    areas_of: dict[str, set[str]] = {}
    for publication, keyword in ends("HAS_APPLIEDRESEARCHAREA"):
        if research_area_slug(nodes[keyword]["properties"].get("name")) is not None:
            areas_of.setdefault(publication, set()).add(keyword)
    using = set().union(*(users.get(d, set()) for d in datasets))
    counts = Counter(keyword for publication in using for keyword in areas_of.get(publication, ()))
    areas = {keyword for keyword, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_AREAS]}
    publications = {p for p in using if areas_of.get(p, set()) & areas}
    cites = ends("CITES")
    publications |= {b for a, b in cites if a in publications} | {a for a, b in cites if b in publications}
    kept = datasets | publications | areas
    kept |= {start for start, end in ends("HAS_DATASET") if end in datasets}
    kept |= {end for start, end in ends("HAS_SCIENCEKEYWORD") if start in datasets}
    kept_relationships = [
        r for r in relationships
        if r["start"]["id"] in kept and r["end"]["id"] in kept
        and not (r["label"] == "HAS_APPLIEDRESEARCHAREA" and r["end"]["id"] not in areas)
    ]
    return [nodes[node_id] for node_id in nodes if node_id in kept] + kept_relationships


def write_tiny_kg(path: Path = TINY_KG) -> Path:
    """Write `tiny_kg_records()` to `path` as JSON lines (the sample's spelling: compact separators); returns path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in tiny_kg_records()))
    return path


if __name__ == "__main__":
    print(write_tiny_kg())
