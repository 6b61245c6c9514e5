"""How much text any model is given: one documented cut, so that memory is bounded by the batch, not by the
longest text a KG or OpenAlex record happens to hold.

No Dagster import; used by `text_embedding` (WordLlama) and meant for any prompt built for an LLM judge.
"""

from __future__ import annotations

# WordLlama l2_supercat was trained on texts cut to 256 tokens (its training config `max_length = 256`, about
# 1,000 characters of English), so a mean-pooled vector barely moves past a few thousand characters. 10,000
# characters keeps every real title + abstract whole (the longest in the shipped sample is 3,347 characters;
# journals cap abstracts at 250-500 words, about 3,500 characters) and stops a pathological value (a 50 MB
# "abstract" is accepted by the ingest's 64 MiB line cap) from being tokenized and padded in full. The same cut
# bounds an LLM prompt: Groq's free tier allows 12K tokens per minute (DOMAIN.md), far more than two cut texts.
MAX_MODEL_TEXT_CHARACTERS = 10_000


def model_text(text: str) -> str:
    """`text` cut to its first MAX_MODEL_TEXT_CHARACTERS characters (unchanged when shorter)."""
    return text[:MAX_MODEL_TEXT_CHARACTERS]
