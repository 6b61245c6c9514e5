"""The embedding cache `text_embeddings` read and written: the vectors of the project's embedding model
(`text_embedding.MODEL_ID`) by the SHA-256 of their text, so a run embeds only the texts no run embedded before. Shared by
the coherence judge, the papers' claim verdicts and the research briefs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from recon_assets.judgement.text_embedding import MODEL_ID, embed_cached
from recon_assets.storage.tables import Tables


def cached_vectors(con: Tables, keys: list[str]) -> dict[str, np.ndarray]:
    """{text_sha256: float32 vector of EMBEDDING_DIM} that text_embeddings holds for MODEL_ID and these keys (absent
    keys are left out)."""
    found = con.query("text_embedding_vectors", [MODEL_ID, keys])
    return dict(zip(found["text_sha256"], found["vector"]))


def store_vectors(con: Tables, fresh: Mapping[str, np.ndarray]) -> None:
    """Keep the vectors `fresh` ({text_sha256: vector}, computed for MODEL_ID) in text_embeddings (upserted)."""
    con.upsert("text_embeddings", pd.DataFrame({"model_id": MODEL_ID, "text_sha256": list(fresh), "vector": list(fresh.values())}))


def embedded(con: Tables, texts: Sequence[object]) -> np.ndarray:
    """The texts' unit vectors, shape (len(texts), EMBEDDING_DIM) (`text_embedding.embed_cached`), through the cache:
    the vectors it lacks are computed and stored."""
    vectors, fresh = embed_cached(list(texts), lambda keys: cached_vectors(con, keys))
    if fresh:
        store_vectors(con, fresh)
    return vectors
