"""The date every asset of a run measures against (`as_of`): the run tag that carries it and the resource that
resolves it once per run."""

from __future__ import annotations

import re
from datetime import date, timezone

import dagster as dg
from pydantic import field_validator

from recon_assets.shared.credentials import shown_setting
from recon_assets.shared.run_tags import AS_OF_TAG, tag_run

# The earliest as_of a run scores: NASA was founded in 1958 and TIROS-1, the first weather satellite, flew in 1960, so
# before 1950 no NASA Earth-observation dataset nor any publication using one existed and a score as of then says
# nothing (the shipped sample's publications are from 2001 on). An earlier date is
# a typo (0001-01-01, 1026 for 2026), refused in one line.
EARLIEST_AS_OF = date(1950, 1, 1)


def parse_as_of(text: str, *, source: str) -> date:
    """A YYYY-MM-DD date (ISO 8601's extended calendar date, and only it: Python's `date.fromisoformat` also takes
    20260101 and week dates such as 2026-W01-1), on or after EARLIEST_AS_OF.

    Raises:
        ValueError: naming `source` (where the text came from) when it is not such a date, or is before EARLIEST_AS_OF.
    """
    if not (isinstance(text, str) and re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text)):
        raise ValueError(f"as_of must be a date YYYY-MM-DD, got {shown_setting(str(text))} from {source}")
    try:
        parsed = date.fromisoformat(text)
    except ValueError as error:  # 2026-13-01, 2026-02-30: the form is right, the calendar says no
        raise ValueError(f"as_of {shown_setting(text)} from {source} is not a calendar date ({error})") from None
    if parsed < EARLIEST_AS_OF:
        raise ValueError(
            f"as_of {parsed.isoformat()} from {source} is before {EARLIEST_AS_OF.isoformat()}, the earliest as_of scored "
            "(no NASA Earth-observation dataset existed before the satellite era): give a later date"
        )
    return parsed


class AsOfDate(dg.ConfigurableResource):
    """The date every age, time window and year bound is measured against, resolved once per run (`for_run`).

    `as_of` (YYYY-MM-DD, RECON_AS_OF) is the default for runs that carry no `recon/as_of` tag; empty means the
    day (UTC) the run was created. No asset reads today's date for itself: one run never mixes two dates.
    """

    as_of: str = ""

    @field_validator("as_of", mode="before")
    @classmethod
    def _a_date_or_empty(cls, value: str) -> str:
        """Refuse a value that is not YYYY-MM-DD when the resource is built (a `dg.EnvVar` is read later, when a run's
        resources start, and judged then; `launch_checks` judges it when the run is launched)."""
        if value and not isinstance(value, dg.EnvVar):
            parse_as_of(value, source="RECON_AS_OF")
        return value

    def for_run(self, context: dg.AssetExecutionContext) -> date:
        """The run's as_of: its `recon/as_of` tag, else this resource's `as_of`, else the run's creation day (UTC).

        Raises:
            ValueError: the tag or the configured value is not a YYYY-MM-DD date.
        """
        return self._resolve(context.run, context.instance)

    def setup_for_execution(self, context: dg.InitResourceContext) -> None:
        """Record the run's as_of as its recon/as_of tag when it was launched without one (from the UI)."""
        if context.run is not None and context.instance is not None:
            tag_run(context, {AS_OF_TAG: self._resolve(context.run, context.instance).isoformat()})

    def _resolve(self, run: dg.DagsterRun, instance: dg.DagsterInstance) -> date:
        tag = run.tags.get(AS_OF_TAG)
        if tag:
            return parse_as_of(tag, source=f"run tag {AS_OF_TAG}")
        if self.as_of:
            return parse_as_of(self.as_of, source="RECON_AS_OF")
        created = instance.get_run_record_by_id(run.run_id).create_timestamp
        return created.astimezone(timezone.utc).date()
