"""Data-quality suites over the pipeline's tables, run with Great Expectations 1.x.

Pure module (no Dagster import): pandas DataFrames in, plain JSON-serialisable values out, so the
asset checks (`kg/checks.py`, `reliability/checks.py`) only wire a table to a suite and copy
`SuiteOutcome.as_metadata()` into the check's metadata (`metadata.suite_check_result`).

An empty table never passes: every suite starts with
`expect_table_row_count_to_be_between(min_value=1)`, because GX treats a column expectation over
zero rows as vacuously successful, and a coverage check that passes on nothing would hide a broken
ingest.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pandas as pd

from recon_assets.shared.doi_pattern import CANONICAL_DOI_PATTERN

if TYPE_CHECKING:
    from great_expectations.core.batch_definition import BatchDefinition
    from great_expectations.expectations import Expectation

# GX logs every API-doc registration at INFO while it imports; only its warnings matter here.
logging.getLogger("great_expectations").setLevel(logging.WARNING)

_SCORE_COLUMNS = ("reliability", "centrality", "recency", "coherence")
# GX's BASIC format carries counts and `partial_unexpected_list` without the per-row index lists.
_RESULT_FORMAT = {"result_format": "BASIC", "partial_unexpected_count": 5}
# The whole-DataFrame batch has one fixed id, so the engine's batch cache is shared state.
_VALIDATION_LOCK = threading.Lock()


@dataclass(frozen=True)
class SuiteOutcome:
    """Result of one suite run.

    `expectations` holds one dict per expectation, in suite order, with keys:
    `expectation` (GX snake-case type), `column` (None for table-level ones), `success`,
    `mostly` (required share, None for table-level ones), `element_count`, `unexpected_count`,
    `unexpected_percent` (0-100, over non-null rows for expectations that skip nulls),
    `observed_share` (0-1, share of considered rows that passed; None when no row was considered),
    `observed_value` (table-level expectations only), `unexpected_examples` (at most 5 offending
    values, nulls as None) and `error` (GX exception message when the expectation could not run).
    """

    success: bool
    expectations: list[dict[str, Any]]

    def as_metadata(self) -> dict[str, Any]:
        """Return `{"success": bool, "expectations": [...]}`, JSON-serialisable, for metadata."""
        return {"success": self.success, "expectations": [dict(e) for e in self.expectations]}


def validate_publication_years(publications: pd.DataFrame, *, min_share: float) -> SuiteOutcome:
    """Check that at least `min_share` (0-1) of publications have a non-null `year`.

    Raises ValueError if the `year` column is missing or `min_share` is outside [0, 1].
    """
    import great_expectations as gx

    return _validate(
        publications,
        "publication_years",
        [gx.expectations.ExpectColumnValuesToNotBeNull(column="year", mostly=min_share)],
    )


def validate_publication_dois(
    publications: pd.DataFrame, *, min_present_share: float, min_well_formed_share: float
) -> SuiteOutcome:
    """Check DOI coverage and form on the `doi` column.

    At least `min_present_share` (0-1) of rows have a non-null DOI, and at least
    `min_well_formed_share` (0-1) of the non-null DOIs match `CANONICAL_DOI_PATTERN`. Placeholders such
    as 'N/A' or '' count as present but malformed, and so do resolver URLs
    ('https://doi.org/10...') and upper-case DOIs: normalisation belongs upstream.
    Raises ValueError if the `doi` column is missing or a share is outside [0, 1].
    """
    import great_expectations as gx

    return _validate(
        publications,
        "publication_dois",
        [
            gx.expectations.ExpectColumnValuesToNotBeNull(column="doi", mostly=min_present_share),
            gx.expectations.ExpectColumnValuesToMatchRegex(
                column="doi", regex=CANONICAL_DOI_PATTERN, mostly=min_well_formed_share
            ),
        ],
    )


def validate_edge_reliability(
    edges: pd.DataFrame, *, labels: Sequence[str], coherence_statuses: Sequence[str]
) -> SuiteOutcome:
    """Check scored edges: every score in [0, 1], every `label` in `labels` and every
    `coherence_status` in `coherence_statuses`, none null.

    Score columns: reliability, centrality, recency, coherence (all in [0, 1], DOMAIN.md).
    Allowed strings are compared case-sensitively.
    Raises ValueError if a score column, `label` or `coherence_status` is missing.
    """
    import great_expectations as gx

    expectations: list[Expectation] = []
    for column in _SCORE_COLUMNS:
        expectations += [
            gx.expectations.ExpectColumnValuesToNotBeNull(column=column),
            gx.expectations.ExpectColumnValuesToBeBetween(column=column, min_value=0, max_value=1),
        ]
    for column, allowed in (("label", labels), ("coherence_status", coherence_statuses)):
        expectations += [
            gx.expectations.ExpectColumnValuesToNotBeNull(column=column),
            gx.expectations.ExpectColumnValuesToBeInSet(column=column, value_set=list(allowed)),
        ]
    return _validate(edges, "edge_reliability", expectations)


def share_by_group(
    df: pd.DataFrame,
    column: str,
    group_column: str,
    predicate: Callable[[pd.Series], pd.Series] = pd.Series.notna,
    *,
    missing_group: str = "unclassified",
) -> dict[str, dict[str, float | int]]:
    """Per-group row count and share of rows whose `column` satisfies `predicate`.

    `predicate` maps the column (Series) to a boolean Series of the same index; the default
    counts non-null values. Rows with a null `group_column` are reported under `missing_group`
    (DOMAIN.md: publications without a research area form the `unclassified` partition).
    Returns `{group: {"rows": int, "share": float in [0, 1]}}` sorted by group; `{}` for no rows.
    Raises KeyError if either column is missing.
    """
    passed = predicate(df[column]).astype(bool)
    groups = df[group_column].astype(object).where(df[group_column].notna(), missing_group)
    stats = passed.groupby(groups).agg(["size", "mean"])
    return {
        str(group): {"rows": int(row["size"]), "share": float(row["mean"])}
        for group, row in stats.iterrows()
    }


def doi_is_well_formed(dois: pd.Series) -> pd.Series:
    """Boolean Series: True where the value is a canonical DOI (`CANONICAL_DOI_PATTERN`), False for nulls.

    Meant as a `share_by_group` predicate, e.g. per-research-area share of well-formed DOIs.
    """
    return dois.astype("string").str.match(CANONICAL_DOI_PATTERN).fillna(False).astype(bool)


def _validate(df: pd.DataFrame, suite_name: str, expectations: list[Expectation]) -> SuiteOutcome:
    import great_expectations as gx

    needed = {e.column for e in expectations}
    missing = sorted(needed - set(df.columns))
    if missing:
        raise ValueError(
            f"suite {suite_name!r} needs columns {missing}, table has {list(df.columns)}"
        )
    suite = gx.ExpectationSuite(
        name=suite_name,
        expectations=[gx.expectations.ExpectTableRowCountToBeBetween(min_value=1), *expectations],
    )
    # Only the checked columns go to GX, which hashes the whole frame it is given (publications' node_ids lists
    # made that most of a check's time at full scale): an expectation may read its `column` and nothing else.
    checked = df.loc[:, df.columns.isin(needed)]
    with _VALIDATION_LOCK:
        batch = _batch_definition().get_batch(batch_parameters={"dataframe": checked})
        result = batch.validate(suite, result_format=_RESULT_FORMAT)
    summaries = [_summarise(r.to_json_dict()) for r in result.results]
    return SuiteOutcome(success=bool(result.success), expectations=summaries)


def _summarise(result: dict[str, Any]) -> dict[str, Any]:
    """Flatten one GX `ExpectationValidationResult.to_json_dict()` into the SuiteOutcome shape."""
    kwargs = result["expectation_config"]["kwargs"]
    counts = result["result"]
    element_count = counts.get("element_count")
    unexpected_count = counts.get("unexpected_count")
    considered = None if element_count is None else element_count - counts.get("missing_count", 0)
    # Same ratio GX compares against `mostly` (expectation.py `_mostly_success`).
    observed_share = (considered - unexpected_count) / considered if considered else None
    exception = result["exception_info"]
    return {
        "expectation": result["expectation_config"]["type"],
        "column": kwargs.get("column"),
        "success": bool(result["success"]),
        # GX leaves `mostly` out of the kwargs when it is the default 1.0.
        "mostly": None if "column" not in kwargs else kwargs.get("mostly", 1.0),
        "element_count": element_count,
        "unexpected_count": unexpected_count,
        "unexpected_percent": counts.get("unexpected_percent"),
        "observed_share": observed_share,
        "observed_value": counts.get("observed_value"),
        "unexpected_examples": counts.get("partial_unexpected_list", []),
        "error": exception["exception_message"] if exception.get("raised_exception") else None,
    }


@functools.cache
def _batch_definition() -> BatchDefinition:
    """One quiet in-memory GX context per process, with a whole-DataFrame batch definition.

    GX is imported here, not at module level: the import costs about 2 s, and only the
    processes that run a suite should pay it.
    """
    import great_expectations as gx
    from great_expectations.data_context.types.base import (
        DataContextConfig,
        InMemoryStoreBackendDefaults,
        ProgressBarsConfig,
    )

    # `analytics_enabled=False` turns telemetry off in the GX 1.x releases that ship it (read at
    # context start, "Toggle analytics events", GX 1.0 docs); 1.24 ships none.
    config = DataContextConfig(
        store_backend_defaults=InMemoryStoreBackendDefaults(),
        progress_bars=ProgressBarsConfig(globally=False),
        analytics_enabled=False,
    )
    context = gx.get_context(mode="ephemeral", project_config=config)
    return (
        context.data_sources.add_pandas("recon_assets")
        .add_dataframe_asset("table")
        .add_batch_definition_whole_dataframe("whole_table")
    )
