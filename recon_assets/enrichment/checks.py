"""Asset checks of openalex_works: one OpenAlex cache row per DOI (blocking), the match rate and the share of
retracted works (non-blocking, per research area in metadata). Every result names the DuckDB file it read
(`database`) and carries its shares and counts as numbers (plotted by the UI)."""

from collections.abc import Callable

import dagster as dg
from pydantic import Field

from recon_assets.enrichment.assets import openalex_works
from recon_assets.shared.metadata import database_file
from recon_assets.storage.duckdb_store import TableStore


class OpenAlexMatchConfig(dg.Config):
    min_match_rate: float = Field(default=0.8, ge=0.0, le=1.0, description="Least share of requested DOIs found in OpenAlex.")


class RetractedShareConfig(dg.Config):
    max_retracted_share: float = Field(
        default=0.1, ge=0.0, le=1.0,
        description="Most share of found works flagged retracted (about 0.04% of the literature is; far more means a misread flag).",
    )


@dg.asset_check(asset=openalex_works, blocking=True)
def openalex_cache_one_row_per_doi(store: TableStore) -> dg.AssetCheckResult:
    """The OpenAlex cache holds at most one row per canonical DOI (a second row would make the refresh and
    the join to publications ambiguous)."""
    with store.connect() as con:
        duplicated = con.query_rows("openalex_cache_duplicated_dois")
        (rows,) = con.query_row("openalex_cache_rows")
        database = database_file(con)
    return dg.AssetCheckResult(
        passed=not duplicated,
        metadata={"database": database, "cache_rows": rows, "duplicated_dois": len(duplicated), "examples": [doi for doi, _ in duplicated[:10]]},
    )


@dg.asset_check(asset=openalex_works, blocking=False)
def openalex_match_rate(config: OpenAlexMatchConfig, store: TableStore) -> dg.AssetCheckResult:
    """Enough of the DOIs OpenAlex answered for were found (found / (found + not_found + mismatch), all research
    areas): a low rate means DOIs that do not match, whatever is offline. A mismatch (a lookup answered with a work
    carrying another DOI) is an answer that did not match. DOIs without an answer (error: offline, not fetched, a
    failed request, an invalid record) are counted beside it, not against it; per research area: found, not_found,
    mismatch, error, answered and the match rate; not measured (and passed) when no DOI was answered."""
    with store.connect() as con:
        per_area, database = con.query_rows("openalex_match_counts"), database_file(con)
    return _per_area_share(
        per_area, database,
        counts=("found", "not_found", "mismatch", "error", "answered"), share="match_rate",
        passes=lambda rate: rate >= config.min_match_rate,
    )


@dg.asset_check(asset=openalex_works, blocking=False)
def openalex_retracted_share(config: RetractedShareConfig, store: TableStore) -> dg.AssetCheckResult:
    """The share of found works that are retracted (OpenAlex is_retracted, retraction notices left out) is
    plausible; per research area: retracted works, found works and their share; not measured (and passed) when no work
    was found."""
    with store.connect() as con:
        per_area, database = con.query_rows("openalex_retracted_counts"), database_file(con)
    return _per_area_share(
        per_area, database,
        counts=("retracted", "found"), share="retracted_share",
        passes=lambda share: share <= config.max_retracted_share,
    )


def _per_area_share(
    per_area: list[tuple], database: str, *, counts: tuple[str, ...], share: str, passes: Callable[[float], bool]
) -> dg.AssetCheckResult:
    """A check on a share over all research areas, read from the DuckDB file `database`: `per_area` holds one row per
    research area, the area then the `counts` (named in order; the share is the first over the last). Metadata: the share, each count summed, and per
    research area the counts and the share. When the last count is 0 (offline, nothing answered) the share is not
    measured: the check passes saying so, and no share is written (a made-up 1.0 or 0.0 would read as a measure)."""
    totals = {name: sum(row[index + 1] for row in per_area) for index, name in enumerate(counts)}
    counted = ", ".join(f"{name} {value:,}" for name, value in totals.items())
    per_research_area = {
        area: {**dict(zip(counts, values)), **({share: values[0] / values[-1]} if values[-1] else {})} for area, *values in per_area
    }
    if not totals[counts[-1]]:
        return dg.AssetCheckResult(
            passed=True, description=f"{share} not measured: no {counts[-1]} rows ({counted})",
            metadata={"database": database, **totals, "per_research_area": per_research_area},
        )
    overall = totals[counts[0]] / totals[counts[-1]]
    return dg.AssetCheckResult(
        passed=passes(overall), description=f"{share} {overall:.3f} ({counted})",
        metadata={"database": database, share: float(overall), **totals, "per_research_area": per_research_area},
    )
