"""Writing export files whole (`output_files.write_whole`): a reader sees the previous file or the new one, never half
of one."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from recon_assets.storage.output_files import write_whole


def write_parquet(frame: pd.DataFrame, path: Path, schema: pa.Schema) -> Path:
    """Write `frame`'s columns of `schema`, in its order and types, to the Parquet file `path`.

    Raises:
        pyarrow.ArrowInvalid / ArrowTypeError: a value does not fit its column's type (nothing is replaced).
    """
    table = pa.Table.from_pandas(frame[schema.names], schema=schema, preserve_index=False)
    return write_whole(path, lambda partial: pq.write_table(table, partial))


def write_lines(lines: Iterable[str], path: Path) -> Path:
    """Write `lines` to the UTF-8 text file `path`, each followed by a newline."""

    def write(partial: Path) -> None:
        with partial.open("w", encoding="utf-8", newline="\n") as handle:
            for line in lines:
                handle.write(line + "\n")

    return write_whole(path, write)
