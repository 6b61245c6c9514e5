"""Tables created from their declaring DDL, whose column comments an older version's table cannot take as it is."""

import duckdb
import pytest

from recon_assets.shared.storage import StaleSchemaError, create_tables, declared_schema, migrate
from recon_assets.shared.table_docs import TABLE_DOCS

OLDER_USAGE = "CREATE TABLE openalex_usage (day DATE, run_id VARCHAR, asset VARCHAR, requests BIGINT, recorded_at TIMESTAMPTZ)"


def comments(con: duckdb.DuckDBPyConnection, table: str) -> dict[str, str]:
    return dict(con.execute("SELECT column_name, comment FROM duckdb_columns() WHERE table_name = ? ORDER BY column_index", [table]).fetchall())


def test_an_older_table_is_migrated_then_given_its_meanings():
    with duckdb.connect() as con:
        con.execute(OLDER_USAGE)
        con.execute("INSERT INTO openalex_usage VALUES ('2026-11-30', 'r1', 'openalex_works', 12, now())")
        create_tables(con, "openalex_usage")
        assert con.execute("SELECT run_id, list_calls, requests FROM openalex_usage").fetchall() == [("r1", None, 12)]
        stored = comments(con, "openalex_usage")  # the added column comes last: its place differs, not its meaning
        assert stored == {column: TABLE_DOCS["openalex_usage"][column] for column in stored} and set(stored) == set(TABLE_DOCS["openalex_usage"])


def test_an_older_table_with_an_unknown_column_is_refused_naming_it():
    with duckdb.connect() as con:
        con.execute(OLDER_USAGE.replace("requests BIGINT", "requests BIGINT, calls_left BIGINT"))
        with pytest.raises(StaleSchemaError, match=r"table openalex_usage .* \(missing columns \['list_calls'\], unknown \['calls_left'\]\): it cannot be migrated"):
            create_tables(con, "openalex_usage")


def test_missing_tables_are_created_with_their_declared_meanings_and_a_rerun_changes_nothing():
    with duckdb.connect() as con:
        create_tables(con, "crossref_cache", "crossref_retractions")
        create_tables(con, "crossref_cache", "crossref_retractions")
        assert comments(con, "crossref_cache") == TABLE_DOCS["crossref_cache"]
        assert comments(con, "crossref_retractions") == TABLE_DOCS["crossref_retractions"]


def test_a_failure_that_is_not_an_older_table_is_raised_as_it_is():
    with duckdb.connect() as con, pytest.raises(duckdb.CatalogException, match="kg_citation_pairs"):
        create_tables(con, "publication_citations_rows")  # reads a view this database does not have


def test_an_older_table_whose_column_changed_type_is_refused_naming_it():
    """Hostile finding: edge_reliability.reliability stored as VARCHAR by an older table was written into, and the
    check after it failed with a pandas TypeError; the type is now compared before anything is written."""
    with duckdb.connect() as con:
        create_tables(con, "edge_reliability")
        con.execute("ALTER TABLE edge_reliability ALTER COLUMN reliability TYPE VARCHAR")
        declared = declared_schema("edge_reliability").types["reliability"]
        with pytest.raises(StaleSchemaError, match=rf"column types differ: reliability VARCHAR \(this version: {declared}\)\): it cannot be migrated"):
            migrate(con, "edge_reliability")


def test_an_older_table_without_its_primary_key_is_given_it_or_refused_naming_it():
    """Hostile finding: an older edge_reliability without its primary key failed with DuckDB's Binder error on the
    upsert (`INSERT OR REPLACE` needs the key). The key is added when the rows kept allow it; rows repeating it, or
    another key, are refused in one line before anything is written."""
    key = ["research_area", "dataset_id", "publication_id"]
    with duckdb.connect() as con:
        create_tables(con, "edge_reliability")
        columns = ", ".join(f'"{c}" {t}' for c, t in declared_schema("edge_reliability").types.items())
        con.execute(f"DROP TABLE edge_reliability; CREATE TABLE edge_reliability ({columns})")
        con.execute("INSERT INTO edge_reliability (research_area, dataset_id, publication_id) VALUES ('floods', 'd1', 'p1')")
        assert migrate(con, "edge_reliability") == []
        assert declared_schema("edge_reliability").primary_key == tuple(key)
        assert con.execute("SELECT constraint_column_names FROM duckdb_constraints() WHERE table_name = 'edge_reliability' "
                           "AND constraint_type = 'PRIMARY KEY'").fetchall() == [(key,)]
        con.execute(f"DROP TABLE edge_reliability; CREATE TABLE edge_reliability ({columns})")
        con.execute("INSERT INTO edge_reliability (research_area, dataset_id, publication_id) VALUES ('floods', 'd1', 'p1'), ('floods', 'd1', 'p1')")
        with pytest.raises(StaleSchemaError, match=r"table edge_reliability .*\(no primary key, and rows repeat this version's \['research_area', 'dataset_id', 'publication_id'\]\): it cannot be migrated"):
            migrate(con, "edge_reliability")
        con.execute(f"DROP TABLE edge_reliability; CREATE TABLE edge_reliability ({columns}, PRIMARY KEY (research_area, dataset_id))")
        with pytest.raises(StaleSchemaError, match=r"primary key \['research_area', 'dataset_id'\] \(this version: \['research_area', 'dataset_id', 'publication_id'\]\)"):
            migrate(con, "edge_reliability")


def test_a_table_declared_with_others_in_one_file_is_type_checked_and_migrated():
    """kg_nodes is declared in kg_snapshot.sql beside three other tables: its types are compared and a missing column
    is added as for a table with a file of its own."""
    with duckdb.connect() as con:
        create_tables(con, "kg_snapshot")
        con.execute("ALTER TABLE kg_nodes ALTER COLUMN labels TYPE VARCHAR")
        with pytest.raises(StaleSchemaError, match=r"table kg_nodes .*column types differ: labels VARCHAR \(this version: VARCHAR\[\]\)"):
            migrate(con, "kg_nodes")
    with duckdb.connect() as con:
        create_tables(con, "kg_snapshot")
        con.execute("ALTER TABLE kg_rejects DROP COLUMN reason")
        assert migrate(con, "kg_rejects") == ["reason"]
