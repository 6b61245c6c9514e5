"""The `llm_judgements` table: the Groq judge's answers kept across runs (DDL in recon_assets/judgement/sql/llm_judgements.sql),
and `llm_answers`: Groq's answers to the other prompts (a paper's claims and argumentation, issue 22).

`llm_judgements` is keyed by (older publication, newer publication, dataset, model, prompt version): a re-run reuses
every stored answer whose texts are unchanged (`input_sha256`), so it asks Groq nothing again; a new PROMPT_VERSION
finds none of the older version's rows (they stay, unused, for audit); another model finds only its own.
`llm_answers` is keyed by (purpose, SHA-256 of the messages sent, model, prompt version): the smallest key any prompt
has, so another prompt reuses it instead of a table of its own. The daily budget counts both (`usage_on_day`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from datetime import date

import duckdb
import pandas as pd

from recon_assets.judgement.llm_judge import CACHE_COLUMNS, KEY
from recon_assets.judgement.llm_prompt import PROMPT_VERSION
from recon_assets.storage.tables import Tables

TABLE = "llm_judgements"
ANSWERS = "llm_answers"
ANSWER_COLUMNS = [
    "purpose", "input_sha256", "model", "prompt_version", "content", "request_id", "prompt_tokens", "completion_tokens",
    "latency_ms", "answered_at",
]


def ensure_table(con: duckdb.DuckDBPyConnection | Tables) -> None:
    """Create `llm_judgements` and `llm_answers` when missing (`Tables.create`: migrated when older, refused when
    another program's)."""
    Tables.of(con).create(TABLE, ANSWERS)


def messages_sha256(messages: Sequence[dict[str, str]]) -> str:
    """SHA-256 (hex) of chat messages (role and content of each, in order): `llm_answers.input_sha256`."""
    return hashlib.sha256(json.dumps([[m["role"], m["content"]] for m in messages], ensure_ascii=False).encode()).hexdigest()


def cached_answer(
    con: duckdb.DuckDBPyConnection | Tables, purpose: str, input_sha256: str, models: Sequence[str], prompt_version: str
) -> dict | None:
    """The stored `llm_answers` row (ANSWER_COLUMNS as a dict) of this purpose, input and prompt version, the first
    of `models` that has one; None when none has."""
    con = Tables.of(con)
    row = con.query_row("llm_answer_cached", [purpose, input_sha256, prompt_version, list(models)])
    return dict(zip(ANSWER_COLUMNS, row)) if row else None


def store_answer(con: duckdb.DuckDBPyConnection | Tables, row: dict) -> None:
    """Upsert one `llm_answers` row (ANSWER_COLUMNS as a dict; answered_at a UTC datetime).

    Raises:
        storage.StaleSchemaError: the stored table has other columns.
    """
    frame = pd.DataFrame([{column: row.get(column) for column in ANSWER_COLUMNS}])
    for column in ("prompt_tokens", "completion_tokens"):
        frame[column] = frame[column].astype("Int64")
    Tables.of(con).upsert(ANSWERS, frame)


def cached_judgements(
    con: duckdb.DuckDBPyConnection | Tables, candidates: pd.DataFrame, models: Sequence[str], prompt_version: str = PROMPT_VERSION
) -> pd.DataFrame:
    """Stored rows (CACHE_COLUMNS) of the KEY pairs of `candidates`, for `models` and `prompt_version`."""
    con = Tables.of(con)
    con.temp_table("llm_candidate_keys", candidates[KEY].astype(str))
    found = con.query("llm_judgements_cached", [list(models), prompt_version])
    con.drop_temp_table("llm_candidate_keys")
    return found[CACHE_COLUMNS] if not found.empty else pd.DataFrame(columns=CACHE_COLUMNS)


def store_judgements(con: duckdb.DuckDBPyConnection | Tables, rows: pd.DataFrame) -> int:
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
    Tables.of(con).upsert(TABLE, frame)
    return len(frame)


def usage_on_day(con: duckdb.DuckDBPyConnection | Tables, model: str, day: date) -> tuple[int, int]:
    """(requests, tokens) that the stored answers of `model` (llm_judgements and llm_answers, both created when
    missing) spent on the UTC `day`: what the daily budget has already used. Requests that stored nothing (failures,
    rejections) are not counted: Groq's own 429 on its daily limit still stops the run when they add up."""
    con = Tables.of(con)
    ensure_table(con)
    requests, tokens = con.query_row("llm_usage_on_day", [model, day])
    return int(requests), int(tokens)
