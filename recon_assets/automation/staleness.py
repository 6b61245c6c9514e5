"""Which assets and partitions are stale, and why: the answer Dagster's UI shows as "Stale" / "Code version" /
"Upstream data", computed from public instance APIs (`DagsterInstance.fetch_materializations`, `fetch_observations`
and the provenance tags of each materialization: `dagster/code_version`, `dagster/data_version`,
`dagster/input_data_version/<key>`, `dagster/input_event_pointer/<key>`).

Dagster computes stale status in a resolver of its own that it exposes only through the webserver's GraphQL
(`staleStatus`, `staleCauses`), not in its Python API; this module follows that resolver's rules, and
recon_assets_tests/test_staleness.py holds the two equal on the cases that matter here. The rules (Dagster 1.13):

- a partition (or unpartitioned asset) never materialized is MISSING;
- a materialized one is STALE when its code version differs from the one recorded, when a dependency was added or
  removed since, when an unpartitioned dependency's current data version differs from the one it read, or when a
  partition it read was materialized again after it read it with another data version than before;
- anything else is FRESH. Staleness does not flow on by itself: an asset below a stale one stays FRESH until that
  one is materialized again with a new data version (then it is STALE for "an input's data version changed").

One cause Dagster cannot see is added (`DATABASE`), as one DAGSTER_HOME may serve several --db files: the
materialization was made by a run for another database (its `recon/database` tag), or the database being run no
longer holds the tables' digests the materialization recorded (`shared.data_versions.TABLE_DIGESTS`: a file deleted,
replaced or written by hand).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import dagster as dg

from recon_assets.shared.data_versions import TABLE_DIGESTS
from recon_assets.shared.run_tags import DATABASE_TAG

CODE_VERSION_TAG = "dagster/code_version"
DATA_VERSION_TAG = "dagster/data_version"
INPUT_DATA_VERSION = "dagster/input_data_version/"
INPUT_EVENT_POINTER = "dagster/input_event_pointer/"
# Dagster's data version of an external asset never observed, and of an asset never materialized.
INITIAL, NULL = "INITIAL", "NULL"
# Above this many partitions of one dependency Dagster's resolver leaves the edge unchecked
# (SKIP_PARTITION_DATA_VERSION_DEPENDENCY_THRESHOLD in dagster/_core/definitions/data_version.py).
PARTITION_DEPENDENCY_LIMIT = 100

# Materializations read per query when the latest of each partition is looked for (`_Records.prefetch`).
PAGE = 500

MISSING, STALE, FRESH = "MISSING", "STALE", "FRESH"
# The kinds of cause: Dagster's own (CODE, DATA, DEPENDENCIES) and the one it cannot see (DATABASE).
CODE, DATA, DEPENDENCIES, DATABASE = "code", "data", "dependencies", "database"


@dataclass(frozen=True)
class Cause:
    """Why an asset partition is stale: its kind (CODE, DATA, DEPENDENCIES, DATABASE) and the words for it."""

    kind: str
    reason: str


@dataclass(frozen=True)
class Freshness:
    """The status of one asset partition (`partition` None for an unpartitioned asset): MISSING, STALE or FRESH,
    with the causes of a STALE one."""

    asset: dg.AssetKey
    partition: str | None
    status: str
    causes: tuple[Cause, ...] = ()

    @property
    def label(self) -> str:
        """'edge_reliability[atmosphere]' or 'kg_snapshot'."""
        name = self.asset.to_user_string()
        return f"{name}[{self.partition}]" if self.partition is not None else name

    @property
    def why(self) -> str:
        """'never materialized', or the causes joined by '; '; '' when FRESH."""
        if self.status == MISSING:
            return "never materialized"
        return "; ".join(cause.reason for cause in self.causes)


@dataclass
class _Records:
    """The latest materialization (or, for an external asset, observation) of each asset partition, fetched once."""

    instance: dg.DagsterInstance
    external: frozenset[dg.AssetKey]
    latest: dict[tuple[dg.AssetKey, str | None], dg.EventLogRecord | None] = field(default_factory=dict)
    databases: dict[str, str | None] = field(default_factory=dict)
    earlier: dict[tuple[dg.AssetKey, int], tuple[dict[str, dg.EventLogRecord], str | None, bool]] = field(default_factory=dict)

    def database(self, record: dg.EventLogRecord) -> str | None:
        """The `recon/database` tag of the run that made `record` (None for a run without it, e.g. a test's)."""
        run_id = record.event_log_entry.run_id
        if run_id not in self.databases:
            run = self.instance.get_run_by_id(run_id) if run_id else None
            self.databases[run_id] = run.tags.get(DATABASE_TAG) if run is not None else None
        return self.databases[run_id]

    def get(self, key: dg.AssetKey, partition: str | None) -> dg.EventLogRecord | None:
        if (key, partition) not in self.latest:
            if key in self.external:
                found = self.instance.fetch_observations(
                    dg.AssetRecordsFilter(key, asset_partitions=[partition] if partition is not None else None), limit=1
                ).records
            else:
                found = self._materializations(dg.AssetRecordsFilter(key, asset_partitions=[partition] if partition is not None else None))
            self.latest[(key, partition)] = found[0] if found else None
        return self.latest[(key, partition)]

    def _materializations(self, records_filter: dg.AssetRecordsFilter) -> Sequence[dg.EventLogRecord]:
        return self.instance.fetch_materializations(records_filter, limit=1).records

    def prefetch(self, key: dg.AssetKey, partitions: Sequence[str]) -> None:
        """Fetch the latest materialization of each of `partitions` of `key` with a few queries (newest first, a page
        of PAGE records at a time, until each partition has one or none are left) instead of one per partition."""
        wanted = {partition for partition in partitions if (key, partition) not in self.latest}
        fetch = self.instance.fetch_observations if key in self.external else self.instance.fetch_materializations
        cursor = None
        while wanted:
            page = fetch(dg.AssetRecordsFilter(key, asset_partitions=sorted(wanted)), limit=PAGE, cursor=cursor)
            for record in page.records:
                partition = record.event_log_entry.dagster_event.partition
                if partition in wanted:
                    self.latest[(key, partition)] = record
                    wanted.discard(partition)
            if not page.has_more:
                break
            cursor = page.cursor
        for partition in wanted:
            self.latest[(key, partition)] = None

    def data_version(self, key: dg.AssetKey, partition: str | None) -> str:
        """The current data version: INITIAL for an external asset never observed, NULL for an asset never
        materialized (Dagster's DEFAULT_DATA_VERSION and NULL_DATA_VERSION)."""
        record = self.get(key, partition)
        if record is None:
            return INITIAL if key in self.external else NULL
        return _tags(record).get(DATA_VERSION_TAG) or INITIAL

    def updated_after(self, key: dg.AssetKey, partition: str, pointer: int | None) -> bool:
        """Whether `partition` of `key` was materialized after the event `pointer` with another data version than
        the one it had at `pointer` (Dagster's `_is_dep_updated` for a partitioned dependency)."""
        latest = self.get(key, partition)
        if latest is None or (pointer is not None and latest.storage_id <= pointer):
            return False
        before = self._latest_before(key, pointer + 1, partition) if pointer is not None else None
        previous = _tags(before).get(DATA_VERSION_TAG) if before is not None else None
        return previous != _tags(latest).get(DATA_VERSION_TAG)

    def _latest_before(self, key: dg.AssetKey, before: int, partition: str) -> dg.EventLogRecord | None:
        """The latest materialization of `partition` of `key` stored before the event `before`. The partitions of
        `key` are read together, newest first, a page at a time until `partition` is found (kept for the next
        partition asked about: one query for every partition of a run in the usual case)."""
        found, cursor, more = self.earlier.setdefault((key, before), ({}, None, True))
        while partition not in found and more:
            page = self.instance.fetch_materializations(dg.AssetRecordsFilter(key, before_storage_id=before), limit=PAGE, cursor=cursor)
            for record in page.records:
                found.setdefault(record.event_log_entry.dagster_event.partition, record)
            cursor, more = page.cursor, page.has_more
            self.earlier[(key, before)] = (found, cursor, more)
        return found.get(partition)


def _tags(record: dg.EventLogRecord) -> Mapping[str, str]:
    entry = record.event_log_entry
    event = entry.asset_materialization or entry.asset_observation
    return (event.tags or {}) if event is not None else {}


def _metadata(record: dg.EventLogRecord) -> Mapping[str, object]:
    event = record.event_log_entry.asset_materialization
    return {name: getattr(value, "value", value) for name, value in (event.metadata if event else {}).items()}


def freshness(
    instance: dg.DagsterInstance,
    specs: Iterable[dg.AssetSpec],
    external: Iterable[dg.AssetKey],
    *,
    selected: Iterable[dg.AssetKey] | None = None,
    database: str | None = None,
    database_digests: Callable[[Sequence[str], Sequence[str] | None], Mapping[str | None, Mapping[str, str]]] | None = None,
) -> list[Freshness]:
    """The Freshness of every partition of every asset in `selected` (default: every asset of `specs` not in
    `external`), in the order of `specs`.

    Args:
        specs: every asset's spec (`Definitions.resolve_all_asset_specs()`), its dependencies included.
        external: the keys of external assets (observed, never materialized by Dagster).
        database: the database being run, as runs are tagged with it (`recon/database`); when given, an asset
            partition materialized by a run tagged with another database is STALE (DATABASE).
        database_digests: `shared.data_versions.written_digests` bound to a connection to the database being run
            ((tables, research areas or None) -> {area or None: {table: digest}}); when given, an asset partition
            whose recorded TABLE_DIGESTS differ from the database's is STALE (DATABASE).

    Raises:
        ValueError: an asset depends on a partitioned asset with other partitions than its own.
    """
    by_key = {spec.key: spec for spec in specs}
    outside = frozenset(external)
    records = _Records(instance, outside)
    chosen = set(selected) if selected is not None else {key for key in by_key if key not in outside}
    found: list[Freshness] = []
    for key, spec in by_key.items():
        if key not in chosen:
            continue
        partitions = spec.partitions_def.get_partition_keys(dynamic_partitions_store=instance) if spec.partitions_def is not None else [None]
        if spec.partitions_def is not None:
            records.prefetch(key, partitions)
        # an unpartitioned asset reads every partition of a partitioned dependency: fetched together too (146 queries
        # of one record each for reliability_evaluation's dependencies before, the most of a `recon run`'s planning)
        for dep in spec.deps:
            if by_key[dep.asset_key].partitions_def is not None:
                records.prefetch(dep.asset_key, by_key[dep.asset_key].partitions_def.get_partition_keys(dynamic_partitions_store=instance))
        statuses = [_status(records, by_key, spec, partition) for partition in partitions]
        if database is not None:
            statuses = [_other_database(records, status, database) for status in statuses]
        if database_digests is not None:
            statuses = _database_check(records, spec, statuses, database_digests)
        found += statuses
    return found


def _status(records: _Records, by_key: Mapping[dg.AssetKey, dg.AssetSpec], spec: dg.AssetSpec, partition: str | None) -> Freshness:
    record = records.get(spec.key, partition)
    if record is None:
        return Freshness(spec.key, partition, MISSING)
    tags = _tags(record)
    if CODE_VERSION_TAG not in tags:  # no provenance recorded: Dagster compares timestamps; every materialization here has it
        return Freshness(spec.key, partition, FRESH)
    causes: list[Cause] = []
    if spec.code_version and spec.code_version != tags[CODE_VERSION_TAG]:
        causes.append(Cause(CODE, f"code version changed ({tags[CODE_VERSION_TAG]} -> {spec.code_version})"))
    read = {name[len(INPUT_DATA_VERSION):] for name in tags if name.startswith(INPUT_DATA_VERSION)}
    deps = [dep.asset_key for dep in spec.deps]
    for removed in sorted(read - {dep.to_user_string() for dep in deps}):
        causes.append(Cause(DEPENDENCIES, f"removed dependency on {removed}"))
    for dep in sorted(deps, key=lambda k: k.to_user_string()):
        name = dep.to_user_string()
        if name not in read:
            causes.append(Cause(DEPENDENCIES, f"new dependency on {name}"))
            continue
        dep_spec = by_key[dep]
        if dep_spec.partitions_def is None:
            before, now = tags[INPUT_DATA_VERSION + name], records.data_version(dep, None)
            if before != now and not (before == INITIAL and now == NULL):
                causes.append(Cause(DATA, f"input {name} has a new data version ({before} -> {now})"))
            continue
        pointer_text = tags.get(INPUT_EVENT_POINTER + name, "NULL")
        pointer = int(pointer_text) if pointer_text.isdigit() else None
        updated = [p for p in _dep_partitions(spec, dep_spec, partition, records.instance) if records.updated_after(dep, p, pointer)]
        if updated:
            shown = updated[0] if len(updated) == 1 else f"{len(updated)} research areas"
            causes.append(Cause(DATA, f"input {name} has a new data version ({shown})"))
    return Freshness(spec.key, partition, STALE if causes else FRESH, tuple(causes))


def _dep_partitions(spec: dg.AssetSpec, dep_spec: dg.AssetSpec, partition: str | None, instance: dg.DagsterInstance) -> list[str]:
    """The partitions of `dep_spec` that `partition` of `spec` reads (Dagster's default partition mappings: the same
    key between assets with the same partitions, every key for an unpartitioned asset); [] past
    PARTITION_DEPENDENCY_LIMIT, as Dagster's resolver."""
    if partition is None:
        keys = dep_spec.partitions_def.get_partition_keys(dynamic_partitions_store=instance)
        return keys if len(keys) < PARTITION_DEPENDENCY_LIMIT else []
    if spec.partitions_def != dep_spec.partitions_def:
        raise ValueError(f"{spec.key.to_user_string()} reads {dep_spec.key.to_user_string()} across different partitions")
    return [partition]


def _other_database(records: _Records, status: Freshness, database: str) -> Freshness:
    """`status` with DATABASE added when it was materialized by a run for another database than `database`."""
    record = records.get(status.asset, status.partition) if status.status != MISSING else None
    made_for = records.database(record) if record is not None else None
    if made_for is None or made_for == database:
        return status
    cause = Cause(DATABASE, f"materialized for another database ({made_for})")
    return Freshness(status.asset, status.partition, STALE, (*status.causes, cause))


def _database_check(
    records: _Records, spec: dg.AssetSpec, statuses: list[Freshness],
    database_digests: Callable[[Sequence[str], Sequence[str] | None], Mapping[str | None, Mapping[str, str]]],
) -> list[Freshness]:
    """`statuses` with DATABASE added to each materialized partition whose recorded TABLE_DIGESTS the database no
    longer holds (one scan per table for every partition)."""
    recorded: dict[str | None, Mapping[str, str]] = {}
    for status in statuses:
        record = records.get(spec.key, status.partition) if status.status != MISSING else None
        digests = _metadata(record).get(TABLE_DIGESTS) if record is not None else None
        if isinstance(digests, str):
            digests = json.loads(digests)
        if digests:
            recorded[status.partition] = digests
    if not recorded:
        return statuses
    tables = sorted({table for digests in recorded.values() for table in digests})
    partitioned = spec.partitions_def is not None
    now = database_digests(tables, [p for p in recorded if p is not None] if partitioned else None)
    checked = []
    for status in statuses:
        digests = recorded.get(status.partition)
        differ = sorted(t for t, d in (digests or {}).items() if now.get(status.partition, {}).get(t) != d)
        if differ:
            cause = Cause(DATABASE, f"the database no longer holds the {', '.join(differ)} rows this materialization wrote")
            status = Freshness(status.asset, status.partition, STALE, (*status.causes, cause))
        checked.append(status)
    return checked


def stale_partitions(statuses: Iterable[Freshness]) -> dict[dg.AssetKey, list[str | None]]:
    """{asset: its MISSING or STALE partitions ([None] for an unpartitioned asset)}, assets with none left out."""
    due: dict[dg.AssetKey, list[str | None]] = {}
    for status in statuses:
        if status.status != FRESH:
            due.setdefault(status.asset, []).append(status.partition)
    return due


def partition_ranges(due: Iterable[str], order: Sequence[str]) -> list[tuple[str, str]]:
    """The runs of consecutive partitions (in `order`, the partitions definition's) that cover `due` exactly, each as
    (first, last): a single-run backfill covers one range of partitions."""
    wanted = set(due)
    ranges: list[tuple[str, str]] = []
    start: str | None = None
    previous: str | None = None
    for key in order:
        if key in wanted and start is None:
            start = key
        elif key not in wanted and start is not None:
            ranges.append((start, previous))
            start = None
        previous = key
    if start is not None:
        ranges.append((start, previous))
    return ranges
