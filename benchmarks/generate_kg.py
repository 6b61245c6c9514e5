"""Write a deterministic synthetic NASA EO knowledge graph at the real KG's scale, as APOC JSON-lines, GraphML
and Cypher.

    python benchmarks/generate_kg.py --out DIR [--scale v1|v2|FLOAT] [--preset v1|v2] [--seed N]
                                     [--format jsonl|graphml|cypher|both|all]

Writes DIR/graph.json, DIR/graph.graphml, DIR/graph.cypher (as --format asks: both = JSON-lines and GraphML, all =
the three) and DIR/manifest.json (counts per label and type, malformed lines written, seed, bytes). Same seed and
options -> byte-identical files.

Counts (benchmarks/README.md has the tables and the reasons): `v1` is the v1.2.0 dataset card
(150,351 nodes, 436,203 relationships, per-label counts, CITES and HAS_APPLIEDRESEARCHAREA); the other
relationship types split the rest by a documented rule. `v2` keeps the v1 counts of the seven v1 labels and
types and fills the v2.0.0 totals (1,409,253 / 5,836,702) with Author, Institution, AUTHORED_BY,
AFFILIATED_WITH, CO_USED_WITH and WORKS_WITH_DATASET. A FLOAT scale multiplies the preset's counts.

Text is never invented: abstracts recombine sentences of the real OpenAlex abstracts in
recon_assets/sample/graph.json, titles, author names, dataset names, versions, DOIs shapes, keywords, platforms and
data centers are the sample's real values (recombined where more are needed), research areas come from
recon_assets/reference/applied_research_areas.json, v2 authors and institutions from
benchmarks/data/openalex_people.json (real OpenAlex records).

Memory: node properties are a pure function of (seed, label, index), made again when a relationship line
needs its endpoints' properties (a small LRU cache keeps the popular ones); only the endpoint arrays of the
relationships (numpy, 16 bytes a relationship) and a few numbers per Publication/Dataset are held.
"""

from __future__ import annotations

import argparse
import bisect
import functools
import itertools
import json
import random
import re
import sys
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from recon_assets.centrality.pagerank import DAMPING
from recon_assets.kg.apoc_format import ApocCypherWriter, ApocGraphmlWriter, ApocJsonLinesWriter, apoc_json
from recon_assets.kg.authors import author_names
from recon_assets.kg.doi import canonical_doi
from recon_assets.kg.research_areas import research_area_labels

REPO_ROOT = Path(__file__).resolve().parents[1]
SAMPLE_KG = REPO_ROOT / "recon_assets" / "sample" / "graph.json"
RESEARCH_AREAS = REPO_ROOT / "recon_assets" / "reference" / "applied_research_areas.json"
PEOPLE = Path(__file__).resolve().parent / "data" / "openalex_people.json"

# v1.2.0 dataset card of nasa-gesdisc/nasa-eo-knowledge-graph (DOI 10.57967/hf/3463).
V1_NODES = {
    "DataCenter": 189, "Dataset": 8_058, "Instrument": 921, "Platform": 455, "Project": 415,
    "Publication": 138_704, "ScienceKeyword": 1_609,
}
# CITES and HAS_APPLIEDRESEARCHAREA are the card's; the card gives only the total (436,203) for the rest,
# split here (README "Counts"): one data center per dataset, a keyword tree over the non-area keywords, ~1.3
# platforms, ~0.8 projects and 3 keywords per dataset, ~1.2 instruments per platform; USES_DATASET is what
# remains (54,206: most publications enter the KG as citation targets, not as dataset users).
V1_RELATIONSHIPS = {
    "CITES": 208_616, "HAS_APPLIEDRESEARCHAREA": 121_553, "HAS_DATASET": 8_058, "HAS_SUBCATEGORY": 1_570,
    "HAS_INSTRUMENT": 1_105, "HAS_PLATFORM": 10_475, "OF_PROJECT": 6_446, "HAS_SCIENCEKEYWORD": 24_174,
    "USES_DATASET": 54_206,
}
# v2.0.0 totals from the same card; per-label and per-type counts are not published, so the v1 counts stay
# and the new labels and types take the remainder (README "Counts" gives the reasoning).
V2_EXTRA_NODES = {"Author": 1_176_000, "Institution": 82_902}
V2_EXTRA_RELATIONSHIPS = {
    "AUTHORED_BY": 1_700_000, "AFFILIATED_WITH": 1_300_000, "CO_USED_WITH": 900_000, "WORKS_WITH_DATASET": 1_500_499,
}
PRESETS = {
    "v1": (V1_NODES, V1_RELATIONSHIPS),
    "v2": ({**V1_NODES, **V2_EXTRA_NODES}, {**V1_RELATIONSHIPS, **V2_EXTRA_RELATIONSHIPS}),
}

# Shares of the real quirks. From the shipped sample (50 real publication records): 17/50 use `DOI`,
# 9/50 have 'N/A' abstracts, 9/50 lack PageRank, 1 pair differs only in DOI spelling.
DOI_UPPER_KEY_SHARE = 0.34
UPPER_CASE_DOI_SHARE = 0.3
RESOLVER_PREFIX_SHARE = 0.02
NO_DOI_SHARE = 0.01
DOI_SPELLING_TWIN_SHARE = 0.003
NA_ABSTRACT_SHARE = 0.30
DEFAULT_PAGERANK_MISSING_SHARE = 0.15
# Bad years (a percent in all), as the real KG stores them; '[1988]' still parses, the others become NULL.
YEAR_QUIRKS = {"": 0.004, "XIII": 0.001, "{}a": 0.003, "[{}]": 0.003}
DEFAULT_MALFORMED_SHARE = 0.0001
NON_AREA_KEYWORD_SHARE = 0.005  # HAS_APPLIEDRESEARCHAREA to a keyword that is not one of the 21 areas
OF_PROJECT_TO_PLATFORM_SHARE = 0.001  # the real KG has an OF_PROJECT edge ending on a Platform node
# Publication years: growth of ~9% a year (the literature roughly doubles every 8 years), 1980-2025.
FIRST_YEAR, LAST_YEAR, YEARLY_GROWTH = 1980, 2025, 0.09
PAGERANK_ITERATIONS = 20
# Neo4j GDS PageRank: y = 0.15 + DAMPING * M y; an isolated node gets 0.15. Written out, not 1 - DAMPING, which
# is 0.15000000000000002 in floating point and would change every PageRank the generator writes.
GDS_TELEPORT = 0.15
ENDPOINT_CACHE = 20_000
# An abstract keeps following its base abstract with this probability, else takes a sentence of another one:
# abstracts on one topic stay similar to each other, as real ones do.
SAME_TOPIC_SENTENCE = 0.65
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
_VERSION = re.compile(r"\bV(?:ersion )?\d[\w.]*")
_NOTICE = re.compile(r"^(?:RETRACTED ARTICLE|Retraction Note)", re.IGNORECASE)
_MIX = 9_876_543_211  # not a multiple of 2, 3 or 5: i -> (_MIX * i + c) mod 10^k is one-to-one for i < 10^k


# --------------------------------------------------------------------------------------------------------
# Counts
# --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """How many nodes per label and relationships per type to write (relationship counts are upper bounds:
    a tiny scale may not have that many distinct pairs; the manifest holds what was written)."""

    preset: str
    scale: float
    nodes: dict[str, int]
    relationships: dict[str, int]


def plan_counts(preset: str, scale: float) -> Plan:
    """The preset's counts times `scale`, each at least 1; ScienceKeyword keeps room for the 21 research
    areas plus a two-level keyword tree, Publication and Dataset keep at least 2.

    Raises:
        ValueError: unknown preset or scale <= 0.
    """
    if preset not in PRESETS:
        raise ValueError(f"preset must be one of {sorted(PRESETS)}, got {preset!r}")
    if not scale > 0:
        raise ValueError(f"scale must be > 0, got {scale}")
    nodes, relationships = PRESETS[preset]
    area_count = len(_research_areas()[0])
    minimum = {"ScienceKeyword": area_count + 2, "Publication": 2, "Dataset": 2}
    return Plan(
        preset,
        scale,
        {label: max(minimum.get(label, 1), round(n * scale)) for label, n in sorted(nodes.items())},
        {rel_type: max(1, round(n * scale)) for rel_type, n in sorted(relationships.items())},
    )


# --------------------------------------------------------------------------------------------------------
# Real material
# --------------------------------------------------------------------------------------------------------


@functools.cache
def _research_areas() -> tuple[list[str], list[float]]:
    """The 21 research-area names as the KG stores them (upper case) and their real publication counts (which
    only the reference JSON holds)."""
    labels = list(research_area_labels().values())
    counts = json.loads(RESEARCH_AREAS.read_text())["label_counts_in_es_publications_researchareas"]
    return [label.upper() for label in labels], [float(counts[label]) for label in labels]


@dataclass(frozen=True)
class Material:
    """Real values from the shipped sample (and OpenAlex people for v2) that synthetic nodes recombine."""

    abstracts: list[list[str]]  # sentences of each real publication abstract
    titles: list[str]  # title of the paper each abstract belongs to
    abstract_lengths: list[int]
    author_counts: list[int]
    given_names: list[str]
    family_names: list[str]
    doi_skeletons: list[tuple[str, tuple[int, ...]]]  # ('10.3390/rs{}', (8,)): '{}' per digit run and its length
    datasets: list[dict]
    # The real CMR records among them: a synthetic version family copies one's cmrId, daac and temporal extent (the
    # sample's labelled-case datasets carry none of these, and made the generator fail past the first few families).
    cmr_datasets: list[dict]
    dataset_sentences: list[str]
    version_tokens: list[str]
    others: dict[str, list[dict]]  # DataCenter, Instrument, Platform, Project: real property dicts
    keywords: list[str]  # real GCMD names that are not research areas
    people: dict  # benchmarks/data/openalex_people.json: real OpenAlex authors and institutions


def load_material(sample: Path = SAMPLE_KG, people: Path = PEOPLE) -> Material:
    """Collect the real values of the sample KG (a few hundred lines; read once)."""
    by_label: dict[str, list[dict]] = {}
    for line in sample.read_text(encoding="utf-8").splitlines():
        element = json.loads(line)
        if element["type"] == "node":
            by_label.setdefault(element["labels"][0], []).append(element.get("properties", {}))
    publications = by_label["Publication"]
    with_text = [p for p in publications if p.get("abstract", "N/A") != "N/A" and not _NOTICE.match(p["title"])]
    authors = [name for p in publications for name in author_names(p.get("authors"))]
    area_names = set(_research_areas()[0])
    datasets = by_label["Dataset"]
    return Material(
        abstracts=[_SENTENCE_SPLIT.split(p["abstract"]) for p in with_text],
        titles=[p["title"] for p in with_text],
        abstract_lengths=[len(p["abstract"]) for p in with_text],
        author_counts=[len(author_names(p.get("authors"))) or 1 for p in publications],
        given_names=sorted({" ".join(name.split()[:-1]) for name in authors if " " in name}),
        family_names=sorted({name.split()[-1] for name in authors}),
        doi_skeletons=_doi_skeletons(p.get("doi") or p.get("DOI") for p in publications),
        datasets=datasets,
        cmr_datasets=[d for d in datasets if all(key in d for key in ("cmrId", "daac", "temporalExtentStart", "temporalExtentEnd"))],
        dataset_sentences=[s for d in datasets if d.get("abstract") for s in _SENTENCE_SPLIT.split(d["abstract"])],
        version_tokens=sorted({m.group(0) for d in datasets for m in _VERSION.finditer(d.get("longName", ""))}),
        others={label: by_label[label] for label in ("DataCenter", "Instrument", "Platform", "Project")},
        keywords=sorted({p["name"] for p in by_label["ScienceKeyword"]} - area_names),
        people=json.loads(people.read_text(encoding="utf-8")),
    )


def _doi_skeletons(dois) -> list[tuple[str, tuple[int, ...]]]:
    """Real DOIs with each digit run of the suffix made a slot: '10.3390/rs12081239' -> ('10.3390/rs{}', (8,))."""
    skeletons = {}
    for doi in filter(None, map(canonical_doi, dois)):
        prefix, _, suffix = doi.partition("/")
        runs = tuple(len(run) for run in re.findall(r"\d+", suffix))
        if runs:
            skeletons[f"{prefix}/" + re.sub(r"\d+", "{}", suffix.replace("{", "").replace("}", ""))] = runs
    return sorted(skeletons.items())


# --------------------------------------------------------------------------------------------------------
# Topology: endpoints of every relationship, numpy arrays of global node ids
# --------------------------------------------------------------------------------------------------------


@dataclass
class Layout:
    """Global node ids: labels in alphabetical order, each a contiguous range (APOC exports by label too)."""

    counts: dict[str, int]
    offsets: dict[str, int] = field(init=False)
    total: int = field(init=False)

    def __post_init__(self) -> None:
        self.offsets, running = {}, 0
        for label in sorted(self.counts):
            self.offsets[label] = running
            running += self.counts[label]
        self.total = running
        self._starts = [self.offsets[label] for label in sorted(self.counts)]
        self._labels = sorted(self.counts)

    def locate(self, node_id: int) -> tuple[str, int]:
        """(label, index within the label) of a global node id."""
        label = self._labels[bisect.bisect_right(self._starts, node_id) - 1]
        return label, node_id - self.offsets[label]


class _Zipf:
    """Ranks drawn with P(rank r) proportional to (r + 1)^-exponent; rank r is item order[r]."""

    def __init__(self, order: np.ndarray, exponent: float):
        weights = np.arange(1, order.size + 1, dtype=float) ** -exponent
        self.cdf = np.cumsum(weights) / weights.sum()
        self.order = order

    def draw(self, rng: np.random.Generator, n: int) -> np.ndarray:
        return self.order[np.minimum(np.searchsorted(self.cdf, rng.random(n)), self.order.size - 1)]


@dataclass
class Edges:
    """One relationship type: start/end global ids, sorted, and optional per-edge property codes."""

    start: np.ndarray
    end: np.ndarray
    weight: np.ndarray | None = None
    position: np.ndarray | None = None  # AUTHORED_BY: 0 first, 1 middle, 2 last


AUTHOR_POSITIONS = ("first", "middle", "last")


def _distinct_pairs(rng, count: int, draw: Callable[[int], tuple[np.ndarray, np.ndarray]], total: int) -> tuple[np.ndarray, np.ndarray]:
    """Up to `count` distinct (start, end) pairs, no self-loops, sorted; drawn in rounds until enough
    (a tiny KG may not have `count` distinct pairs: then as many as 20 rounds found)."""
    keys = np.empty(0, dtype=np.int64)
    # Heavy-tailed draws repeat popular pairs: each round draws twice as many as the last to find the rest,
    # up to a few times `count` (memory stays O(count) even when fewer distinct pairs exist than asked for).
    cap = 4 * count + 1024
    for attempt in range(20):
        need = count - keys.size
        if need <= 0:
            break
        size = min(int(need * 1.2 * 2**attempt) + 8, cap)
        start, end = draw(size)
        fresh = start.astype(np.int64) * total + end
        found = keys.size
        keys = np.unique(np.concatenate([keys, fresh[start != end]]))
        if keys.size == found and size == cap:
            break  # saturated: the tiny KG has no more distinct pairs to give
    if keys.size > count:
        # A random subset, not the first keys: np.unique sorted them, the first would favour low ids.
        keys = np.sort(rng.choice(keys, size=count, replace=False))
    return keys // total, keys % total


def publication_years(rng: np.random.Generator, count: int) -> np.ndarray:
    """`count` publication years, FIRST_YEAR..LAST_YEAR, each year's share growing YEARLY_GROWTH a year (int array)."""
    years = np.arange(FIRST_YEAR, LAST_YEAR + 1)
    weights = np.exp(YEARLY_GROWTH * (years - LAST_YEAR))
    return rng.choice(years, size=count, p=weights / weights.sum())


def build_topology(
    plan: Plan, layout: Layout, keyword_names: list[str], rng: np.random.Generator, pagerank_missing_share: float
) -> tuple[dict[str, Edges], dict[str, np.ndarray]]:
    """Endpoints of every relationship type, and the per-publication numbers they depend on.

    Shapes: CITES cited ~ Zipf(0.9) over publications ordered oldest first (old papers gather citations),
    citing uniform and not older than the cited paper where 3 redraws allow; USES_DATASET dataset ~ Zipf(1.0)
    (a few datasets are used by thousands of papers); AUTHORED_BY author ~ Zipf(0.5) (Lotka-like
    productivity); other types Zipf(1.0) over their targets. One research area per publication at most.

    Returns:
        ({type: Edges}, {'year': int array, 'year_quirk': int array (index into YEAR_QUIRKS + 1, 0 none),
        'twin': bool array, 'pagerank': float array over Publication then Dataset (NaN = property missing)})
    """
    n = plan.nodes
    off = layout.offsets
    pubs, datasets = n["Publication"], n["Dataset"]
    year = publication_years(rng, pubs)
    quirk_shares = list(YEAR_QUIRKS.values())
    year_quirk = rng.choice(len(quirk_shares) + 1, size=pubs, p=[1 - sum(quirk_shares), *quirk_shares])
    twin = rng.random(pubs) < DOI_SPELLING_TWIN_SHARE
    twin[0] = False
    twin &= ~np.roll(twin, 1)  # a twin's source is never itself a twin
    sources = np.flatnonzero(twin) - 1
    year[twin], year_quirk[twin] = year[sources], year_quirk[sources]

    def uniform(label):
        return lambda size: off[label] + rng.integers(0, n[label], size)

    def zipf(label, exponent, order=None):
        sampler = _Zipf(off[label] + (rng.permutation(n[label]) if order is None else order), exponent)
        return lambda size: sampler.draw(rng, size)

    area_names, area_weights = _research_areas()
    area_ids = np.array([off["ScienceKeyword"] + keyword_names.index(name) for name in area_names])
    areas = set(area_names)
    gcmd_ids = np.array([off["ScienceKeyword"] + i for i, name in enumerate(keyword_names) if name not in areas])

    cited = zipf("Publication", 0.9, np.argsort(year + rng.normal(0, 4, pubs), kind="stable"))

    def citations(size):
        end = cited(size)
        start = uniform("Publication")(size)
        for _ in range(3):
            late = year[start - off["Publication"]] < year[end - off["Publication"]]
            start[late] = uniform("Publication")(int(late.sum()))
        return start, end

    def pairs(start, end):
        return lambda size: (start(size), end(size))

    def co_used(size):
        a, b = zipf_dataset(size), zipf_dataset(size)
        return np.minimum(a, b), np.maximum(a, b)

    zipf_dataset = zipf("Dataset", 1.0)
    keyword = _Zipf(rng.permutation(gcmd_ids), 1.0)
    draws = {
        "CITES": citations,
        "HAS_INSTRUMENT": pairs(zipf("Platform", 1.0), zipf("Instrument", 1.0)),
        "HAS_PLATFORM": pairs(uniform("Dataset"), zipf("Platform", 1.0)),
        "HAS_SCIENCEKEYWORD": pairs(uniform("Dataset"), lambda size: keyword.draw(rng, size)),
        "OF_PROJECT": pairs(uniform("Dataset"), zipf("Project", 1.0)),
        "USES_DATASET": pairs(uniform("Publication"), zipf_dataset),
    }
    if "Author" in n:
        institution_share = 0.1
        author_start, institution_start = zipf("Author", 0.5), zipf("Institution", 0.8)
        draws |= {
            "AUTHORED_BY": pairs(uniform("Publication"), author_start),
            "AFFILIATED_WITH": pairs(uniform("Author"), institution_start),
            "CO_USED_WITH": co_used,
            "WORKS_WITH_DATASET": lambda size: (
                np.where(rng.random(size) < institution_share, institution_start(size), author_start(size)),
                zipf_dataset(size),
            ),
        }
    edges = {}
    for rel_type, count in plan.relationships.items():
        if rel_type in draws:
            start, end = _distinct_pairs(rng, count, draws[rel_type], layout.total)
            edges[rel_type] = Edges(start, end)
    edges["OF_PROJECT"].end = _divert(rng, edges["OF_PROJECT"].end, OF_PROJECT_TO_PLATFORM_SHARE, uniform("Platform"))
    edges["HAS_APPLIEDRESEARCHAREA"] = _research_area_edges(rng, plan, off, area_ids, area_weights, gcmd_ids)
    edges["HAS_DATASET"] = _data_center_edges(rng, plan, off, zipf("DataCenter", 1.0))
    edges["HAS_SUBCATEGORY"] = _keyword_tree(rng, plan, gcmd_ids)
    for rel_type in ("CO_USED_WITH", "WORKS_WITH_DATASET"):
        if rel_type in edges:
            edges[rel_type].weight = rng.geometric(0.45, edges[rel_type].start.size)
    if "AUTHORED_BY" in edges:
        edges["AUTHORED_BY"].position = _author_positions(edges["AUTHORED_BY"].start)

    pagerank = _gds_pagerank(pubs, datasets, off, edges)
    pagerank[rng.random(pagerank.size) < pagerank_missing_share] = np.nan
    return dict(sorted(edges.items())), {"year": year, "year_quirk": year_quirk, "twin": twin, "pagerank": pagerank}


def _divert(rng, end: np.ndarray, share: float, other: Callable[[int], np.ndarray]) -> np.ndarray:
    end = end.copy()
    diverted = rng.random(end.size) < share
    end[diverted] = other(int(diverted.sum()))
    return end


def _research_area_edges(rng, plan, off, area_ids, area_weights, gcmd_ids) -> Edges:
    pubs = plan.nodes["Publication"]
    chosen = np.sort(rng.choice(pubs, size=min(plan.relationships["HAS_APPLIEDRESEARCHAREA"], pubs), replace=False))
    weights = np.asarray(area_weights) / sum(area_weights)
    end = area_ids[rng.choice(area_ids.size, size=chosen.size, p=weights)]
    misfiled = rng.random(chosen.size) < NON_AREA_KEYWORD_SHARE
    end[misfiled] = rng.choice(gcmd_ids, size=int(misfiled.sum()))
    return Edges(off["Publication"] + chosen, end)


def _data_center_edges(rng, plan, off, data_center) -> Edges:
    datasets = plan.nodes["Dataset"]
    chosen = rng.choice(datasets, size=min(plan.relationships["HAS_DATASET"], datasets), replace=False)
    start = data_center(chosen.size)
    order = np.lexsort((chosen, start))
    return Edges(start[order], off["Dataset"] + chosen[order])


def _keyword_tree(rng, plan, gcmd_ids) -> Edges:
    """Parent -HAS_SUBCATEGORY-> child: each keyword after the roots gets one parent among the keywords before it."""
    children = min(plan.relationships["HAS_SUBCATEGORY"], gcmd_ids.size - 1)
    child_positions = np.arange(gcmd_ids.size - children, gcmd_ids.size)
    parent_positions = (rng.random(children) * child_positions).astype(np.int64)
    order = np.lexsort((child_positions, parent_positions))
    return Edges(gcmd_ids[parent_positions[order]], gcmd_ids[child_positions[order]])


def _author_positions(start: np.ndarray) -> np.ndarray:
    """first / middle / last by place in each publication's sorted run (a single author is first)."""
    first = np.r_[True, start[1:] != start[:-1]]
    last = np.r_[start[1:] != start[:-1], True]
    return np.where(first, 0, np.where(last, 2, 1)).astype(np.int8)


def _gds_pagerank(pubs: int, datasets: int, off: dict[str, int], edges: dict[str, Edges]) -> np.ndarray:
    """Neo4j GDS-scale PageRank (y = 0.15 + 0.85 * sum over in-links of y_j / out-degree_j, dangling rank
    leaks away) over the Publication+Dataset projection (USES_DATASET, CITES), as the KG builder computes it.

    Returns:
        shape (pubs + datasets,): publications first, then datasets, each in index order.
    """
    size = pubs + datasets
    src = np.concatenate([edges["CITES"].start, edges["USES_DATASET"].start]) - off["Publication"]
    dst = np.concatenate([edges["CITES"].end - off["Publication"], edges["USES_DATASET"].end - off["Dataset"] + pubs])
    out = np.bincount(src, minlength=size).astype(float)
    rank = np.full(size, GDS_TELEPORT)
    for _ in range(PAGERANK_ITERATIONS):
        rank = GDS_TELEPORT + DAMPING * np.bincount(dst, weights=rank[src] / out[src], minlength=size)
    return rank


# --------------------------------------------------------------------------------------------------------
# Node properties: a pure function of (seed, label, index)
# --------------------------------------------------------------------------------------------------------


def science_keyword_names(material: Material, count: int) -> list[str]:
    """`count` unique ScienceKeyword names, sorted: the 21 research areas, the sample's real GCMD names, then
    real names with a running number when more are needed (v1 has 1,609; the sample has ~110)."""
    areas = _research_areas()[0]
    real = [name for name in material.keywords if name not in areas]
    extra = [f"{real[k % len(real)]} {k // len(real) + 2}" for k in range(max(0, count - len(areas) - len(real)))]
    return sorted([*areas, *(real + extra)[: count - len(areas)]])


def _uuid(text: str) -> str:
    """globalId as the KG builder makes it: uuid5 in the DNS namespace of the DOI / short name / name."""
    return str(uuid.uuid5(uuid.NAMESPACE_DNS, text))


def _mixed(index: int, digits: int, base: int = 10) -> int:
    """A number in [0, base^digits) that differs for every index below base^digits (a bijection)."""
    return (_MIX * index + 1_234_567_891) % base**digits


def _base36(number: int, width: int) -> str:
    text = np.base_repr(number, 36)
    return text.rjust(width, "0")


class NodeFactory:
    """Properties of every node, made on demand from the node's own random stream and the topology arrays."""

    def __init__(self, plan: Plan, material: Material, keyword_names: list[str], arrays: dict[str, np.ndarray], seed: int):
        self.material = material
        self.arrays = arrays
        self.seed = seed
        self.v2 = "Author" in plan.nodes
        self.publications = plan.nodes["Publication"]
        self.keyword_names = keyword_names
        self.codes = {label: code for code, label in enumerate(sorted(plan.nodes))}
        # Only skeletons with enough digit slots to give every publication its own DOI.
        self.skeletons = [(s, runs) for s, runs in material.doi_skeletons if 10 ** sum(runs) > self.publications]
        if not self.skeletons:
            raise ValueError(f"no real DOI shape has room for {self.publications:,} distinct DOIs")
        self.makers = {
            "Publication": self._publication, "Dataset": self._dataset, "ScienceKeyword": self._keyword,
            "Author": self._author, "Institution": self._institution,
        }

    def properties(self, label: str, index: int) -> dict:
        """The property map of node `index` of `label` (keys as the real KG spells them)."""
        maker = self.makers.get(label)
        return maker(index) if maker else self._other(label, index)

    def _rng(self, label: str, index: int) -> random.Random:
        return random.Random(((self.seed * 64 + self.codes[label]) << 40) + index)

    def _publication(self, i: int) -> dict:
        twin = bool(self.arrays["twin"][i])
        source = i - 1 if twin else i
        rng = self._rng("Publication", source)
        m = self.material
        base = rng.randrange(len(m.abstracts))
        props = {
            "title": m.titles[base],
            "abstract": "N/A" if rng.random() < NA_ABSTRACT_SHARE else self._abstract(rng, base),
            "authors": self._authors(rng),
        }
        doi = None if rng.random() < NO_DOI_SHARE else self._publication_doi(source)
        key = "DOI" if rng.random() < DOI_UPPER_KEY_SHARE else "doi"
        style = rng.random()
        spellings = [doi, doi.upper(), f"https://doi.org/{doi}"] if doi else [None]
        spelled = 1 if style < UPPER_CASE_DOI_SHARE else 2 if style < UPPER_CASE_DOI_SHARE + RESOLVER_PREFIX_SHARE else 0
        if twin:  # the same paper again under another spelling of its DOI (the KG keys nodes by the DOI as found)
            spelled = (spelled + 1) % len(spellings)
        if doi:
            props[key] = spellings[spelled]
            props["globalId"] = _uuid(spellings[spelled])
        else:
            props["globalId"] = str(uuid.uuid5(uuid.NAMESPACE_URL, f"synthetic:publication:{i}"))
        props["year"] = self._year(i)
        pagerank = self.arrays["pagerank"][i]
        if not np.isnan(pagerank):
            props["pagerank_publication_dataset"] = float(pagerank)
        if self.v2:
            hop = rng.choice((0, 1, 1, 2))
            props["crawlHop"] = hop
            props["citersFetched"] = rng.random() < 0.6
            if hop:
                props["source"] = "citation-crawl"
        return props

    def _abstract(self, rng: random.Random, base: int) -> str:
        m = self.material
        sentences = m.abstracts[base]
        target = rng.choice(m.abstract_lengths) * rng.uniform(0.8, 1.25)
        parts, at, length = [sentences[0]], 0, len(sentences[0])
        while length < target:
            if rng.random() < SAME_TOPIC_SENTENCE:
                at = (at + 1) % len(sentences)
                sentence = sentences[at]
            else:
                other = m.abstracts[rng.randrange(len(m.abstracts))]
                sentence = other[rng.randrange(len(other))]
            parts.append(sentence)
            length += len(sentence) + 1
        return " ".join(parts)

    def _authors(self, rng: random.Random) -> list[str] | str:
        """A list (45%), a comma-joined string (40%), a Python list literal in a string (8%) or '' (7%)."""
        m = self.material
        names = [f"{rng.choice(m.given_names)} {rng.choice(m.family_names)}" for _ in range(rng.choice(m.author_counts))]
        form = rng.random()
        if form < 0.45:
            return names
        if form < 0.85:
            return ", ".join(names)
        return repr(names) if form < 0.93 else ""

    def _publication_doi(self, i: int) -> str:
        skeleton, runs = self.skeletons[i % len(self.skeletons)]
        digits = f"{_mixed(i, sum(runs)):0{sum(runs)}d}"
        pieces, at = [], 0
        for run in runs:
            pieces.append(digits[at : at + run])
            at += run
        return skeleton.format(*pieces)

    def _year(self, i: int) -> str:
        year = int(self.arrays["year"][i])
        quirk = int(self.arrays["year_quirk"][i])
        return str(year) if quirk == 0 else list(YEAR_QUIRKS)[quirk - 1].format(year)

    def _dataset(self, i: int) -> dict:
        m = self.material
        real = m.datasets
        pagerank = self.arrays["pagerank"][self.publications + i]
        if i < len(real):
            props = {k: v for k, v in real[i].items() if k != "pagerank_publication_dataset"}
        else:
            # Synthetic datasets come in families of 3 versions of one real product, so version chains exist.
            family = (i - len(real)) // 3
            rng = self._rng("Dataset", i)
            base = m.cmr_datasets[_mixed(family, 6) % len(m.cmr_datasets)]
            version = rng.choice(m.version_tokens)
            long_name = base["longName"]
            long_name = _VERSION.sub(version, long_name, count=1) if _VERSION.search(long_name) else f"{long_name} {version}"
            doi = f"10.5067/{_base36(_mixed(i, 12, 36), 12)}"
            props = {
                "cmrId": f"C{_mixed(i, 10):010d}-{base['cmrId'].rsplit('-', 1)[-1]}",
                "daac": base["daac"],
                "doi": doi,
                "globalId": _uuid(doi),
                "longName": long_name,
                "shortName": f"{base['shortName']}_{family}",
                "temporalExtentEnd": base["temporalExtentEnd"],
                "temporalExtentStart": base["temporalExtentStart"],
            }
            if rng.random() < 0.95:
                props["abstract"] = " ".join(rng.choice(m.dataset_sentences) for _ in range(rng.randint(3, 9)))
        if not np.isnan(pagerank):
            props["pagerank_publication_dataset"] = float(pagerank)
        return props

    def _keyword(self, i: int) -> dict:
        name = self.keyword_names[i]
        return {"globalId": _uuid(name), "name": name}

    def _other(self, label: str, i: int) -> dict:
        """DataCenter, Instrument, Platform, Project: the sample's real records, then copies with a numbered short name."""
        real = self.material.others[label]
        if i < len(real):
            return dict(real[i])
        short = f"{real[i % len(real)]['shortName']}-{i // len(real)}"
        return {**real[i % len(real)], "shortName": short, "globalId": _uuid(short)}

    def _author(self, i: int) -> dict:
        real = self.material.people["authors"]
        if i < len(real):
            person = real[i]
            props = {"name": person["display_name"], "openalexId": person["openalex_id"]}
            if person["orcid"]:
                props["orcid"] = person["orcid"]
        else:
            rng = self._rng("Author", i)
            m = self.material
            # 'A9' ids do not exist in OpenAlex (its author ids start A1-A5): a synthetic id never clashes with a real one.
            props = {"name": f"{rng.choice(m.given_names)} {rng.choice(m.family_names)}", "openalexId": f"https://openalex.org/A9{_mixed(i, 9):09d}"}
            if rng.random() < 0.4:
                props["orcid"] = f"https://orcid.org/0000-000{rng.randint(1, 3)}-{rng.randint(0, 9999):04d}-{rng.randint(0, 9999):04d}"
        return {"globalId": _uuid(props["openalexId"]), **props}

    def _institution(self, i: int) -> dict:
        real = self.material.people["institutions"]
        base = real[i % len(real)]
        if i < len(real):
            props = {"name": base["display_name"], "openalexId": base["openalex_id"], "ror": base["ror"]}
        else:
            props = {
                "name": f"{base['display_name']} ({i // len(real)})",
                "openalexId": f"https://openalex.org/I9{_mixed(i, 9):09d}",
                "ror": f"https://ror.org/0{_base36(_mixed(i, 8, 36), 8).lower()}",
            }
        return {"country": base["country_code"], "globalId": _uuid(props["openalexId"]), **props}


# --------------------------------------------------------------------------------------------------------
# Writers
# --------------------------------------------------------------------------------------------------------


def _relationship_properties(edges: Edges, k: int) -> dict:
    if edges.weight is not None:
        return {"derived": True, "weight": int(edges.weight[k])}
    if edges.position is not None:
        return {"authorPosition": AUTHOR_POSITIONS[edges.position[k]]}
    return {}


class JsonlSink:
    """APOC JSON-lines: node lines, then relationship lines; `properties` left out when empty. With
    `endpoint_json`, a relationship's start and end carry their node's properties, as APOC writes them by
    default (`writeNodeProperties: true`): that is what makes the real v1.2.0 graph.json 1.56 GB while its
    GraphML, which names endpoints by id only, is 333 MB."""

    def __init__(self, path: Path, endpoint_json: Callable[[int], str] | None):
        self.handle = path.open("w", encoding="utf-8", newline="\n", buffering=1 << 20)
        self.writer = ApocJsonLinesWriter(self.handle, endpoint_properties=endpoint_json)

    def start(self) -> None:
        pass

    def node(self, node_id: int, label: str, props: dict) -> None:
        self.writer.node(node_id, [label], props)

    def relationship(self, rel_id: int, rel_type: str, start: tuple[int, str], end: tuple[int, str], props: dict) -> None:
        self.writer.relationship(rel_id, rel_type, (start[0], [start[1]]), (end[0], [end[1]]), props)

    def truncated(self, spare_id: int) -> None:
        """The line just written again, cut in half (an interrupted write): malformed JSON."""
        last = self.writer.last_line
        self.handle.write(last[: len(last) // 2] + "\n")

    def finish(self) -> None:
        self.handle.close()


# Every property key the generator writes, with its GraphML type (APOC declares keys before the graph).
NODE_KEYS = {
    "DOI": "string", "Type": "string", "abstract": "string", "authors": "string", "citersFetched": "boolean",
    "cmrId": "string", "country": "string", "crawlHop": "long", "daac": "string", "doi": "string",
    "globalId": "string", "landingPageUrl": "string", "longName": "string", "name": "string",
    "openalexId": "string", "orcid": "string", "pagerank_publication_dataset": "double", "ror": "string",
    "shortName": "string", "source": "string", "temporalExtentEnd": "string", "temporalExtentStart": "string",
    "temporalFrequency": "string", "title": "string", "url": "string", "year": "string",
}
EDGE_KEYS = {"authorPosition": "string", "derived": "boolean", "weight": "long"}
# Keys only v2 nodes and relationships carry; a v1 file declares none of them, as APOC declares only keys in use.
V2_ONLY_KEYS = {"citersFetched", "country", "crawlHop", "openalexId", "orcid", "ror", "source", *EDGE_KEYS}


class GraphmlSink:
    """APOC GraphML: declared keys (but not `labels` / `label`, which APOC leaves undeclared), node attribute
    labels=":Label" plus a labels data element, edge attribute label="TYPE" plus a label data element."""

    def __init__(self, path: Path, v2: bool):
        self.handle = path.open("w", encoding="utf-8", newline="\n", buffering=1 << 20)
        self.v2 = v2
        self.writer: ApocGraphmlWriter | None = None

    def start(self) -> None:
        def in_use(keys: dict[str, str]) -> dict[str, str]:
            return {name: kind for name, kind in keys.items() if self.v2 or name not in V2_ONLY_KEYS}

        self.writer = ApocGraphmlWriter(self.handle, node_keys=in_use(NODE_KEYS), edge_keys=in_use(EDGE_KEYS))

    def node(self, node_id: int, label: str, props: dict) -> None:
        self.writer.node(node_id, [label], props)

    def relationship(self, rel_id: int, rel_type: str, start: tuple[int, str], end: tuple[int, str], props: dict) -> None:
        self.writer.relationship(rel_id, rel_type, start[0], end[0], props)

    def truncated(self, spare_id: int) -> None:
        """GraphML cannot hold a cut line without ending the parse, so the counterpart of a truncated JSON
        line is a node element without labels (rejected as 'node without labels')."""
        self.writer.raw(f'    <node id="n{spare_id}" labels="">\n    </node>\n')

    def finish(self) -> None:
        self.writer.close()
        self.handle.close()


class CypherSink:
    """APOC's Cypher export with its defaults (`apoc.export.cypher.all`: UNWIND batches of 20 rows, 20,000 a
    transaction, `UNIQUE IMPORT ID` scaffolding), written by recon_assets.kg.apoc_format.ApocCypherWriter. Endpoints
    are named by id only, as APOC's Cypher export names them."""

    def __init__(self, path: Path):
        self.handle = path.open("w", encoding="utf-8", newline="\n", buffering=1 << 20)
        self.writer: ApocCypherWriter | None = None

    def start(self) -> None:
        self.writer = ApocCypherWriter(self.handle)

    def node(self, node_id: int, label: str, props: dict) -> None:
        self.writer.node(node_id, [label], props)

    def relationship(self, rel_id: int, rel_type: str, start: tuple[int, str], end: tuple[int, str], props: dict) -> None:
        self.writer.relationship((start[0], [start[1]]), rel_type, (end[0], [end[1]]), props)

    def truncated(self, spare_id: int) -> None:
        """An UNWIND statement cut short (an interrupted write): no ';' before the next statement, one reject."""
        self.writer.raw(f'UNWIND [{{_id:{spare_id}, properties:{{title:"cut sh\n')

    def finish(self) -> None:
        self.writer.close()
        self.handle.close()


# --------------------------------------------------------------------------------------------------------
# Generation
# --------------------------------------------------------------------------------------------------------

MALFORMED_KINDS = ("truncated", "duplicate_node_id", "dangling_endpoint")


def _malformed_positions(rng, nodes: int, relationships: int, share: float) -> tuple[dict[int, list[str]], dict[int, list[str]], dict[str, int]]:
    """Where malformed lines go: after which node / relationship (by write index), and how many of each kind.

    `share` of all lines, split evenly over the three kinds, at least one each when share > 0: a truncated
    line (half in the node section, half in the relationship section), a repeated node id (node section),
    a relationship to a node that does not exist (relationship section).
    """
    each = max(1, round(share * (nodes + relationships) / len(MALFORMED_KINDS))) if share > 0 else 0
    after_node: dict[int, list[str]] = {}
    after_rel: dict[int, list[str]] = {}
    truncated_in_nodes = each // 2
    plan = [(after_node, nodes, "truncated", truncated_in_nodes), (after_rel, relationships, "truncated", each - truncated_in_nodes),
            (after_node, nodes, "duplicate_node_id", each), (after_rel, relationships, "dangling_endpoint", each)]
    for where, size, kind, count in plan:
        for position in np.sort(rng.choice(size, size=min(count, size), replace=False)):
            where.setdefault(int(position), []).append(kind)
    counts = {kind: sum(kinds.count(kind) for kinds in [*after_node.values(), *after_rel.values()]) for kind in MALFORMED_KINDS}
    return after_node, after_rel, counts


def generate(
    out: Path,
    plan: Plan,
    *,
    seed: int = 0,
    formats: tuple[str, ...] = ("jsonl",),
    malformed_share: float = DEFAULT_MALFORMED_SHARE,
    pagerank_missing_share: float = DEFAULT_PAGERANK_MISSING_SHARE,
    endpoint_properties: bool = True,
) -> dict:
    """Write the KG in each format to `out` (graph.json / graph.graphml / graph.cypher) and `out`/manifest.json.

    Returns:
        The manifest: preset, scale, seed, options, node_counts, relationship_counts, nodes, relationships,
        malformed_lines (per kind), malformed_total, lines (= nodes + relationships + malformed_total, which
        is also the number of GraphML node and edge elements and of Cypher element rows and cut statements) and
        files {format: {path, bytes}}.
    """
    out.mkdir(parents=True, exist_ok=True)
    material = load_material()
    layout = Layout(plan.nodes)
    rng = np.random.default_rng(seed)
    keyword_names = science_keyword_names(material, plan.nodes["ScienceKeyword"])
    edges, arrays = build_topology(plan, layout, keyword_names, rng, pagerank_missing_share)
    factory = NodeFactory(plan, material, keyword_names, arrays, seed)
    relationships = sum(e.start.size for e in edges.values())
    after_node, after_rel, malformed = _malformed_positions(rng, layout.total, relationships, malformed_share)

    @functools.lru_cache(maxsize=ENDPOINT_CACHE)
    def endpoint_json(node_id: int) -> str | None:
        return apoc_json(factory.properties(*layout.locate(node_id))) if node_id < layout.total else None

    paths = {"jsonl": out / "graph.json", "graphml": out / "graph.graphml", "cypher": out / "graph.cypher"}
    make_sink = {
        "jsonl": lambda: JsonlSink(paths["jsonl"], endpoint_json if endpoint_properties else None),
        "graphml": lambda: GraphmlSink(paths["graphml"], factory.v2),
        "cypher": lambda: CypherSink(paths["cypher"]),
    }
    sinks = [make_sink[fmt]() for fmt in formats]
    # Malformed lines use ids no valid line has: spare node ids after the last node, relationship ids after the last one.
    spare_node_ids = itertools.count(layout.total)
    spare_rel_ids = itertools.count(relationships)
    for sink in sinks:
        sink.start()
    for node_id, (label, index) in enumerate(_nodes_in_order(layout)):
        props = factory.properties(label, index)
        for sink in sinks:
            sink.node(node_id, label, props)
        for kind in after_node.get(node_id, ()):
            spare = next(spare_node_ids)
            for sink in sinks:
                if kind == "truncated":
                    sink.truncated(spare)
                else:
                    sink.node(node_id, label, props)
    rel_id = 0
    for rel_type, typed in edges.items():
        for k in range(typed.start.size):
            start = (int(typed.start[k]), layout.locate(int(typed.start[k]))[0])
            end = (int(typed.end[k]), layout.locate(int(typed.end[k]))[0])
            props = _relationship_properties(typed, k)
            for sink in sinks:
                sink.relationship(rel_id, rel_type, start, end, props)
            for kind in after_rel.get(rel_id, ()):
                spare, dangling_id = next(spare_node_ids), next(spare_rel_ids)
                for sink in sinks:
                    if kind == "truncated":
                        sink.truncated(spare)
                    else:
                        sink.relationship(dangling_id, rel_type, start, (spare, end[1]), props)
            rel_id += 1
    for sink in sinks:
        sink.finish()
    manifest = {
        "generator": "benchmarks/generate_kg.py",
        "preset": plan.preset,
        "scale": plan.scale,
        "seed": seed,
        "options": {
            "malformed_share": malformed_share,
            "pagerank_missing_share": pagerank_missing_share,
            "endpoint_properties": endpoint_properties,
        },
        "node_counts": dict(plan.nodes),
        "relationship_counts": {rel_type: int(e.start.size) for rel_type, e in edges.items()},
        "nodes": layout.total,
        "relationships": relationships,
        "malformed_lines": malformed,
        "malformed_total": sum(malformed.values()),
        "lines": layout.total + relationships + sum(malformed.values()),
        "files": {fmt: {"path": paths[fmt].name, "bytes": paths[fmt].stat().st_size} for fmt in formats},
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def _nodes_in_order(layout: Layout) -> Iterator[tuple[str, int]]:
    for label in sorted(layout.counts):
        for index in range(layout.counts[label]):
            yield label, index


def parse_scale(text: str, preset: str) -> tuple[str, float]:
    """'v1' / 'v2' name a preset at full scale; a number scales `preset`.

    Raises:
        ValueError: neither a preset name nor a positive number.
    """
    if text in PRESETS:
        return text, 1.0
    scale = float(text)
    if not scale > 0:
        raise ValueError(f"--scale must be v1, v2 or a number > 0, got {text!r}")
    return preset, scale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="directory to write graph.json / graph.graphml / graph.cypher / manifest.json")
    parser.add_argument("--scale", default="v1", help="v1 (v1.2.0 counts), v2 (v2.0.0 totals) or a factor of --preset, e.g. 0.01")
    parser.add_argument("--preset", choices=sorted(PRESETS), default="v1", help="what a numeric --scale multiplies (default v1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--format", choices=("jsonl", "graphml", "cypher", "both", "all"), default="jsonl",
                        help="both: JSON-lines and GraphML; all: the three")
    parser.add_argument("--malformed-share", type=float, default=DEFAULT_MALFORMED_SHARE, help="share of malformed lines (default 0.0001)")
    parser.add_argument("--pagerank-missing-share", type=float, default=DEFAULT_PAGERANK_MISSING_SHARE,
                        help="share of Publication/Dataset nodes without pagerank_publication_dataset (1 forces recomputation)")
    parser.add_argument("--no-endpoint-properties", action="store_true",
                        help="relationship lines name endpoints by id and labels only (as the shipped sample), not with their properties")
    args = parser.parse_args(argv)
    preset, scale = parse_scale(args.scale, args.preset)
    formats = {"both": ("jsonl", "graphml"), "all": ("jsonl", "graphml", "cypher")}.get(args.format, (args.format,))
    manifest = generate(
        args.out, plan_counts(preset, scale), seed=args.seed, formats=formats, malformed_share=args.malformed_share,
        pagerank_missing_share=args.pagerank_missing_share, endpoint_properties=not args.no_endpoint_properties,
    )
    print(json.dumps({key: manifest[key] for key in ("preset", "scale", "seed", "nodes", "relationships", "malformed_lines", "files")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
