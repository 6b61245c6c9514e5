"""Which of the graph's Dataset nodes a paper uses: by DOI (in its text and its references) and by short name and
version in its text (data statements, methods), each match with the quoted sentence and its page; names with a
version that match no Dataset node are listed as unmatched, never dropped (`detect_datasets`). What it finds is
`dataset_evidence`'s; the catalogue it reads is `dataset_catalogue`'s; the lifecycle lines and the graph's own links
are `lifecycle_lines`'.

A name papers give a product line (IMERG, GLDAS, SMAP, MERRA-2: `dataset_aliases`, from CMR entry titles) is resolved to
one collection by the words the paper writes with it, read against the collections' CMR entry titles
(`dataset_names.TitleVocabulary`: "IMERG Final V6 Daily" is GPM_3IMERGDF, "GLDAS-CLS L4 V2.2" the Catchment Land
Surface Model's), and by the collection the paper names elsewhere by short name or DOI. An instrument's collection
("MODIS collection-5 products [...] MYD11A1") lends its version to the products named with it. Abbreviations tables,
references that cite papers and reference lists run into body text are not read for names (`dataset_names`).
A version the graph lacks gets the lifecycle's verdict on it (`stated_lifecycle`).
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from typing import NamedTuple

from recon_assets.kg.doi import canonical_doi
from recon_assets.papers.dataset_catalogue import DatasetCatalogue
from recon_assets.papers.dataset_evidence import (
    DOI_IN_REFERENCES, DOI_IN_TEXT, NAME_AND_VERSION, NAME_WITHOUT_VERSION, SOURCE_SEPARATOR, DatasetMatch, UnmatchedMention, joined_quote,
    sentence_quote,
)
from recon_assets.papers.dataset_names import is_data_citation, is_glossary, is_reference_like, reference_entries
from recon_assets.papers.lifecycle_lines import with_lifecycle
from recon_assets.papers.name_readings import (
    BEFORE_WINDOW, MemberMentions, Named, each_parameter, each_species, member_mentions, members_compared_with, members_listed_with_version,
    name_readings, subject_members, with_sentence_words, with_table_rows, without_variants,
)
from recon_assets.papers.parse import DOI_PATTERN, PaperDocument
from recon_assets.papers.phrases import COLLECTION, LINE, Reading, Sentences, read_as_ascii, stated_sort_key
from recon_assets.papers.stated_lifecycle import catalogued_version, collection_of_doi
from recon_assets.papers.version_association import ParagraphFacts, cited_work_s, detached_versions, reported_not_used, yields_to_used
from recon_assets.papers.version_grammar import VERSION_TEXT, cited_version, shorthand_of, version_at, versions_in

# DOIs that NASA's Earth Science Data and Information System registers for its data products (EOSDIS DOI guidance).
NASA_DATA_DOI_PREFIX = "10.5067/"
# A product-like name (capitals and digits, at least one digit or four capitals) stated with a version, or with it in
# parentheses: what an unknown dataset looks like ("PERSIANN-CDR v1", "CHIRPS V2.0", "SRTM version 4.1", "SMOS-IC (V2)").
_PRODUCT_WITH_VERSION = re.compile(r"(?<![A-Za-z0-9_\-])([A-Z][A-Z0-9]{2,}(?:[_\-][A-Z0-9]+)*)(?:\s+|\s*[(,]\s*)(?=(?i:" + VERSION_TEXT + "))")
# A short name as CMR spells them: capitals and digits, one underscore at most between parts ("MYD13A2", "MOD04_L2").
_PRODUCT_NAME = re.compile(r"(?<![\w\-])[A-Z][A-Z0-9]{3,}(?:_[A-Z0-9]+)*(?![\w\-])")
# Sections that state what the paper used (data statements, methods): their evidence is kept over a mention
# elsewhere (an introduction citing what others used).
_DATA_SECTION = re.compile(r"data|method|material|availability|study area|experiment", re.IGNORECASE)
# What calls the version read with the name after it an earlier one ("The earlier version of MLS CO (V2.2) was biased"):
# no use of that version (`_named_with_versions`).
_EARLIER_VERSION_OF = re.compile(r"\b(?:earlier|previous|older|former|prior)\s+(?:versions?|releases?|collections?)\s+of\s+(?:the\s+)?$", re.IGNORECASE)
# The section `_units` gives a figure or table caption.
CAPTION = "caption"


class _Unit(NamedTuple):
    """A text to read (`_units`): as written, its sentences read once (`phrases.Sentences`: quotes are cut from it), its
    1-based page, where a DOI in it counts (DOI_IN_TEXT or DOI_IN_REFERENCES), the section heading it is under
    ('References' for a reference entry, CAPTION for a caption), and whether names in it are read."""

    written: Sentences
    page: int
    doi_place: str
    section: str
    read_names: bool


# An unmatched mention keyed by (name or DOI, `stated_sort_key` of its stated version; () without one): the first in
# reading order is the one listed (`_first_per_key`).
_Keyed = tuple[tuple[str, tuple[int, ...]], UnmatchedMention]
# A member a list ties to a line named without a version (`members_compared_with`): (line, member family, the line's
# name as written, quote, page, section).
_Compared = tuple[str, str, str, str, int, str]


@dataclass(frozen=True)
class _UnitEvidence:
    """What one unit says (`_read_unit`), each list in reading order: matches by DOI; the families it names by DOI or by
    short name with a version (identified); the names read with a version, still to resolve to a family (pending); the
    members tied to a line named without a version (compared); unmatched mentions keyed by name and version; and the
    graph names read without a version, as (name, mention) (versionless)."""

    matches: list[DatasetMatch]
    identified: set[str]
    pending: list[Named]
    compared: list[_Compared]
    unmatched: list[_Keyed]
    versionless: list[tuple[str, UnmatchedMention]]


def detect_datasets(document: PaperDocument, catalogue: DatasetCatalogue) -> tuple[list[DatasetMatch], list[UnmatchedMention]]:
    """Find the Dataset nodes a paper uses, and the datasets it names that the graph lacks.

    Phases, in order:
        1. units: the paper's texts in reading order, paragraphs, captions, then references (`_units`);
        2. per-unit readings: DOIs (`_doi_evidence`) and names with their versions (`_read_unit`);
        3. pending names over the paper: shorthand versions expanded (`_with_shorthands_expanded`), members compared
           with a line given the line's one stated version (`_compared_members_named`);
        4. resolution of each pending name's candidate families to one Dataset node or an unmatched mention
           (`_resolved`, the front matter's subject members: `_subjects`), one match per dataset_id (`_preferred`);
        5. unmatched: the first mention per (name, version) (`_first_per_key`), a data DOI folded into the row naming
           its collection (`_fold_data_dois`), the names never stated with a version (`_named_without_version`);
        6. fold: each unmatched graph family's version with its lifecycle (`lifecycle_lines.with_lifecycle`).

    Args:
        document: the parsed paper (`parse.parse_pdf`).
        catalogue: the graph's Dataset nodes.

    Returns:
        (matches, unmatched). matches: one DatasetMatch per dataset_id (`_preferred`); by DOI when the paper prints
        the dataset's DOI, else by a graph product name with a stated version equal to the dataset's (compared by
        `version_sort_key`). unmatched: one per (name, version): a NASA data DOI (10.5067/) that is no Dataset node;
        a graph family named with a version the graph lacks (with that version's lifecycle: `UnmatchedMention`); a
        product line whose stated version several of its families have (the candidates are named) or none; a
        collection statement that no product of it is named with; a graph family named without a version anywhere
        in the paper; a product-like name with a version that is no graph family. Never raises on odd text.
    """
    tables = {(c.text, c.page) for c in document.captions if c.kind == "table"}  # a table's caption holds its rows
    evidence = [_read_unit(unit, catalogue, tables) for unit in _units(document)]
    identified = set().union(*(e.identified for e in evidence))
    pending, shorthands = _with_shorthands_expanded([n for e in evidence for n in e.pending], catalogue)
    pending += _compared_members_named(pending, [c for e in evidence for c in e.compared], catalogue)
    subjects = _subjects(document, pending, catalogue)
    resolved = [outcome for named in pending for outcome in _resolved(named, identified, subjects, catalogue)]
    matches = _preferred([m for e in evidence for m in e.matches] + [o for o in resolved if isinstance(o, DatasetMatch)])
    unmatched = _first_per_key([k for e in evidence for k in e.unmatched] + shorthands + [o for o in resolved if not isinstance(o, DatasetMatch)])
    matches, unmatched = _fold_data_dois(matches, unmatched)
    unmatched.update(_named_without_version(_first_per_key([v for e in evidence for v in e.versionless]), matches, unmatched, catalogue))
    return list(matches.values()), [with_lifecycle(u, catalogue) for u in unmatched.values()]


# The longest text read as one unit (characters). The rules' reading of a paragraph grows a little faster than its
# length (about 2.3 times per doubling without full stops: 25 KB in 5 s, 51 KB in 12 s, 2026-12-05), so a paragraph
# longer than this is read in pieces (`pieces`), keeping a hostile PDF's one-paragraph megabyte linear. The longest
# paragraph of the 101 real papers is 15,219 characters (Pumphrey 2015), read whole.
UNIT_CHARS = 20_000


def pieces(text: str, limit: int = UNIT_CHARS) -> list[str]:
    """`text` cut into pieces of at most `limit` characters, each ending at the last sentence end (". ") in its second
    half, else at the last white space, else at the limit; [text] when it is short enough. Joined, the pieces are the
    text. A version stated across a cut may be missed: only hostile or broken text has paragraphs this long."""
    out = []
    while len(text) > limit:
        window = text[:limit]
        sentence_end = window.rfind(". ", limit // 2)
        cut = sentence_end + 2 if sentence_end >= 0 else (window.rfind(" ") + 1 or limit)
        out.append(text[:cut])
        text = text[cut:]
    return out + [text]


def _units(document: PaperDocument) -> list[_Unit]:
    """The texts to read, in reading order: paragraphs and captions (each in `pieces` of at most UNIT_CHARS), then
    references. Names are not read in an
    abbreviations table (`is_glossary`) nor in a reference entry that cites a paper rather than data
    (`is_data_citation`); body text that is a reference list the parser missed (`is_reference_like`) is read as its
    entries."""
    units = []
    for paragraph in document.paragraphs:
        if is_reference_like(paragraph.text):
            units += [_Unit(Sentences(entry), paragraph.page, DOI_IN_TEXT, "References", is_data_citation(entry))
                      for _, entry in reference_entries(paragraph.text)]
        else:
            read = not is_glossary(paragraph.text, paragraph.section)
            units += [_Unit(Sentences(piece), paragraph.page, DOI_IN_TEXT, paragraph.section, read) for piece in pieces(paragraph.text)]
    units += [_Unit(Sentences(piece), c.page, DOI_IN_TEXT, CAPTION, not is_glossary(c.text)) for c in document.captions for piece in pieces(c.text)]
    units += [_Unit(Sentences(r.text), r.page, DOI_IN_REFERENCES, "References", is_data_citation(r.text)) for r in document.references]
    return units


def _read_unit(unit: _Unit, catalogue: DatasetCatalogue, tables: set[tuple[str, int]]) -> _UnitEvidence:
    """What one unit says (`_UnitEvidence`): its DOIs (`_doi_evidence`); when its names are read, the graph names in it
    (`name_readings`, each with the words of its sentence and, in a table's caption (`tables`: (caption text, page)), of its rows:
    `with_sentence_words`, `with_table_rows`), then, in turn, the names read with a version
    (`_named_with_versions`), the member lists a version in parentheses closes (`members_listed_with_version`), the
    versions stated apart from the name (`_detached_named`) or after the section heading's name
    (`_named_after_heading`), the instrument collections' statements (`_collection_statements`), the members a list
    ties to a line (`members_compared_with`, outside captions), the names read without a version, and the
    product-like names with a version no reading took (`_unknown_products`). Names and versions are read in ASCII
    hyphens and digits (`read_as_ascii`); quotes are cut from the text as written."""
    text = read_as_ascii(unit.written.text)
    matches, identified, unmatched = _doi_evidence(text, unit, catalogue)
    if not unit.read_names:
        return _UnitEvidence(matches, identified, [], [], unmatched, [])
    facts = ParagraphFacts(text)
    readings = name_readings(text, catalogue, facts)
    members = member_mentions(text, readings, catalogue)
    table = unit.section == CAPTION and (text, unit.page) in tables
    read = []
    for index, (name, start, end, _) in enumerate(readings):
        reading = with_sentence_words(facts, readings, index, catalogue)
        read.append((name, start, end, with_table_rows(text, name, start, reading, catalogue) if table else reading))
    statements = [(name, r.stated, start, r.last) for name, start, _, r in read if catalogue.kind.get(name) == COLLECTION and r.stated is not None]
    unversioned = [(name, start, end) for name, start, end, r in read if catalogue.kind.get(name) != COLLECTION and r.stated is None]
    versioned = [(name, start, end, r) for name, start, end, r in read if catalogue.kind.get(name) != COLLECTION and r.stated is not None]
    named, named_families = _named_with_versions(facts, unit, readings, versioned, members, catalogue)
    listed, listed_spans = members_listed_with_version(facts, readings, members, catalogue, unit.page, unit.section)
    detached, detached_spans = _detached_named(facts, unit, readings, members, catalogue)
    lent, collection_unmatched, unversioned = _collection_statements(text, unit, readings, statements, unversioned, catalogue)
    compared = members_compared_with(facts, readings, members, catalogue, unit.page, unit.section) if unit.section != CAPTION else []
    versionless = [(name, UnmatchedMention(text[start:end].strip(), None, "named without a version", sentence_quote(unit.written, start, end), unit.page,
                                           name, found_by=NAME_WITHOUT_VERSION, section=unit.section)) for name, start, end in unversioned]
    read_spans = [(r.first, r.last) for *_, r in read] + listed_spans + detached_spans
    return _UnitEvidence(
        matches, identified | named_families, named + listed + detached + _named_after_heading(text, unit, readings, catalogue) + lent, compared,
        unmatched + collection_unmatched + _unknown_products(text, unit, read_spans), versionless,
    )


def _doi_evidence(text: str, unit: _Unit, catalogue: DatasetCatalogue) -> tuple[list[DatasetMatch], set[str], list[_Keyed]]:
    """The unit's DOIs (`DOI_PATTERN`, canonical): (matches for those of Dataset nodes, found by the unit's doi_place,
    with, in a reference entry, the data citation's own version for the collection its DOI names ("[...] version 1.01
    [...] doi:" of V1: `cited_version`); their families; an unmatched mention for each NASA data DOI (10.5067/) that
    is no Dataset node)."""
    matches, families, unmatched = [], set(), []
    for found in DOI_PATTERN.finditer(text):
        doi = canonical_doi(found.group(0))
        if not doi:
            continue
        known = catalogue.by_doi.get(doi)
        if known:
            families.add(known.family)
            cited = cited_version(text, lambda number, known=known: catalogued_version(
                stated_sort_key(number), catalogue.held(known.family)) == stated_sort_key(known.version)) if unit.section == "References" else None
            matches.append(DatasetMatch(known.dataset_id, known.family, known.version, unit.doi_place, cited, sentence_quote(unit.written, *found.span()),
                                        unit.page, unit.section))
        elif doi.startswith(NASA_DATA_DOI_PREFIX):
            unmatched.append(((doi, ()), UnmatchedMention(doi, None, "NASA data DOI that is no Dataset node of the graph", sentence_quote(unit.written, *found.span()),
                                                          unit.page, found_by=unit.doi_place, section=unit.section)))
    return matches, families, unmatched


def _named_with_versions(facts: ParagraphFacts, unit: _Unit, readings: Sequence[tuple[str, int, int, Reading]], versioned: Sequence[tuple[str, int, int, Reading]],
                         members: MemberMentions, catalogue: DatasetCatalogue) -> tuple[list[Named], set[str]]:
    """The names read with a version that the paper uses, each version of a list ("MLS v2.2 and v3.3 data", "HALOE V17
    and V019") one Named (`_candidates`), with the members it names: in a caption, each parameter its words name
    (`each_parameter`); elsewhere, the members the catalogue's own words for them (entry-title parameter name or
    code: ML2* + "IWC", `dataset_names.line_codes`) name in a list right after the version, else in the version's
    sentence, else tied by a data word to another mention of the line in the paragraph, else each with a data word
    in the sentence right after the version's (`each_species`). Also the graph families among the names (read with a
    version, the paper names them by short name).

    `readings`: the unit's `name_readings`; `versioned`: those of them read with a version (a product or a product
    line's name), each with its sentence's and table's words. A version is any spelling of the general grammar
    (`version_grammar`: "V7", "version v3.3", "version (v) 3.3", "ver. 2", "C6.1", "RL06", "MOD13Q1.006"), less what
    it excludes (cross-references, programs' and models' versions); data words and a list of the line's parameters
    between the name and it are passed over ("MLS measurements version 3.3", "MLS O3, H2O and HNO3 version 4.2":
    DATA_WORDS, `LIST_WORD`). A version restated in parentheses right after itself is passed over ("version 2.2
    (v2.2) RHi"); a version alone in parentheses that closes the name's clause is the name's ("MLS water vapour and
    ozone measurements (version 3.3)", "data from MLS (retrieval version v3.3)"); a collection stated before the
    name beats a version after it that no candidate has as a collection ("collection 3 OMTO3 version 8.5",
    `_collection_before`): all `name_readings`'.

    Not used: a version read with a name the text calls its earlier one ("The earlier version of MLS CO (V2.2) was
    biased high", `_EARLIER_VERSION_OF`); one read with a name in a clause whose subject is a cited work ("while
    Smith et al. (2006) discuss the MLS v1.5 data", `cited_work_s`); one that yields to the version the paper says it
    uses (`yields_to_used`); outside captions, one the sentence reports rather than uses (`reported_not_used`).
    `facts`: the unit's text read once (`ParagraphFacts`)."""
    text = facts.text
    pending: list[Named] = []
    families: set[str] = set()
    for name, start, end, reading in versioned:
        if _EARLIER_VERSION_OF.search(text, max(0, start - BEFORE_WINDOW), start):
            continue
        if cited_work_s(facts, start) or yields_to_used(facts, readings, name, reading) \
                or (unit.section != CAPTION and reported_not_used(facts, reading)):
            continue
        for version in (reading, *(replace(reading, stated=more, more=()) for more in reading.more)):
            named = _candidates(catalogue, name, text[start:end], version, sentence_quote(unit.written, start, end), unit.page, unit.section)
            pending += _members_named(facts, unit, readings, members, name, version, named, catalogue)
        if name in catalogue.by_family:
            families.add(name)
    return pending, families


def _members_named(facts: ParagraphFacts, unit: _Unit, readings: Sequence[tuple[str, int, int, Reading]], members: MemberMentions, name: str, reading: Reading,
                   named: Named, catalogue: DatasetCatalogue) -> list[Named]:
    """`named` as one Named per member its words name: `each_parameter` in a caption (its words are a table's or a
    figure's), `each_species` elsewhere (`_named_with_versions`)."""
    if unit.section == CAPTION:
        return each_parameter(catalogue, named, reading)
    return each_species(facts, readings, members, name, reading, named, catalogue)


def _detached_named(facts: ParagraphFacts, unit: _Unit, readings: Sequence[tuple[str, int, int, Reading]], members: MemberMentions,
                    catalogue: DatasetCatalogue) -> tuple[list[Named], list[tuple[int, int]]]:
    """The versions stated apart from a name (`version_association.detached_versions`) as Named, each with its members
    (`_members_named`) and a quote joining the name's sentence and the version's, and the version spans read. Outside
    captions, one the sentence reports rather than uses is passed over (`reported_not_used`: a table's rows run
    together as one sentence, whose citations and words are the rows', not a finding's). `facts`: the unit's text read
    once (`ParagraphFacts`)."""
    text = facts.text
    pending: list[Named] = []
    spans: list[tuple[int, int]] = []
    for name, start, end, reading in detached_versions(facts, readings, catalogue):
        if unit.section != CAPTION and reported_not_used(facts, reading):
            continue
        quote = joined_quote(unit.written, (start, end), (reading.first, reading.last))
        named = _candidates(catalogue, name, text[start:end], reading, quote, unit.page, unit.section)
        pending += _members_named(facts, unit, readings, members, name, reading, named, catalogue)
        spans.append((reading.first, reading.last))
    return pending, spans


def _named_after_heading(text: str, unit: _Unit, readings: Sequence[tuple[str, int, int, Reading]], catalogue: DatasetCatalogue) -> list[Named]:
    """A version stated apart from a name (`detached_versions`, paragraph-wide) that follows the heading naming one
    line, in a paragraph that states that one version before any name of its own ("2.1 MLS/Aura observations" ...
    "we use Version 3.3 Level 2 nighttime OH"): read as stated after the heading's name, with the members it names
    (`each_species`). Only under a heading of the body (not before the first, nor in captions or references); the
    paragraph's own names are `_named_with_versions`' and `_detached_named`'."""
    if unit.section in ("", CAPTION, "References"):
        return []
    heading = name_readings(f"{unit.section}. ", catalogue)
    if not heading or len({name for name, *_ in heading}) != 1 or len({stated_sort_key(v.group(1)) for v in versions_in(text, worded=True)}) != 1:
        return []
    lead = f"{unit.section}. "
    combined = lead + text
    shifted = heading + [(name, start + len(lead), end + len(lead), replace(r, first=r.first + len(lead), last=r.last + len(lead)))
                         for name, start, end, r in readings]
    pending: list[Named] = []
    combined_facts = ParagraphFacts(combined)
    for name, start, end, reading in detached_versions(combined_facts, shifted, catalogue, paragraph_wide=True):
        if start >= len(lead):
            continue
        quote = joined_quote(combined_facts.sentences, (start, end), (reading.first, reading.last))
        named = _candidates(catalogue, name, combined[start:end], reading, quote, unit.page, unit.section)
        pending += each_species(combined_facts, shifted, member_mentions(combined, shifted, catalogue), name, reading, named, catalogue)
    return pending


def _collection_statements(text: str, unit: _Unit, readings: Sequence[tuple[str, int, int, Reading]], statements: Sequence[tuple[str, str, int, int]],
                           unversioned: list[tuple[str, int, int]], catalogue: DatasetCatalogue) -> tuple[list[Named], list[_Keyed], list[tuple[str, int, int]]]:
    """An instrument's collection (a COLLECTION alias: "MODIS Collection 5") lends its version to the member products
    the unit names without one ("MODIS collection-5 products [...] MYD11A1"). `statements`: (alias, stated version,
    start, end of its reading); `unversioned`: the unit's names read without a version, (name, start, end).

    Returns:
        (one decided Named per lent product, quoting the statement and the product; unmatched mentions: each of the
        collection's products the graph lacks, by its short name and the alias's family patterns ("MYD13A2" where
        the graph has no MYD13A2), with the version, and a statement that names no product at all; the unversioned
        names left).
    """
    lent_all: list[Named] = []
    unmatched: list[_Keyed] = []
    left = list(unversioned)
    known = {text[start:end] for _, start, end, _ in readings}
    for alias, stated, first, last in statements:
        lent = [(name, start, end) for name, start, end in left if name in catalogue.members[alias]]
        for name, start, end in lent:
            left.remove((name, start, end))
            lent_all.append(Named(name, text[start:end].strip(), stated, (name,), True, joined_quote(unit.written, (first, last), (start, end)),
                                  unit.page, unit.section))
        others = [p for p in _PRODUCT_NAME.finditer(text, first) if p.group(0) not in known
                  and any(fnmatchcase(p.group(0), pattern) for pattern in catalogue.patterns[alias])]
        unmatched += [((other.group(0), stated_sort_key(stated)), UnmatchedMention(
            other.group(0), stated, "no Dataset node of the graph has this name", joined_quote(unit.written, (first, last), other.span()), unit.page,
            section=unit.section)) for other in others]
        if not others and not any(name in catalogue.members[alias] for name, *_ in readings):
            reason = f"{alias} {stated} is a collection of many products; the paper names none of them with it"
            unmatched.append(((alias, stated_sort_key(stated)), UnmatchedMention(alias, stated, reason, sentence_quote(unit.written, first, last), unit.page,
                                                                                 section=unit.section)))
    return lent_all, unmatched, left


def _unknown_products(text: str, unit: _Unit, read_spans: Sequence[tuple[int, int]]) -> list[_Keyed]:
    """The product-like names with a version (`_PRODUCT_WITH_VERSION`, `version_at`) that overlap no span a reading
    took (`read_spans`): what an unknown dataset looks like ("PERSIANN-CDR v1"), listed as no Dataset node."""
    unmatched = []
    for found in _PRODUCT_WITH_VERSION.finditer(text):
        version = version_at(text, found.end())
        if version is None or any(s < version.end() and found.start() < e for s, e in read_spans):
            continue
        name, stated = found.group(1), version.group(1)
        unmatched.append(((name, stated_sort_key(stated)), UnmatchedMention(
            name, stated, "no Dataset node of the graph has this name", sentence_quote(unit.written, found.start(), version.end()), unit.page, section=unit.section)))
    return unmatched


def _compared_members_named(pending: Sequence[Named], compared: Sequence[_Compared], catalogue: DatasetCatalogue) -> list[Named]:
    """A paper that states one version of a product line gives it to the members it ties to the line's name elsewhere
    ("we compared the simulated HCl, N2O, and HNO3 with the MLS observations", `members_compared_with`): one Named
    per such member (`compared`), with the version of the line's first pending name. Two versions stated, none."""
    stated_keys: dict[str, set[tuple[int, ...]]] = {}
    for named in pending:
        if catalogue.kind.get(named.name) == LINE:
            stated_keys.setdefault(named.name, set()).add(stated_sort_key(named.stated))
    found = []
    for name, family, written, quote, page, section in compared:
        keys = stated_keys.get(name, set())
        if len(keys) == 1 and (stated := next(n.stated for n in pending if n.name == name)):
            key = stated_sort_key(stated)
            held = bool(key and catalogued_version(key, catalogue.held(family)))
            found.append(Named(name, written, stated, (family,), held, quote, page, section))
    return found


def _subjects(document: PaperDocument, pending: Sequence[Named], catalogue: DatasetCatalogue) -> dict[str, frozenset[str]]:
    """{line: the members the front matter names with it (`subject_members`)}, for the lines no pending name settles
    to one member (a line no statement of the paper gives a member a version)."""
    settled_lines = {named.name for named in pending if len(named.candidates) == 1}
    return {line: members for line, members in subject_members([(p.section, p.text) for p in document.paragraphs], catalogue).items()
            if line not in settled_lines}


def _resolved(named: Named, identified: set[str], subjects: Mapping[str, frozenset[str]], catalogue: DatasetCatalogue) -> list[DatasetMatch | _Keyed]:
    """A pending name's candidate families resolved: several narrowed to the one the paper names elsewhere by short
    name or DOI (`identified`: "MERRA2 (V5.12.4, M2T1NXINT)"), then to the line's standard product in its standard
    instrument combination (`DatasetCatalogue.default_product`: AIRS "version 5 daily Level 3" is AIRX3STD), then, for
    a line's version that names no member ("compared with MLS version 3.3") in a paper that names the line's members
    with a version nowhere, to the members the title or the abstract names with the line (`subjects`: "... with ozone
    profiles from MLS"), each settled (`_settled`). One candidate left is settled when the name was decided
    (`Named.decided`) or this narrowing chose it. Else the name stays unmatched: ambiguous between several
    candidates (with or without the version; never the first one), or a version the graph lacks."""
    candidates = list(named.candidates)
    if len(candidates) > 1 and len(named_elsewhere := [f for f in candidates if f in identified]) == 1:
        candidates = named_elsewhere
    if len(candidates) > 1:
        candidates = catalogue.default_product(candidates)
    if len(candidates) > 1 and (subject := sorted(subjects.get(named.name, frozenset()) & set(candidates))):
        return [_settled(named, family, catalogue) for family in subject]
    if len(candidates) == 1 and (named.decided or candidates != list(named.candidates)):
        return [_settled(named, candidates[0], catalogue)]
    if named.with_version:
        reason = f"ambiguous: {named.written} {named.stated} is one of {', '.join(candidates)} in the graph; the paper does not say which"
    elif len(candidates) > 1:
        reason = (f"ambiguous: {named.written} {named.stated} is one of {', '.join(candidates)} in the graph, none of them at "
                  f"version {named.stated}; the paper does not say which")
    else:
        reason = f"the graph has {named.name} but not version {named.stated}"
    return [((named.name, stated_sort_key(named.stated)), UnmatchedMention(named.written, named.stated, reason, named.quote, named.page, named.name,
                                                                            section=named.section))]


def _settled(named: Named, family: str, catalogue: DatasetCatalogue) -> DatasetMatch | _Keyed:
    """A name and version resolved to `family`: the match of the family's Dataset node whose version the stated one
    names (the same key, or a whole-numbered catalogue's major: "4.2" of V004, `catalogued_version`; the lowest
    dataset_id of several), else an unmatched mention of the family at a version the graph lacks."""
    key = stated_sort_key(named.stated)
    held = catalogued_version(key, catalogue.held(family)) if key else None
    same = sorted((k for k in catalogue.by_family[family] if held and held in k.readings), key=lambda k: k.dataset_id)
    if same:
        known = same[0]
        return DatasetMatch(known.dataset_id, known.family, known.version, NAME_AND_VERSION, named.stated, named.quote, named.page, named.section)
    reason = f"the graph has {family} but not version {named.stated}"
    return (family, key), UnmatchedMention(named.written, named.stated, reason, named.quote, named.page, family, section=named.section)


def _preferred(matches: Sequence[DatasetMatch]) -> dict[str, DatasetMatch]:
    """{dataset_id: its match}: the first evidence in reading order (text before references, then the names resolved
    over the paper), or the first from a data or methods section (data availability, materials and methods, study
    area, ...: `_DATA_SECTION`) when there is one."""
    kept: dict[str, DatasetMatch] = {}
    for match in matches:
        held = kept.get(match.dataset_id)
        if held is None or (not _DATA_SECTION.search(held.section) and _DATA_SECTION.search(match.section)):
            kept[match.dataset_id] = match
    return kept


def _first_per_key(pairs: Iterable[tuple[Hashable, UnmatchedMention]]) -> dict:
    """{key: the first mention with it}, in the order keys first occur: one unmatched row per (name, version)."""
    first: dict = {}
    for key, mention in pairs:
        first.setdefault(key, mention)
    return first


def _named_without_version(versionless: Mapping[str, UnmatchedMention], matches: Mapping[str, DatasetMatch],
                           unmatched: Mapping[tuple[str, tuple[int, ...]], UnmatchedMention], catalogue: DatasetCatalogue) -> dict:
    """{(name, ()): mention} for each graph family or product line named without a version (`versionless`: {name: its
    first mention}) that no match or unmatched row names, itself or through a family of the line."""
    named_families = {m.family for m in matches.values()} | {u.family for u in unmatched.values() if u.family}
    named_families |= {alias for alias, families in catalogue.members.items() if named_families & set(families)}
    return {(name, ()): mention for name, mention in versionless.items() if name not in named_families}


def _whole_numbered(catalogue: DatasetCatalogue, families: Sequence[str]) -> bool:
    """Whether every catalogued version of each of `families` is a whole number (MLS V004, V005; OMI V003): a team's
    minor release ("3.3") then names the whole-numbered collection (`catalogued_version`), as GLDAS's 2.1 or MODIS's 6.1,
    numbered with their minor parts, do not."""
    held = [k.sort_key for f in families for k in catalogue.by_family.get(f, ())]
    return bool(held) and all(len(key) == 1 for key in held)


def _with_shorthands_expanded(pending: list[Named], catalogue: DatasetCatalogue) -> tuple[list[Named], list[_Keyed]]:
    """`pending` with a whole-number version that shortens a release the paper states in full read as that release
    (`version_grammar.shorthand_of`: "We use Aura MLS version 3.3 ozone. [...] the MLS v3 ozone profiles" states 3.3
    once, not a version 3 as well): the fitting releases stated for the same one family, else for the same name (the
    line: "MLS v3.3" in a table, "MLS v3 HNO3" in the text). Only for families numbered in whole numbers
    (`_whole_numbered`; MODIS collection 6 and 6.1 are two collections). Several fitting ("v3.3" and "v3.4" both
    stated) leave the shorthand one of them: it is listed as unmatched with no family, as the line's name ambiguous
    between them, and not read as a version of its own.

    Returns:
        (the pending names, expanded, in their order; the ambiguous shorthands as unmatched mentions keyed by name
        and version).
    """
    out = []
    ambiguous: list[_Keyed] = []
    by_candidates: dict[tuple[str, ...], list[str]] = {}
    by_name: dict[str, list[str]] = {}
    for named in pending:  # read once, not once per named (hostile pass: quadratic in a paragraph's mentions)
        by_candidates.setdefault(named.candidates, []).append(named.stated)
        by_name.setdefault(named.name, []).append(named.stated)
    for named in pending:
        fits: list[str] = []
        if _whole_numbered(catalogue, named.candidates):
            same_family = by_candidates[named.candidates] if len(named.candidates) == 1 else []
            fits = shorthand_of(named.stated, same_family) or shorthand_of(named.stated, by_name[named.name])
        if len(fits) == 1:
            key = stated_sort_key(fits[0])
            held = any(catalogued_version(key, catalogue.held(f)) for f in named.candidates)
            out.append(replace(named, stated=fits[0], with_version=held))
        elif fits:
            reason = f"ambiguous: {named.written} v{named.stated} shortens {' or '.join(fits)}, which the paper both states; it does not say which"
            ambiguous.append(((named.name, stated_sort_key(named.stated)), UnmatchedMention(
                named.written, named.stated, reason, named.quote, named.page, section=named.section)))
        else:
            out.append(named)
    return out, ambiguous


def _fold_data_dois(matches: Mapping[str, DatasetMatch], unmatched: Mapping[tuple[str, tuple[int, ...]], UnmatchedMention],
                    ) -> tuple[dict[str, DatasetMatch], dict[tuple[str, tuple[int, ...]], UnmatchedMention]]:
    """One row per data set: a NASA data DOI that is no Dataset node but names, in the archive's records
    (`stated_lifecycle.collection_of_doi`), the collection a row of the paper already names by short name and version
    (the same family, the stated version naming that collection: `catalogued_version`) is folded into that row, not
    listed again: the row keeps its quote and page, its found_by adds the DOI's (SOURCE_SEPARATOR), and an unmatched
    row's reason says which DOI names it too. A paper's data statement ("SPL4SMGP, v7") and the DOI of its dataset
    citation (10.5067/EVKPQZ4AFC4D) are one data set, which a graph holding neither listed twice.

    Returns:
        (matches, unmatched) as given, in their order, with each such DOI folded: new dicts.
    """
    matches, unmatched = dict(matches), dict(unmatched)
    for (name, key), mention in list(unmatched.items()):
        if key or not name.startswith(NASA_DATA_DOI_PREFIX) or not (collection := collection_of_doi(name)):
            continue
        family, version = collection

        def names_it(row_family: str | None, stated: str | None) -> bool:
            return row_family == family and stated is not None and catalogued_version(stated_sort_key(stated), (version,)) == version

        source = f"{SOURCE_SEPARATOR}{mention.found_by}"
        if held := next((m for m in matches.values() if names_it(m.family, m.stated_version)), None):
            matches[held.dataset_id] = replace(held, found_by=held.found_by + source)
        elif row := next(((k, u) for k, u in unmatched.items() if u is not mention and names_it(u.family or u.name, u.stated_version)), None):
            row_key, row_mention = row
            unmatched[row_key] = replace(row_mention, found_by=row_mention.found_by + source,
                                         reason=f"{row_mention.reason}; its data DOI {name} (p. {mention.page}) names the same collection")
        else:
            continue
        del unmatched[(name, key)]
    return matches, unmatched


@dataclass(frozen=True)
class NamedProduct:
    """A graph product or product line a short text names (`named_products`): the name (a family or an alias of
    `dataset_aliases`), as written, the version stated with it (None when none), the families it stands for, and
    whether some of them have the stated version (False without a version)."""

    name: str
    written: str
    stated: str | None
    families: tuple[str, ...]
    with_version: bool


def named_products(text: str, catalogue: DatasetCatalogue) -> list[NamedProduct]:
    """The graph's products and product lines a short text (a research question) names, read as a paper's are
    (`name_readings`), in reading order.

    A name with a version: the families `_candidates` keeps (the describing words, then those that have the version,
    then the base streams; with_version says whether any has it). A name without one: every member of the product
    line or instrument collection ("IMERG": every GPM_3IMERG* family; "MODIS": every MOD*, MYD*, MCD* family), less
    those the describing words around it rule out (`TitleVocabulary.narrow`: "MODIS land cover" is the MODIS family
    whose entry titles say land and cover, "half-hourly IMERG" the half-hourly runs). Never raises on odd text.
    """
    found = []
    for name, start, end, reading in name_readings(text, catalogue):
        if reading.stated is None:
            members = catalogue.members[name]
            families = catalogue.vocabulary.narrow(members, reading.words) if len(members) > 1 else members
            found.append(NamedProduct(name, text[start:end].strip(), None, tuple(families), False))
        else:
            named = _candidates(catalogue, name, text[start:end], reading, "", 0, "")
            found.append(NamedProduct(name, named.written, named.stated, named.candidates, named.with_version))
    return found


def products_with_versions(text: str) -> list[str]:
    """Every product a short text (a research question) writes as a short name followed by a version, as paper
    detection lists the products the graph lacks (`_PRODUCT_WITH_VERSION`: capitals and digits, parts joined by "_"
    or "-", then a version of `version_grammar`), as written with its spaces collapsed: "FOOBAR-9  V3" ->
    ["FOOBAR-9 V3"]. Each once, in reading order, whether or not the graph holds it (the caller tells known from
    unknown). Never raises on odd text."""
    found = []
    for product in _PRODUCT_WITH_VERSION.finditer(text):
        version = version_at(text, product.end())
        if version is not None:
            found.append(" ".join(text[product.start(1):version.end()].split()))
    return list(dict.fromkeys(found))


def _candidates(catalogue: DatasetCatalogue, name: str, written: str, reading: Reading, quote: str, page: int, section: str) -> Named:
    """The families a name read with a version may stand for: its members narrowed by the describing words (a
    product line's), then those that have the stated version (all of them when none has) and those whose catalogue
    begins after it (`_catalogued_after`), then the base streams."""
    key = stated_sort_key(reading.stated)
    members = catalogue.members[name]
    narrowed = catalogue.vocabulary.narrow(members, reading.words) if len(members) > 1 else members
    with_version = [f for f in narrowed if key and catalogued_version(key, catalogue.held(f))]
    if with_version:
        with_version += [f for f in narrowed if f not in with_version and _catalogued_after(catalogue, f, key)]
    candidates = without_variants(with_version or narrowed)
    described = len(candidates) == 1 and any(catalogue.vocabulary.describes(word, candidates[0]) for word in reading.words)
    decided = name in catalogue.by_family or bool(with_version) or len(candidates) < len(members) or described
    return Named(name, written.strip(), reading.stated, tuple(candidates), bool(with_version), quote, page, section, decided)


def _catalogued_after(catalogue: DatasetCatalogue, family: str, key: tuple[int, ...]) -> bool:
    """Whether every catalogued version of `family` is newer than the stated one (`key`): the catalogue keeps only the
    collections the archive still lists (CMR: AIRS3STD V006 and V7.0, no V005), so the family may well have had the
    stated version, and the members that still list it (AIRS's V005 CO2 products) are not the only ones it can name."""
    held = [k.sort_key for k in catalogue.by_family[family] if k.sort_key]
    return bool(held) and min(held) > key
