"""Sentence embeddings for publication text, computed offline with WordLlama.

WordLlama (github.com/dleemiller/WordLlama, MIT) pools token embeddings taken from a large language
model's embedding table; the `l2_supercat` weights (256 dimensions) and their tokenizer ship inside the
wheel, so loading never needs the network. `embed` computes vectors; `embed_cached` wraps it with a cache
of earlier vectors keyed by `text_sha256`, so that only texts not seen before are embedded. `cosine_similarities` is the
one similarity of two lists of texts, over either (the claim verdicts and the research briefs use it).

Every text is cut to `model_input.MAX_MODEL_TEXT_CHARACTERS` before it reaches the model, and texts are embedded in
batches of at most `BATCH_CHARACTERS` characters (padding included), so memory is bounded by the batch, never by
the longest text: WordLlama pads each batch to its longest text and gathers a (texts x tokens x 256) float32 array.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Mapping, Sequence
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from recon_assets.judgement.model_input import MAX_MODEL_TEXT_CHARACTERS, model_text

if TYPE_CHECKING:
    from wordllama.inference import WordLlamaInference

_CONFIG = "l2_supercat"
EMBEDDING_DIM = 256
MODEL_ID = f"wordllama-{version('wordllama')}/{_CONFIG}-{EMBEDDING_DIM}"

# Characters per model call, counted as texts x the longest text of the call (WordLlama pads to it): 64 texts of
# 2,000 characters, WordLlama's own default batch of 64 at typical abstract length. At worst one token per
# character, the gathered token vectors take BATCH_CHARACTERS x 256 x 4 bytes = 131 MB; a longer text (up to
# MAX_MODEL_TEXT_CHARACTERS) goes in a smaller batch, down to one text alone.
BATCH_CHARACTERS = 64 * 2_000
assert MAX_MODEL_TEXT_CHARACTERS <= BATCH_CHARACTERS

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
        texts: n texts; missing ones (see `is_missing_text`) are allowed. Each is cut to MAX_MODEL_TEXT_CHARACTERS
            (`model_input.model_text`) before it is embedded.

    Returns:
        float32 array of shape (n, EMBEDDING_DIM), each row L2-normalised; a missing text, or one whose tokens
        all pool to zero, gets the zero vector, so its similarity to anything is 0.

    Raises:
        FileNotFoundError: the WordLlama weights are not inside the installed wheel.
    """
    vectors = np.zeros((len(texts), EMBEDDING_DIM), dtype=np.float32)
    present = {i: model_text(str(text)) for i, text in enumerate(texts) if not is_missing_text(text)}
    # Each batch is padded to its longest text; batching texts of similar length is about 40% faster
    # on real abstracts, and pooling ignores padding, so the vectors are identical.
    order = sorted(present, key=lambda i: len(present[i]))
    for batch in _batches(order, [len(present[i]) for i in order]):
        # norm=False: the library divides by the norm unguarded, which turns a zero vector into NaN.
        pooled = _model().embed([present[i] for i in batch], norm=False, batch_size=len(batch))
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        vectors[batch] = np.divide(pooled, norms, out=np.zeros_like(pooled), where=norms > 0)
    return vectors


def cosine_similarities(embed_texts: Callable[[Sequence[object]], np.ndarray], queries: Sequence[object], texts: Sequence[object]) -> np.ndarray:
    """Cosine similarity of each query to each text: the dot products of their unit vectors.

    Args:
        embed_texts: n texts -> float32 array of shape (n, d) of L2-normalised rows (zero rows for missing texts), as
            `embed` or the cache in front of it (`embedding_store.embedded`) return; called once for the queries and
            once for the texts.
        queries, texts: any texts; missing ones get similarity 0.

    Returns:
        float32 array of shape (len(queries), len(texts)), values in [-1, 1].
    """
    return embed_texts(list(queries)) @ embed_texts(list(texts)).T


def _batches(order: list[int], lengths: list[int]) -> list[list[int]]:
    """`order` (texts sorted by length, `lengths` theirs) cut into consecutive batches whose texts x longest
    length stays within BATCH_CHARACTERS (a text alone always makes a batch)."""
    batches: list[list[int]] = []
    for i, length in zip(order, lengths):
        if batches and (len(batches[-1]) + 1) * max(length, 1) <= BATCH_CHARACTERS:
            batches[-1].append(i)
        else:
            batches.append([i])
    return batches


def text_sha256(text: str) -> str:
    """Hex SHA-256 of the UTF-8 text as the model sees it (`model_text`): the key of its vector in an embedding
    cache (with MODEL_ID). Two texts equal up to the cut have one vector and one key."""
    return hashlib.sha256(model_text(text).encode("utf-8")).hexdigest()


def embed_cached(
    texts: Sequence[object], lookup: Callable[[list[str]], Mapping[str, np.ndarray]]
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """`embed`, taking the vectors of texts embedded before from a cache instead of the model.

    Args:
        texts: n texts; missing ones (see `is_missing_text`) get the zero vector and are never looked up.
        lookup: given the distinct `text_sha256` keys of the present texts, returns the cached vectors it
            holds ({key: float32 vector of EMBEDDING_DIM}) for this MODEL_ID; absent keys are embedded.

    Returns:
        (vectors, fresh): vectors as `embed` returns them, shape (n, EMBEDDING_DIM); fresh holds the vectors
        computed by this call, {key: vector}, for the caller to store. `embed` is called once, on the
        distinct texts not in the cache, or not at all.
    """
    vectors = np.zeros((len(texts), EMBEDDING_DIM), dtype=np.float32)
    keys = {i: text_sha256(str(text)) for i, text in enumerate(texts) if not is_missing_text(text)}
    known = dict(lookup(sorted(set(keys.values()))))
    # One position per new key: equal keys are equal texts.
    new = {key: i for i, key in keys.items() if key not in known}
    fresh = dict(zip(new, embed([texts[i] for i in new.values()]))) if new else {}
    known.update(fresh)
    for i, key in keys.items():
        vectors[i] = known[key]
    return vectors, fresh
