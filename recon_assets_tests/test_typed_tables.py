"""Typed tables built from kg_nodes / kg_relationships rows as the real SQL (recon_assets/kg/sql/*_nodes.sql) hands them to pandas."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest

from recon_assets.kg.assets import store_datasets, store_publications
from recon_assets.kg.ingest import ingest_export
from recon_assets.kg.typed_tables import (
    build_publications,
    build_research_areas,
    node_index,
)
from recon_assets.shared.sql_files import load_sql
from recon_assets.storage.tables import replace_table, replace_table_from_query

LATEST = 2027
RS = "10.3390/rs12081239"


def typed_nodes(label: str, sql: str, nodes: list[tuple[str, dict]]) -> pd.DataFrame:
    """Run recon_assets/kg/sql/<sql>.sql over kg_nodes holding `nodes` (id, properties), lines numbered from 1: DuckDB's real dtypes (NULL -> NaN)."""
    with duckdb.connect() as con:
        con.execute(load_sql("kg_snapshot"))
        rows = [(node_id, number, [label], json.dumps(properties)) for number, (node_id, properties) in enumerate(nodes, start=1)]
        if rows:  # executemany refuses an empty list
            con.executemany("INSERT INTO kg_nodes VALUES (?, ?, ?, ?)", rows)
        return con.execute(load_sql(sql)).df()


def publications(*nodes: tuple[str, dict]) -> pd.DataFrame:
    """The publications table `store_publications` writes from `nodes`, read back."""
    with duckdb.connect() as con:
        store_publications(con, typed_nodes("Publication", "publication_nodes", list(nodes)), latest_year=LATEST)
        return con.execute("SELECT * FROM publications").df()


def datasets(nodes: list[tuple[str, dict]]) -> pd.DataFrame:
    """The datasets table `store_datasets` writes from Dataset `nodes`, read back."""
    with duckdb.connect() as con:
        store_datasets(con, typed_nodes("Dataset", "dataset_nodes", nodes))
        return con.execute("SELECT * FROM datasets").df()


def records(frame: pd.DataFrame, columns: list[str]) -> list[dict]:
    """Rows as plain dicts with every missing value (None, NaN, pd.NA) as None and every list (DuckDB gives arrays) a list."""
    def plain(value: object) -> object:
        if isinstance(value, (list, np.ndarray)):
            return list(value)
        return None if pd.isna(value) else value
    return [{c: plain(v) for c, v in row.items()} for row in frame[columns].to_dict("records")]


FULL = {"title": "Gold in Egypt", "abstract": "We map.", "year": "2020", "authors": ["Pour, Amin", "Zoheir, Basem"], "pagerank_publication_dataset": 0.3}


@pytest.mark.parametrize(
    ("nodes", "expected"),
    [
        pytest.param(
            [("1", {"doi": "10.3390/RS12081239", "title": "Gold", "abstract": "N/A", "pagerank_publication_dataset": 0.2}),
             ("2", {"doi": "https://doi.org/10.3390/rs12081239", **FULL})],
            [{"publication_id": RS, "doi": RS, "doi_raw": "https://doi.org/10.3390/rs12081239", "title": "Gold in Egypt",
              "abstract": "We map.", "year": 2020, "authors": "Pour, Amin; Zoheir, Basem", "first_author_tag": "[Pour et al., 2020]",
              "pagerank": 0.3, "node_ids": ["2", "1"]}],
            id="DOI spellings merge; the most complete node speaks; highest PageRank",
        ),
        pytest.param(
            [("1", {"DOI": RS, **FULL, "abstract": "N/A"}), ("2", {"doi": RS.upper(), "abstract": "Filled in."})],
            [{"publication_id": RS, "doi": RS, "doi_raw": RS, "title": "Gold in Egypt", "abstract": "Filled in.", "year": 2020,
              "authors": "Pour, Amin; Zoheir, Basem", "first_author_tag": "[Pour et al., 2020]", "pagerank": 0.3, "node_ids": ["1", "2"]}],
            id="text the most complete node lacks comes from the other; DOI key spelled DOI",
        ),
        pytest.param(
            [("1", {"globalId": "g-1", "title": "", "abstract": "N/A", "authors": "", "year": "2019"}),
             ("2", {"doi": "N/A", "title": "Untitled?"}),
             ("3", {"doi": "not a doi", "title": "Bad DOI"}),
             ("4", {"doi": "10.1000/a"})],  # DuckDB hands the NULL DOIs beside a real one to pandas as NaN
            [{"publication_id": "10.1000/a", "doi": "10.1000/a", "doi_raw": "10.1000/a", "title": None, "abstract": None, "year": None,
              "authors": None, "first_author_tag": "[10.1000/a, n.d.]", "pagerank": None, "node_ids": ["4"]},
             {"publication_id": "kg-node:2", "doi": None, "doi_raw": "N/A", "title": "Untitled?", "abstract": None, "year": None,
              "authors": None, "first_author_tag": '["Untitled?", n.d.]', "pagerank": None, "node_ids": ["2"]},
             {"publication_id": "kg-node:3", "doi": None, "doi_raw": "not a doi", "title": "Bad DOI", "abstract": None, "year": None,
              "authors": None, "first_author_tag": '["Bad DOI", n.d.]', "pagerank": None, "node_ids": ["3"]},
             {"publication_id": "kg:g-1", "doi": None, "doi_raw": None, "title": None, "abstract": None, "year": 2019,
              "authors": None, "first_author_tag": "[kg:g-1, 2019]", "pagerank": None, "node_ids": ["1"]}],
            # no author: a title cites the paper, else its DOI, else its publication id (issue 21)
            id="no DOI: kg:<globalId>, else kg-node:<id>; '' and 'N/A' are NULL",
        ),
        pytest.param(
            [("1", {"doi": "10.1000/a", "authors": "['Wei, Haohan', 'Yu, Tongning']", "year": 2023})],
            [{"publication_id": "10.1000/a", "doi": "10.1000/a", "doi_raw": "10.1000/a", "title": None, "abstract": None, "year": 2023,
              "authors": "Wei, Haohan; Yu, Tongning", "first_author_tag": "[Wei et al., 2023]", "pagerank": None, "node_ids": ["1"]}],
            id="stringified author list, numeric year",
        ),
        pytest.param(
            [("1", {"doi": "", "DOI": "10.1000/A"}), ("2", {"doi": " ", "DOI": "10.1000/B"}), ("3", {"doi": "n/a", "DOI": "10.1000/C"}),
             ("4", {"doi": "10.1000/D", "DOI": "10.1000/other"}), ("5", {"doi": "", "DOI": "N/A"})],
            [{"publication_id": "10.1000/a", "doi": "10.1000/a", "doi_raw": "10.1000/A"},
             {"publication_id": "10.1000/b", "doi": "10.1000/b", "doi_raw": "10.1000/B"},
             {"publication_id": "10.1000/c", "doi": "10.1000/c", "doi_raw": "10.1000/C"},
             {"publication_id": "10.1000/d", "doi": "10.1000/d", "doi_raw": "10.1000/D"},
             {"publication_id": "kg-node:5", "doi": None, "doi_raw": ""}],
            id="an empty or N/A doi does not hide a DOI; doi wins when both are set",
        ),
        pytest.param(
            [("d2", {"doi": "N/A"}), ("d3", {"globalId": "node:d2"})],
            [{"publication_id": "kg-node:d2", "node_ids": ["d2"]}, {"publication_id": "kg:node:d2", "node_ids": ["d3"]}],
            id="a node-based id never collides with a globalId-based one",
        ),
        pytest.param(
            [("1", {"doi": "10.1000/a", "year": "[" * 1500 + "]" * 1500, "authors": "[" * 1500 + "]" * 1500})],
            [{"publication_id": "10.1000/a", "year": None, "year_issue": "not a year: '" + "[" * 40 + "'", "authors": None,
              "first_author_tag": "[10.1000/a, n.d.]"}],
            id="deeply nested strings",
        ),
    ],
)
def test_build_publications(nodes: list[tuple[str, dict]], expected: list[dict]) -> None:
    assert records(publications(*nodes), list(expected[0])) == expected


@pytest.mark.parametrize(
    ("years", "year", "year_raw", "year_issue"),
    [
        # The most complete node has no usable year: year, raw value and issue all come from the node that has one.
        (["2019a", "2018"], 2018, "2018", None),
        (["2018", "2019a"], 2018, "2018", None),
        # Two usable years: the earliest (an in-press node often carries the next year).
        (["2021", "2020"], 2020, "2020", None),
        # None usable: raw value and issue of the most complete node, never mixed with another node's.
        (["2019a", "XIII"], None, "2019a", "not a year: '2019a'"),
        ([None, None], None, None, "missing"),
        (["[1988]", None], 1988, "[1988]", None),
        ([2099, None], None, "2099", "after 2027, the year after the snapshot was ingested: 2099"),
    ],
)
def test_year_travels_with_its_raw_value_and_issue(years: list, year: int | None, year_raw: str | None, year_issue: str | None) -> None:
    complete, sparse = years
    frame = publications(("1", {"doi": RS, **FULL, "year": complete}), ("2", {"doi": RS.upper(), "year": sparse}))

    assert records(frame, ["year", "year_raw", "year_issue"]) == [{"year": year, "year_raw": year_raw, "year_issue": year_issue}]


NESTED = json.loads("[" * 900 + "]" * 900)  # deepest Python decodes; DuckDB stores deeper, see below


@pytest.mark.parametrize(
    ("value", "year", "year_raw", "year_issue", "authors"),
    [
        ("2019", 2019, "2019", None, "2019"),
        (2019, 2019, "2019", None, None),
        (True, None, "true", "not a year: True", None),  # year_raw is JSON text, never a Python repr
        ([2019], 2019, "[2019]", None, None),  # a one-element list is its year (issue 14), its raw text kept
        ([2019, 2020], None, "[2019,2020]", "not a year: list of 2", None),
        ({"y": 2019}, None, '{"y":2019}', "not a year: object", None),
        (NESTED, None, "[" * 900 + "]" * 900, "not a year: list", None),
        ("RAW:" + "[" * 1500 + "]" * 1500, None, "[" * 1500 + "]" * 1500, "not a year: nested value", None),  # json.loads: RecursionError
        ("RAW:" + "2" * 5000, None, "2" * 5000, "not a year: number too long", None),  # json.loads: ValueError (int_max_str_digits)
    ],
)
def test_json_values_of_any_shape(value: object, year: int | None, year_raw: str, year_issue: str | None, authors: str | None) -> None:
    """`value` is both the year and the authors. Values marked RAW: go as JSON text straight into kg_nodes (Python's json
    cannot read them back)."""
    text = value.removeprefix("RAW:") if isinstance(value, str) and value.startswith("RAW:") else json.dumps(value, separators=(",", ":"))
    with duckdb.connect() as con:
        con.execute(load_sql("kg_snapshot"))
        con.execute("INSERT INTO kg_nodes VALUES ('1', 1, ['Publication'], ?)", [f'{{"doi":"{RS}","year":{text},"authors":{text}}}'])
        frame = build_publications(con.execute(load_sql("publication_nodes")).df(), latest_year=LATEST).rows

    assert records(frame, ["year", "year_raw", "year_issue", "authors"]) == [
        {"year": year, "year_raw": year_raw, "year_issue": year_issue, "authors": authors}
    ]


def ingested_publications(tmp_path: Path, name: str, content: str) -> pd.DataFrame:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with duckdb.connect() as con:
        ingest_export(con, path, "test")
        return build_publications(con.execute(load_sql("publication_nodes")).df(), latest_year=LATEST).rows


# Bare Infinity, -Infinity and NaN are not JSON (RFC 8259 section 6), and 1e400 is beyond a 64-bit float: such a line
# is rejected to kg_rejects whole (issue 24; test_ingest holds it), so only finite values reach the typed tables.
@pytest.mark.parametrize("pagerank", ['"inf"', '"nan"', '"-inf"', "0", "-0.5", "true", '"abc"', "[0.5]"])
def test_non_finite_json_pagerank_is_missing_end_to_end(tmp_path: Path, pagerank: str) -> None:
    content = f'{{"type":"node","id":"1","labels":["Publication"],"properties":{{"doi":"{RS}","pagerank_global":{pagerank}}}}}\n'

    frame = ingested_publications(tmp_path, "graph.json", content)

    assert records(frame, ["publication_id", "pagerank"]) == [{"publication_id": RS, "pagerank": None}]


def graphml_publications(pagerank: str) -> str:
    return (
        '<?xml version="1.0"?>\n<graphml xmlns="http://graphml.graphdrawing.org/xmlns">\n'
        '<key id="pr" for="node" attr.name="pagerank_publication_dataset" attr.type="double"/>\n<graph>\n'
        f'<node id="1" labels=":Publication"><data key="pr">{pagerank}</data></node>\n'
        f'<node id="2" labels=":Publication"><data key="pr">0.25</data></node>\n</graph>\n</graphml>\n'
    )


@pytest.mark.parametrize("pagerank", ["abc", ""])
def test_a_graphml_pagerank_that_is_not_a_number_is_missing_end_to_end(tmp_path: Path, pagerank: str) -> None:
    frame = ingested_publications(tmp_path, "graph.graphml", graphml_publications(pagerank))

    assert records(frame, ["publication_id", "pagerank"]) == [
        {"publication_id": "kg-node:1", "pagerank": None}, {"publication_id": "kg-node:2", "pagerank": 0.25},
    ]


@pytest.mark.parametrize("pagerank", ["inf", "-inf", "nan", "INF", "NaN", "1e400"])
def test_a_non_finite_graphml_pagerank_rejects_its_node_end_to_end(tmp_path: Path, pagerank: str) -> None:
    """xs:double's INF, -INF and NaN (and 1e400, infinite as a double) reject the element to kg_rejects, as a JSON
    line holding them is (test_ingest): the publication never reaches the typed tables, its neighbour does."""
    frame = ingested_publications(tmp_path, "graph.graphml", graphml_publications(pagerank))

    assert records(frame, ["publication_id", "pagerank"]) == [{"publication_id": "kg-node:2", "pagerank": 0.25}]


def test_a_json_pagerank_beyond_a_64_bit_float_rejects_its_node_end_to_end(tmp_path: Path) -> None:
    content = f'{{"type":"node","id":"1","labels":["Publication"],"properties":{{"doi":"{RS}","pagerank_global":1e400}}}}\n'
    content += '{"type":"node","id":"2","labels":["Publication"],"properties":{"doi":"10.1000/b","pagerank_global":0.25}}\n'

    frame = ingested_publications(tmp_path, "graph.json", content)

    assert records(frame, ["publication_id", "pagerank"]) == [{"publication_id": "10.1000/b", "pagerank": 0.25}]


def test_no_publication_nodes() -> None:
    frame = publications()

    assert frame.empty
    assert list(frame.columns) == [
        "publication_id", "doi", "doi_raw", "doi_issue", "title", "year", "year_raw", "year_issue", "abstract", "authors",
        "first_author_tag", "pagerank", "node_ids",
    ]


def test_dataset_doi_and_ids() -> None:
    frame = datasets(
        [("d1", {"doi": "", "DOI": "10.5067/A"}), ("d2", {"doi": "10.5067/B"}), ("d3", {"globalId": "node:d2", "doi": "10.5067/C"})],
    )

    assert records(frame, ["dataset_id", "doi", "doi_raw", "node_ids"]) == [
        {"dataset_id": "kg-node:d1", "doi": "10.5067/a", "doi_raw": "10.5067/A", "node_ids": ["d1"]},
        {"dataset_id": "kg-node:d2", "doi": "10.5067/b", "doi_raw": "10.5067/B", "node_ids": ["d2"]},
        {"dataset_id": "kg:node:d2", "doi": "10.5067/c", "doi_raw": "10.5067/C", "node_ids": ["d3"]},  # was merged with d2
    ]


def test_store_datasets_takes_each_columns_first_value_in_line_order() -> None:
    frame = datasets(
        [
            ("10", {"globalId": "g-airs", "doi": "10.5067/AQUA/AIRS/DATA201", "shortName": "AIRS2RET", "longName": "N/A",
                    "temporalExtentStart": "", "pagerank_global": 0.4}),
            ("11", {"globalId": "g-airs", "shortName": "AIRS2RET", "longName": "AIRS/Aqua L2 V006", "daac": "GES_DISC"}),
            ("12", {"shortName": "GPM_3IMERGDF", "longName": "GPM IMERG Final V07", "temporalExtentStart": "2000-06-01"}),
        ],
    )

    assert records(frame, ["dataset_id", "doi", "short_name", "long_name", "daac", "temporal_start", "pagerank", "node_ids"]) == [
        {"dataset_id": "kg-node:12", "doi": None, "short_name": "GPM_3IMERGDF", "long_name": "GPM IMERG Final V07",
         "daac": None, "temporal_start": "2000-06-01", "pagerank": None, "node_ids": ["12"]},
        {"dataset_id": "kg:g-airs", "doi": "10.5067/aqua/airs/data201", "short_name": "AIRS2RET", "long_name": "AIRS/Aqua L2 V006",
         "daac": "GES_DISC", "temporal_start": None, "pagerank": 0.4, "node_ids": ["10", "11"]},
    ]


@pytest.fixture
def merged() -> pd.DataFrame:
    """Nodes 1 and 2 are one publication (RS, two DOI spellings); 3 and 4 are publications of their own."""
    return publications(
        ("1", {"doi": "10.3390/RS12081239", **FULL}),
        ("2", {"doi": "https://doi.org/10.3390/rs12081239"}),
        ("3", {"doi": "10.1000/b"}),
        ("4", {"globalId": "g-4"}),
    )


def test_node_index(merged: pd.DataFrame) -> None:
    assert node_index(merged, "publication_id").to_dict() == {"1": RS, "2": RS, "3": "10.1000/b", "4": "kg:g-4"}


def typed_kg(publication_rows: pd.DataFrame, relationships: list[tuple[str, str, str, str]]) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB holding the typed `publication_rows`, datasets kg:airs (nodes 10, 11) and kg:gpm (node 12), and
    kg_relationships `relationships` (id, type, start node, end node), lines numbered from 1."""
    con = duckdb.connect()
    con.execute(load_sql("kg_snapshot"))
    rows = [(rid, number, rel_type, start, end) for number, (rid, rel_type, start, end) in enumerate(relationships, start=1)]
    con.executemany("INSERT INTO kg_relationships VALUES (?, ?, ?, ?, ?, '{}')", rows)
    replace_table(con, "publications", publication_rows)
    dataset_nodes = [("10", {"globalId": "airs"}), ("11", {"globalId": "airs"}), ("12", {"globalId": "gpm"})]
    store_datasets(con, typed_nodes("Dataset", "dataset_nodes", dataset_nodes))
    return con


def test_dataset_publication_edges_rows(merged: pd.DataFrame) -> None:
    uses = [("r2", "USES_DATASET", "2", "10"), ("r1", "USES_DATASET", "1", "10"), ("r3", "USES_DATASET", "1", "12"),
            ("r4", "USES_DATASET", "3", "11"), ("c1", "CITES", "4", "3")]
    with typed_kg(merged, uses) as con:
        replace_table_from_query(con, "dataset_publication_edges", "dataset_publication_edges_rows")
        edges = con.execute("SELECT * FROM dataset_publication_edges").fetchall()

    assert edges == [
        ("kg:airs", "10.1000/b", ["r4"]),
        ("kg:airs", RS, ["r1", "r2"]),  # merged publication: one edge
        ("kg:gpm", RS, ["r3"]),
    ]


def test_publication_citations_rows(merged: pd.DataFrame) -> None:
    cites = [("c1", "CITES", "1", "2"), ("c2", "CITES", "3", "1"), ("c3", "CITES", "3", "2"), ("c4", "CITES", "4", "3"),
             ("r1", "USES_DATASET", "1", "10")]
    with typed_kg(merged, cites) as con:
        con.execute(load_sql("kg_citation_pairs"))
        replace_table_from_query(con, "publication_citations", "publication_citations_rows")
        citations = con.execute("SELECT * FROM publication_citations").fetchall()
        pairs = con.execute("SELECT relationship_id, citing_publication_id, cited_publication_id FROM kg_citation_pairs ORDER BY 1").fetchall()

    assert ("c1", RS, RS) in pairs and len(pairs) == 4  # 1 -> 2 became RS -> RS after the merge: a self-citation, left out
    assert citations == [("10.1000/b", RS, ["c2", "c3"]), ("kg:g-4", "10.1000/b", ["c4"])]


def test_build_research_areas(merged: pd.DataFrame) -> None:
    areas = pd.DataFrame(
        [("1", "AIR QUALITY"), ("2", "AIR QUALITY"), ("3", "ATMOSPHERIC/OCEAN INDICATORS"), ("3", "PRECIPITATION"),
         ("3", "BASKET WEAVING"), ("3", "AGRICULTURE"), ("2", "PRECIPITATION")],
        columns=["start_id", "area_name"],
    )

    frame = build_research_areas(areas, node_index(merged, "publication_id"), merged["publication_id"])

    # A publication with a known area is never also unclassified; the unknown names it carries are named on its rows.
    unknown_b = "also named BASKET WEAVING; PRECIPITATION: not one of the 21 applied research areas"
    assert records(frame, ["publication_id", "research_area", "research_area_name", "issue"]) == [
        {"publication_id": "10.1000/b", "research_area": "agriculture", "research_area_name": "AGRICULTURE", "issue": unknown_b},
        {"publication_id": "10.1000/b", "research_area": "atmospheric_ocean_indicators",
         "research_area_name": "ATMOSPHERIC/OCEAN INDICATORS", "issue": unknown_b},
        {"publication_id": RS, "research_area": "air_quality", "research_area_name": "AIR QUALITY",
         "issue": "also named PRECIPITATION: not one of the 21 applied research areas"},
        {"publication_id": "kg:g-4", "research_area": "unclassified", "research_area_name": None, "issue": None},
    ]


def test_research_areas_only_unknown(merged: pd.DataFrame) -> None:
    areas = pd.DataFrame([("3", "PRECIPITATION"), ("3", "BASKET WEAVING"), ("4", None)], columns=["start_id", "area_name"])

    frame = build_research_areas(areas, node_index(merged, "publication_id"), merged["publication_id"])

    assert records(frame, ["publication_id", "research_area", "research_area_name", "issue"]) == [
        {"publication_id": "10.1000/b", "research_area": "unclassified", "research_area_name": "BASKET WEAVING",
         "issue": "not one of the 21 applied research areas (nor is PRECIPITATION)"},
        {"publication_id": RS, "research_area": "unclassified", "research_area_name": None, "issue": None},
        {"publication_id": "kg:g-4", "research_area": "unclassified", "research_area_name": None,
         "issue": "not one of the 21 applied research areas"},
    ]


@pytest.mark.parametrize(
    ("doi_raw", "doi", "doi_issue"),
    [("10.1000/A", "10.1000/a", None), ("N/A", None, "missing"), ("10.abc/x", None, "not a DOI")],
)
def test_doi_issue_says_why_a_doi_is_null(doi_raw: str, doi: str | None, doi_issue: str | None) -> None:
    frame = publications(("p1", {"doi": doi_raw, **FULL}))
    assert records(frame, ["doi", "doi_issue"]) == [{"doi": doi, "doi_issue": doi_issue}]


# globalId = uuid5(NAMESPACE_DNS, DOI) (dataset card): every DOI-less publication carries the uuid5 of the same empty DOI.
EMPTY_DOI_GLOBAL_ID = "4ebd0208-8328-5d69-8c44-ec50939c0967"


@pytest.mark.parametrize(
    ("nodes", "expected"),
    [
        pytest.param(
            [("1", {"globalId": EMPTY_DOI_GLOBAL_ID, "title": "Dust over Egypt", "year": "2001"}),
             ("2", {"globalId": EMPTY_DOI_GLOBAL_ID, "title": "Rain over Peru", "year": "2015"})],
            [("kg-node:1", "Dust over Egypt", 2001, ["1"]), ("kg-node:2", "Rain over Peru", 2015, ["2"])],
            id="two DOI-less publications sharing a globalId stay two, each with its own title and year",
        ),
        pytest.param(
            [("1", {"globalId": EMPTY_DOI_GLOBAL_ID, "doi": "", "title": "Dust over Egypt"}),
             ("2", {"globalId": EMPTY_DOI_GLOBAL_ID, "doi": "N/A", "title": "Rain over Peru"}),
             ("3", {"globalId": "g-3", "title": "Snow"})],
            [("kg-node:1", "Dust over Egypt", None, ["1"]), ("kg-node:2", "Rain over Peru", None, ["2"]), ("kg:g-3", "Snow", None, ["3"])],
            id="an unshared globalId still keys its publication",
        ),
        pytest.param(
            [("1", {"globalId": "g-1", "doi": "10.1000/A", "title": "With DOI"}),
             ("2", {"globalId": "g-1", "title": "Without DOI"})],
            [("10.1000/a", "With DOI", None, ["1"]), ("kg:g-1", "Without DOI", None, ["2"])],
            id="a globalId shared with a DOI'd node is not shared among DOI-less ones",
        ),
    ],
)
def test_doi_less_publications_sharing_a_global_id_are_kept_apart(nodes: list, expected: list) -> None:
    frame = publications(*nodes)

    assert [(r["publication_id"], r["title"], r["year"], r["node_ids"]) for r in records(frame, ["publication_id", "title", "year", "node_ids"])] == expected


def test_each_doi_less_publication_sharing_a_global_id_keeps_its_own_edge(tmp_path: Path) -> None:
    """Issue 14: the second publication's USES_DATASET edge was scored as the first one's."""
    elements = [
        {"type": "node", "id": "1", "labels": ["Publication"], "properties": {"globalId": EMPTY_DOI_GLOBAL_ID, "title": "Dust", "year": "2001"}},
        {"type": "node", "id": "2", "labels": ["Publication"], "properties": {"globalId": EMPTY_DOI_GLOBAL_ID, "title": "Rain", "year": "2015"}},
        {"type": "node", "id": "3", "labels": ["Dataset"], "properties": {"globalId": "g-d", "shortName": "TRMM_3B42"}},
        {"type": "relationship", "id": "10", "label": "USES_DATASET", "start": {"id": "1"}, "end": {"id": "3"}},
        {"type": "relationship", "id": "11", "label": "USES_DATASET", "start": {"id": "2"}, "end": {"id": "3"}},
    ]
    path = tmp_path / "graph.json"
    path.write_text("".join(json.dumps(element) + "\n" for element in elements), encoding="utf-8")
    with duckdb.connect() as con:
        ingest_export(con, path, "test")
        store_publications(con, con.execute(load_sql("publication_nodes")).df(), latest_year=LATEST)
        merged = con.execute("SELECT * FROM publications").df()
        store_datasets(con, con.execute(load_sql("dataset_nodes")).df())
        replace_table_from_query(con, "dataset_publication_edges", "dataset_publication_edges_rows")
        edges = con.execute("SELECT * FROM dataset_publication_edges").fetchall()

    assert records(merged, ["publication_id", "title", "year"]) == [
        {"publication_id": "kg-node:1", "title": "Dust", "year": 2001}, {"publication_id": "kg-node:2", "title": "Rain", "year": 2015},
    ]
    assert edges == [("kg:g-d", "kg-node:1", ["10"]), ("kg:g-d", "kg-node:2", ["11"])]


GRAPHML_YEAR = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<graphml xmlns="http://graphml.graphdrawing.org/xmlns">\n'
    '<key id="year" for="node" attr.name="year" attr.type="string"/>\n<graph id="G" edgedefault="directed">\n'
    '<node id="n1" labels=":Publication"><data key="labels">:Publication</data><data key="year">{year}</data></node>\n'
    "</graph>\n</graphml>\n"
)


CYPHER_YEAR = (
    "UNWIND [{{_id:1, properties:{{year:{year}}}}}] AS row\n"
    "CREATE (n:`UNIQUE IMPORT LABEL`{{`UNIQUE IMPORT ID`: row._id}}) SET n += row.properties SET n:Publication;\n"
)


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("graph.json", '{"type":"node","id":"1","labels":["Publication"],"properties":{"year":"[1988]"}}\n'),
        ("graph.json", '{"type":"node","id":"1","labels":["Publication"],"properties":{"year":[1988]}}\n'),
        ("graph.json", '{"type":"node","id":"1","labels":["Publication"],"properties":{"year":["1988"]}}\n'),
        ("graph.graphml", GRAPHML_YEAR.format(year="[1988]")),  # APOC's text for the string "[1988]" and the list [1988] alike
        ("graph.graphml", GRAPHML_YEAR.format(year='["1988"]')),
        ("graph.cypher", CYPHER_YEAR.format(year='"[1988]"')),
        ("graph.cypher", CYPHER_YEAR.format(year="[1988]")),
    ],
    ids=["JSON-lines string", "JSON-lines list", "JSON-lines list of a string", "GraphML", "GraphML list of a string",
         "Cypher string", "Cypher list"],
)
def test_a_bracketed_or_one_element_list_year_is_that_year_in_every_format(tmp_path: Path, name: str, content: str) -> None:
    """Issue 14: 1988 from JSON-lines, 'not a year: list' from GraphML, for what APOC writes the same way in both."""
    frame = ingested_publications(tmp_path, name, content)

    assert records(frame, ["year", "year_issue"]) == [{"year": 1988, "year_issue": None}]


def test_edges_and_citations_built_in_duckdb_are_the_rows_pandas_built(sample_run) -> None:
    """dataset_publication_edges and publication_citations of the sample run are the rows the earlier pandas path gave:
    each relationship's ends mapped through the typed tables' node_ids, self-citations dropped, relationship ids listed
    in order per pair, pairs sorted."""

    def frame(sql: str, columns: list[str]) -> pd.DataFrame:
        return pd.DataFrame(sample_run.query(sql), columns=columns)

    def of(table: str, id_column: str) -> pd.Series:
        return node_index(frame(f"SELECT {id_column}, node_ids FROM {table}", [id_column, "node_ids"]), id_column)

    def grouped(relationships: pd.DataFrame, keys: list[str]) -> list[tuple]:
        ordered = relationships.dropna(subset=keys).sort_values("relationship_id")
        lists = ordered.groupby(keys, sort=True)["relationship_id"].agg(list).reset_index()
        return [tuple(row) for row in lists.itertuples(index=False)]

    relationships = frame("SELECT relationship_id, rel_type, start_id, end_id FROM kg_relationships", ["relationship_id", "rel_type", "start_id", "end_id"])
    publication_of, dataset_of = of("publications", "publication_id"), of("datasets", "dataset_id")
    uses = relationships[relationships["rel_type"] == "USES_DATASET"]
    uses = uses.assign(dataset_id=uses["end_id"].map(dataset_of), publication_id=uses["start_id"].map(publication_of))
    cites = relationships[relationships["rel_type"] == "CITES"]
    cites = cites.assign(citing_publication_id=cites["start_id"].map(publication_of), cited_publication_id=cites["end_id"].map(publication_of))
    cites = cites[cites["citing_publication_id"] != cites["cited_publication_id"]]

    assert len(uses) > 50 and len(cites) > 50
    assert sample_run.query("SELECT * FROM dataset_publication_edges") == grouped(uses, ["dataset_id", "publication_id"])
    assert sample_run.query("SELECT * FROM publication_citations") == grouped(cites, ["citing_publication_id", "cited_publication_id"])
