"""The `llm_judgements` table: the Groq judge's answers kept across runs (DDL in recon_assets/judgement/sql/llm_judgements.sql).

Keyed by (older publication, newer publication, dataset, model, prompt version): a re-run reuses every stored
answer whose texts are unchanged (`input_sha256`), so it asks Groq nothing again; a new PROMPT_VERSION finds
none of the older version's rows (they stay, unused, for audit); another model finds only its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import duckdb
import pandas as pd

from recon_assets.judgement.llm_judge import CACHE_COLUMNS, KEY
from recon_assets.judgement.llm_prompt import PROMPT_VERSION
from recon_assets.shared.sql_files import load_sql
from recon_assets.storage.tables import upsert

TABLE = "llm_judgements"


def ensure_table(con: duckdb.DuckDBPyConnection) -> None:
    """Create `llm_judgements` when missing."""
    con.execute(load_sql(TABLE))


def cached_judgements(
    con: duckdb.DuckDBPyConnection, candidates: pd.DataFrame, models: Sequence[str], prompt_version: str = PROMPT_VERSION
) -> pd.DataFrame:
    """Stored rows (CACHE_COLUMNS) of the KEY pairs of `candidates`, for `models` and `prompt_version`."""
    keys = candidates[KEY].astype(str)  # noqa: F841 (read by DuckDB by name)
    con.execute("CREATE OR REPLACE TEMP TABLE llm_candidate_keys AS SELECT DISTINCT * FROM keys")
    found = con.execute(load_sql("llm_judgements_cached"), [list(models), prompt_version]).df()
    con.execute("DROP TABLE llm_candidate_keys")
    return found[CACHE_COLUMNS] if not found.empty else pd.DataFrame(columns=CACHE_COLUMNS)


def store_judgements(con: duckdb.DuckDBPyConnection, rows: pd.DataFrame) -> int:
    """Upsert `rows` (CACHE_COLUMNS) into `llm_judgements`, in one transaction; returns the rows written.

    Raises:
        storage.StaleSchemaError: the stored table has other columns.
    """
    if rows.empty:
        return 0
    frame = rows[CACHE_COLUMNS].copy()
    frame["evidence"] = [list(value) for value in frame["evidence"]]
    for column in ("pairs_in_request", "prompt_tokens", "completion_tokens"):
        frame[column] = frame[column].astype("Int64")
    upsert(con, TABLE, frame)
    return len(frame)


def usage_on_day(con: duckdb.DuckDBPyConnection, model: str, day: date) -> tuple[int, int]:
    """(requests, tokens) that the stored answers of `model` spent on the UTC `day`: what the daily budget has
    already used. Requests that stored nothing (failures, rejections) are not counted: Groq's own 429 on its
    daily limit still stops the run when they add up."""
    requests, tokens = con.execute(load_sql("llm_usage_on_day"), [model, day]).fetchone()
    return int(requests), int(tokens)
