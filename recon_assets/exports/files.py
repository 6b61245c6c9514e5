"""Writing export files whole: each is written beside its final name and renamed over it (os.replace, atomic on
POSIX), so a reader sees the previous file or the new one, never half of one."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq


def write_parquet(frame: pd.DataFrame, path: Path, schema: pa.Schema) -> Path:
    """Write `frame`'s columns of `schema`, in its order and types, to the Parquet file `path`.

    Raises:
        pyarrow.ArrowInvalid / ArrowTypeError: a value does not fit its column's type (nothing is replaced).
    """
    table = pa.Table.from_pandas(frame[schema.names], schema=schema, preserve_index=False)
    return _replace(path, lambda partial: pq.write_table(table, partial))


def write_lines(lines: Iterable[str], path: Path) -> Path:
    """Write `lines` to the UTF-8 text file `path`, each followed by a newline."""

    def write(partial: Path) -> None:
        with partial.open("w", encoding="utf-8", newline="\n") as handle:
            for line in lines:
                handle.write(line + "\n")

    return _replace(path, write)


def _replace(path: Path, write) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    try:
        write(partial)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return path
