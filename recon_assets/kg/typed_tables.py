"""Typed tables from the raw KG nodes and relationships: pure pandas transforms, no database.

Publications are merged by canonical DOI (nodes that differ only in DOI spelling are one publication);
a node without a DOI is a publication of its own, even when another DOI-less node has the same globalId (see
`publication_keys`). Every node id stays traceable through `node_ids`, gathered in DuckDB from the nodes'
publication keys (recon_assets/kg/sql/publication_rows.sql). Datasets are keyed here (`dataset_node_keys`) and
gathered into one row per key in DuckDB (recon_assets/kg/sql/dataset_rows.sql). The relationships between the typed rows
(dataset_publication_edges, publication_citations) are joined and grouped in DuckDB, through those `node_ids`
(recon_assets/kg/sql/dataset_publication_edges_rows.sql, kg_citation_pairs.sql, publication_citations_rows.sql).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

import pandas as pd

from recon_assets.kg.authors import author_names, citation_tag
from recon_assets.kg.doi import canonical_doi, doi_issue
from recon_assets.kg.research_areas import UNCLASSIFIED, research_area_slug
from recon_assets.kg.years import ParsedYear, parse_year

MISSING_TEXT = ("", "N/A")
_UNKNOWN_AREA = "not one of the 21 applied research areas"


def node_key(global_id: object, node_id: str) -> str:
    """Stable id of a node across snapshots: 'kg:<globalId>' (uuid5 of the DOI or short name), else 'kg-node:<id>'.

    The prefixes differ before any character of the id, so no globalId (not even 'node:d2') can produce the key
    of another node's id.
    """
    return f"kg:{global_id}" if isinstance(global_id, str) and global_id else f"kg-node:{node_id}"


@dataclass(frozen=True)
class _Unreadable:
    """A JSON property value Python cannot decode: `what` says why ('nested value', 'number too long')."""

    what: str


class MergedPublications(NamedTuple):
    """What `build_publications` gives: the publications' rows and the nodes merged into each."""

    rows: pd.DataFrame
    """One row per publication: the publications table's columns but node_ids, sorted by publication_id."""
    members: pd.DataFrame
    """One row per Publication node: publication_id, node_id, completeness (how many of title, abstract, year and
    authors it has, 0-4) and line_number; node_ids lists them most complete first, then in line order
    (recon_assets/kg/sql/publication_rows.sql)."""


def build_publications(nodes: pd.DataFrame, *, latest_year: int) -> MergedPublications:
    """One row per publication, and the nodes merged into each.

    Args:
        nodes: Publication nodes with columns node_id, line_number, global_id, doi_raw, title, year_json
            (the `year` property as JSON text), abstract, authors_json (JSON text), pagerank (float, may be NaN).
        latest_year: last acceptable publication year (the year after the snapshot was ingested).

    Returns:
        rows: columns publication_id (canonical DOI, else node_key: see `publication_keys`), doi, doi_raw, doi_issue
        (why doi is NULL), title, year (Int64), year_raw (the KG's text for a string, JSON text for any other value),
        year_issue, abstract, authors, first_author_tag, pagerank, sorted by publication_id; members: see
        `MergedPublications`.
    """
    frame = nodes.copy()
    frame["doi"] = frame["doi_raw"].map(canonical_doi)
    frame["doi_issue"] = frame["doi_raw"].map(doi_issue)
    years = frame["year_json"].map(_json_value)
    parsed = [
        ParsedYear(None, f"not a year: {value.what}") if isinstance(value, _Unreadable) else parse_year(value, latest_year=latest_year)
        for value in years
    ]
    frame["year"] = pd.array([p.year for p in parsed], dtype="Int64")
    frame["year_issue"] = [p.issue for p in parsed]
    # A JSON null is as missing as an absent key: year_raw None, not the text 'null'.
    frame["year_raw"] = [
        value if isinstance(value, str) else None if value is None else text for value, text in zip(years, frame["year_json"])
    ]
    frame["abstract"] = frame["abstract"].where(~frame["abstract"].isin(MISSING_TEXT), None)
    frame["title"] = frame["title"].where(~frame["title"].isin(MISSING_TEXT), None)
    frame["authors"] = frame["authors_json"].map(lambda text: author_names(_json_value(text)))
    frame["publication_id"] = publication_keys(frame["doi"], frame["global_id"], frame["node_id"])
    # How many of title, abstract, year and authors the node has.
    frame["has_authors"] = frame["authors"].map(len) > 0
    frame["completeness"] = frame[["title", "abstract", "year"]].notna().sum(axis=1) + frame["has_authors"]
    frame = frame.sort_values(["publication_id", "completeness", "line_number"], ascending=[True, False, True])
    grouped = frame.groupby("publication_id", sort=True)
    # The most complete node speaks for the publication; text it lacks comes from the next node that has it.
    publications = grouped.head(1).set_index("publication_id")
    for column in ("title", "abstract"):
        publications[column] = grouped[column].first()
    # The year, its raw value and its issue travel together, from the node with the earliest parsable year
    # (an in-press copy of a paper often carries the next year).
    year_columns = ["publication_id", "year", "completeness", "line_number", "year_raw", "year_issue"]  # not the abstracts
    with_year = frame[year_columns].sort_values(year_columns[:4], ascending=[True, True, False, True])
    dated = with_year.dropna(subset=["year"]).groupby("publication_id").head(1).set_index("publication_id")
    publications.loc[dated.index, ["year", "year_raw", "year_issue"]] = dated[["year", "year_raw", "year_issue"]]
    # First non-empty author list in the group's order.
    named = frame[frame["has_authors"]].groupby("publication_id", sort=True)["authors"].first()
    publications["authors"] = [names if isinstance(names, list) else [] for names in named.reindex(publications.index)]
    publications["pagerank"] = grouped["pagerank"].max()
    publications = publications.reset_index()
    publications["first_author_tag"] = [
        citation_tag(authors, None if pd.isna(year) else int(year), doi if isinstance(doi, str) else publication_id,
                     title if isinstance(title, str) else None)
        for authors, year, doi, publication_id, title in zip(
            publications["authors"], publications["year"], publications["doi"], publications["publication_id"], publications["title"]
        )
    ]
    publications["authors"] = publications["authors"].map("; ".join).replace("", None)
    rows = publications[
        ["publication_id", "doi", "doi_raw", "doi_issue", "title", "year", "year_raw", "year_issue", "abstract", "authors",
         "first_author_tag", "pagerank"]
    ]
    return MergedPublications(rows, frame[["publication_id", "node_id", "completeness", "line_number"]].reset_index(drop=True))


def publication_keys(dois: pd.Series, global_ids: pd.Series, node_ids: pd.Series) -> list[str]:
    """publication_id of each Publication node: its canonical DOI; without one, `node_key` of its globalId, unless
    another DOI-less Publication node has the same globalId: then each of them is keyed by its node id.

    Why not merge them: the KG's globalId is uuid5(NAMESPACE_DNS, DOI) (dataset card of DOI 10.57967/hf/3463), so
    publications without a DOI can get the globalId of the same empty or placeholder DOI (uuid5 of "" is
    4ebd0208-8328-5d69-8c44-ec50939c0967); a globalId shared between DOI-less nodes identifies no paper. Merging kept only one node's title and year and scored the other's
    USES_DATASET edge as the first one's (issue 14). Kept apart, each keeps its own text and edges; two nodes that
    really are one paper without a DOI are then scored twice, which shows, where a merge lost one silently.

    Args:
        dois: canonical DOI per node (NaN/None without one); global_ids: the `globalId` property; node_ids: KG node ids.

    Returns:
        one id per node, in the input order.
    """
    # isinstance, not truthiness: DuckDB hands VARCHAR NULLs to pandas as NaN, which is truthy.
    without_doi = [not isinstance(doi, str) for doi in dois]
    global_id_counts = Counter(
        global_id for missing, global_id in zip(without_doi, global_ids) if missing and isinstance(global_id, str) and global_id
    )
    return [
        doi if not missing else node_key(None if global_id_counts.get(global_id, 0) > 1 else global_id, node_id)
        for doi, missing, global_id, node_id in zip(dois, without_doi, global_ids, node_ids)
    ]


def dataset_node_keys(nodes: pd.DataFrame) -> pd.DataFrame:
    """Each Dataset node with its dataset key (node_key) and canonical DOI, the KG's missing-text markers as None:
    the rows recon_assets/kg/sql/dataset_rows.sql gathers into one row per dataset (when the key repeats, each column
    takes the first non-missing value in line-number order).

    Args:
        nodes: Dataset nodes with columns node_id, line_number, global_id, doi_raw, short_name, long_name,
            cmr_id, daac, abstract, temporal_start, temporal_end, pagerank.

    Returns:
        columns dataset_id, node_id, line_number, doi (canonical), doi_raw, short_name, long_name, cmr_id, daac,
        abstract, temporal_start, temporal_end, pagerank; one row per node, in the input order.
    """
    frame = nodes.copy()
    frame["dataset_id"] = [node_key(g, n) for g, n in zip(frame["global_id"], frame["node_id"])]
    frame["doi"] = frame["doi_raw"].map(canonical_doi)
    for column in ("short_name", "long_name", "abstract", "cmr_id", "daac"):
        frame[column] = frame[column].where(~frame[column].isin(MISSING_TEXT), None)
    return frame[
        ["dataset_id", "node_id", "line_number", "doi", "doi_raw", "short_name", "long_name", "cmr_id", "daac", "abstract",
         "temporal_start", "temporal_end", "pagerank"]
    ]


def node_index(table: pd.DataFrame, id_column: str) -> pd.Series:
    """Map KG node id -> the typed table's id, from its `node_ids` lists."""
    exploded = table[[id_column, "node_ids"]].explode("node_ids")
    return pd.Series(exploded[id_column].to_numpy(), index=exploded["node_ids"].to_numpy())


def build_research_areas(areas: pd.DataFrame, publication_of: pd.Series, publication_ids: pd.Series) -> pd.DataFrame:
    """Every publication's applied research areas; a publication with none of the 21 gets one `unclassified` row.

    A name that is not one of the 21 never costs a publication its known areas: it is named in the `issue` of
    the publication's known-area rows ('also named X: not one of the 21 applied research areas'), or, when the
    publication has no known area, it is the unclassified row's research_area_name (further unknown names in
    its issue).

    Args:
        areas: HAS_APPLIEDRESEARCHAREA relationships with columns start_id (Publication node) and
            area_name (the ScienceKeyword `name`, e.g. 'AIR QUALITY').
        publication_ids: all publication ids.

    Returns:
        columns publication_id, research_area (slug or 'unclassified'), research_area_name (as in the KG,
        NULL for a publication linked to no area), issue (unknown area names met), distinct and sorted.
    """
    columns = ["publication_id", "research_area", "research_area_name", "issue"]
    frame = areas.assign(publication_id=areas["start_id"].map(publication_of), research_area=areas["area_name"].map(research_area_slug))
    frame = frame.rename(columns={"area_name": "research_area_name"}).sort_values(["publication_id", "research_area_name"])
    known = frame.dropna(subset=["research_area"]).drop_duplicates(["publication_id", "research_area"])
    unknown = frame[frame["research_area"].isna()].drop_duplicates(["publication_id", "research_area_name"])
    unknown_names = unknown.groupby("publication_id")["research_area_name"].agg(lambda names: [str(name) for name in names if isinstance(name, str)])
    known = known.assign(issue=known["publication_id"].map(lambda pid: _also_named(unknown_names.get(pid, []))))
    unclassified = pd.DataFrame({"publication_id": publication_ids[~publication_ids.isin(known["publication_id"])]})
    names = unclassified["publication_id"].map(lambda pid: unknown_names.get(pid))
    unclassified["research_area"] = UNCLASSIFIED
    unclassified["research_area_name"] = names.map(lambda found: found[0] if found else None)
    unclassified["issue"] = [
        None if found is None else _UNKNOWN_AREA + (f" (nor is {'; '.join(found[1:])})" if len(found) > 1 else "")
        for found in names
    ]
    combined = pd.concat([known[columns], unclassified[columns]], ignore_index=True)
    return combined.sort_values(columns[:2]).reset_index(drop=True)


def _also_named(unknown_names: list[str]) -> str | None:
    return f"also named {'; '.join(unknown_names)}: {_UNKNOWN_AREA}" if unknown_names else None


def _json_value(text: object) -> object:
    """Decode a JSON-text property value as DuckDB returns it (`properties->'year'`); None stays None.

    Returns `_Unreadable` for what DuckDB stores but Python cannot decode: arrays nested past the recursion
    limit (RecursionError; MemoryError in some builds) and integers over 4300 digits (ValueError, CPython's
    int_max_str_digits).
    """
    if text is None or (isinstance(text, float) and pd.isna(text)):
        return None
    try:
        return json.loads(text)
    except (RecursionError, MemoryError):
        return _Unreadable("nested value")
    except ValueError:
        return _Unreadable("number too long")
