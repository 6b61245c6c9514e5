"""The one daily OpenAlex budget that every asset asking OpenAlex draws on, kept in the `openalex_usage` table.

OpenAlex gives a free API key $1 a day: 10,000 list or filter calls, a search page costing ten ("Authentication &
Pricing"; `citing_plan` has the prices); the day resets at midnight UTC. Each asset asks `run_allowance` for what it
may spend (the day's budget less what every run spent today, and at most its own per-run cap), spends it through the
client's `ListCallBudget`, and records what it spent with `record_usage`, so the next asset or run sees it.
"""

from __future__ import annotations

from datetime import date, datetime, timezone

import duckdb

from recon_assets.enrichment.openalex_client import ListCallBudget
from recon_assets.storage.tables import Tables


def spent_on(con: duckdb.DuckDBPyConnection | Tables, day: date) -> dict[str, int]:
    """{asset: list calls spent on `day` (UTC), all runs}; creates the openalex_usage table when missing."""
    con = Tables.of(con)
    con.create("openalex_usage")
    return dict(con.query_rows("openalex_usage_spent_on", [day]))


def run_allowance(con: duckdb.DuckDBPyConnection | Tables, *, day: date, daily_list_calls: int, run_cap: int | None = None) -> ListCallBudget:
    """The list calls an asset may spend now: what is left of `daily_list_calls` on `day` after every run's spending,
    at most `run_cap` (None: no cap of its own); the budget's `why` names the limit that set it."""
    spent = sum(spent_on(con, day).values())
    left = max(0, daily_list_calls - spent)
    if run_cap is not None and run_cap < left:
        return ListCallBudget(run_cap, f"the per-run cap of {run_cap:,} list calls")
    return ListCallBudget(left, f"the daily OpenAlex budget of {daily_list_calls:,} list calls, {spent:,} spent earlier on {day} UTC")


def record_usage(con: duckdb.DuckDBPyConnection | Tables, *, day: date, run_id: str, asset: str, list_calls: int, requests: int) -> None:
    """Add what `asset` spent in run `run_id` on `day` to the ledger (a retried step adds to its run's row); a step that
    sent nothing (offline, all cached) writes no row."""
    if not (list_calls or requests):
        return
    con = Tables.of(con)
    con.create("openalex_usage")
    con.run_sql("openalex_usage_record", [day, run_id, asset, list_calls, requests, datetime.now(timezone.utc)])
