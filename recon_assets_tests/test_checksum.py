"""file_sha256 streams a file through SHA-256 in 1 MiB chunks."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from recon_assets.kg.checksum import file_sha256

SPANS_CHUNKS = bytes(range(256)) * (2 * 2**20 // 256) + b"tail"  # 2 MiB: many read buffers


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        # Known answers: FIPS 180-2 appendix B.1 ("abc") and the digest of the empty message.
        (b"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (b"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        # Crosses two chunk boundaries: the streamed digest must equal the one-shot digest.
        (SPANS_CHUNKS, hashlib.sha256(SPANS_CHUNKS).hexdigest()),
    ],
    ids=["empty", "abc", "three-chunks"],
)
def test_file_sha256(tmp_path: Path, content: bytes, expected: str) -> None:
    path = tmp_path / "export.bin"
    path.write_bytes(content)

    assert file_sha256(path) == expected
