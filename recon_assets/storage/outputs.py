"""The resource every report and export file is written through: where a database's outputs go, how many earlier
runs' files are kept, and the pruning of older ones (the rules are `storage.output_files`')."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import dagster as dg
from pydantic import Field

from recon_assets.storage import output_files


class OutputFiles(dg.ConfigurableResource):
    """The reports and exports made from the database `database` (the table store's setting: a DuckDB file, or
    `md:<name>`): each kind in `<folder>/<kind>/<name>/` (`storage.output_files.output_folder`; a MotherDuck database's
    under data/, `duckdb_settings.output_anchor`), with the newest run's files and `earlier_runs_kept`
    earlier ones kept."""

    database: str = Field(description="The table store's database: a DuckDB file's path, or md:<name>.")

    def earlier_runs_kept(self) -> int:
        """RECON_KEEP_OUTPUTS (`output_files.earlier_runs_kept`): read when a step starts, so a bad value stops it
        before anything is read or written.

        Raises:
            ValueError: not a whole number 0 or more, in one line.
        """
        return output_files.earlier_runs_kept()

    def folder(self, kind: str) -> Path:
        """The folder of `kind` (output_files.REPORTS, EXPORTS) for this database, created if missing.

        Raises:
            ValueError: a file holds the folder's name (one line naming both).
            OSError: it cannot be created (a full or read-only disk).
        """
        return output_files.prepared_folder(Path(self.database), kind)

    def prune(
        self, context: dg.AssetExecutionContext, folder: Path, output: str, keep: int, current: str, suffixes: Sequence[str] = ("",),
    ) -> output_files.Pruned:
        """Remove the files of `output`'s runs in `folder` beyond the run `current` and `keep` earlier ones
        (`output_files.prune`, same arguments) and log what was removed (a warning when some could not be)."""
        pruned = output_files.prune(folder, output, keep, current=current, suffixes=suffixes)
        (context.log.warning if pruned.failed else context.log.info)(pruned.summary(output, keep))
        return pruned
