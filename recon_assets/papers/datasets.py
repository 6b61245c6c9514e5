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
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase

from recon_assets.kg.doi import canonical_doi
from recon_assets.papers.dataset_catalogue import DatasetCatalogue
from recon_assets.papers.dataset_evidence import (
    DOI_IN_REFERENCES, DOI_IN_TEXT, NAME_AND_VERSION, NAME_WITHOUT_VERSION, QUOTE_LIMIT, SOURCE_SEPARATOR, DatasetMatch, UnmatchedMention,
)
from recon_assets.papers.dataset_names import (
    WORD, is_algorithm_version, is_data_citation, is_glossary, is_reference_like, reference_entries,
)
from recon_assets.papers.lifecycle_lines import with_lifecycle
from recon_assets.papers.name_readings import (
    subject_members,
    BEFORE_WINDOW, LIST_JOIN, PARENTHESISED_VERSION, MemberMentions, Named, each_parameter, each_species, member_mentions, name_readings, parameter_list,
    without_variants,
)
from recon_assets.papers.parse import DOI_PATTERN, PaperDocument
from recon_assets.papers.phrases import COLLECTION, DATA_WORD, LINE, SENTENCE, Reading, read_as_ascii, sentence_bounds, sentence_span, stated_sort_key
from recon_assets.papers.stated_lifecycle import catalogued_version, collection_of_doi
from recon_assets.papers.version_association import cited_work_s, detached_versions, reported_not_used, yields_to_used
from recon_assets.papers.version_grammar import VERSION_TEXT, cited_version, shorthand_of, version_at, versions_in
from recon_assets.shared.excerpt import excerpt

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
# no use of that version (`detect_datasets`).
_EARLIER_VERSION_OF = re.compile(r"\b(?:earlier|previous|older|former|prior)\s+(?:versions?|releases?|collections?)\s+of\s+(?:the\s+)?$", re.IGNORECASE)
# The section `_units` gives a figure or table caption.
CAPTION = "caption"


def _quote(text: str, start: int, end: int) -> str:
    """The sentence around text[start:end], cut to QUOTE_LIMIT characters around the mention at word boundaries, an
    ellipsis marking each cut end (`excerpt`)."""
    bounds = sentence_bounds(text)
    left = bounds[bisect_right(bounds, start) - 1]
    right = bounds[min(bisect_left(bounds, end), len(bounds) - 1)]
    return excerpt(text[left:right], start - left, end - left, QUOTE_LIMIT)


ELISION = " [...] "


def _joined_quote(text: str, first: tuple[int, int], second: tuple[int, int]) -> str:
    """The sentences of two spans of one text (a collection statement and a product it lends its version to), joined
    by ELISION when they differ, each cut at word boundaries (`excerpt`) so the whole is at most QUOTE_LIMIT characters."""
    one, two = _quote(text, *first), _quote(text, *second)
    if one == two:
        return one
    joined = f"{one}{ELISION}{two}"
    if len(joined) <= QUOTE_LIMIT:
        return joined
    half = (QUOTE_LIMIT - len(ELISION)) // 2
    # the first sentence keeps its opening (the statement), the second its part around the product
    one_cut = one if len(one) <= half else excerpt(one, 0, 0, half)
    left = QUOTE_LIMIT - len(ELISION) - len(one_cut)
    two_cut = two if len(two) <= left else excerpt(two, len(two), len(two), left)
    return f"{one_cut}{ELISION}{two_cut}"


def _units(document: PaperDocument) -> list[tuple[str, int, str, str, bool]]:
    """The texts to read, in reading order: (text, page, where a DOI in it counts, section, whether names in it are
    read). Names are not read in an abbreviations table (`is_glossary`) nor in a reference entry that cites a paper
    rather than data (`is_data_citation`); body text that is a reference list the parser missed
    (`is_reference_like`) is read as its entries."""
    units = []
    for paragraph in document.paragraphs:
        if is_reference_like(paragraph.text):
            units += [(entry, paragraph.page, DOI_IN_TEXT, "References", is_data_citation(entry)) for _, entry in reference_entries(paragraph.text)]
        else:
            units.append((paragraph.text, paragraph.page, DOI_IN_TEXT, paragraph.section, not is_glossary(paragraph.text, paragraph.section)))
    units += [(c.text, c.page, DOI_IN_TEXT, CAPTION, not is_glossary(c.text)) for c in document.captions]
    units += [(r.text, r.page, DOI_IN_REFERENCES, "References", is_data_citation(r.text)) for r in document.references]
    return units


def detect_datasets(document: PaperDocument, catalogue: DatasetCatalogue) -> tuple[list[DatasetMatch], list[UnmatchedMention]]:
    """Find the Dataset nodes a paper uses, and the datasets it names that the graph lacks.

    Args:
        document: the parsed paper (`parse.parse_pdf`).
        catalogue: the graph's Dataset nodes.

    Returns:
        (matches, unmatched). matches: one DatasetMatch per dataset_id with the first evidence in reading order (text
        before references), or the first from a data or methods section (data availability, materials and methods,
        study area, ...) when there is one; by DOI when the paper prints the dataset's DOI, else by a graph product
        name with a stated version equal to the dataset's (compared by `version_sort_key`).

        A product line's name (an alias: IMERG, GLDAS, SMAP, MERRA-2) is resolved to one of its families by, in turn:
        the families that have the stated version; the describing words around it, read against the families' entry
        titles ("IMERG Final V6 Daily" is GPM_3IMERGDF); the base stream over its variants (`without_variants`); the
        one candidate the paper names elsewhere by short name or DOI ("MERRA2 (V5.12.4, M2T1NXINT)"). An
        instrument's collection (MODIS Collection 5) lends its version to the member products named without one in
        the same paragraph. Names in abbreviations tables and in references that cite papers are not read. A line named
        twice in a sentence, once with its parameter and once with its version, is one product
        (`_with_sentence_words`); a table titled with a line and its version lists the members its rows name
        (`_with_table_rows`); a member is also named by its parameter code (ML2* + "IWC", `dataset_names.line_codes`).
        Outside captions, a line named with a version also names the members the catalogue's own words for them name
        (entry-title parameter name or code) in a list right after the version, else in the version's sentence, else
        tied by a data word to another mention of the line in the paragraph, else each with a data word in the
        sentence right after the version's (`each_species`). A paper that states one version of a line gives it to the
        members it ties to the line's name elsewhere ("we compared the simulated HCl, N2O, and HNO3 with the MLS
        observations", `_members_compared_with`); two versions stated, none. A version read with a name the text calls
        its earlier one is no use ("The earlier version of MLS CO (V2.2)", `_EARLIER_VERSION_OF`), nor one read with a name in
        a clause whose subject is a cited work ("while Smith et al. (2006) discuss the MLS v1.5 data", `cited_work_s`).
        A list of a line's members closed by a version alone in parentheses gives each member that version ("O3, HNO3,
        H2O, HCl, and N2O (v2.2)", `_members_listed_with_version`). A whole-number version that shortens a release the
        paper states in full for the same family or line is that release ("MLS v3" for "MLS version 3.3",
        `_with_shorthands_expanded`). A version is any spelling
        of the general grammar (`version_grammar`: "V7", "version v3.3", "version (v) 3.3", "ver. 2", "C6.1", "RL06",
        "MOD13Q1.006"), less what it excludes (cross-references, programs' and models' versions); data words and a list
        of the line's parameters between the name and it are passed over ("MLS measurements version 3.3", "MLS O3, H2O
        and HNO3 version 4.2": DATA_WORDS, `LIST_WORD`). A version
        restated in parentheses right after itself is passed over ("version 2.2 (v2.2) RHi"); a version alone in
        parentheses that closes the name's clause is the name's ("MLS water vapour and ozone measurements (version
        3.3)", "data from MLS (retrieval version v3.3)"); a collection
        stated before the name beats a version after it that no candidate has as a collection ("collection 3 OMTO3
        version 8.5", `_collection_before`). A version stated apart from the name (`detached_versions`) may also follow
        the heading that names the line, in a paragraph that states that one version before any name of its own
        ("2.1 MLS/Aura observations" ... "we use Version 3.3 Level 2 nighttime OH"). Several members of one line left
        by the paper's words: the line's standard product, in its standard instrument combination
        (`DatasetCatalogue.default_product`: AIRS "version 5 daily Level 3" is AIRX3STD); several products left stay
        ambiguous.

        unmatched: one per (name, version): a NASA data DOI (10.5067/) that is no Dataset node (unless the archive's
        records name it the collection another row names by short name and version: `_fold_data_dois`); a graph family
        named with a version the graph lacks (with that version's lifecycle: `UnmatchedMention`); a product line
        whose stated version several of its families have (the candidates are named) or none; a collection
        statement that no product of it is named with; a graph family named without a version anywhere in the
        paper; a product-like name with a version that is no graph family. Never raises on odd text.
    """
    matches: dict[str, DatasetMatch] = {}
    unmatched: dict[tuple[str, tuple[int, ...]], UnmatchedMention] = {}
    versionless: dict[str, UnmatchedMention] = {}
    identified: set[str] = set()  # families the paper names by their short name (with a version) or by DOI
    pending: list[Named] = []
    compared: list[tuple[str, str, str, str, int, str]] = []  # `_members_compared_with`, over the paper

    def keep(match: DatasetMatch) -> None:
        held = matches.get(match.dataset_id)
        if held is None or (not _DATA_SECTION.search(held.section) and _DATA_SECTION.search(match.section)):
            matches[match.dataset_id] = match

    def settle(named: Named, family: str) -> None:
        key = stated_sort_key(named.stated)
        # the stated version's collection: the same key, or a whole-numbered catalogue's major ("4.2" of V004)
        held = catalogued_version(key, catalogue.held(family)) if key else None
        same = sorted((k for k in catalogue.by_family[family] if held and held in k.readings), key=lambda k: k.dataset_id)
        if same:
            known = same[0]
            keep(DatasetMatch(known.dataset_id, known.family, known.version, NAME_AND_VERSION, named.stated, named.quote, named.page, named.section))
        else:
            reason = f"the graph has {family} but not version {named.stated}"
            unmatched.setdefault((family, key), UnmatchedMention(named.written, named.stated, reason, named.quote, named.page, family, section=named.section))

    tables = {(c.text, c.page) for c in document.captions if c.kind == "table"}  # a table's caption holds its rows
    for written, page, doi_place, section, read_names in _units(document):
        text = read_as_ascii(written)  # names and versions read in ASCII hyphens and digits; quotes as written
        for found in DOI_PATTERN.finditer(text):
            doi = canonical_doi(found.group(0))
            if not doi:
                continue
            known = catalogue.by_doi.get(doi)
            if known:
                identified.add(known.family)
                # a data citation's own version for the collection its DOI names ("[...] version 1.01 [...] doi:" of V1)
                cited = cited_version(text, lambda number, known=known: catalogued_version(
                    stated_sort_key(number), catalogue.held(known.family)) == stated_sort_key(known.version)) if section == "References" else None
                keep(DatasetMatch(known.dataset_id, known.family, known.version, doi_place, cited, _quote(written, *found.span()), page, section))
            elif doi.startswith(NASA_DATA_DOI_PREFIX):
                unmatched.setdefault((doi, ()), UnmatchedMention(
                    doi, None, "NASA data DOI that is no Dataset node of the graph", _quote(written, *found.span()), page, found_by=doi_place, section=section))
        if not read_names:
            continue
        readings = name_readings(text, catalogue)
        members = member_mentions(text, readings, catalogue)
        spans = [(name, start, end) for name, start, end, _ in readings]
        read_spans: list[tuple[int, int]] = []
        statements: list[tuple[str, str, int, int]] = []  # collection statements: (alias, version, start, end)
        unversioned: list[tuple[str, int, int]] = []
        for index, (name, start, end, reading) in enumerate(readings):
            reading = _with_sentence_words(text, readings, index, catalogue)
            if section == CAPTION and (text, page) in tables:
                reading = _with_table_rows(text, name, start, reading, catalogue)
            read_spans.append((reading.first, reading.last))
            if catalogue.kind.get(name) == COLLECTION:
                if reading.stated is not None:
                    statements.append((name, reading.stated, start, reading.last))
                continue
            if reading.stated is None:
                unversioned.append((name, start, end))
                continue
            if _EARLIER_VERSION_OF.search(text, max(0, start - BEFORE_WINDOW), start):
                # "The earlier version of MLS CO (V2.2) was biased high": a version the paper sets aside, not one it uses
                continue
            if cited_work_s(text, start) or yields_to_used(text, readings, name, reading) \
                    or (section != CAPTION and reported_not_used(text, reading)):
                # "while Smith et al. (2006) discuss the MLS v1.5 data": the cited work's version, not the paper's
                continue
            for version in (reading, *(replace(reading, stated=more, more=()) for more in reading.more)):
                # a list of versions ("MLS v2.2 and v3.3 data", "HALOE V17 and V019"): one pair per version
                named = _candidates(catalogue, name, text[start:end], version, _quote(written, start, end), page, section)
                pending += each_parameter(catalogue, named, version) if section == CAPTION else each_species(text, readings, members, name, version, named, catalogue)
            if name in catalogue.by_family:
                identified.add(name)
        listed, spans_read = _members_listed_with_version(text, readings, members, catalogue, page, section)
        pending += listed
        read_spans += spans_read
        for name, start, end, reading in detached_versions(text, readings, catalogue):
            if section != CAPTION and reported_not_used(text, reading):
                # a table's rows run together as one sentence: its citations and words are the rows', not a finding's
                continue
            quote = _joined_quote(written, (start, end), (reading.first, reading.last))
            named = _candidates(catalogue, name, text[start:end], reading, quote, page, section)
            pending += each_parameter(catalogue, named, reading) if section == CAPTION else each_species(text, readings, members, name, reading, named, catalogue)
            read_spans.append((reading.first, reading.last))
        if section not in ("", CAPTION, "References") and (heading := name_readings(f"{section}. ", catalogue)) \
                and len({name for name, *_ in heading}) == 1 and len({stated_sort_key(v.group(1)) for v in versions_in(text, worded=True)}) == 1:
            # a paragraph under a heading that names one line ("2.1 MLS/Aura observations") that states one version
            # before any name of its own: the version is read as stated after the heading's name
            lead = f"{section}. "
            combined = lead + text
            shifted = heading + [(name, start + len(lead), end + len(lead), replace(r, first=r.first + len(lead), last=r.last + len(lead)))
                                 for name, start, end, r in readings]
            for name, start, end, reading in detached_versions(combined, shifted, catalogue, paragraph_wide=True):
                if start >= len(lead):
                    continue  # a name of the paragraph's own: read above
                quote = _joined_quote(combined, (start, end), (reading.first, reading.last))
                named = _candidates(catalogue, name, combined[start:end], reading, quote, page, section)
                pending += each_species(combined, shifted, member_mentions(combined, shifted, catalogue), name, reading, named, catalogue)
        for alias, stated, first, last in statements:
            lent = [(name, start, end) for name, start, end in unversioned if name in catalogue.members[alias]]
            for name, start, end in lent:
                unversioned.remove((name, start, end))
                pending.append(Named(name, text[start:end].strip(), stated, (name,), True, _joined_quote(written, (first, last), (start, end)), page, section))
            # the collection's products the graph lacks ("MYD13A2" where the graph has no MYD13A2): listed with the version
            known = {text[start:end] for _, start, end in spans}
            others = [p for p in _PRODUCT_NAME.finditer(text, first) if p.group(0) not in known
                      and any(fnmatchcase(p.group(0), pattern) for pattern in catalogue.patterns[alias])]
            for other in others:
                unmatched.setdefault((other.group(0), stated_sort_key(stated)), UnmatchedMention(
                    other.group(0), stated, "no Dataset node of the graph has this name", _joined_quote(written, (first, last), other.span()), page,
                    section=section))
            if not others and not any(name in catalogue.members[alias] for name, _, _ in spans):
                reason = f"{alias} {stated} is a collection of many products; the paper names none of them with it"
                unmatched.setdefault((alias, stated_sort_key(stated)), UnmatchedMention(alias, stated, reason, _quote(written, first, last), page, section=section))
        if section != CAPTION:
            compared += _members_compared_with(text, readings, members, catalogue, page, section)
        for name, start, end in unversioned:
            versionless.setdefault(name, UnmatchedMention(
                text[start:end].strip(), None, "named without a version", _quote(written, start, end), page, name, found_by=NAME_WITHOUT_VERSION, section=section))
        for found in _PRODUCT_WITH_VERSION.finditer(text):
            version = version_at(text, found.end())
            if version is None or any(s < version.end() and found.start() < e for s, e in read_spans):
                continue
            name, stated = found.group(1), version.group(1)
            unmatched.setdefault((name, stated_sort_key(stated)), UnmatchedMention(
                name, stated, "no Dataset node of the graph has this name", _quote(written, found.start(), version.end()), page, section=section))

    pending = _with_shorthands_expanded(pending, catalogue, unmatched)
    # a line the paper states one version of: that version for the members it compares with the line elsewhere
    stated_keys: dict[str, set[tuple[int, ...]]] = {}
    for named in pending:
        if catalogue.kind.get(named.name) == LINE:
            stated_keys.setdefault(named.name, set()).add(stated_sort_key(named.stated))
    for name, family, written, quote, page, section in compared:
        keys = stated_keys.get(name, set())
        if len(keys) == 1 and (stated := next(n.stated for n in pending if n.name == name)):
            key = stated_sort_key(stated)
            held = bool(key and catalogued_version(key, catalogue.held(family)))
            pending.append(Named(name, written, stated, (family,), held, quote, page, section))
    # the members the front matter names for each line, for a line no statement of the paper gives a member a version
    settled_lines = {named.name for named in pending if len(named.candidates) == 1}
    subjects = {line: members for line, members in subject_members([(p.section, p.text) for p in document.paragraphs], catalogue).items()
                if line not in settled_lines}
    for named in pending:
        candidates = list(named.candidates)
        if len(candidates) > 1 and len(named_elsewhere := [f for f in candidates if f in identified]) == 1:
            candidates = named_elsewhere
        if len(candidates) > 1:
            candidates = catalogue.default_product(candidates)
        if len(candidates) > 1 and (subject := sorted(subjects.get(named.name, frozenset()) & set(candidates))):
            # a line's version that names no member ("compared with MLS version 3.3") in a paper that names the line's
            # members with a version nowhere: the members the title or the abstract names with the line, the paper's
            # subject ("... with ozone profiles from MLS")
            for family in subject:
                settle(named, family)
        elif len(candidates) == 1 and (named.decided or candidates != list(named.candidates)):
            settle(named, candidates[0])
        elif named.with_version:
            reason = f"ambiguous: {named.written} {named.stated} is one of {', '.join(candidates)} in the graph; the paper does not say which"
            unmatched.setdefault((named.name, stated_sort_key(named.stated)), UnmatchedMention(named.written, named.stated, reason, named.quote, named.page, named.name, section=named.section))
        elif len(candidates) > 1:
            # several members fit the words and none has the version: which one is not said (never the first one)
            reason = (f"ambiguous: {named.written} {named.stated} is one of {', '.join(candidates)} in the graph, none of them at "
                      f"version {named.stated}; the paper does not say which")
            unmatched.setdefault((named.name, stated_sort_key(named.stated)), UnmatchedMention(named.written, named.stated, reason, named.quote, named.page, named.name, section=named.section))
        else:
            reason = f"the graph has {named.name} but not version {named.stated}"
            unmatched.setdefault((named.name, stated_sort_key(named.stated)), UnmatchedMention(named.written, named.stated, reason, named.quote, named.page, named.name, section=named.section))
    _fold_data_dois(matches, unmatched)
    named_families = {m.family for m in matches.values()} | {u.family for u in unmatched.values() if u.family}
    named_families |= {alias for alias, families in catalogue.members.items() if named_families & set(families)}
    unmatched.update({(name, ()): mention for name, mention in versionless.items() if name not in named_families})
    return list(matches.values()), [with_lifecycle(u, catalogue) for u in unmatched.values()]


def _whole_numbered(catalogue: DatasetCatalogue, families: Sequence[str]) -> bool:
    """Whether every catalogued version of each of `families` is a whole number (MLS V004, V005; OMI V003): a team's
    minor release ("3.3") then names the whole-numbered collection (`catalogued_version`), as GLDAS's 2.1 or MODIS's 6.1,
    numbered with their minor parts, do not."""
    held = [k.sort_key for f in families for k in catalogue.by_family.get(f, ())]
    return bool(held) and all(len(key) == 1 for key in held)


def _with_shorthands_expanded(pending: list[Named], catalogue: DatasetCatalogue,
                              unmatched: dict[tuple[str, tuple[int, ...]], UnmatchedMention]) -> list[Named]:
    """`pending` with a whole-number version that shortens a release the paper states in full read as that release
    (`version_grammar.shorthand_of`: "We use Aura MLS version 3.3 ozone. [...] the MLS v3 ozone profiles" states 3.3
    once, not a version 3 as well): the fitting releases stated for the same one family, else for the same name (the
    line: "MLS v3.3" in a table, "MLS v3 HNO3" in the text). Only for families numbered in whole numbers
    (`_whole_numbered`; MODIS collection 6 and 6.1 are two collections). Several fitting ("v3.3" and "v3.4" both
    stated) leave the shorthand one of them: it is listed in `unmatched` (in place) with no family, as the line's
    name ambiguous between them, and not read as a version of its own."""
    out = []
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
            unmatched.setdefault((named.name, stated_sort_key(named.stated)), UnmatchedMention(
                named.written, named.stated, reason, named.quote, named.page, section=named.section))
        else:
            out.append(named)
    return out


# What ties a list of a line's members to the line named right after it ("HCl, N2O, and HNO3 with the MLS
# observations", "ozone and temperature from MLS", "N2O data from the Aura MLS"): `_members_compared_with`.
_TIED_TO_LINE = re.compile(r"\s*(?:" + DATA_WORD + r"\s+)?(?:with|from|by|of|against)\s+"
                           r"(?:the\s+)?(?:[A-Z][\w\-]*[\s/\-]+)?", re.IGNORECASE)


def _members_compared_with(text: str, readings: Sequence[tuple[str, int, int, Reading]], members: MemberMentions,
                           catalogue: DatasetCatalogue, page: int, section: str) -> list[tuple[str, str, str, str, int, str]]:
    """The members of a product line (LINE alias) named without a version that a list of the catalogue's own words for
    them (`species_mentions`) ties to the line's name right after it ("we compared the simulated HCl, N2O, and HNO3
    with the MLS observations", `_TIED_TO_LINE`): [(line, member family, the line's name as written, quote, page,
    section)].
    `detect_datasets` gives them the line's version when the paper states exactly one version of that line: a version
    stated for "the Aura MLS measurements" as a whole is that of each species the paper compares with them. `members`:
    the paragraph's member mentions (`member_mentions`), queried in the 200 characters before each name."""
    found = []
    for name, start, end, reading in readings:
        if reading.stated is not None or catalogue.kind.get(name) != LINE:
            continue
        mentions = members.of(name, max(0, start - 200), start)
        group: list[tuple[int, int, str]] = []
        for mention in reversed(mentions):
            # the list whose last member the tie to the name follows, read back item by item
            if not group:
                if not _TIED_TO_LINE.fullmatch(text, mention[1], start):
                    break
            elif not ((joined := LIST_JOIN.match(text, mention[1])) and joined.end() == group[0][0]):
                break
            group.insert(0, mention)
        for begin, finish, family in group:
            found.append((name, family, text[start:end].strip(), _quote(text, begin, end), page, section))
    return found


def _fold_data_dois(matches: dict[str, DatasetMatch], unmatched: dict[tuple[str, tuple[int, ...]], UnmatchedMention]) -> None:
    """One row per data set: a NASA data DOI that is no Dataset node but names, in the archive's records
    (`stated_lifecycle.collection_of_doi`), the collection a row of the paper already names by short name and version
    (the same family, the stated version naming that collection: `catalogued_version`) is folded into that row, not
    listed again: the row keeps its quote and page, its found_by adds the DOI's (SOURCE_SEPARATOR), and an unmatched
    row's reason says which DOI names it too. A paper's data statement ("SPL4SMGP, v7") and the DOI of its dataset
    citation (10.5067/EVKPQZ4AFC4D) are one data set, which a graph holding neither listed twice. In place."""
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



# What may follow a version in parentheses that closes a list: the clause's or the sentence's end.
_CLOSES_CLAUSE = re.compile(r"\s*(?:[.;,:]|$)")


def _members_listed_with_version(text: str, readings: Sequence[tuple[str, int, int, Reading]], members: MemberMentions, catalogue: DatasetCatalogue,
                                 page: int, section: str) -> tuple[list[Named], list[tuple[int, int]]]:
    """Members of a product line (LINE alias) a list names that a version alone in parentheses closes (the clause or
    the sentence ends right after it): "BASCOE assimilates the MLS retrievals. It takes O3, HNO3, H2O, HCl, and N2O
    (v2.2)." names five products at v2.2. The list is two or more members written with the catalogue's own words for
    them (`species_mentions`: parameter name or code), joined by commas, "and", "or" or "/" (`LIST_JOIN`), right
    before the parenthesis (`PARENTHESISED_VERSION`, not an algorithm's version); the line is the nearest name before
    the list in its sentence or the sentence before, read without a version of its own, and no other name stands
    between. One Named per member, decided, with the version; a list of one member says nothing here (a version in
    parentheses after one word is `_read`'s or `detached_versions`' reading). Also the spans read (list to parenthesis),
    so that no member code is listed again as a product of its own ("N2O (v2.2)"). `members`: the paragraph's member
    mentions (`member_mentions`)."""
    found: list[Named] = []
    spans: list[tuple[int, int]] = []
    bounds = sentence_bounds(text)
    for closing in PARENTHESISED_VERSION.finditer(text):
        if not _CLOSES_CLAUSE.match(text, closing.end()) or is_algorithm_version(text, closing.end()):
            continue
        left = max(b for b in bounds if b <= closing.start())
        reach = max((b for b in bounds if b < left), default=0)
        before = [(name, start, end, r) for name, start, end, r in readings if reach <= start and end <= closing.start()]
        if not before:
            continue
        name, start, end, reading = before[-1]
        if reading.stated is not None or catalogue.kind.get(name) != LINE:
            continue
        mentions = members.of(name, end, closing.start())
        group: list[tuple[int, int, str]] = []
        for mention in reversed(mentions):
            # the list whose last member the parenthesis follows, read back item by item
            if not group:
                if text[mention[1]:closing.start()].strip():
                    break
            elif not ((joined := LIST_JOIN.match(text, mention[1])) and joined.end() == group[0][0]):
                break
            group.insert(0, mention)
        families = list(dict.fromkeys(family for _, _, family in group))
        if len(families) < 2:
            continue
        stated = closing.group(1)
        key = stated_sort_key(stated)
        quote = _joined_quote(text, (start, end), (group[0][0], closing.end()))
        found += [Named(name, text[start:end].strip(), stated, (family,),
                         bool(key and catalogued_version(key, catalogue.held(family))), quote, page, section)
                  for family in families]
        spans.append((group[0][0], closing.end()))
    return found, spans


def _with_sentence_words(text: str, readings: Sequence[tuple[str, int, int, Reading]], index: int, catalogue: DatasetCatalogue) -> Reading:
    """The reading of `readings[index]`, with the describing words of the same product line's earlier readings in its
    sentence that were read without a version, when its own words leave several members: a sentence that names the
    line twice, once with the parameter and once with the version ("The MLS ozone is from MLS version 4.2 Level 2
    data"), names one product. Its own words are kept first and the rest are weighed with them (`narrow`), so words
    that already pick one member are never overruled."""
    name, start, _, reading = readings[index]
    members = catalogue.members[name]
    if reading.stated is None or len(members) < 2 or len(without_variants(catalogue.vocabulary.narrow(members, reading.words))) < 2:
        return reading
    left = sentence_span(text, start)[0]
    earlier = [w for other, first, _, r in readings[:index] if other == name and first >= left and r.stated is None for w in r.words]
    return replace(reading, words=reading.words + tuple(earlier)) if earlier else reading


def _with_table_rows(text: str, name: str, start: int, reading: Reading, catalogue: DatasetCatalogue) -> Reading:
    """The reading of a product line named with a version in a table caption's first sentence (its title: "Species
    retrieved from MLS v4.2 and used here."), with the words of the rest of the caption (the table's rows, which the
    parser keeps with its caption) when its own words leave several members and the rows name two or more members,
    each by a word that names it alone (`parameter_list`: a row "O3 ...", a row "HNO3 ..."): such a table lists the
    products of that line at that version. A name read after the first sentence (a column heading "(for MLS v2.2)")
    is not given the rows."""
    members = catalogue.members[name]
    if reading.stated is None or len(members) < 2 or parameter_list(catalogue, name, reading.words):
        return reading
    if len(without_variants(catalogue.vocabulary.narrow(members, reading.words))) < 2:
        return reading
    title_end = SENTENCE.search(text)
    if title_end is None or start >= title_end.start():
        return reading
    rows = [w.group(0).rstrip(".") for w in WORD.finditer(text, title_end.end())]
    return replace(reading, words=reading.words + tuple(rows)) if parameter_list(catalogue, name, rows) else reading
