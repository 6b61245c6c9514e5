"""Content checksums of KG export files, used to verify downloads and to name snapshots."""

from __future__ import annotations

import hashlib
import os

CHUNK_BYTES = 1024 * 1024


def file_sha256(path: str | os.PathLike[str]) -> str:
    """SHA-256 of a file's bytes, read in 1 MiB chunks so a 1.56 GB `graph.json` never sits in memory.

    Args:
        path: file to hash (symlinks are followed, as in the Hugging Face cache's snapshot links).
    Returns:
        64 lowercase hex characters (FIPS 180-4 SHA-256), the form the KG dataset card lists per file.
    Raises:
        OSError: the file cannot be opened or read.
    """
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(CHUNK_BYTES), b""):
            digest.update(chunk)
    return digest.hexdigest()
