"""Build the shipped sample knowledge graph (`recon_assets/sample/`) from real public records.

    python tools/build_sample.py --real ../shared/data/real --out recon_assets/sample

(`../shared/data/real` is the developers' copy of the public source files named below; the sample itself needs
nothing from it.)

Writes five files, byte-identical on every run (everything sorted, no timestamps, selections by
SHA-256 rank instead of a random generator):

- `graph.json`: a Neo4j APOC JSON-lines export (all node lines, then all relationship lines; ids are
  strings; `properties` is left out when empty, as APOC does);
- `graph.graphml`: the same graph in APOC's GraphML flavour (no `<key>` for `labels`/`label`, list
  properties as JSON array strings);
- `graph.cypher`: the same graph as APOC's Cypher export writes it with its defaults, a conversion of
  `graph.json` by `recon_assets.kg.apoc_format.cypher_from_json_lines` (UNWIND batches, `:begin`/`:commit`);
- `README.md`: provenance of every part (verbatim real records vs. derived by a stated rule), the
  rules, and the counts per label and relationship type;
- `openalex_cache.json`: the offline OpenAlex recording (the real works, cut to the fields requested, and the citation
  counts of `recon_assets/reference/evaluation/citation_records.csv` composed into work records, each marked as such).

Inputs (all in `--real`, provenance in its README.md): the nasa/edgraph Neo4j records, CMR collection
rows, one CMR UMM-JSON page, OpenAlex works, the GCMD science keywords and the 21 applied research
areas. The KG's conventions reproduced here come from the dataset card of
nasa-gesdisc/nasa-eo-knowledge-graph (DOI 10.57967/hf/3463): relationship directions, `globalId` =
uuid5(NAMESPACE_DNS, DOI) for Dataset/Publication, of shortName for Platform/Instrument/Project/
DataCenter and of name for ScienceKeyword, and `pagerank_publication_dataset` from Neo4j GDS PageRank
over the Publication+Dataset projection.

Needs the standard library, networkx and recon_assets (its APOC writers).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
from datetime import datetime, timezone
import re
import textwrap
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

from recon_assets.enrichment.openalex_records import COMPOSED_FROM, SELECT_FIELDS, invalid_reason
from recon_assets.kg.doi import canonical_doi
from recon_assets.kg.apoc_format import ApocGraphmlWriter, ApocJsonLinesWriter, cypher_from_json_lines, graphml_key_types

# ---------------------------------------------------------------------------------------------
# Selection rules (each one is restated in the generated README)
# ---------------------------------------------------------------------------------------------

# Dataset families taken from cmr_collections_version_families.csv: every row whose ShortName
# matches, near-real-time and early-product rows left out. Chosen for their real version chains
# (DOMAIN.md: AIRS V006->7.0, IMERG V06->V07, MODIS 006->061, OMI 003->004, GLDAS 2.0->2.1->2.2,
# ASTER V003->V031->V004, TRMM TMPA -> GPM IMERG, MERRA -> MERRA-2) and for the publications' data.
FAMILIES: tuple[tuple[str, str], ...] = (
    ("AIRS", r"^AIRS(2CCF|2RET|2SUP|3SPD|3SPM|3STD|3STM)$"),
    ("ASTER", r"^AST(_L1T|_L1A|_L1B|_05|_07|_07XT|_08|_09|_09T|_09XT|14DEM)$"),
    ("CALIPSO", r"^CAL_LID_L2_(05kmAPro|BlowingSnow_Antarctica)-"),
    ("CYGNSS", r"^CYGNSS_L[12]_V\d"),
    ("GLDAS", r"^GLDAS_"),
    ("GPM IMERG", r"^GPM_3IMERG(DE|DF|DL|HH|HHE|HHL|M)$"),
    ("MERRA", r"^MAT(1|M)NX(SLV|FLX|RAD|LND)$"),
    ("MERRA-2", r"^M2T(1|M)NX(SLV|FLX|RAD|LND|AER)$"),
    (
        "MODIS",
        r"^(MCD43A4|MCD43C4|MCD43GF|MOD44W|MCD12Q1|MOD021KM|MYD021KM|MOD04_L2|MYD04_L2|MOD08_M3|MYD08_M3"
        r"|MOD09A1|MYD09A1|MOD11A1|MYD11A1|MOD13Q1|MYD13Q1)$",
    ),
    ("OMI", r"^OM(NO2|NO2d|NO2G|TO3|TO3G|TO3d|TO3e|SO2|SO2e|AERO)$"),
    ("SMAP", r"^SPL(2SMP|3SMP|3SMP_E)$"),
    ("TRMM", r"^TRMM_3B4"),
)
NEAR_REAL_TIME = re.compile(r"NRT")
EARLY_PRODUCT = re.compile(r"_EP$")
# Version suffix inside a ShortName (CALIPSO `-Standard-V4-21`, CYGNSS `_V3.1`): stripped to get the family.
SHORTNAME_VERSION = re.compile(r"(-(Standard|Prov|Beta|ValStage1))?[-_]V\d[\w.-]*$")
TITLE_VERSION = re.compile(r"\bV(?:ersion )?(\d[\w.-]*)")
DOI_VERSION = re.compile(r"\.(\d{3})$")

# EntryTitle prefixes of the form INSTRUMENT/PLATFORM (or PLATFORM/INSTRUMENT: "Aqua/AIRS" in AIRS V7).
INSTRUMENT_PLATFORM = re.compile(r"^([A-Za-z0-9-]+)/([A-Za-z0-9+-]+)\s")
# EntryTitles that open with the mission's acronym name their project.
PROJECT_PREFIXES = ("GPM", "MERRA-2", "TRMM")


@dataclass(frozen=True)
class UsageRule:
    """Publication-USES_DATASET->Dataset when the title+abstract match `mention` (and `also`, and not `unless`).

    Each lineage is a tuple of dataset families read as one product line; the rule links the newest
    dataset of the lineage released in a calendar year before the publication year, or the oldest one
    when none was (release years from the CMR ReleaseDate).
    """

    name: str
    mention: str
    lineages: tuple[tuple[str, ...], ...]
    also: str | None = None
    unless: str | None = None


ASTER = r"\bASTER\b|Advanced Spaceborne Thermal Emission"
MODIS = r"\bMODIS\b|Moderate Resolution Imaging Spectroradiometer"
AEROSOL = r"(?i)\baerosols?\b"
USAGE_RULES: tuple[UsageRule, ...] = (
    UsageRule("ASTER -> L1T radiance", ASTER, (("AST_L1T",),)),
    UsageRule("ASTER VNIR/SWIR -> L2 surface reflectance", ASTER, (("AST_07XT",),), also=r"\b(VNIR|SWIR)\b"),
    UsageRule(
        "ASTER thermal / lithological mapping -> L2 surface emissivity",
        ASTER,
        (("AST_05",),),
        also=r"(?i)\bTIR\b|thermal infrared|thermal bands?|litholog",
    ),
    UsageRule("TRMM -> TRMM 3B42", r"\bTRMM\b", (("TRMM_3B42",),)),
    UsageRule(
        "rainfall -> TRMM 3B42 or its successor GPM IMERG", r"(?i)\brainfall\b", (("TRMM_3B42", "GPM_3IMERGDF"),)
    ),
    UsageRule("MODIS aerosol -> MODIS Terra and Aqua aerosol", MODIS, (("MOD04_L2",), ("MYD04_L2",)), also=AEROSOL),
    UsageRule("MODIS imagery -> MODIS Terra L1B radiances", MODIS, (("MOD021KM",),), unless=AEROSOL),
    UsageRule("CYGNSS -> CYGNSS L1", r"\bCYGNSS\b", (("CYGNSS_L1",),)),
    UsageRule(
        "SMAP soil moisture -> SMAP L3 soil moisture",
        r"\bSMAP\b|Soil Moisture Active Passive",
        (("SPL3SMP",),),
        also=r"(?i)soil moisture",
    ),
    UsageRule("CALIOP/CALIPSO -> CALIPSO L2 aerosol profile", r"\bCALIOP\b|\bCALIPSO\b", (("CAL_LID_L2_05kmAPro",),)),
    UsageRule("land cover -> MODIS land cover type", r"(?i)\bland cover\b", (("MCD12Q1",),)),
)


@dataclass(frozen=True)
class AreaRule:
    """Keyword evidence for one applied research area: `pattern` hits counted in the lower-cased text."""

    area: str
    pattern: str
    requires: str | None = None
    excludes: str | None = None


# HAS_APPLIEDRESEARCHAREA: the area with most hits wins (ties: first in this table); no hit, no area.
REMOTE_SENSING = r"remote sens|satellite|\baster\b|landsat|multispectral|hyperspectral"
PETROLEUM = r"\b(oil|crude|reservoirs?|miscib\w*)\b"
AREA_RULES: tuple[AreaRule, ...] = (
    AreaRule(
        "ENERGY PRODUCTION/USE",
        r"\b(oil|petroleum|drilling|reservoirs?|shale|crude|hydrocarbons?|wells|oilfields?|wellbore|gas sands?"
        r"|asphaltenes?|wettability)\b",
    ),
    AreaRule("FLOODS", r"\b(floods?|flooding|flooded|inundation)\b", excludes=PETROLEUM),
    AreaRule("AIR QUALITY", r"\b(air quality|dust|aerosols?|pm2\.5|pm10|pollution)\b"),
    AreaRule("CRYOSPHERIC INDICATORS", r"\b(sea ice|frazil|polynyas?|glaciers?|snow)\b"),
    AreaRule("AGRICULTURE", r"\b(agricultur\w*|irrigation|crops?|farms?)\b"),
    AreaRule(
        "LAND SURFACE/AGRICULTURE INDICATORS",
        r"\b(alteration|lithologic\w*|mineral (?:exploration|prospecting|mapping)|prospectivity|lineaments?)\b",
        requires=REMOTE_SENSING,
    ),
    AreaRule(
        "ATMOSPHERIC/OCEAN INDICATORS",
        r"\b(rainfall|precipitation regime|wet season|ocean chemistry|sea-surface temperature|itcz)\b",
    ),
    AreaRule("ECOSYSTEMS", r"\b(foraminifera\w*|benthic|species|ecosystems?|algal)\b"),
)

# GCMD subset: these Topics with all their Terms; Variable_Level_1 only under these Terms. Names used by
# the UMM records' keywords (with their Topic and Term) and by the edgraph records are added.
GCMD_TOPICS = ("ATMOSPHERE", "LAND SURFACE", "TERRESTRIAL HYDROSPHERE")
GCMD_EXPANDED_TERMS = (
    "AEROSOLS",
    "ATMOSPHERIC TEMPERATURE",
    "ATMOSPHERIC WATER VAPOR",
    "LAND USE/LAND COVER",
    "PRECIPITATION",
    "SURFACE RADIATIVE PROPERTIES",
    "SURFACE THERMAL PROPERTIES",
    "SURFACE WATER",
    "TOPOGRAPHY",
)

PAGERANK_PROPERTY = "pagerank_publication_dataset"
DAMPING = 0.85  # Neo4j GDS default dampingFactor, as used by the KG builder.
PAGERANK_LEFT_OFF = 0.15
DOI_KEY_SHARE = 1 / 3
DOI_UPPER_SHARE = 1 / 3
AUTHORS_LIST_SHARE = 1 / 2
DUPLICATED_WORK = "https://openalex.org/W3015860713"
DUPLICATE_DOI = "https://doi.org/10.3390/RS12081239"

LABEL_ORDER = ("DataCenter", "Dataset", "Instrument", "Platform", "Project", "Publication", "ScienceKeyword")


# ---------------------------------------------------------------------------------------------
# Graph under construction
# ---------------------------------------------------------------------------------------------


@dataclass
class Node:
    label: str
    key: str
    properties: dict
    source: str  # provenance tag, counted in the README


@dataclass
class SampleGraph:
    """Nodes keyed by (label, natural key); the first writer of a node wins (real records are added first)."""

    nodes: dict[tuple[str, str], Node] = field(default_factory=dict)
    edges: dict[tuple[str, tuple[str, str], tuple[str, str]], str] = field(default_factory=dict)

    def add_node(self, label: str, key: str, properties: dict, source: str) -> tuple[str, str]:
        ref = (label, key)
        if ref not in self.nodes:
            self.nodes[ref] = Node(label, key, properties, source)
        return ref

    def add_edge(self, rel_type: str, start: tuple[str, str], end: tuple[str, str], source: str) -> None:
        if start == end:
            return
        self.edges.setdefault((rel_type, start, end), source)

    def of_label(self, label: str) -> list[Node]:
        return sorted((n for n in self.nodes.values() if n.label == label), key=lambda n: n.key)


def global_id(value: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_DNS, value))


def ranked_subset(keys: list[str], share: float, salt: str) -> set[str]:
    """The round(share * n) keys that come first when ranked by SHA-256 of `salt:key` (deterministic, spread)."""
    ranked = sorted(keys, key=lambda k: hashlib.sha256(f"{salt}:{k}".encode()).hexdigest())
    return set(ranked[: round(share * len(ranked))])


# ---------------------------------------------------------------------------------------------
# Real records: edgraph (verbatim)
# ---------------------------------------------------------------------------------------------


def natural_key(label: str, properties: dict, identity: int) -> str:
    """The key under which real and derived nodes meet: cmrId, shortName, name; Publications by identity."""
    if label == "Dataset":
        return properties["cmrId"]
    if label == "ScienceKeyword":
        return properties["name"]
    if label == "Publication":
        return f"edgraph:{identity}"
    return properties["shortName"]


def add_edgraph(graph: SampleGraph, records: dict) -> dict[str, int]:
    """Add the 7 node records and the 9 relationship records with their endpoints; return natural key -> identity."""
    identities: dict[str, int] = {}

    def add(record: dict) -> tuple[str, str]:
        label = record["labels"][0]
        key = natural_key(label, record["properties"], record["identity"])
        identities[key] = record["identity"]
        return graph.add_node(label, key, dict(record["properties"]), "edgraph")

    for name, record in records.items():
        if name.startswith("_"):
            continue
        if "relationship" in record:
            start, end = add(record["source_node"]), add(record["target_node"])
            graph.add_edge(record["relationship"]["type"], start, end, "edgraph")
        else:
            add(record)
    return identities


# ---------------------------------------------------------------------------------------------
# Datasets from CMR
# ---------------------------------------------------------------------------------------------


def collection_version(row: dict) -> str:
    """Version of a CMR row: the Version column, else the last `V...` in EntryTitle, else a `.NNN` DOI suffix."""
    if row["Version"].strip():
        return row["Version"].strip()
    titled = TITLE_VERSION.findall(row["EntryTitle"])
    if titled:
        return titled[-1]
    suffix = DOI_VERSION.search(row["DOI"])
    return suffix.group(1) if suffix else ""


def family_of(short_name: str) -> str:
    return SHORTNAME_VERSION.sub("", short_name)


def select_collections(rows: list[dict], families: tuple[tuple[str, str], ...] = FAMILIES) -> list[tuple[str, dict]]:
    """(family label, representative row) per distinct ShortName+version of the chosen `families`.

    Rows repeated across providers are one collection; the representative has a DOI if any row does,
    then the alphabetically first provider and concept-id.
    """
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    family_label: dict[tuple[str, str], str] = {}
    for row in rows:
        if NEAR_REAL_TIME.search(row["Version"] + row["ShortName"]) or re.search(r"\bNRT\b", row["EntryTitle"]):
            continue
        if EARLY_PRODUCT.search(row["ShortName"]):
            continue
        for label, pattern in families:
            if re.search(pattern, row["ShortName"]):
                key = (row["ShortName"], collection_version(row))
                groups[key].append(row)
                family_label[key] = label
                break
    chosen = []
    for key in sorted(groups):
        row = min(groups[key], key=lambda r: (r["DOI"] == "", r["provider-id"], r["concept-id"]))
        chosen.append((family_label[key], row))
    return chosen


@dataclass
class DatasetInfo:
    """What the derivation rules need to know about a Dataset node besides its properties."""

    ref: tuple[str, str]
    family: str
    version: str
    release_year: int | None
    title: str


def add_datasets(
    graph: SampleGraph, rows: list[dict], umm_by_name: dict, chosen: tuple[tuple[str, str], ...] = FAMILIES
) -> tuple[list[DatasetInfo], Counter]:
    """Add Dataset nodes for the CMR collections of the `chosen` families; edgraph nodes with the same cmrId or DOI stay as they are."""
    real_by_doi = {
        n.properties["doi"].lower(): n for n in graph.of_label("Dataset") if n.properties.get("doi")
    }
    infos: list[DatasetInfo] = []
    families: Counter = Counter()
    seen_global_ids = {n.properties["globalId"] for n in graph.of_label("Dataset")}
    for family, row in select_collections(rows, chosen):
        version = collection_version(row)
        release = int(row["ReleaseDate"][:4]) if row["ReleaseDate"] else None
        real = graph.nodes.get(("Dataset", row["concept-id"])) or real_by_doi.get(row["DOI"].lower())
        if real is not None:
            real_family = family_of(real.properties["shortName"])
            infos.append(DatasetInfo(("Dataset", real.key), real_family, version, release, real.properties["longName"]))
            families[family] += 1
            continue
        properties = {
            "cmrId": row["concept-id"],
            "daac": row["provider-id"],
            "globalId": global_id(row["DOI"] or row["concept-id"]),
            "longName": row["EntryTitle"],
            "shortName": row["ShortName"],
            "temporalExtentEnd": row["end-time"],
            "temporalExtentStart": row["start-time"],
        }
        if properties["globalId"] in seen_global_ids:  # two collections sharing one DOI would merge in the KG
            continue
        seen_global_ids.add(properties["globalId"])
        if row["DOI"]:
            properties["doi"] = row["DOI"]
        umm = umm_by_name.get((row["ShortName"], version))
        if umm is not None and umm.get("Abstract"):
            properties["abstract"] = umm["Abstract"]
        source = "cmr+umm" if umm is not None else "cmr"
        ref = graph.add_node("Dataset", row["concept-id"], properties, source)
        infos.append(DatasetInfo(ref, family_of(row["ShortName"]), version, release, row["EntryTitle"]))
        families[family] += 1
    return infos, families


def add_data_centers(graph: SampleGraph) -> None:
    """DataCenter-HAS_DATASET->Dataset for every Dataset, by DataCenter shortName == Dataset daac."""
    for dataset in graph.of_label("Dataset"):
        daac = dataset.properties["daac"]
        center = graph.add_node(
            "DataCenter",
            daac,
            {"globalId": global_id(daac), "longName": "N/A", "shortName": daac, "url": "N/A"},
            "derived",
        )
        graph.add_edge("HAS_DATASET", center, ("Dataset", dataset.key), "derived")


def platform_node(graph: SampleGraph, short_name: str, umm_platforms: dict) -> tuple[str, str]:
    known = umm_platforms.get(short_name, {})
    return graph.add_node(
        "Platform",
        short_name,
        {
            "Type": known.get("Type") or "N/A",
            "globalId": global_id(short_name),
            "longName": known.get("LongName") or "N/A",
            "shortName": short_name,
        },
        "umm" if known else "derived",
    )


def instrument_node(graph: SampleGraph, short_name: str, umm_instruments: dict) -> tuple[str, str]:
    long_name = umm_instruments.get(short_name)
    return graph.add_node(
        "Instrument",
        short_name,
        {"globalId": global_id(short_name), "longName": long_name or "N/A", "shortName": short_name},
        "umm" if long_name else "derived",
    )


def project_node(graph: SampleGraph, short_name: str, long_name: str | None) -> tuple[str, str]:
    return graph.add_node(
        "Project",
        short_name,
        {"globalId": global_id(short_name), "longName": long_name or "N/A", "shortName": short_name},
        "umm" if long_name else "derived",
    )


def add_platforms(graph: SampleGraph, infos: list[DatasetInfo], umm_items: list[dict], umm_by_name: dict) -> None:
    """HAS_PLATFORM / HAS_INSTRUMENT / OF_PROJECT from the UMM records, else from the EntryTitle's prefixes."""
    umm_platforms = {p["ShortName"]: p for item in umm_items for p in item["umm"].get("Platforms", [])}
    umm_instruments = {
        i["ShortName"]: i.get("LongName")
        for item in umm_items
        for p in item["umm"].get("Platforms", [])
        for i in p.get("Instruments", [])
    }
    for info in infos:
        dataset = graph.nodes[info.ref]
        umm = umm_by_name.get((dataset.properties["shortName"], info.version))
        if umm is not None:
            for platform in umm.get("Platforms", []):
                p_ref = platform_node(graph, platform["ShortName"], umm_platforms)
                graph.add_edge("HAS_PLATFORM", info.ref, p_ref, "umm")
                for instrument in platform.get("Instruments", []):
                    i_ref = instrument_node(graph, instrument["ShortName"], umm_instruments)
                    graph.add_edge("HAS_INSTRUMENT", p_ref, i_ref, "umm")
            for project in umm.get("Projects", []):
                project_ref = project_node(graph, project["ShortName"], project.get("LongName"))
                graph.add_edge("OF_PROJECT", info.ref, project_ref, "umm")
            continue
        prefix = INSTRUMENT_PLATFORM.match(info.title)
        if prefix:
            first, second = prefix.groups()
            instrument, platforms = (second, first) if first in umm_platforms else (first, second)
            i_ref = instrument_node(graph, instrument, umm_instruments)
            for platform in platforms.split("+"):
                p_ref = platform_node(graph, platform, umm_platforms)
                graph.add_edge("HAS_PLATFORM", info.ref, p_ref, "derived")
                graph.add_edge("HAS_INSTRUMENT", p_ref, i_ref, "derived")
        mission = next((p for p in PROJECT_PREFIXES if info.title.startswith(p + " ")), None)
        if mission:
            graph.add_edge("OF_PROJECT", info.ref, project_node(graph, mission, None), "derived")


# ---------------------------------------------------------------------------------------------
# Science keywords and research areas
# ---------------------------------------------------------------------------------------------


def read_gcmd(path: Path) -> list[dict]:
    lines = path.read_text(encoding="utf-8").splitlines()[1:]  # first line is the vocabulary's metadata row
    return [row for row in csv.DictReader(lines) if row["Category"] == "EARTH SCIENCE"]


def add_science_keywords(graph: SampleGraph, gcmd: list[dict], umm_items: list[dict], areas: list[str]) -> set[str]:
    """ScienceKeyword nodes (GCMD subset + UMM keywords + research areas) and HAS_SUBCATEGORY edges.

    Returns the GCMD Term and Variable_Level_1 names (the ones matched against dataset titles).
    """
    names: set[str] = {n.key for n in graph.of_label("ScienceKeyword")}
    matchable: set[str] = set()
    for row in gcmd:
        if row["Topic"] in GCMD_TOPICS:
            names.update(n for n in (row["Topic"], row["Term"]) if n)
            matchable.add(row["Term"])
            if row["Term"] in GCMD_EXPANDED_TERMS and row["Variable_Level_1"]:
                names.add(row["Variable_Level_1"])
                matchable.add(row["Variable_Level_1"])
    for item in umm_items:
        for keyword in item["umm"].get("ScienceKeywords", []):
            used = [keyword.get("Topic"), keyword.get("Term"), keyword.get("VariableLevel1")]
            names.update(n for n in used if n)
    matchable.discard("")
    for name in sorted(names | set(areas)):
        source = "gcmd" if name in names else "area"
        graph.add_node("ScienceKeyword", name, {"globalId": global_id(name), "name": name}, source)
    for row in gcmd:
        chain = [row["Topic"], row["Term"], row["Variable_Level_1"]]
        for parent, child in zip(chain, chain[1:]):
            if parent in names and child in names:
                graph.add_edge("HAS_SUBCATEGORY", ("ScienceKeyword", parent), ("ScienceKeyword", child), "gcmd")
    return matchable & names


def keyword_pattern(name: str) -> re.Pattern:
    """Whole-word, case-insensitive match of a keyword, of each '/'-separated part, and of a plural's singular."""
    forms = set()
    for part in name.split("/"):
        part = part.strip()
        forms.add(part)
        if part.endswith("S"):
            forms.add(part[:-1])
    alternatives = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    return re.compile(rf"\b(?:{alternatives})\b", re.IGNORECASE)


def add_dataset_keywords(graph: SampleGraph, infos: list[DatasetInfo], matchable: set[str], umm_by_name: dict) -> None:
    """Dataset-HAS_SCIENCEKEYWORD->ScienceKeyword: UMM keywords where there is a UMM record, else title matches."""
    patterns = {name: keyword_pattern(name) for name in sorted(matchable)}
    for info in infos:
        dataset = graph.nodes[info.ref]
        umm = umm_by_name.get((dataset.properties["shortName"], info.version))
        if umm is not None:
            for keyword in umm.get("ScienceKeywords", []):
                name = keyword.get("VariableLevel1") or keyword["Term"]
                graph.add_edge("HAS_SCIENCEKEYWORD", info.ref, ("ScienceKeyword", name), "umm")
            continue
        for name, pattern in patterns.items():
            if pattern.search(info.title):
                graph.add_edge("HAS_SCIENCEKEYWORD", info.ref, ("ScienceKeyword", name), "derived")


def research_area(text: str) -> str | None:
    """The applied research area with most keyword hits in `text` (ties: table order), or None."""
    lowered = text.lower()
    best: tuple[int, int, str] | None = None
    for rank, rule in enumerate(AREA_RULES):
        if rule.requires and not re.search(rule.requires, lowered):
            continue
        if rule.excludes and re.search(rule.excludes, lowered):
            continue
        hits = len(re.findall(rule.pattern, lowered))
        if hits and (best is None or (hits, -rank) > best[:2]):
            best = (hits, -rank, rule.area)
    return best[2] if best else None


# ---------------------------------------------------------------------------------------------
# Publications
# ---------------------------------------------------------------------------------------------


def abstract_from_index(index: dict | None) -> str:
    """Rebuild an OpenAlex abstract from its inverted index (word -> positions); 'N/A' when there is none, as the KG does."""
    if not index:
        return "N/A"
    placed = {position: word for word, positions in index.items() for position in positions}
    return " ".join(placed[p] for p in sorted(placed))


def bare_doi(url: str) -> str:
    return re.sub(r"^https?://(dx\.)?doi\.org/", "", url)


def add_publications(graph: SampleGraph, works: list[dict]) -> dict[str, tuple[str, str]]:
    """Publication nodes for the OpenAlex works plus one respelled duplicate; return OpenAlex id -> node ref."""
    ids = sorted(w["id"] for w in works)
    doi_key_upper = ranked_subset(ids, DOI_KEY_SHARE, "doi-key")
    doi_upper_case = ranked_subset(ids, DOI_UPPER_SHARE, "doi-case")
    authors_as_list = ranked_subset(ids, AUTHORS_LIST_SHARE, "authors-list")
    refs: dict[str, tuple[str, str]] = {}
    for work in sorted(works, key=lambda w: w["id"]):
        doi = bare_doi(work["doi"])
        if work["id"] in doi_upper_case:
            doi = doi.upper()
        names = [a["author"]["display_name"] for a in work["authorships"]]
        properties = {
            "DOI" if work["id"] in doi_key_upper else "doi": doi,
            "abstract": abstract_from_index(work["abstract_inverted_index"]),
            "authors": names if work["id"] in authors_as_list else ", ".join(names),
            "globalId": global_id(doi),
            "title": work["title"] or work["display_name"],
            "year": str(work["publication_year"]),
        }
        refs[work["id"]] = graph.add_node("Publication", work["id"], properties, "openalex")
        if work["id"] == DUPLICATED_WORK:
            duplicate = {k: v for k, v in properties.items() if k not in ("DOI", "doi", "globalId")}
            duplicate.update({"doi": DUPLICATE_DOI, "globalId": global_id(DUPLICATE_DOI)})
            graph.add_node("Publication", f"{work['id']}#duplicate", duplicate, "openalex-duplicate")
    return refs


def publication_text(node: Node) -> str:
    abstract = node.properties.get("abstract", "")
    return f"{node.properties.get('title', '')} {'' if abstract == 'N/A' else abstract}"


def pick_in_lineage(candidates: list[DatasetInfo], year: int) -> DatasetInfo:
    """Newest dataset released in a year before `year`; else the oldest (unknown release years count as newest)."""
    released = [c for c in candidates if c.release_year is not None and c.release_year < year]
    if released:
        return max(released, key=lambda c: (c.release_year, c.version, c.ref))
    return min(candidates, key=lambda c: (c.release_year if c.release_year is not None else 9999, c.version, c.ref))


def add_usage(graph: SampleGraph, infos: list[DatasetInfo]) -> None:
    """Publication-USES_DATASET->Dataset by USAGE_RULES, skipping lineages a real edge already covers."""
    by_family: dict[str, list[DatasetInfo]] = defaultdict(list)
    for info in infos:
        by_family[info.family].append(info)
    family_of_ref = {info.ref: info.family for info in infos}
    for publication in graph.of_label("Publication"):
        ref = ("Publication", publication.key)
        text = publication_text(publication)
        year = int(publication.properties["year"])
        real_families = {
            family_of_ref.get(end) for (t, start, end) in graph.edges if t == "USES_DATASET" and start == ref
        }
        for rule in USAGE_RULES:
            if not re.search(rule.mention, text):
                continue
            if rule.also and not re.search(rule.also, text):
                continue
            if rule.unless and re.search(rule.unless, text):
                continue
            for lineage in rule.lineages:
                if real_families & set(lineage):
                    continue
                candidates = [c for family in lineage for c in by_family[family]]
                graph.add_edge("USES_DATASET", ref, pick_in_lineage(candidates, year).ref, "derived")


# ---------------------------------------------------------------------------------------------
# Labelled real cases (recon_assets/reference/evaluation/), so that the evaluation finds them in the KG
# ---------------------------------------------------------------------------------------------

EVALUATION = Path(__file__).resolve().parents[1] / "recon_assets" / "reference" / "evaluation"


def case_dataset(graph: SampleGraph, case: dict, cmr_rows: list[dict], umm_by_name: dict) -> tuple[str, str]:
    """The Dataset node a labelled case names: the CMR record of its concept id or DOI (with every other collection
    of its short name, so that the KG holds the versions that replace it, as the real KG does), else a node made
    of the case's own short name, version and DOI."""
    matching = [
        row for row in cmr_rows
        if (case["dataset_cmr_concept_id"] and row["concept-id"] == case["dataset_cmr_concept_id"])
        or (case["dataset_doi"] and row["DOI"].lower() == case["dataset_doi"])
    ]
    short_name = matching[0]["ShortName"] if matching else case["dataset_short_name"]
    family_rows = [row for row in cmr_rows if short_name and row["ShortName"] == short_name and not NEAR_REAL_TIME.search(row["Version"] + row["ShortName"])]
    add_datasets(graph, family_rows, umm_by_name, chosen=(("case", rf"^{re.escape(short_name)}$"),))
    if matching:
        row = min(matching, key=lambda r: (r["DOI"] == "", r["provider-id"], r["concept-id"]))
        found = graph.nodes.get(("Dataset", row["concept-id"])) or next(
            (n for n in graph.of_label("Dataset") if row["DOI"] and n.properties.get("doi", "").lower() == row["DOI"].lower()), None
        )
        if found is not None:
            return ("Dataset", found.key)
    version = case["dataset_version"]
    properties = {
        "globalId": global_id(case["dataset_doi"] or f"{short_name} {version}"),
        # "GPM_3IMERGDF V05" as CMR entry titles write it; a version spelled with words stays as written
        "longName": f"{short_name} {'V' if version[:1].isdigit() else ''}{version}".strip(),
        "shortName": short_name,
    }
    if case["dataset_doi"]:
        properties["doi"] = case["dataset_doi"]
    return graph.add_node("Dataset", f"case:{properties['globalId']}", properties, "labelled case")


def case_publication(graph: SampleGraph, doi: str, publications: dict) -> tuple[str, str]:
    """The Publication node of a labelled DOI (recon_assets/reference/evaluation/publications.json): title, year, first
    author and, only when openly licensed, its abstract ('N/A' otherwise, as the KG writes a missing one)."""
    record = publications[doi]
    properties = {
        "abstract": record.get("abstract") or "N/A",
        "authors": record.get("first_author") or "",
        "doi": doi,
        "globalId": global_id(doi),
        "title": record.get("title") or "N/A",
        "year": str(record["year"]),
    }
    return graph.add_node("Publication", f"doi:{doi}", properties, "labelled case")


def citing_publication(graph: SampleGraph, row: dict, publications: dict) -> tuple[str, str]:
    """The Publication node of a citing work of citing_works.csv: the labelled publication's node when its DOI is one,
    else its title, year and first author as the row records them (a DOI only when the page showed one: the KG writes no
    DOI property then), never an abstract (none is recorded)."""
    doi = row["citing_doi"].lower()
    if doi in publications:
        return case_publication(graph, doi, publications)
    key = doi or f"title:{row['citing_title']}"
    properties = {
        "abstract": "N/A", "authors": row["citing_first_author"], "globalId": global_id(key), "title": row["citing_title"],
        "year": row["citing_year"],
    }
    if doi:
        properties["doi"] = doi
    return graph.add_node("Publication", f"doi:{doi}" if doi else key, properties, "citing work")


CITATIONS = "citations"


def add_labelled_cases(graph: SampleGraph, cmr_rows: list[dict], umm_by_name: dict) -> Counter:
    """Every labelled edge but the circular ones (edges the text rules above derive) as
    Publication-USES_DATASET->Dataset, and every citation of citing_works.csv (found on public pages, independently of
    the labels) as Publication-CITES->Publication; no edge is derived from a label file (labelled_pairs.csv is not read).

    Raises:
        ValueError: a citing work without a title or a 4-digit year, or a cited DOI that is not a labelled publication
            of publications.json.
    """
    publications = json.loads((EVALUATION / "publications.json").read_text(encoding="utf-8"))
    counts: Counter = Counter()  # cases per class, and CITATIONS
    with (EVALUATION / "labelled_edges.csv").open(encoding="utf-8", newline="") as handle:
        for case in csv.DictReader(handle):
            if case["use_source"].startswith("sample KG USES_DATASET edge"):
                continue  # the circular cases are edges the rules above already derive
            dataset = case_dataset(graph, case, cmr_rows, umm_by_name)
            graph.add_edge("USES_DATASET", case_publication(graph, case["publication_doi"], publications), dataset, "labelled case")
            counts[case["class"]] += 1
    with (EVALUATION / "citing_works.csv").open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            cited = row["cited_doi"].lower()
            if not row["citing_title"] or not re.fullmatch(r"\d{4}", row["citing_year"]):
                raise ValueError(f"citing_works.csv: a citing work needs a title and a 4-digit year: {row}")
            if cited not in publications:
                raise ValueError(f"citing_works.csv: cited DOI {cited!r} is not a labelled publication (publications.json)")
            graph.add_edge("CITES", citing_publication(graph, row, publications), case_publication(graph, cited, publications), "citing work")
            counts[CITATIONS] += 1
    return counts


def add_research_areas(graph: SampleGraph) -> None:
    """One HAS_APPLIEDRESEARCHAREA per publication by `research_area`, unless it already has a real one."""
    classified = {start for (t, start, _end) in graph.edges if t == "HAS_APPLIEDRESEARCHAREA"}
    for publication in graph.of_label("Publication"):
        ref = ("Publication", publication.key)
        area = research_area(publication_text(publication))
        if ref not in classified and area is not None:
            graph.add_edge("HAS_APPLIEDRESEARCHAREA", ref, ("ScienceKeyword", area), "derived")


# ---------------------------------------------------------------------------------------------
# PageRank
# ---------------------------------------------------------------------------------------------


def gds_pagerank(nodes: list[tuple[str, str]], edges: list[tuple[tuple[str, str], tuple[str, str]]]) -> dict:
    """PageRank on the Neo4j GDS scale (an isolated node scores 1 - damping = 0.15), computed with networkx.

    GDS iterates PR = (1-d) + d * M^T PR without redistributing the rank of dangling nodes. networkx
    solves x = d (M^T x + D u) + (1-d) u with u = 1/N and D = the dangling nodes' total rank, so both are
    multiples of (I - d M^T)^-1 1 and PR = x * N (1-d) / ((1-d) + d D) exactly. (Plain x * N is only
    right when no node is dangling; here every Dataset is.) GDS stops after 20 iterations by default,
    so the KG's stored values can differ from this converged value in later digits.
    """
    graph = nx.DiGraph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(edges)
    ranks = nx.pagerank(graph, alpha=DAMPING, tol=1.0e-12, max_iter=1000)
    dangling = sum(rank for node, rank in ranks.items() if graph.out_degree(node) == 0)
    scale = graph.number_of_nodes() * (1 - DAMPING) / ((1 - DAMPING) + DAMPING * dangling)
    # 9 decimals: the power iteration's residual (tol 1e-12) stays below them, so 0.15 stays 0.15.
    return {node: round(rank * scale, 9) for node, rank in ranks.items()}


def add_pagerank(graph: SampleGraph) -> None:
    """Set pagerank_publication_dataset on derived Publication/Dataset nodes, leaving it off a ranked ~15%."""
    projected = [ref for ref, n in graph.nodes.items() if n.label in ("Publication", "Dataset")]
    projected.sort()
    edges = sorted((s, e) for (t, s, e) in graph.edges if t in ("USES_DATASET", "CITES"))
    scores = gds_pagerank(projected, edges)
    derived = [f"{label}|{key}" for (label, key) in projected if graph.nodes[(label, key)].source != "edgraph"]
    left_off = ranked_subset(derived, PAGERANK_LEFT_OFF, "pagerank-left-off")
    for ref in projected:
        node = graph.nodes[ref]
        if node.source == "edgraph" or f"{ref[0]}|{ref[1]}" in left_off:
            continue  # real nodes keep their stored value
        node.properties[PAGERANK_PROPERTY] = scores[ref]


# ---------------------------------------------------------------------------------------------
# Writers
# ---------------------------------------------------------------------------------------------


def node_sort_key(node: Node) -> tuple:
    p = node.properties
    name = p.get("shortName") or p.get("name") or p.get("title") or ""
    return (LABEL_ORDER.index(node.label), name, p.get("longName", ""), p["globalId"], node.key)


def number(graph: SampleGraph) -> tuple[list[Node], dict[tuple[str, str], str], list[tuple[str, str, str, str]]]:
    """Nodes in label-then-name order with ids "0".."n-1"; relationships (id, type, start id, end id) in type order."""
    nodes = sorted(graph.nodes.values(), key=node_sort_key)
    ids = {(n.label, n.key): str(i) for i, n in enumerate(nodes)}
    rels = sorted((t, int(ids[s]), int(ids[e])) for (t, s, e) in graph.edges)
    return nodes, ids, [(str(i), t, str(s), str(e)) for i, (t, s, e) in enumerate(rels)]


def write_graph(nodes: list[Node], ids: dict, rels: list[tuple[str, str, str, str]], out: Path) -> None:
    """graph.json, graph.graphml and graph.cypher of the numbered graph, by recon_assets.kg.apoc_format's writers
    (graph.cypher converted from graph.json)."""
    label_of = {ids[(n.label, n.key)]: n.label for n in nodes}
    with (out / "graph.json").open("w", encoding="utf-8", newline="\n") as handle:
        jsonl = ApocJsonLinesWriter(handle)
        for n in nodes:
            jsonl.node(ids[(n.label, n.key)], [n.label], n.properties)
        for rel_id, rel_type, start, end in rels:
            jsonl.relationship(rel_id, rel_type, (start, [label_of[start]]), (end, [label_of[end]]), {})
    with (out / "graph.graphml").open("w", encoding="utf-8", newline="\n") as handle:
        graphml = ApocGraphmlWriter(handle, node_keys=graphml_key_types(n.properties for n in nodes))
        for n in nodes:
            graphml.node(ids[(n.label, n.key)], [n.label], n.properties)
        for rel_id, rel_type, start, end in rels:
            graphml.relationship(rel_id, rel_type, start, end, {})
        graphml.close()
    with (out / "graph.json").open(encoding="utf-8") as lines, (out / "graph.cypher").open("w", encoding="utf-8") as cypher:
        cypher_from_json_lines(lines, cypher)


# ---------------------------------------------------------------------------------------------
# README
# ---------------------------------------------------------------------------------------------

USED_FILES = (
    "edgraph_kg_sample_records.json",
    "cmr_collections_version_families.csv",
    "cmr_umm_json_collections_POCLOUD_page20.json",
    "openalex_works_geoscience_sample.json",
    "gcmd_sciencekeywords_v9.1.5.csv",
    "applied_research_areas.json",
)


def origin_rows(real_readme: str) -> list[str]:
    """The provenance table rows of the real data's README for the files used here, verbatim."""
    rows = [line for line in real_readme.splitlines() if line.startswith("| `")]
    return [row for row in rows if any(f"`{name}`" in row.split("|")[1] for name in USED_FILES)]


def readme_text(
    graph: SampleGraph,
    nodes: list[Node],
    ids: dict,
    rels: list,
    real_readme: str,
    families: Counter,
    identities: dict,
) -> str:
    """The README: counts, provenance of each part, the rules and the edgraph id mapping."""
    label_counts = Counter(n.label for n in nodes)
    type_counts = Counter(r[1] for r in rels)
    source_counts = Counter((n.label, n.source) for n in nodes)
    edge_sources = Counter((t, src) for (t, _s, _e), src in graph.edges.items())
    publications = [n for n in nodes if n.label == "Publication"]
    with_pagerank = sum(1 for n in nodes if PAGERANK_PROPERTY in n.properties)
    projected = sum(1 for n in nodes if n.label in ("Publication", "Dataset"))
    unclassified = sorted(
        n.properties["title"]
        for n in publications
        if ("Publication", n.key) not in {s for (t, s, _e) in graph.edges if t == "HAS_APPLIEDRESEARCHAREA"}
    )
    lines = [
        "# Sample knowledge graph",
        "",
        "A small NASA EO knowledge graph in the exact shape of the real export (Neo4j APOC `graph.json` JSON-lines,",
        "`graph.graphml` and `graph.cypher`), built only from real public records. `graph.cypher` is a conversion of",
        "`graph.json` into the statements of APOC's Cypher export with its defaults (`apoc.export.cypher.all`: UNWIND",
        "batches of 20 rows, `:begin`/`:commit`, APOC's `UNIQUE IMPORT ID` scaffolding; `recon_assets/kg/apoc_format.py`),",
        "not an export made by Neo4j. Regenerate all, byte for byte, with",
        "",
        "    python tools/build_sample.py --real ../shared/data/real --out recon_assets/sample",
        "",
        "(`../shared/data/real` is the developers' copy of the public source files named below; using the sample",
        "needs nothing from it.)",
        "",
        "The rules below are the ones in `tools/build_sample.py`; every derived edge is a documented rule's",
        "output, not a claim found in the source. Contains no malformed lines (tests make their own bad input).",
        "",
        "## Counts",
        "",
        "| node label | count |",
        "|---|---|",
        *(f"| {label} | {label_counts[label]} |" for label in LABEL_ORDER),
        f"| **total** | {len(nodes)} |",
        "",
        "| relationship type | count |",
        "|---|---|",
        *(f"| {t} | {type_counts[t]} |" for t in sorted(type_counts)),
        f"| **total** | {len(rels)} |",
        "",
        f"`{PAGERANK_PROPERTY}` is on {with_pagerank} of the {projected} Publication and Dataset nodes.",
        "",
        "## Where each part comes from",
        "",
        "Upstream origin of the source files (rows copied from the real data's README):",
        "",
        "| file | what it is | origin | licence |",
        "|---|---|---|---|",
        *origin_rows(real_readme),
        "",
        "| part | source | how |",
        "|---|---|---|",
        f"| {sum(v for (l, s), v in source_counts.items() if s == 'edgraph')} nodes and "
        f"{sum(v for (t, s), v in edge_sources.items() if s == 'edgraph')} relationships | `edgraph_kg_sample_records.json` | "
        "verbatim: every node and relationship record with both endpoints, Neo4j driver shape turned into APOC shape, "
        "properties untouched (quirks kept: `DOI` vs `doi`, upper-case DOIs, `year` as a string, `authors` as list or '', "
        "'N/A' values, an OF_PROJECT edge ending on a Platform, a physics paper filed under AIR QUALITY, stored PageRank values) |",
        f"| {source_counts[('Dataset', 'cmr')] + source_counts[('Dataset', 'cmr+umm')]} Dataset nodes | `cmr_collections_version_families.csv` | "
        "one node per distinct ShortName+version of the families below; `shortName` = ShortName, `longName` = EntryTitle "
        "(which carries the version), `doi` = DOI (left out when empty), `cmrId` = concept-id, `daac` = provider-id, "
        "`temporalExtentStart`/`End` = start-time/end-time ('' when empty, as in the KG), `globalId` = uuid5(DOI) "
        "(uuid5(concept-id) when there is no DOI). No `abstract` unless a UMM record gives one |",
        f"| `abstract` of {source_counts[('Dataset', 'cmr+umm')]} Datasets, CYGNSS platform/instrument/project, Aqua/Terra/MODIS long names "
        "| `cmr_umm_json_collections_POCLOUD_page20.json` | verbatim from the UMM-C records (`Abstract`, `Platforms`, `Instruments`, `Projects`, `ScienceKeywords`) |",
        f"| {source_counts[('Publication', 'openalex')]} Publication nodes | `openalex_works_geoscience_sample.json` | "
        "`title`; `doi` = the work's DOI without `https://doi.org/`; `year` = publication_year as a string; "
        "`abstract` rebuilt from `abstract_inverted_index` (words put at their positions; 'N/A' when the index is null, as in the KG); "
        "`authors` = authorship display names, as a list on a SHA-256-ranked half and a comma-joined string on the other; "
        "`globalId` = uuid5 of the DOI as stored |",
        f"| {source_counts[('ScienceKeyword', 'gcmd')]} ScienceKeyword nodes | `gcmd_sciencekeywords_v9.1.5.csv` (+ UMM keywords, edgraph) | "
        f"GCMD EARTH SCIENCE Topics {', '.join(GCMD_TOPICS)} with all their Terms, Variable_Level_1 under "
        f"{', '.join(GCMD_EXPANDED_TERMS)}, plus every Topic/Term/Variable_Level_1 used by the UMM records' keywords; "
        "`name` upper case, `globalId` = uuid5(name) |",
        f"| 21 research areas ({source_counts[('ScienceKeyword', 'area')]} new nodes) | `applied_research_areas.json` | "
        "label upper-cased as `name` ('Air Quality' -> 'AIR QUALITY'); an area whose name is also a GCMD keyword is that one node, "
        "as names are unique in the KG |",
        "",
        "Dataset families (ShortName patterns; near-real-time and early-product rows left out; rows repeated across providers "
        "are one node, represented by a row with a DOI, then by provider and concept-id order):",
        "",
        "| family | pattern | nodes |",
        "|---|---|---|",
        *(f"| {name} | `{pattern}` | {families[name]} |" for name, pattern in FAMILIES),
        "",
        "The version of a row is its Version column, else the last `V...` of its EntryTitle, else a `.NNN` DOI suffix "
        "(so AST_L1T V003 and V031, which both have an empty Version, stay two nodes). Dataset nodes of the edgraph records "
        "whose cmrId or DOI is in the CSV are kept as they are, not duplicated.",
        "",
        "## Derived parts and their rules",
        "",
        "- **CITES**: the 44-work corpus' `internal_citation_edges_citing_to_cited` (real), citing -> cited, plus the edgraph one, "
        "plus the citations of labelled publications found on public pages (`citing_works.csv`, see \"Labelled real cases\").",
        "- **USES_DATASET** (besides the real edgraph edge): a rule fires when the publication's title+abstract matches it; it "
        "links one dataset per product line: the newest one released (CMR ReleaseDate) in a year before the publication year, "
        "else the oldest. A product line already linked by a real edge is skipped.",
        *(
            f"  - {rule.name}: mention `{rule.mention}`"
            + (f", and `{rule.also}`" if rule.also else "")
            + (f", not `{rule.unless}`" if rule.unless else "")
            + " -> "
            + "; ".join(" then ".join(lineage) for lineage in rule.lineages)
            for rule in USAGE_RULES
        ),
        "  Landsat, Sentinel, WorldView and PALSAR, named by several papers, have no collection family in the CMR file, so no edge.",
        "- **HAS_APPLIEDRESEARCHAREA** (besides the real edgraph edge): the area whose keywords hit the lower-cased title+abstract "
        "most often (ties: first in the list); none when nothing hits, which leaves these publications in the `unclassified` "
        f"partition: {'; '.join(unclassified)}.",
        *(
            f"  - {rule.area}: `{rule.pattern}`"
            + (f" (only if `{rule.requires}` also occurs)" if rule.requires else "")
            + (f" (not if `{rule.excludes}` occurs)" if rule.excludes else "")
            for rule in AREA_RULES
        ),
        "- **HAS_SUBCATEGORY**: Topic -> Term -> Variable_Level_1 of every GCMD row whose two names are both nodes (plus the edgraph edge).",
        "- **HAS_SCIENCEKEYWORD**: a Dataset with a UMM record links to its UMM keywords (Variable_Level_1, else Term); any other "
        "links to every GCMD Term/Variable_Level_1 of the subset whose name (or a '/'-separated part, or a plural's singular) is a "
        "whole word of its EntryTitle, case-insensitive (sparse on purpose).",
        "- **HAS_DATASET**: DataCenter -> Dataset where the DataCenter's `shortName` equals the Dataset's `daac`. DataCenter nodes "
        "other than the edgraph ones are the provider ids (`longName` and `url` 'N/A', as the KG writes unknown values).",
        "- **HAS_PLATFORM / HAS_INSTRUMENT / OF_PROJECT**: from the UMM record when there is one; otherwise an EntryTitle opening "
        "with `INSTRUMENT/PLATFORM` (`MODIS/Terra+Aqua`, `OMI/Aura`, or `Aqua/AIRS`, read by which side is a UMM platform) gives "
        "Dataset -> Platform -> Instrument, and an EntryTitle opening with "
        f"{', '.join(PROJECT_PREFIXES)} gives OF_PROJECT. Long names and types not in a UMM record are 'N/A'.",
        f"- **`{PAGERANK_PROPERTY}`**: networkx PageRank (alpha {DAMPING}) over the Publication+Dataset projection "
        "(USES_DATASET + CITES edges), rescaled to the Neo4j GDS scale where an isolated node scores 0.15: "
        "value = p * N * 0.15 / (0.15 + 0.85 * D), with p the networkx score, N the projection's node count and D the "
        "networkx score held by dangling nodes (exact for the converged fixpoint; GDS itself stops after 20 iterations). "
        f"Left off a SHA-256-ranked {PAGERANK_LEFT_OFF:.0%} of the derived Publication and Dataset nodes; the edgraph nodes keep "
        "their stored values.",
        "",
        "## Quirks reproduced on purpose",
        "",
        f"- A SHA-256-ranked third of the OpenAlex publications store the DOI under `DOI` instead of `doi`, and an independently "
        "ranked third have it upper-cased (their `globalId` is the uuid5 of the upper-cased DOI, as in the KG).",
        f"- One duplicate Publication: {DUPLICATED_WORK} appears a second time with `doi` `{DUPLICATE_DOI}`, the same DOI spelled "
        "differently (resolver prefix, upper case), with its own `globalId`, and the same title, abstract and authors. Its "
        "USES_DATASET and HAS_APPLIEDRESEARCHAREA edges follow from the same rules; it has no CITES edges. It exists to exercise "
        "DOI de-duplication.",
        "- Dataset versions live inside `shortName` (CALIPSO, CYGNSS), `longName` or `doi`, never in a property of their own.",
        "",
        "## Ids",
        "",
        "Node ids are \"0\"..\"n-1\" in label order (" + ", ".join(LABEL_ORDER) + "), then by shortName/name/title; relationship "
        "ids follow type, start id and end id. The edgraph records' Neo4j identities map to these ids:",
        "",
        "| Neo4j identity | label | sample id |",
        "|---|---|---|",
    ]
    for n in nodes:
        if n.source == "edgraph":
            lines.append(f"| {identities[n.key]} | {n.label} | {ids[(n.label, n.key)]} |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------


def build(real: Path) -> tuple[SampleGraph, Counter, dict, Counter]:
    """Read the real files under `real` and build the whole sample graph."""
    graph = SampleGraph()
    identities = add_edgraph(graph, json.loads((real / "edgraph_kg_sample_records.json").read_text(encoding="utf-8")))
    with (real / "cmr_collections_version_families.csv").open(encoding="utf-8", newline="") as handle:
        cmr_rows = list(csv.DictReader(handle))
    umm_items = json.loads((real / "cmr_umm_json_collections_POCLOUD_page20.json").read_text(encoding="utf-8"))["items"]
    umm_by_name = {(i["umm"]["ShortName"], i["umm"]["Version"]): i["umm"] for i in umm_items}
    openalex = json.loads((real / "openalex_works_geoscience_sample.json").read_text(encoding="utf-8"))
    areas_file = json.loads((real / "applied_research_areas.json").read_text(encoding="utf-8"))
    areas = sorted(label.upper() for label in areas_file["label_to_id"])

    infos, families = add_datasets(graph, cmr_rows, umm_by_name)
    add_data_centers(graph)
    add_platforms(graph, infos, umm_items, umm_by_name)
    matchable = add_science_keywords(graph, read_gcmd(real / "gcmd_sciencekeywords_v9.1.5.csv"), umm_items, areas)
    add_dataset_keywords(graph, infos, matchable, umm_by_name)
    refs = add_publications(graph, openalex["works"])
    for citing, cited in openalex["internal_citation_edges_citing_to_cited"]:
        graph.add_edge("CITES", refs[citing], refs[cited], "openalex")
    add_usage(graph, infos)
    labelled = add_labelled_cases(graph, cmr_rows, umm_by_name)
    add_research_areas(graph)
    add_pagerank(graph)
    return graph, families, identities, labelled


# The recording keeps the fields openalex_works asks OpenAlex for (SELECT_FIELDS), so it holds what a live call returns.
_SELECTED_FIELDS = textwrap.fill(
    f"the fields the asset requests with `select` ({', '.join(f'`{name}`' for name in SELECT_FIELDS)}).", width=110
)
OPENALEX_RECORDING_README = f"""
## Recorded OpenAlex cache (`openalex_cache.json`)

What the offline `openalex_works` asset reads instead of the OpenAlex API (`recon run` without
`RECON_OPENALEX=online`): the **44 real OpenAlex works** of `../shared/data/real/openalex_works_geoscience_sample.json`
(origin: GitHub cpgone/idb@8bd87b3bf8001c4a2b80e524ab65eaf636b001e2 `public/author-data/*.json`, MIT License
(c) 2025 Digital Geosciences; full Work objects as api.openalex.org returned them), copied verbatim but cut to
{_SELECTED_FIELDS} `recorded_at` is the latest `updated_date` among them (2026-03-01T08:55:55):
the records were fetched no earlier, and it becomes their `fetched_at` in the cache.

Then **{{composed}} work records composed from public pages**, one per row of
`recon_assets/reference/evaluation/citation_records.csv` (CITATIONS.md beside it): a citation count a page shows
(publisher, Semantic Scholar, a research portal, a page built from OpenAlex), in the shape of an OpenAlex work but not
an OpenAlex answer. Each has its DOI, the title and year `publications.json` or `citing_works.csv` record, the page's
`cited_by_count`, `counts_by_year` as the page shows it (null: no page shows years), `id` null (no OpenAlex id is
invented) and `_composed_from` {{{{page, page_date, read_on, count_source}}}}. Its `fetched_at` in the cache is the day its
count was seen (the page's date, else the day the page was read), and a count without years is evidence only from that
day, never at an earlier as_of (`reliability.citations.count_visible`); it has no citing works to fetch and no
percentile. With `RECON_OPENALEX=online` and a key, OpenAlex's own answer replaces it once it is due.

No work is invented for the sample's other DOIs: the five edgraph publications (10.1002/2017gl075472,
10.1016/j.rse.2020.111869, 10.3390/rs15020297, 10.3390/universe8060297, 10.5194/acp-21-12359-2021) and every
labelled publication no page showed a count of are not in the recording, so `openalex_works` gives them status
`error` with `offline: not in the recorded cache` (unknown, not "not found"); the evaluation's online figures leave
their cases out and say over how many cases they run.
"""


def labelled_readme(counts: Counter) -> str:
    """The README section on the labelled real cases added to the sample."""
    listed = ", ".join(f"{count} {what}" for what, count in sorted(counts.items()) if what != CITATIONS)
    return f"""
## Labelled real cases (`recon_assets/reference/evaluation/`)

The evaluation's independent labelled edges are in the sample, so `reliability_evaluation` finds them: {listed}.
Each is a real Publication-USES_DATASET->Dataset edge with its source (`labelled_edges.csv`, LABELLED_CASES.md
beside it); publications carry their real title, year and first author, and their abstract only when it is
openly licensed (`publications.json`). A case's Dataset node is its CMR record when the shipped CMR extract has it,
together with every other collection of the same short name (the real KG holds the versions that replace it);
otherwise a node of the case's own short name, version (in `longName`, "SHORT V05" or "SHORT Edition4.0") and DOI, `globalId` = uuid5 of
the DOI, or of "SHORT version" when the case names none.

**Citations** ({counts[CITATIONS]} `CITES` edges): every row of `citing_works.csv` (CITATIONS.md beside it), a citing work
-> a labelled publication, found on a public page (the citing work's reference list or abstract, a journal's comment
page) by searching for the cited work, never chosen by a case's class or label, each with its page, what the page shows
and how strong that is (`evidence`). A citing work that is itself a labelled publication is that node; any other is a
Publication of the title, year and first author the row records (its DOI when the page showed one, no abstract). No
`CITES` edge is derived from a label file: `labelled_pairs.csv` is not read here, so a dispute or control pair whose
citation no page showed has no edge (CITATIONS.md lists them). The citation counts of `citation_records.csv` are in
`openalex_cache.json` as composed work records (below).
"""


def composed_works(known_dois: set[str]) -> list[dict]:
    """The work records composed from citation_records.csv (CITATIONS.md): per row, the page's count in OpenAlex's
    shape (`openalex_records.ComposedWork`): DOI, the title and year of publications.json or citing_works.csv (null
    when neither records the DOI), `cited_by_count`, `counts_by_year` as the page shows it (null: no years), no OpenAlex
    id, and `_composed_from` (page, its date, the day it was read, whose count). A DOI the recording already holds as
    an OpenAlex work keeps that work (OpenAlex's answer, with years), and its row is left out.

    Raises:
        ValueError: a row whose DOI repeats or whose record fails `ComposedWork` (a count not a whole number, a page
            that is not a URL, a date not YYYY-MM-DD, no count_source), naming the row.
    """
    publications = json.loads((EVALUATION / "publications.json").read_text(encoding="utf-8"))
    with (EVALUATION / "citing_works.csv").open(encoding="utf-8", newline="") as handle:
        citing = {row["citing_doi"].lower(): row for row in csv.DictReader(handle) if row["citing_doi"]}
    works, seen = [], set()
    with (EVALUATION / "citation_records.csv").open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            doi = canonical_doi(row["doi"]) or row["doi"]
            if doi in seen:
                raise ValueError(f"citation_records.csv: {doi} has more than one row")
            seen.add(doi)
            if doi in known_dois:
                continue
            named = publications.get(doi) or {}
            cited = citing.get(doi) or {}
            year = named.get("year") or cited.get("citing_year")
            work = {
                "id": None, "doi": f"https://doi.org/{doi}", "title": named.get("title") or cited.get("citing_title") or None,
                "publication_year": int(year) if year else None,
                "cited_by_count": int(row["cited_by_count"]) if row["cited_by_count"].isdigit() else row["cited_by_count"],
                "counts_by_year": json.loads(row["counts_by_year"]) if row["counts_by_year"] else None,
                COMPOSED_FROM: {
                    "page": row["source_url"], "page_date": row["page_date"] or None, "read_on": row["read_on"],
                    "count_source": row["count_source"],
                },
            }
            problem = invalid_reason(work)
            if problem:
                raise ValueError(f"citation_records.csv row of {doi}: {problem}")
            works.append(work)
    return works


def openalex_recording(real: Path) -> dict:
    """The offline OpenAlex cache of the sample: the 44 real works, cut to SELECT_FIELDS, recorded at the
    latest `updated_date` among them (they were fetched no earlier), then the work records composed from public pages'
    citation counts (`composed_works`), each dated by its own page (or the day it was read)."""
    source = json.loads((real / "openalex_works_geoscience_sample.json").read_text(encoding="utf-8"))
    works = [{field: work[field] for field in SELECT_FIELDS} for work in source["works"]]
    composed = composed_works({canonical_doi(work["doi"]) for work in works if work.get("doi")})
    # OpenAlex's updated_date is UTC without an offset; the cache's fetched_at wants an aware timestamp.
    latest = max(datetime.fromisoformat(work["updated_date"]) for work in source["works"])
    recorded_at = latest.replace(microsecond=0, tzinfo=timezone.utc).isoformat()
    return {
        "_provenance": (
            "The 44 real OpenAlex works of cpgone/idb@8bd87b3bf8001c4a2b80e524ab65eaf636b001e2 public/author-data/*.json "
            "(MIT License (c) 2025 Digital Geosciences), as api.openalex.org returned them, cut to the fields "
            f"recon_assets requests with `select`; then {len(composed)} work records composed from the citation counts public "
            "pages show (recon_assets/reference/evaluation/citation_records.csv), no OpenAlex answer: each has no OpenAlex id "
            "and says where its count was seen in `_composed_from`. See recon_assets/sample/README.md."
        ),
        "recorded_at": recorded_at,
        "works": works + composed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real", type=Path, required=True, help="folder of the real source files")
    parser.add_argument("--out", type=Path, required=True, help="output folder (recon_assets/sample)")
    args = parser.parse_args()
    graph, families, identities, labelled = build(args.real)
    nodes, ids, rels = number(graph)
    args.out.mkdir(parents=True, exist_ok=True)
    write_graph(nodes, ids, rels, args.out)
    real_readme = (args.real / "README.md").read_text(encoding="utf-8")
    recording = openalex_recording(args.real)
    (args.out / "README.md").write_text(
        readme_text(graph, nodes, ids, rels, real_readme, families, identities) + labelled_readme(labelled)
        + OPENALEX_RECORDING_README.format(composed=sum(1 for work in recording["works"] if COMPOSED_FROM in work)),
        encoding="utf-8",
    )
    recording = json.dumps(recording, ensure_ascii=False, indent=1) + "\n"
    (args.out / "openalex_cache.json").write_text(recording, encoding="utf-8")
    print(f"{len(nodes)} nodes, {len(rels)} relationships -> {args.out}")


if __name__ == "__main__":
    main()
