"""Skip a stage whose inputs have not changed: each expensive asset records a fingerprint of what it read (the KG
snapshot id, its settings, its code version, the run's as_of where it matters, and a digest of every upstream
table) in `stage_fingerprints`, with a digest of the tables it wrote. A later run with the same fingerprint, whose
written tables still hold what was recorded, leaves them as they are and says why (`Stage.skip_reason`).

Table digests are `shared.data_versions.table_digest`; a stage's Dagster data version is the digest of what it wrote
or kept (`Stage.data_version`). Which assets a `recon run` launches at all is Dagster's staleness
(`automation.staleness`); this layer only lets a launched asset whose own inputs did not change keep its tables.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timezone

import dagster as dg
import duckdb
import pandas as pd

from recon_assets.shared.data_versions import TABLE_DIGESTS, table_digest, version_of
from recon_assets.shared.metadata import add_partition_metadata, database_file, partitioned_result, run_figures, table_description_metadata, table_metadata
from recon_assets.storage.tables import create_tables, transaction

UNPARTITIONED = ""
# The key of an asset check's result in the outputs of its record (`evaluated_once`).
CHECK_RESULT = "check_result"
# The names of a partition's own inputs start with this (`Stage.partition_inputs`).
PARTITION_INPUT = "partition "


@dataclass(frozen=True)
class Stage:
    """One materialization's view of its fingerprint: the asset, the partitions it writes ([""] when unpartitioned),
    the inputs it read ({name: JSON-able value}), the tables it writes and, for a stage that can keep some partitions
    while it recomputes others, each partition's own inputs ({partition: {name: value}}, names starting with
    PARTITION_INPUT, e.g. a digest of the rows of that partition it reads: `partition_reasons`)."""

    asset: str
    partitions: tuple[str, ...]
    inputs: Mapping[str, object]
    writes: tuple[str, ...]
    partition_inputs: Mapping[str, Mapping[str, object]] = field(default_factory=dict)
    # the materialization this stage belongs to, and the digests of what it wrote (`take_digests`): per partition, and
    # of the whole tables (every partition's rows)
    context: dg.AssetExecutionContext | None = field(default=None, compare=False, repr=False)
    written: dict[str, dict[str, str]] = field(default_factory=dict, compare=False, repr=False)
    tables: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    @property
    def fingerprint(self) -> str:
        """16 hex digits of the SHA-256 of the inputs (canonical JSON; the partitions' own inputs are not part of it)."""
        return hashlib.sha256(json.dumps(self.inputs, sort_keys=True, default=str).encode()).hexdigest()[:16]

    @property
    def data_version(self) -> dg.DataVersion:
        """The Dagster data version of what the stage wrote: `data_versions.version_of` the digests of its whole tables
        as written or kept (every partition's rows, as the module `shared.data_versions` says why; taken by `record` or
        `take_digests`), so that a re-run writing the same rows leaves everything downstream fresh; the fingerprint
        only before they were taken."""
        return dg.DataVersion(version_of(self.tables) if self.tables else self.fingerprint)

    def take_digests(self, con: duckdb.DuckDBPyConnection) -> None:
        """Take the digests of the tables it writes, as they stand, for `data_version`, and record them in the
        materialization's TABLE_DIGESTS metadata (each partition's own)."""
        for area in self.partitions:
            self.written[area] = self._output_digests(con, area)
            if self.context is not None:
                self.context.add_asset_metadata({TABLE_DIGESTS: self.written[area]}, partition_key=area or None)
        self.tables.update(self.written.get(UNPARTITIONED) or self._output_digests(con, UNPARTITIONED))

    def skip_reason(self, con: duckdb.DuckDBPyConnection) -> tuple[str | None, str]:
        """(why the stage may be skipped, or None; why it must run, or '' when skipped). Skipped only when every
        partition's record has this fingerprint and each written table still has the digest recorded."""
        records = self.records(con)
        missing = [area for area in self.partitions if area not in records]
        if missing:
            return None, "first run" if len(missing) == len(self.partitions) else f"first run of {', '.join(missing)}"
        for area in self.partitions:
            fingerprint, inputs, outputs, _ = records[area]
            if fingerprint != self.fingerprint:
                return None, "changed: " + _changes(_shared(inputs), _plain(self.inputs))
            if outputs != self._output_digests(con, area):
                return None, self._rewritten(area)
        since = min(record[3] for record in records.values())
        return (
            f"skipped: inputs unchanged since {since:%Y-%m-%d %H:%M:%S} UTC ({_summary(self.inputs)}); "
            f"{', '.join(self.writes)} kept as written",
            "",
        )

    def partition_reasons(self, con: duckdb.DuckDBPyConnection) -> dict[str, str | None]:
        """{partition: why it must be computed again, or None when its rows may be kept}, for a stage whose fingerprint
        changed (`skip_reason`): the upstream tables' digests cover every partition, so a partition is kept when the
        inputs other than those digests (code version, settings, as_of, snapshot) and its own `partition_inputs` are
        as recorded and its rows of each written table still have the digest recorded."""
        records = self.records(con)
        current = _plain(_untabled(self.inputs))
        reasons: dict[str, str | None] = {}
        for area in self.partitions:
            if area not in records:
                reasons[area] = "first run"
                continue
            _, inputs, outputs, _ = records[area]
            before = _untabled(inputs)
            after = {**current, **_plain(self.partition_inputs.get(area, {}))}
            if before != after:
                reasons[area] = "changed: " + _changes(before, after)
            elif outputs != self._output_digests(con, area):
                reasons[area] = self._rewritten(area)
            else:
                reasons[area] = None
        return reasons

    def record(self, con: duckdb.DuckDBPyConnection, outputs: Mapping[str, object] | None = None) -> None:
        """Record this fingerprint, the inputs (with each partition's own) and the digests of the tables as just
        written (or `outputs`, JSON-able: an asset check's result), for every partition."""
        create_tables(con, "stage_fingerprints")
        now = datetime.now(timezone.utc)
        if outputs is None:
            self.take_digests(con)
        rows = [
            (
                self.asset, area, self.fingerprint,
                json.dumps({**self.inputs, **self.partition_inputs.get(area, {})}, sort_keys=True, default=str),
                json.dumps(outputs if outputs is not None else self.written[area], default=str), now,
            )
            for area in self.partitions
        ]
        with transaction(con):
            con.executemany("INSERT OR REPLACE INTO stage_fingerprints VALUES (?, ?, ?, ?, ?, ?)", rows)

    def records(self, con: duckdb.DuckDBPyConnection) -> dict[str, tuple[str, dict, dict, datetime]]:
        """{partition: (fingerprint, inputs, outputs, recorded_at)} as recorded for this asset's partitions."""
        create_tables(con, "stage_fingerprints")
        return {
            area: (fingerprint, json.loads(inputs), json.loads(outputs), recorded_at)
            for area, fingerprint, inputs, outputs, recorded_at in con.execute(
                "SELECT research_area, fingerprint, inputs, outputs, recorded_at FROM stage_fingerprints "
                "WHERE asset = ? AND list_contains(?, research_area)", [self.asset, list(self.partitions)],
            ).fetchall()
        }

    def _rewritten(self, area: str) -> str:
        return f"{', '.join(self.writes)} changed since it was written{f' ({area})' if area else ''}"

    def _output_digests(self, con: duckdb.DuckDBPyConnection, area: str) -> dict[str, str]:
        return {table: table_digest(con, table, area if area != UNPARTITIONED else None) for table in self.writes}


def _plain(inputs: Mapping[str, object]) -> dict[str, object]:
    """`inputs` as they read back from their JSON record."""
    return json.loads(json.dumps(inputs, default=str))


def _shared(inputs: Mapping[str, object]) -> dict[str, object]:
    """Recorded `inputs` without a partition's own."""
    return {key: value for key, value in inputs.items() if not key.startswith(PARTITION_INPUT)}


def _untabled(inputs: Mapping[str, object]) -> dict[str, object]:
    """`inputs` without the upstream tables' digests."""
    return {key: value for key, value in inputs.items() if not key.startswith("table ")}


def stage(
    context: dg.AssetExecutionContext,
    con: duckdb.DuckDBPyConnection,
    *,
    reads: Sequence[str],
    writes: Sequence[str],
    settings: object = None,
    as_of: date | None = None,
    snapshot_id: str | None = None,
) -> Stage:
    """The Stage of this materialization: its inputs are the asset's code version, `settings` (JSON-able, e.g. a
    config's model_dump()), `as_of` (only for assets that depend on it), `snapshot_id` (for assets reading the raw KG
    tables) and the digest of each table in `reads`."""
    asset = context.asset_key
    inputs: dict[str, object] = {
        "code_version": context.assets_def.code_versions_by_key.get(asset),
        "settings": settings,
        **({"as_of": as_of.isoformat()} if as_of is not None else {}),
        **({"snapshot_id": snapshot_id} if snapshot_id is not None else {}),
        **{f"table {table}": table_digest(con, table) for table in reads},
    }
    partitions = tuple(context.partition_keys) if context.assets_def.partitions_def is not None else (UNPARTITIONED,)
    return Stage(asset.to_user_string(), partitions, inputs, tuple(writes), context=context)


def _changes(before: Mapping[str, object], after: Mapping[str, object]) -> str:
    """'as_of 2026-11-29 -> 2026-12-01, settings (top_k 5 -> 1), table publications' for every input that differs."""
    changed = []
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key), after.get(key)
        if old == new:
            continue
        if key == "settings":
            changed.append(_setting_changes(old, new))
        elif key.startswith(("table ", PARTITION_INPUT)):
            changed.append(key)
        else:
            changed.append(f"{key} {old} -> {new}")
    return ", ".join(changed)


def _setting_changes(before: object, after: object) -> str:
    """'settings (top_k 5 -> 1, weights)': each changed setting, with its values when they are single values."""
    if not (isinstance(before, dict) and isinstance(after, dict)):
        return "settings"

    def shown(name: str) -> str:
        old, new = before.get(name), after.get(name)
        return name if isinstance(old, (dict, list)) or isinstance(new, (dict, list)) else f"{name} {old} -> {new}"

    return f"settings ({', '.join(shown(name) for name in sorted(before | after) if before.get(name) != after.get(name))})"


def _summary(inputs: Mapping[str, object]) -> str:
    named = [f"{key} {inputs[key]}" for key in ("snapshot_id", "as_of") if key in inputs]
    tables = sum(1 for key in inputs if key.startswith("table "))
    return ", ".join([*named, "same settings and code version", *([f"{tables} upstream tables unchanged"] if tables else [])])


def kept_table(
    context: dg.AssetExecutionContext, con: duckdb.DuckDBPyConnection, run: Stage, skipped: str,
    preview_columns: list[str] | None = None, **figures: object,
) -> dg.MaterializeResult:
    """The result of an unpartitioned stage that was skipped: `skipped` (why), the standard metadata of each table it
    writes as it stands (the first as the asset's own, the others under `<table>/`), `figures`, and the same data
    version as when it was written."""
    context.log.info(f"{run.asset}: {skipped}")
    run.take_digests(con)
    first, *others = run.writes
    metadata = table_metadata(con, first, preview_columns=preview_columns)
    for table in others:
        metadata |= {f"{table}/row_count": table_metadata(con, table)["dagster/row_count"]}
    return dg.MaterializeResult(metadata={**metadata, "skipped": skipped, **figures}, data_version=run.data_version)



def kept_partitions(
    context: dg.AssetExecutionContext,
    con: duckdb.DuckDBPyConnection,
    run: Stage,
    skipped: str,
    *,
    columns: Sequence[str],
    figures: Callable[[pd.DataFrame], Mapping[str, object]],
    preview_columns: Sequence[str] | None,
    lineage: Mapping[str, Sequence[tuple[str, str]]] | None = None,
    run_extra: Mapping[str, object] | None = None,
    **extra: object,
) -> dg.MaterializeResult:
    """The result of a partitioned stage that was skipped: its first written table's rows of the run's research areas
    as they stand give each partition its own metadata (`metadata.add_partition_metadata`: `figures(area rows)`, the
    row count and preview, and `skipped`), and the run its `run/` figures (`figures` of all its rows, and `run_extra`);
    `extra` is added to the run's metadata.

    Args:
        columns: the columns `figures` reads (research_area is added).
    """
    context.log.info(f"{run.asset}: {skipped}")
    run.take_digests(con)
    table = run.writes[0]
    shown = ", ".join(dict.fromkeys(["research_area", *columns]))
    rows = con.execute(f"SELECT {shown} FROM {table} WHERE list_contains(?, research_area)", [list(run.partitions)]).df()
    metadata = table_description_metadata(con, table, lineage=lineage)
    add_partition_metadata(context, con, table, rows, figures, preview_columns=preview_columns)
    for area in run.partitions:
        context.add_asset_metadata({"skipped": skipped}, partition_key=area)
    return partitioned_result(
        context, {**metadata, **extra, "skipped": skipped, **run_figures({**figures(rows), **(run_extra or {})})}, run.data_version
    )


def evaluated_once(
    context: dg.AssetCheckExecutionContext,
    con: duckdb.DuckDBPyConnection,
    evaluate: Callable[[], dg.AssetCheckResult],
    *,
    code: str,
    reads: Sequence[str] = (),
    settings: object = None,
    snapshot_id: str | None = None,
) -> dg.AssetCheckResult:
    """The result of an asset check evaluated once per version of what it reads: `evaluate()` when its inputs (`code`,
    the check's code version; `settings`, its config; `snapshot_id`, for a check reading the raw KG tables; the digest
    of each table in `reads`) differ from those of its last evaluation recorded in stage_fingerprints (asset
    '<asset>:<check>'), else the result recorded then (passed or failed alike) with `skipped` saying why. `database`
    in the metadata always names the file `con` reads. The result, its metadata JSON-able values, is recorded with the
    inputs (the `outputs` of the record)."""
    inputs: dict[str, object] = {
        "code_version": code, "settings": settings,
        **({"snapshot_id": snapshot_id} if snapshot_id is not None else {}),
        **{f"table {table}": table_digest(con, table) for table in reads},
    }
    (spec,) = context.check_specs
    run = Stage(spec.key.to_user_string(), (UNPARTITIONED,), inputs, ())
    record = run.records(con).get(UNPARTITIONED)
    database = {"database": database_file(con)}
    if record is not None and record[0] == run.fingerprint and CHECK_RESULT in record[2]:
        kept = record[2][CHECK_RESULT]
        skipped = (
            f"skipped: inputs unchanged since {record[3]:%Y-%m-%d %H:%M:%S} UTC ({_summary(inputs)}); "
            f"the result of that evaluation ({'passed' if kept['passed'] else 'failed'})"
        )
        context.log.info(f"{run.asset}: {skipped}")
        return dg.AssetCheckResult(
            passed=kept["passed"], severity=dg.AssetCheckSeverity(kept["severity"]), description=kept["description"],
            metadata={**kept["metadata"], **database, "skipped": skipped},
        )
    why = "first run" if record is None else "changed: " + _changes(record[1], _plain(inputs))
    result = evaluate()
    kept = {
        "passed": result.passed, "severity": result.severity.value, "description": result.description,
        "metadata": {name: value.value if isinstance(value, dg.MetadataValue) else value for name, value in result.metadata.items()},
    }
    run.record(con, {CHECK_RESULT: kept})
    return dg.AssetCheckResult(
        passed=result.passed, severity=result.severity, description=result.description,
        metadata={**result.metadata, **database, "computed": why},
    )
