"""The graph's Dataset nodes as paper dataset detection reads them (`DatasetCatalogue`): by canonical DOI, by version
family, by the names papers give them (short names, their product part after a mission prefix, and the aliases of
`dataset_aliases`), and by the words of each family's CMR entry titles, which tell a product line's members apart.

Versions are read and compared with the lifecycle's own parser (`recon_assets.lifecycle.versions`): a graph
dataset's family and version come from `parse_version` (short name, long name, DOI), a version stated in the paper
("V7", "version 7", "Collection 5", "C6.1", "MOD13Q1.006") through `version_sort_key`, so "Collection 5" is the
graph's "005" and "6.1" its "061".
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from importlib import resources

import pandas as pd

from recon_assets.kg.doi import canonical_doi
from recon_assets.lifecycle.versions import parse_version, version_readings
from recon_assets.papers.dataset_names import (
    STANDARD_COMBINATIONS, STANDARD_WORD, TitleVocabulary, canonical_tokens, combination, line_codes, parameter_names, product_tokens,
)
from recon_assets.papers.name_readings import without_variants
from recon_assets.papers.phrases import COLLECTION, LINE, name_key, stated_sort_key
from recon_assets.papers.stated_lifecycle import stated_version_lineage


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


# One word of an entry title as `DatasetCatalogue.leading_words` reads it: a run of letters, digits, "-" and "+"
# ("NOAA-9", "SBUV2", "AIRS+AMSU"); "/" and spaces part words.
_TITLE_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9+\-]*")


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
        # The capitalised words an entry title opens with, as written ("SORCE SOLSTICE FUV Level 3 ...", "SBUV2/NOAA-9
        # Level 2 ...", "MLS/Aura ..." -> SORCE, SOLSTICE, FUV; SBUV2, NOAA-9; MLS): CMR titles name the mission,
        # instrument and platform first, so these are names, not common words ("Results", "USA" later in a title).
        leading: dict[str, set[str]] = {}
        for family, written in titles.items():
            for title in written:
                for word in _TITLE_WORD.findall(title):
                    if not (word[:1].isalpha() and word.isupper()):
                        break
                    leading.setdefault(word, set()).add(family)
        self.leading_words = {word: frozenset(families) for word, families in leading.items()}
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
