"""Sentence embeddings for publication text, computed offline with WordLlama.

WordLlama (github.com/dleemiller/WordLlama, MIT) pools token embeddings taken from a large language
model's embedding table; the `l2_supercat` weights (256 dimensions) and their tokenizer ship inside the
wheel, so loading never needs the network. `embed` is the only entry point the judge uses.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from wordllama.inference import WordLlamaInference

_CONFIG = "l2_supercat"
EMBEDDING_DIM = 256
MODEL_ID = f"wordllama-{version('wordllama')}/{_CONFIG}-{EMBEDDING_DIM}"

# The KG writes 'N/A' where a publication has no abstract; it is not text to embed.
_MISSING_MARKERS = frozenset({"", "n/a"})


def is_missing_text(value: object) -> bool:
    """True for None, NaN/NA, blank strings and the KG's 'N/A' placeholder (any case)."""
    if isinstance(value, str):
        return value.strip().lower() in _MISSING_MARKERS
    return bool(pd.isna(value))


@functools.cache
def _model() -> WordLlamaInference:
    # Imported on first use: importing wordllama runs logging.basicConfig(level=INFO) on the root
    # logger, which loading the code location should not do.
    import wordllama

    # Pointing cache_dir at the package folder and disabling downloads makes a missing weight file
    # a FileNotFoundError instead of a silent request to huggingface.co.
    return wordllama.WordLlama.load(
        config=_CONFIG,
        dim=EMBEDDING_DIM,
        cache_dir=Path(wordllama.__file__).parent,
        disable_download=True,
    )


def embed(texts: Sequence[object]) -> np.ndarray:
    """Embed texts as unit vectors, so that a dot product is the cosine similarity.

    Args:
        texts: n texts; missing ones (see `is_missing_text`) are allowed.

    Returns:
        float32 array of shape (n, EMBEDDING_DIM), each row L2-normalised; a missing text, or one whose tokens
        all pool to zero, gets the zero vector, so its similarity to anything is 0.

    Raises:
        FileNotFoundError: the WordLlama weights are not inside the installed wheel.
    """
    vectors = np.zeros((len(texts), EMBEDDING_DIM), dtype=np.float32)
    present = [i for i, text in enumerate(texts) if not is_missing_text(text)]
    # Each batch is padded to its longest text; batching texts of similar length is about 40% faster
    # on real abstracts, and pooling ignores padding, so the vectors are identical.
    present.sort(key=lambda i: len(str(texts[i])))
    if present:
        # norm=False: the library divides by the norm unguarded, which turns a zero vector into NaN.
        pooled = _model().embed([str(texts[i]) for i in present], norm=False)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        vectors[present] = np.divide(pooled, norms, out=np.zeros_like(pooled), where=norms > 0)
    return vectors
