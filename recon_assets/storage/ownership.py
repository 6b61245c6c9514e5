"""Which tables of a database recon_assets wrote, so that no write replaces or alters another program's table of the
same name (hostile passes, 2026-12-04 and 12-05: `recon run --db` on another program's DuckDB file replaced its
`publications`, then failed on it).

Every table recon_assets creates or writes carries the table comment OWNER_MARK (`mark_owned`, since 2026-12-05). A
table or view bearing an output table's name (`TABLE_DOCS`; DuckDB's names are case-insensitive, so "Publications" is
`publications`) is recon_assets' when it is
- a table carrying the mark, or
- a table without it that an older version wrote between 2026-12-01, when every DDL began to comment every column,
  and the mark: every column carries a comment, every column is one its DDL declares, with the declared type, and it
  holds at least half of them (an older version lacks only the few columns added since, which `tables.migrate` adds).
Anything else of those names is another program's (`foreign_tables`): a view (recon_assets writes tables only), or an
unmarked table with a column without a comment, a column its DDL does not declare, a column of another type, or
under half its columns. A database written before 2026-12-01 is refused as a whole: give it a new --db. Tables of other
names are the user's: kept, and never read. What this cannot tell apart: a table another program shaped exactly as
an older version's, each of its columns commented, without the mark (hostile passes 27 and 28 tried half the columns,
other types, one column comment, a view, other capitals and a small table of the declared names).

The port's own SQL (DuckDB's catalog functions and COMMENT ON), as the rest of `storage`; no Dagster import.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

import duckdb

from recon_assets.shared import table_docs
from recon_assets.storage.schema import declared_schema

# The table comment of every table recon_assets writes: its mark of ownership, and where the table is documented.
OWNER_MARK = "recon_assets output table (docs/TABLES.md)"


def mark_owned(con: duckdb.DuckDBPyConnection, tables: Iterable[str]) -> None:
    """Set OWNER_MARK as the table comment of each of `tables` (the code's names, formatted in; the mark is a
    constant without quotes): run after a table's DDL, which a CREATE OR REPLACE leaves without a comment."""
    for table in tables:
        con.execute(f"COMMENT ON TABLE {table} IS '{OWNER_MARK}'")


def foreign_tables(con: duckdb.DuckDBPyConnection, tables: Collection[str] | None = None) -> dict[str, str]:
    """{name: why} for each table or view of `con`'s current schema (of `tables` only, when given) that bears an output
    table's name but is not recon_assets' (the module's rule): '(a view)', or what keeps an unmarked table from being
    an older version's ('no recon_assets mark; 1 of its 13 columns; 2 it does not declare; other types: year; 3 without
    a comment'); names as the database spells them ("Publications").
    {} for a database recon_assets wrote, an empty one, or one holding only tables of other names. One catalog
    query; the DDL is read (`TABLE_DOCS`, once per process) only when an unmarked table or a view is found."""
    wanted = None if tables is None else [table.lower() for table in tables]
    rows = con.execute(
        "SELECT t.table_name, FALSE AS is_view, list(c.column_name ORDER BY c.column_index), list(c.data_type ORDER BY c.column_index), "
        "count(*) FILTER (c.comment IS NULL OR c.comment = '') "
        "FROM duckdb_tables() AS t JOIN duckdb_columns() AS c USING (database_name, schema_name, table_name) "
        "WHERE t.database_name = current_database() AND t.schema_name = current_schema() AND NOT t.internal "
        "AND t.comment IS DISTINCT FROM $2 AND ($1::VARCHAR[] IS NULL OR list_contains($1, lower(t.table_name))) GROUP BY t.table_name "
        "UNION ALL SELECT view_name, TRUE, NULL, NULL, NULL FROM duckdb_views() WHERE database_name = current_database() "
        "AND schema_name = current_schema() AND NOT internal AND ($1::VARCHAR[] IS NULL OR list_contains($1, lower(view_name))) "
        "ORDER BY 1", [wanted, OWNER_MARK],
    ).fetchall()
    if not rows:
        return {}
    output_tables = table_docs.TABLE_DOCS.keys()
    foreign = {}
    for name, is_view, columns, types, uncommented in rows:
        if name.lower() not in output_tables:
            continue
        why = "a view" if is_view else _not_an_older_version(name.lower(), dict(zip(columns, types)), uncommented)
        if why:
            foreign[name] = why
    return foreign


def _not_an_older_version(table: str, stored: dict[str, str], uncommented: int) -> str | None:
    """Why the unmarked table `table` of columns {name: DuckDB type} `stored`, `uncommented` of them without a comment,
    is not an older version's table (the module's rule), None when it is."""
    declared = declared_schema(table).types
    shared = [column for column in stored if column in declared]
    unknown = [column for column in stored if column not in declared]
    retyped = [column for column in shared if stored[column] != declared[column]]
    if 2 * len(shared) >= len(declared) and not unknown and not retyped and not uncommented:
        return None
    return "; ".join([
        f"no recon_assets mark; {len(shared)} of its {len(declared)} columns",
        *([f"{len(unknown)} it does not declare"] if unknown else []),
        *([f"other types: {', '.join(retyped[:3])}{' ...' if len(retyped) > 3 else ''}"] if retyped else []),
        *([f"{uncommented} without a comment"] if uncommented else []),
    ])


def foreign_tables_line(where: str, foreign: dict[str, str]) -> str:
    """One line saying that `where` (e.g. "--db x.duckdb") holds what `foreign_tables` found, and the way out."""
    one = len(foreign) == 1
    named = "; ".join(f"{name} ({why})" for name, why in foreign.items())
    views = sum(why == "a view" for why in foreign.values())
    what = ("a view" if views else "a table") if one else {0: "tables", len(foreign): "views"}.get(views, "tables and views")
    return (
        f"{where} holds {what} named as recon_assets' own that recon_assets did not write "
        f"({named}), e.g. another program's: recon_assets leaves {'it' if one else 'them'} as {'it is' if one else 'they are'} "
        f"and writes nothing in {'its' if one else 'their'} place; give another --db, or rename {'it' if one else 'them'}"
    )
