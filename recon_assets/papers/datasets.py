"""Which of the graph's Dataset nodes a paper uses: by DOI (in its text and its references) and by short name and
version in its text (data statements, methods), each match with the quoted sentence and its page; names with a
version that match no Dataset node are listed as unmatched, never dropped.

For a paper given by DOI that the graph holds, the Dataset nodes the graph links its publication to by USES_DATASET
are added (`with_graph_links`), found by "the graph's USES_DATASET relationship" beside any text evidence.

Versions are read and compared with the lifecycle's own parser (`recon_assets.lifecycle.versions`): a graph
dataset's family and version come from `parse_version` (short name, long name, DOI), a version stated in the paper
("V7", "version 7", "Collection 5", "C6.1", "MOD13Q1.006") through `version_sort_key`, so "Collection 5" is the
graph's "005" and "6.1" its "061".
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from importlib import resources

import pandas as pd

from recon_assets.kg.doi import canonical_doi
from recon_assets.lifecycle.versions import parse_version, version_sort_key
from recon_assets.papers.parse import DOI_PATTERN, PaperDocument

DOI_IN_TEXT, DOI_IN_REFERENCES, NAME_AND_VERSION = "DOI in text", "DOI in references", "short name and version"
# The KG's own link of a publication to a dataset it uses: (:Publication)-[:USES_DATASET]->(:Dataset).
GRAPH_LINK = "the graph's USES_DATASET relationship"
# How a match found both in the text and by the graph's link says so: "DOI in references; the graph's ...".
SOURCE_SEPARATOR = "; "
# DOIs that NASA's Earth Science Data and Information System registers for its data products (EOSDIS DOI guidance).
NASA_DATA_DOI_PREFIX = "10.5067/"
# A version stated next to a product name: after it ("3B42 V7", "MOD13Q1 Collection 5", "MOD13Q1.006",
# "GDEM version 2") or before it ("Collection 6 MOD13Q1", "version 7 of the 3B42").
_VERSION = r"(?:\b(?:version|collection|release|edition)\s*|(?<![A-Za-z])V\.?\s?|\bC(?=\d)|\.(?=0\d\d\b))(\d{1,3}(?:\.\d{1,2})*[A-Za-z]?)\b"
_VERSION_AFTER = re.compile(r"^[\s,(\[]{0,3}(?:(?:product|data(?:set)?|algorithm|level[- ]?\d)\s+){0,2}" + _VERSION, re.IGNORECASE)
# Before the name, at most three words may stand between ("Collection 5 NDVI (MOD13Q1)", "version 7 of the 3B42").
_VERSION_BEFORE = re.compile(_VERSION + r"(?:\s+[A-Za-z][\w\-]*){0,3}\s*[\s(]{0,2}$", re.IGNORECASE)
# A product-like name (capitals and digits, at least one digit or four capitals) stated with a version: what an
# unknown dataset looks like ("PERSIANN-CDR v1", "CHIRPS V2.0", "SRTM version 4.1").
_PRODUCT_WITH_VERSION = re.compile(
    r"(?<![A-Za-z0-9_\-])([A-Z][A-Z0-9]{2,}(?:[_\-][A-Z0-9]+)*)\s+(?:V\.?\s?|(?i:version|collection)\s+|C(?=\d))(\d{1,3}(?:\.\d{1,2})*[A-Za-z]?)\b"
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
_AFTER_WINDOW, _BEFORE_WINDOW, QUOTE_LIMIT = 60, 40, 400
# Sections that state what the paper used (data statements, methods): their evidence is kept over a mention
# elsewhere (an introduction citing what others used).
_DATA_SECTION = re.compile(r"data|method|material|availability|study area|experiment", re.IGNORECASE)


@dataclass(frozen=True)
class DatasetMatch:
    """A Dataset node the paper uses: dataset_id, its family and version as the graph has them, how it was found
    (DOI_IN_TEXT, DOI_IN_REFERENCES or NAME_AND_VERSION), the version as the paper states it (None when found by
    DOI), the quoted sentence (at most QUOTE_LIMIT characters), the 1-based page and the section heading it is
    under ('References' or 'caption' for those)."""

    dataset_id: str
    family: str
    version: str | None
    found_by: str
    stated_version: str | None
    quote: str
    page: int
    section: str = ""


@dataclass(frozen=True)
class UnmatchedMention:
    """A dataset the paper names that no Dataset node matches: the name (or DOI), the stated version, why it did
    not match, the quote, the page, and the graph family or product line (an alias of `dataset_aliases`) when the
    name is one of the graph's (a version the graph lacks, several candidates, or no version stated), else None."""

    name: str
    stated_version: str | None
    reason: str
    quote: str
    page: int
    family: str | None = None


@dataclass(frozen=True)
class _Known:
    dataset_id: str
    family: str
    version: str | None
    sort_key: tuple[int, ...]


def dataset_aliases() -> dict[str, str]:
    """Names papers give a product that its short name does not contain, alias -> family or family pattern: a
    product ('ASTER GDEM' for ASTGTM) or a product line that several collections share ('IMERG' for the shell
    pattern GPM_3IMERG*: half-hourly, daily and monthly, early, late and final runs).

    Source: `recon_assets/reference/dataset_aliases.csv`, each line with its source (the archive's product page or
    CMR entry title). Raises ValueError if a column is missing.
    """
    table = pd.read_csv(io.StringIO(resources.files("recon_assets.reference").joinpath("dataset_aliases.csv").read_text()), dtype=str)
    if list(table.columns) != ["alias", "family", "source"]:
        raise ValueError(f"dataset_aliases.csv: columns must be alias, family, source; got {list(table.columns)}")
    return dict(zip(table["alias"], table["family"]))


class DatasetCatalogue:
    """The graph's Dataset nodes, indexed for detection: by canonical DOI and by version family.

    Args:
        datasets: one row per Dataset node with columns dataset_id, short_name, long_name, doi (the `datasets`
            table's columns; missing values allowed).
    """

    def __init__(self, datasets: pd.DataFrame) -> None:
        self.by_id: dict[str, _Known] = {}
        self.by_doi: dict[str, _Known] = {}
        self.by_family: dict[str, list[_Known]] = {}
        for row in datasets.itertuples(index=False):
            short_name = row.short_name if isinstance(row.short_name, str) else ""
            parsed = parse_version(short_name, row.long_name, row.doi)
            known = _Known(row.dataset_id, parsed.family, parsed.version_text, parsed.sort_key)
            self.by_id.setdefault(row.dataset_id, known)
            doi = canonical_doi(row.doi)
            if doi:
                self.by_doi.setdefault(doi, known)
            if parsed.family:
                self.by_family.setdefault(parsed.family, []).append(known)
        # Each name papers use -> the families it may stand for: one for a product, several for a product line.
        self.members: dict[str, list[str]] = {family: [family] for family in self.by_family}
        names = {variant: family for family in self.by_family for variant in _name_variants(family)}
        for alias, pattern in dataset_aliases().items():
            families = sorted(family for family in self.by_family if fnmatchcase(family, pattern))
            if families:
                self.members[alias] = families
                names[alias] = alias
        self.by_key = {_key(name): target for name, target in names.items()}
        self._longest = max((len(re.split(r"[\s_\-]+", name)) for name in names), default=1)

    def mentions(self, text: str):
        """Yield (name, start, end) for each product or product-line name of the graph in `text` (name a key of
        `members`: a family or an alias), the longest first where two
        overlap. Names are compared without case and separators ("trmm 3b42" = "TRMM_3B42" = "TRMM-3B42"), over
        runs of words joined by one space, underscore or hyphen; a run without a digit or a capital is no name."""
        tokens = list(_TOKEN.finditer(text))
        index = 0
        while index < len(tokens):
            for size in range(min(self._longest, len(tokens) - index), 0, -1):
                run = tokens[index : index + size]
                if any(b.start() - a.end() != 1 or text[a.end()] not in " _-" for a, b in zip(run, run[1:])):
                    continue
                key = "".join(t.group(0) for t in run).upper()
                end = run[-1].end()
                family = self.by_key.get(key)
                glued = None if family else _GLUED_VERSION.fullmatch(key)
                if glued and glued.group(1) in self.by_key:
                    # "3B42V7": the name with its version glued on; the version is read after `end`.
                    family, end = self.by_key[glued.group(1)], end - len(glued.group(2))
                if family and any(c.isdigit() or c.isupper() for c in text[run[0].start() : end]):
                    yield family, run[0].start(), end
                    index += size
                    break
            else:
                index += 1


_TOKEN = re.compile(r"[A-Za-z0-9]+")
_GLUED_VERSION = re.compile(r"(.*\d.*?)(V\d{1,3}[A-Z]?)")


def _key(name: str) -> str:
    return re.sub(r"[\s_\-]+", "", name).upper()


def _name_variants(family: str) -> set[str]:
    """A family's names as papers write them: the short name, and its product part after a mission prefix when that
    part is distinctive (letters and digits, four characters or more: TRMM_3B42 -> 3B42, GPM_3IMERGDF -> 3IMERGDF)."""
    variants = {family}
    if "_" in family:
        product = family.split("_", 1)[1]
        if len(product) >= 4 and re.search(r"\d", product) and re.search(r"[A-Za-z]", product):
            variants.add(product)
    return {v for v in variants if len(v) >= 4 or re.search(r"\d", v)}


def _stated_version(text: str, start: int, end: int) -> tuple[str | None, int, int]:
    """The version stated next to the name at text[start:end], and the span of name and version together."""
    after = _VERSION_AFTER.search(text[end : end + _AFTER_WINDOW])
    if after:
        return after.group(1), start, end + after.end()
    offset = max(0, start - _BEFORE_WINDOW)
    before = _VERSION_BEFORE.search(text[offset:start])
    return (before.group(1), offset + before.start(), end) if before else (None, start, end)


def _quote(text: str, start: int, end: int) -> str:
    """The sentence around text[start:end], cut to QUOTE_LIMIT characters around the mention."""
    bounds = [0] + [m.end() for m in _SENTENCE.finditer(text)] + [len(text)]
    left = max(b for b in bounds if b <= start)
    right = min((b for b in bounds if b >= end), default=len(text))
    sentence = text[left:right].strip()
    if len(sentence) <= QUOTE_LIMIT:
        return sentence
    middle = (start + end) // 2 - left
    begin = max(0, min(middle - QUOTE_LIMIT // 2, len(sentence) - QUOTE_LIMIT))
    return sentence[begin : begin + QUOTE_LIMIT]


def detect_datasets(document: PaperDocument, catalogue: DatasetCatalogue) -> tuple[list[DatasetMatch], list[UnmatchedMention]]:
    """Find the Dataset nodes a paper uses, and the datasets it names that the graph lacks.

    Args:
        document: the parsed paper (`parse.parse_pdf`).
        catalogue: the graph's Dataset nodes.

    Returns:
        (matches, unmatched). matches: one DatasetMatch per dataset_id with the first evidence in reading order (text
        before references), or the first from a data or methods section (data availability, materials and methods,
        study area, ...) when there is one; by DOI when the paper prints the dataset's DOI, else by a graph product name with a
        stated version equal to the dataset's (compared by `version_sort_key`). unmatched: one per (name, version):
        a NASA data DOI (10.5067/) that is no Dataset node; a graph family or product line named with a version the
        graph lacks; a product line whose stated version several of its families have (the candidates are named); a
        graph family named without a version anywhere in the paper; a product-like name with a version that is no
        graph family. Never raises on odd text.
    """
    matches: dict[str, DatasetMatch] = {}
    unmatched: dict[tuple[str, str | None], UnmatchedMention] = {}
    versionless: dict[str, UnmatchedMention] = {}
    matched_names: set[tuple[int, int, int]] = set()  # (text index, start, end) of graph names with their version
    texts = [(p.text, p.page, DOI_IN_TEXT, p.section) for p in document.paragraphs]
    texts += [(c.text, c.page, DOI_IN_TEXT, "caption") for c in document.captions]
    texts += [(r.text, r.page, DOI_IN_REFERENCES, "References") for r in document.references]

    def keep(match: DatasetMatch) -> None:
        held = matches.get(match.dataset_id)
        if held is None or (not _DATA_SECTION.search(held.section) and _DATA_SECTION.search(match.section)):
            matches[match.dataset_id] = match

    for index, (text, page, doi_place, section) in enumerate(texts):
        for found in DOI_PATTERN.finditer(text):
            doi = canonical_doi(found.group(0))
            if not doi:
                continue
            known = catalogue.by_doi.get(doi)
            if known:
                keep(DatasetMatch(known.dataset_id, known.family, known.version, doi_place, None, _quote(text, *found.span()), page, section))
            elif doi.startswith(NASA_DATA_DOI_PREFIX):
                unmatched.setdefault((doi, None), UnmatchedMention(doi, None, "NASA data DOI that is no Dataset node of the graph", _quote(text, *found.span()), page))
        if doi_place == DOI_IN_REFERENCES:
            continue
        for name, start, end in catalogue.mentions(text):
            stated, first, last = _stated_version(text, start, end)
            matched_names.add((index, first, last))
            quote = _quote(text, start, end)
            if stated is None:
                versionless.setdefault(name, UnmatchedMention(text[start:end], None, "named without a version", quote, page, name))
                continue
            key = stated_sort_key(stated)
            same = sorted((k for family in catalogue.members[name] for k in catalogue.by_family[family] if key and k.sort_key == key), key=lambda k: k.dataset_id)
            families = sorted({k.family for k in same})
            if len(families) == 1:
                known = same[0]
                keep(DatasetMatch(known.dataset_id, known.family, known.version, NAME_AND_VERSION, stated, quote, page, section))
            elif families:
                reason = f"ambiguous: {text[start:end]} {stated} is one of {', '.join(families)} in the graph; the paper does not say which"
                unmatched.setdefault((name, stated), UnmatchedMention(text[start:end], stated, reason, quote, page, name))
            else:
                unmatched.setdefault((name, stated), UnmatchedMention(text[start:end], stated, f"the graph has {name} but not version {stated}", quote, page, name))
        for found in _PRODUCT_WITH_VERSION.finditer(text):
            if any(i == index and s < found.end() and found.start() < e for i, s, e in matched_names):
                continue
            name, stated = found.group(1), found.group(2)
            unmatched.setdefault((name, stated), UnmatchedMention(name, stated, "no Dataset node of the graph has this name", _quote(text, *found.span()), page))
    named = {m.family for m in matches.values()} | {u.family for u in unmatched.values() if u.family}
    named |= {alias for alias, families in catalogue.members.items() if named & set(families)}
    unmatched.update({(name, None): mention for name, mention in versionless.items() if name not in named})
    return list(matches.values()), list(unmatched.values())


def with_graph_links(
    matches: Sequence[DatasetMatch], unmatched: Sequence[UnmatchedMention], linked: Mapping[str, Sequence[str]], catalogue: DatasetCatalogue,
) -> tuple[list[DatasetMatch], list[UnmatchedMention]]:
    """The datasets of a paper given by DOI: those its text names (`detect_datasets`) and those the graph links its
    publication to by USES_DATASET, one match per dataset_id.

    Args:
        matches, unmatched: `detect_datasets`' result for the paper's text.
        linked: {dataset_id: its USES_DATASET relationship ids} of the paper's publication (`dataset_publication_edges`),
            in the order to list the ones the text lacks.
        catalogue: the graph's Dataset nodes (family and version of each linked dataset).

    Returns:
        (matches, unmatched). matches: the text's, in their order, a linked one's found_by extended with
        SOURCE_SEPARATOR + GRAPH_LINK (both sources kept, its quote and page those of the text); then each linked
        dataset the text does not name, found_by GRAPH_LINK, stated_version None, page 1 and a quote naming the
        relationship ids (section 'knowledge graph'). A dataset_id absent from the catalogue is named by its id, without
        version. unmatched: the text's, less the mentions "named without a version" of a linked dataset's family or
        of a product line (alias) it belongs to (the graph says which version). Never raises.
    """
    merged = [replace(m, found_by=f"{m.found_by}{SOURCE_SEPARATOR}{GRAPH_LINK}") if m.dataset_id in linked else m for m in matches]
    named = {m.dataset_id for m in matches}
    for dataset_id, relationships in linked.items():
        if dataset_id in named:
            continue
        known = catalogue.by_id.get(dataset_id)
        quote = f"The graph links this publication to {dataset_id} by USES_DATASET (relationship {', '.join(map(str, relationships)) or 'id unknown'})."
        merged.append(DatasetMatch(
            dataset_id, known.family if known and known.family else dataset_id, known.version if known else None, GRAPH_LINK, None,
            quote[:QUOTE_LIMIT], 1, "knowledge graph",
        ))
    families = {known.family for dataset_id in linked if (known := catalogue.by_id.get(dataset_id)) and known.family}
    covered = families | {name for name, members in catalogue.members.items() if families & set(members)}
    kept = [u for u in unmatched if not (u.stated_version is None and u.family is not None and u.family in covered)]
    return merged, kept


def stated_sort_key(stated: str) -> tuple[int, ...]:
    """`version_sort_key`, or () for a text without a digit."""
    try:
        return version_sort_key(stated)
    except ValueError:
        return ()


def lifecycle_statement(match: DatasetMatch, lineage: dict) -> str:
    """One line on a used dataset's lifecycle, e.g. "uses TRMM_3B42 V7: replaced by GPM_3IMERGHH 07 (since 2019, on
    the authority of curated)" or "uses MOD13Q1 061: current".

    Args:
        match: the dataset the paper uses.
        lineage: its `dataset_lineage` row as a mapping (superseded, successor_family, successor_version,
            superseded_since, succession_basis); None or {} when the lineage has no row for it.
    """
    used = f"uses {match.family} {match.version or '(no version)'}"
    if not lineage:
        return f"{used}: lifecycle unknown (no dataset_lineage row)"
    if not lineage.get("superseded"):
        return f"{used}: current"
    successor = " ".join(str(part) for part in (lineage.get("successor_family"), lineage.get("successor_version")) if part)
    since = lineage.get("superseded_since") or "date unknown"
    return f"{used}: replaced by {successor or 'a successor'} (since {since}, on the authority of {lineage.get('succession_basis')})"
