"""The papers' own OpenAlex search cache (`paper_search_cache`): the citation gaps' search texts are made of a
manuscript's terms, so their answers are kept apart from the briefs' (`enrichment.openalex_search.QUESTION_SEARCHES`),
in a table only the papers' assets read and write."""

from __future__ import annotations

from typing import Any

import duckdb
import pandas as pd

from recon_assets.enrichment.openalex_search import SearchCache, cached_answers
from recon_assets.storage.tables import Tables, create_tables, table_exists, upsert


def read_paper_searches(con: duckdb.DuckDBPyConnection | Tables, keys: list[str]) -> dict[str, dict[str, Any]]:
    """The cached answers of paper_search_cache to `keys` (`openalex_search.cached_answers`); {} when the table does
    not exist (no paper was ever searched online)."""
    con = Tables.of(con)
    if not table_exists(con, "paper_search_cache"):
        return {}
    return cached_answers(con.query_rows("paper_search_cache_answers", [keys]))


def write_paper_searches(con: duckdb.DuckDBPyConnection, rows: pd.DataFrame) -> None:
    """Upsert answers into paper_search_cache (created when missing)."""
    create_tables(con, "paper_search_cache")
    upsert(con, "paper_search_cache", rows)


PAPER_SEARCHES = SearchCache(read_paper_searches, write_paper_searches)
