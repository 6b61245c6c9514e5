"""Content checksums of KG export files, used to verify downloads and to name snapshots."""

from __future__ import annotations

import hashlib
import os


def file_sha256(path: str | os.PathLike[str]) -> str:
    """SHA-256 of a file's bytes, streamed (hashlib.file_digest) so a 1.56 GB `graph.json` never sits in memory.

    Args:
        path: file to hash (symlinks are followed, as in the Hugging Face cache's snapshot links).
    Returns:
        64 lowercase hex characters (FIPS 180-4 SHA-256), the form the KG dataset card lists per file.
    Raises:
        OSError: the file cannot be opened or read.
    """
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()
