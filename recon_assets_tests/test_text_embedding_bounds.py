"""Issue 14: one 50,000,000-character abstract (under the ingest's 64 MiB line cap, so accepted) made the embedder
pad a batch to it: 15 GiB, then "Unable to allocate 134 GiB". Text given to the model is cut to a documented length
and memory is bounded by the batch, not by the longest text. The real WordLlama model runs."""

from __future__ import annotations

import tracemalloc

import numpy as np

from recon_assets.judgement import text_embedding
from recon_assets.judgement.model_input import MAX_MODEL_TEXT_CHARACTERS, model_text
from recon_assets.judgement.text_embedding import BATCH_CHARACTERS, embed, embed_cached, text_sha256

ABSTRACT = (
    "Precipitation estimates from the Integrated Multi-satellitE Retrievals for GPM (IMERG) are compared with rain "
    "gauges over complex terrain; the V07 product reduces the bias of V06. "
)
HUGE = (ABSTRACT * (50_000_000 // len(ABSTRACT) + 1))[:50_000_000]


def test_a_50_million_character_abstract_is_cut_and_memory_stays_bounded(monkeypatch) -> None:
    model = text_embedding._model()
    seen: list[list[str]] = []
    real_embed = model.embed

    def recording_embed(texts, **kwargs):
        seen.append(list(texts))
        return real_embed(texts, **kwargs)

    monkeypatch.setattr(model, "embed", recording_embed)
    texts = [ABSTRACT, HUGE, "Aerosol optical depth from MODIS over East Asia."]
    tracemalloc.start()
    try:
        vectors = embed(texts)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert vectors.shape == (3, text_embedding.EMBEDDING_DIM) and np.isfinite(vectors).all()
    longest = max(len(text) for batch in seen for text in batch)
    assert longest == MAX_MODEL_TEXT_CHARACTERS
    assert all(len(batch) * max(map(len, batch)) <= BATCH_CHARACTERS for batch in seen)
    # Padded to 50 M tokens the gathered float32 token vectors alone would take 3 x 50e6 x 256 x 4 bytes = 153 GB; cut,
    # one batch takes at most BATCH_CHARACTERS x 256 x 4 = 131 MB (Python-side allocations, numpy's included).
    assert peak < 200 * 2**20, f"peak {peak / 2**20:.0f} MiB"
    np.testing.assert_array_equal(vectors[1], embed([HUGE[:MAX_MODEL_TEXT_CHARACTERS]])[0])


def test_texts_equal_up_to_the_cut_share_one_cache_key_and_short_texts_keep_theirs() -> None:
    assert text_sha256(HUGE) == text_sha256(HUGE[:MAX_MODEL_TEXT_CHARACTERS]) == text_sha256(HUGE[:MAX_MODEL_TEXT_CHARACTERS + 1])
    assert model_text(ABSTRACT) == ABSTRACT
    vectors, fresh = embed_cached([HUGE, HUGE[: MAX_MODEL_TEXT_CHARACTERS + 5]], lambda keys: {})
    assert len(fresh) == 1
    np.testing.assert_array_equal(vectors[0], vectors[1])
