"""Which of the graph's Dataset nodes a paper uses: by DOI (in its text and its references) and by short name and
version in its text (data statements, methods), each match with the quoted sentence and its page; names with a
version that match no Dataset node are listed as unmatched, never dropped.

For a paper given by DOI that the graph holds, the Dataset nodes the graph links its publication to by USES_DATASET
are added (`with_graph_links`), found by "the graph's USES_DATASET relationship" beside any text evidence.

Versions are read and compared with the lifecycle's own parser (`recon_assets.lifecycle.versions`): a graph
dataset's family and version come from `parse_version` (short name, long name, DOI), a version stated in the paper
("V7", "version 7", "Collection 5", "C6.1", "MOD13Q1.006") through `version_sort_key`, so "Collection 5" is the
graph's "005" and "6.1" its "061".

A name papers give a product line (IMERG, GLDAS, SMAP, MERRA-2: `dataset_aliases`, from CMR entry titles) is resolved to
one collection by the words the paper writes with it, read against the collections' CMR entry titles
(`dataset_names.TitleVocabulary`: "IMERG Final V6 Daily" is GPM_3IMERGDF, "GLDAS-CLS L4 V2.2" the Catchment Land
Surface Model's), and by the collection the paper names elsewhere by short name or DOI. An instrument's collection
("MODIS collection-5 products [...] MYD11A1") lends its version to the products named with it. Abbreviations tables,
references that cite papers and reference lists run into body text are not read for names (`dataset_names`).
A version the graph lacks gets the lifecycle's verdict on it (`stated_lifecycle`).
"""

from __future__ import annotations

import io
import re
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from importlib import resources

import pandas as pd

from recon_assets.kg.doi import canonical_doi
from recon_assets.lifecycle.lineage import CMR_COLLECTION_PROGRESS, CURATED, INFERRED, since_text
from recon_assets.lifecycle.versions import parse_version, version_readings
from recon_assets.papers.dataset_names import (
    WORD, TitleVocabulary, is_algorithm_version, line_codes, is_data_citation, is_glossary, is_reference_like, reference_entries,
)
from recon_assets.papers.dataset_names import STANDARD_COMBINATIONS, STANDARD_WORD, canonical_tokens, combination, product_tokens
from recon_assets.papers.dataset_names import parameter_names
from recon_assets.papers.name_readings import (
    subject_members,
    BEFORE_WINDOW, LIST_JOIN, PARENTHESISED_VERSION, MemberMentions, Named, each_parameter, each_species, member_mentions, name_readings, parameter_list,
    without_variants,
)
from recon_assets.papers.parse import DOI_PATTERN, PaperDocument
from recon_assets.papers.phrases import COLLECTION, DATA_WORD, LINE, SENTENCE, Reading, name_key, read_as_ascii, sentence_bounds, sentence_span, stated_sort_key
from recon_assets.papers.stated_lifecycle import catalogued_version, collection_of_doi, stated_version_lineage
from recon_assets.papers.version_association import cited_work_s, detached_versions, reported_not_used, yields_to_used
from recon_assets.papers.version_grammar import VERSION_TEXT, cited_version, shorthand_of, version_at, versions_in
from recon_assets.shared.excerpt import excerpt

DOI_IN_TEXT, DOI_IN_REFERENCES, NAME_AND_VERSION = "DOI in text", "DOI in references", "short name and version"
# How an unmatched mention was found when no version is stated with the name ("named without a version").
NAME_WITHOUT_VERSION = "short name without a version"
# The KG's own link of a publication to a dataset it uses: (:Publication)-[:USES_DATASET]->(:Dataset).
GRAPH_LINK = "the graph's USES_DATASET relationship"
# How a match found both in the text and by the graph's link says so: "DOI in references; the graph's ...".
SOURCE_SEPARATOR = "; "
# DOIs that NASA's Earth Science Data and Information System registers for its data products (EOSDIS DOI guidance).
NASA_DATA_DOI_PREFIX = "10.5067/"
# A product-like name (capitals and digits, at least one digit or four capitals) stated with a version, or with it in
# parentheses: what an unknown dataset looks like ("PERSIANN-CDR v1", "CHIRPS V2.0", "SRTM version 4.1", "SMOS-IC (V2)").
_PRODUCT_WITH_VERSION = re.compile(r"(?<![A-Za-z0-9_\-])([A-Z][A-Z0-9]{2,}(?:[_\-][A-Z0-9]+)*)(?:\s+|\s*[(,]\s*)(?=(?i:" + VERSION_TEXT + "))")
# A short name as CMR spells them: capitals and digits, one underscore at most between parts ("MYD13A2", "MOD04_L2").
_PRODUCT_NAME = re.compile(r"(?<![\w\-])[A-Z][A-Z0-9]{3,}(?:_[A-Z0-9]+)*(?![\w\-])")
QUOTE_LIMIT = 400
# Sections that state what the paper used (data statements, methods): their evidence is kept over a mention
# elsewhere (an introduction citing what others used).
_DATA_SECTION = re.compile(r"data|method|material|availability|study area|experiment", re.IGNORECASE)
# What calls the version read with the name after it an earlier one ("The earlier version of MLS CO (V2.2) was biased"):
# no use of that version (`detect_datasets`).
_EARLIER_VERSION_OF = re.compile(r"\b(?:earlier|previous|older|former|prior)\s+(?:versions?|releases?|collections?)\s+of\s+(?:the\s+)?$", re.IGNORECASE)
# The section `_units` gives a figure or table caption.
CAPTION = "caption"


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
    name is one of the graph's (a version the graph lacks, several candidates, or no version stated), else None.

    superseded and lifecycle: for a graph family stated with a version the graph lacks, that version's lifecycle
    by the lifecycle's own rules (`stated_lifecycle.stated_version_lineage`: replaced when a later version of the
    family is in the graph, unless a curated line makes them parallel streams) and its one line
    (`lifecycle_statement`); None otherwise.

    found_by and section: how it was found, as a match's (DOI_IN_TEXT, DOI_IN_REFERENCES, NAME_AND_VERSION, or
    NAME_WITHOUT_VERSION), and the heading its quote is under ('References', 'caption'; '' before the first)."""

    name: str
    stated_version: str | None
    reason: str
    quote: str
    page: int
    family: str | None = None
    superseded: bool | None = None
    lifecycle: str | None = None
    found_by: str = NAME_AND_VERSION
    section: str = ""


@dataclass(frozen=True)
class _Known:
    dataset_id: str
    family: str
    version: str | None
    sort_key: tuple[int, ...]
    readings: tuple[tuple[int, ...], ...] = ()  # `version_readings` of `version`: the keys a stated version may name


ALIAS_COLUMNS = ["alias", "family", "kind", "source"]


def alias_table() -> pd.DataFrame:
    """`recon_assets/reference/dataset_aliases.csv`: one line per (alias, family pattern) with the alias's kind
    (LINE or COLLECTION) and its source (the archive's product page or CMR entry titles). An alias may have several
    lines (MODIS: MOD*, MYD*, MCD*).

    Raises:
        ValueError: other columns, an unknown kind, or one alias given two kinds.
    """
    table = pd.read_csv(io.StringIO(resources.files("recon_assets.reference").joinpath("dataset_aliases.csv").read_text()), dtype=str)
    if list(table.columns) != ALIAS_COLUMNS:
        raise ValueError(f"dataset_aliases.csv: columns must be {', '.join(ALIAS_COLUMNS)}; got {list(table.columns)}")
    if bad := sorted(set(table["kind"]) - {LINE, COLLECTION}):
        raise ValueError(f"dataset_aliases.csv: kind must be {LINE} or {COLLECTION}; got {bad}")
    if (table.groupby("alias")["kind"].nunique() > 1).any():
        raise ValueError("dataset_aliases.csv: an alias is given two kinds")
    return table


def dataset_aliases() -> dict[str, tuple[str, ...]]:
    """Names papers give a product that its short name does not contain, alias -> family names or shell patterns: a
    product ('ASTER GDEM' for ASTGTM), a product line that several collections share ('IMERG' for GPM_3IMERG*:
    half-hourly, daily and monthly, early, late and final runs) or an instrument's collection ('MODIS' for MOD*,
    MYD*, MCD*). Source: `alias_table`."""
    table = alias_table()
    return {alias: tuple(group["family"]) for alias, group in table.groupby("alias", sort=False)}


# A CMR concept id ("C1598621096-GES_DISC"): a catalogue without a cmr_id column is keyed by them when its ids are.
_CONCEPT_ID = re.compile(r"^C\d+-[A-Z0-9_]+$")


class DatasetCatalogue:
    """The graph's Dataset nodes, indexed for detection: by canonical DOI, by version family, and by the words of each
    family's long names (CMR entry titles), which tell a product line's members apart.

    Args:
        datasets: one row per Dataset node with columns dataset_id, short_name, long_name, doi and optionally cmr_id
            (the `datasets` table's columns; missing values allowed; without cmr_id, a dataset_id that is a CMR
            concept id is taken as one, for the release dates of `stated_lifecycle`).
    """

    def __init__(self, datasets: pd.DataFrame) -> None:
        self.by_id: dict[str, _Known] = {}
        self.by_doi: dict[str, _Known] = {}
        self.by_family: dict[str, list[_Known]] = {}
        titles: dict[str, set[str]] = {}
        rows = datasets.copy()
        if "cmr_id" not in rows.columns:
            rows["cmr_id"] = [i if isinstance(i, str) and _CONCEPT_ID.match(i) else None for i in rows["dataset_id"]]
        families = []
        for row in rows.itertuples(index=False):
            short_name = row.short_name if isinstance(row.short_name, str) else ""
            parsed = parse_version(short_name, row.long_name, row.doi)
            families.append(parsed.family)
            readings = version_readings(parsed.version_text) if parsed.version_text else ()
            known = _Known(row.dataset_id, parsed.family, parsed.version_text, parsed.sort_key, readings)
            self.by_id.setdefault(row.dataset_id, known)
            doi = canonical_doi(row.doi)
            if doi:
                self.by_doi.setdefault(doi, known)
            if parsed.family:
                self.by_family.setdefault(parsed.family, []).append(known)
                titles.setdefault(parsed.family, set()).update([row.long_name] if isinstance(row.long_name, str) else [])
        self._rows = rows.assign(family=families)[["dataset_id", "short_name", "long_name", "doi", "cmr_id", "family"]]
        # a product line's members named by the parameter code after the line's prefix (ML2* -> ML2IWC "IWC")
        codes: dict[str, set[str]] = {}
        for alias, group in alias_table().groupby("alias", sort=False):
            if (group["kind"] == LINE).all():
                for pattern in group["family"]:
                    for family, code in line_codes(pattern, self.by_family).items():
                        codes.setdefault(family, set()).add(code)
        self.vocabulary = TitleVocabulary(titles, codes)
        self._titles, self._codes = titles, codes
        self._species: dict[str, tuple[dict[str, tuple[str, ...]], dict[str, str]]] = {}
        # Each name papers use -> the families it may stand for: one for a product, several for a product line.
        self.members: dict[str, list[str]] = {family: [family] for family in self.by_family}
        self.kind: dict[str, str] = {}
        self.patterns: dict[str, tuple[str, ...]] = {}
        names = {variant: family for family in self.by_family for variant in _name_variants(family)}
        aliases = alias_table()
        for alias, group in aliases.groupby("alias", sort=False):
            members = sorted({family for family in self.by_family for pattern in group["family"] if fnmatchcase(family, pattern)})
            if members:
                self.members[alias] = members
                self.kind[alias] = group["kind"].iloc[0]
                self.patterns[alias] = tuple(group["family"])
                names[alias] = alias
        self.by_key = {name_key(name): target for name, target in names.items()}
        self.spellings: dict[str, set[str]] = {}
        for name in names:
            self.spellings.setdefault(name_key(name), set()).add(re.sub(r"[\s_\-]+", "", name))
        self._longest = max((len(re.split(r"[\s_\-]+", name)) for name in names), default=1)
        self._lineage: dict[tuple[str, tuple[int, ...]], dict] = {}

    def species(self, name: str) -> tuple[dict[str, tuple[str, ...]], dict[str, str]]:
        """The words that name each member of product line `name` (a LINE alias) alone: ({family: its parameter name,
        `dataset_names.parameter_names` of the members' entry titles}, {family: its parameter code, `line_codes`});
        variant streams left out (`without_variants`). ({}, {}) for any other name. Cached."""
        if name not in self._species:
            members = without_variants(self.members.get(name, [])) if self.kind.get(name) == LINE else []
            titles = {f: sorted(self._titles[f])[0] for f in members if self._titles.get(f)}
            codes = {f: sorted(self._codes[f])[0] for f in members if self._codes.get(f)}
            self._species[name] = (parameter_names(titles), codes)
        return self._species[name]

    def default_product(self, candidates: Sequence[str]) -> list[str]:
        """The candidates a paper means when its words leave several members of one product line and name neither a
        special product nor an instrument combination. First, of those, the ones whose entry titles call them the
        line's standard product (`dataset_names.STANDARD_WORD`: "Daily Standard Physical Retrieval", not the "Support
        Product", "CO2 in the free troposphere" or "Quantization" ones), when some but not all are. Then, for each
        product left, of its streams that differ only by their instrument combination (`dataset_names.product_tokens`
        equal over every title of the family, `combination` different: AIRS3STD "(AIRS-only)", AIRX3STD
        "(AIRS+AMSU)", AIRH3STD "(AIRS+AMSU+HSB)"), the one in `STANDARD_COMBINATIONS`. Words that named a support
        product or "AIRS-only" have already narrowed the candidates (`TitleVocabulary.narrow`), so neither default
        overrules them. Several products left (Level 2 and Level 3, daily and monthly) stay several: the paper does
        not say which. Only lines whose titles say so are touched (in the CMR extract: AIRS)."""
        left = list(candidates)
        standard = [f for f in left if any(STANDARD_WORD in canonical_tokens(t) for t in self._titles.get(f, ()))]
        if standard and len(standard) < len(left):
            left = standard
        if len(left) > 1:
            # the tokens all of a family's titles share (a family may hold its near-real-time records' titles too)
            keys = {f: frozenset.intersection(*(product_tokens(t, f) for t in self._titles[f])) if self._titles.get(f) else frozenset() for f in left}
            streams = {f: {combination(t) for t in self._titles.get(f, ())} for f in left}
            kept = []
            for key in dict.fromkeys(keys.values()):
                product = [f for f in left if keys[f] == key]
                chosen = [f for f in product if streams[f] <= STANDARD_COMBINATIONS]
                one_each = all(len(streams[f]) == 1 and None not in streams[f] for f in product)
                kept += chosen if len(product) > 1 and one_each and len(chosen) == 1 else product
            left = [f for f in left if f in kept]
        return left

    def held(self, family: str) -> list[tuple[int, ...]]:
        """The version keys a stated version may name among `family`'s Dataset nodes: each node's `version_readings`
        (HALOE's "V019" is 1.9 or 19); [] for a family the graph lacks."""
        return [key for known in self.by_family.get(family, ()) for key in known.readings]

    def family_rows(self, family: str) -> pd.DataFrame:
        """The family's Dataset nodes: columns dataset_id, short_name, long_name, doi, cmr_id."""
        return self._rows[self._rows["family"] == family].drop(columns="family")

    def stated_lineage(self, family: str, stated: str) -> dict:
        """`stated_lifecycle.stated_version_lineage` of a version of `family` the graph lacks (cached per family and
        version key)."""
        key = (family, stated_sort_key(stated))
        if key not in self._lineage:
            self._lineage[key] = stated_version_lineage(self.family_rows(family), family, stated)
        return self._lineage[key]

    def mentions(self, text: str):
        """Yield (name, start, end) for each product or product-line name of the graph in `text` (name a key of
        `members`: a family or an alias), the longest first where two
        overlap. Names are compared without case and separators ("trmm 3b42" = "TRMM_3B42" = "TRMM-3B42"), over
        runs of words joined by one space, underscore or hyphen; a run without a digit is no name when it is one word
        neither in capitals nor spelt as the name is, or several without a capital (`_written_as_name`: "Grace" is a
        word, "GRACE" the dataset), and neither is a run of several words that begins inside a hyphenated word
        ("ERA5-Land SAT" is no "Landsat")."""
        tokens = list(_TOKEN.finditer(text))
        index = 0
        while index < len(tokens):
            for size in range(min(self._longest, len(tokens) - index), 0, -1):
                run = tokens[index : index + size]
                if any(b.start() - a.end() != 1 or text[a.end()] not in " _-" for a, b in zip(run, run[1:])):
                    continue
                begin = run[0].start()
                if size > 1 and begin >= 2 and text[begin - 1] == "-" and text[begin - 2].isalnum() and " " in text[begin : run[-1].end()]:
                    continue
                key = "".join(t.group(0) for t in run).upper()
                end = run[-1].end()
                family = self.by_key.get(key)
                glued = None if family else _GLUED_VERSION.fullmatch(key)
                if glued and any(c.isdigit() for c in glued.group(1)) and glued.group(1) in self.by_key:
                    # "3B42V7": the name with its version glued on; the version is read after `end`.
                    family, end = self.by_key[glued.group(1)], end - len(glued.group(2))
                if family and _written_as_name(text[begin:end], self.spellings.get(key, set())):
                    yield family, begin, end
                    index += size
                    break
            else:
                index += 1


_TOKEN = re.compile(r"[A-Za-z0-9]+")


def _written_as_name(written: str, spellings: set[str]) -> bool:
    """Whether text that matches a name without case is the name, not a word: it holds a digit ("trmm 3b42"); or, one
    word, it is in capitals ("GRACE", "LANDSAT") or spelt as the name is ("Landsat"); or, several words, one has a
    capital ("MODIS snow cover", "Land SAT"). "grace", and "Grace" or "Ceres" opening a sentence, are words, not the
    GRACE and CERES datasets."""
    if any(c.isdigit() for c in written):
        return True
    if re.search(r"[\s_\-]", written):
        return any(c.isupper() for c in written)
    return written.isupper() or written in spellings


# A name with a digit and its version glued on ("3B42V7"): the version is the key's end, read by one scan (the name's
# digit is checked apart; "(.*\d.*?)" here took 1.2 s for a 20,000-character token, quadratic).
_GLUED_VERSION = re.compile(r"(.*?)(V\d{1,3}[A-Z]?)")


def _name_variants(family: str) -> set[str]:
    """A family's names as papers write them: the short name, and its product part after a mission prefix when that
    part is distinctive (letters and digits, four characters or more: TRMM_3B42 -> 3B42, GPM_3IMERGDF -> 3IMERGDF)."""
    variants = {family}
    if "_" in family:
        product = family.split("_", 1)[1]
        if len(product) >= 4 and re.search(r"\d", product) and re.search(r"[A-Za-z]", product):
            variants.add(product)
    return {v for v in variants if len(v) >= 4 or re.search(r"\d", v)}


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
    return list(matches.values()), [_with_lifecycle(u, catalogue) for u in unmatched.values()]


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


def _with_lifecycle(mention: UnmatchedMention, catalogue: DatasetCatalogue) -> UnmatchedMention:
    """A graph family's version the graph lacks, with its lifecycle (`DatasetCatalogue.stated_lineage`); a version no
    record attests (`stated_lifecycle`: known False, superseded None) keeps its status unknown (superseded None) with
    the lineage's statement ("version not known to the catalogue; the family's current version is <V>")."""
    if mention.family not in catalogue.by_family or mention.stated_version is None or not stated_sort_key(mention.stated_version):
        return mention
    lineage = catalogue.stated_lineage(mention.family, mention.stated_version)
    if lineage.get("known") is False and lineage["superseded"] is None:
        line = f"uses {mention.family} {mention.stated_version} (a version the graph lacks): {lineage['statement']}"
        return replace(mention, superseded=None, lifecycle=line)
    used = DatasetMatch("", mention.family, f"{mention.stated_version} (a version the graph lacks)", NAME_AND_VERSION, mention.stated_version, mention.quote, mention.page)
    return replace(mention, superseded=bool(lineage["superseded"]), lifecycle=lifecycle_statement(used, lineage))


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


def lifecycle_statement(match: DatasetMatch, lineage: dict) -> str:
    """One line on a used dataset's lifecycle, e.g. "uses TRMM_3B42 V7: replaced by GPM_3IMERGHH (now V07) (since 2019,
    on the authority of curated)", a successor line named with its version now (the date is the line's), or "uses
    MYD11A1 5: replaced by MYD11A1 V006 (...)" within a family, "replaced by MYD11A1 V006 (now V061) (...)" when the
    lineage gives the line's current version and the successor is no longer it, or "uses MOD13Q1 061: current"; the
    authority in words (`authority_words`): an
    inferred succession says it is inferred from the version order, no notice recorded (DOMAIN.md "Dataset
    lifecycle"); a date known only by its first record says so ("on an unknown date, on record by 2021-02-04").

    Args:
        match: the dataset the paper uses.
        lineage: its `dataset_lineage` row as a mapping (superseded, successor_family, successor_version,
            superseded_since, succession_basis, and optionally current_version: the version that ends the
            successor's chain in its family, as `stated_lifecycle.stated_version_lineage` gives it); None or {} when
            the lineage has no row for it.
    """
    used = f"uses {match.family} {match.version or '(no version)'}"
    if not lineage:
        return f"{used}: lifecycle unknown (no dataset_lineage row)"
    if not lineage.get("superseded"):
        return f"{used}: current"
    family, version, current = lineage.get("successor_family"), lineage.get("successor_version"), lineage.get("current_version")
    across = family and version and family != match.family  # new-user pass: "GPM_3IMERGHH V07 (since 2019" read as V07's date
    successor = f"{family} (now {version})" if across else " ".join(str(part) for part in (family, version) if part)
    if not across and family and version and current and current != version:
        # hostile pass: "replaced by MYD11A1 V006" while V006 was replaced by V061 left the current version unsaid
        successor = f"{successor} (now {current})"
    since = lineage.get("superseded_since")
    when = since_text(since).strip() if isinstance(since, str) and since else "since date unknown"
    return f"{used}: replaced by {successor or 'a successor'} ({when}, {authority_words(lineage.get('succession_basis'))})"


# dataset_lineage.succession_basis in words (DOMAIN.md "Dataset lifecycle": the archive's own record, a curated list
# with sources, or a succession inferred from version ordering, marked as inferred).
AUTHORITY_WORDS = {
    CMR_COLLECTION_PROGRESS: "on the authority of CMR's CollectionProgress",
    CURATED: "on the authority of curated",
    INFERRED: "inferred from the version order, no notice recorded",
}


def authority_words(basis: object) -> str:
    """The succession basis as the lifecycle line says it (AUTHORITY_WORDS); an unknown basis as "on the authority of
    <basis>", none as "authority not recorded"."""
    if not isinstance(basis, str) or not basis:
        return "authority not recorded"
    return AUTHORITY_WORDS.get(basis, f"on the authority of {basis}")
