"""How similar a sentence about the same subject is, and one about another: the measurement behind
`papers.verdicts.MIN_SENTENCE_SIMILARITY` (the bar a claim's quoted evidence sentence must reach). One JSON report.

    python benchmarks/claim_evidence_similarity.py

Records: every publication with a title and an abstract in the shipped sample graph (`recon_assets/sample/graph.json`),
its OpenAlex recording (`recon_assets/sample/openalex_cache.json`, abstracts rebuilt from `abstract_inverted_index`)
and the evaluation's publications (`recon_assets/reference/evaluation/publications.json`), one per DOI (first seen
wins, in that order). A title stands for a claim (one sentence stating a subject); an abstract's sentences
(`cues.sentences`, those of 6 words or more) stand for a work's sentences. Similarity is the cosine of the offline
judge's WordLlama embeddings (`verdicts.sentence_similarities`).

- `own`: a title against the most similar sentence of its own abstract (the same subject, by construction);
- `other`: a title against the most similar sentence of every other abstract (mostly another subject: the records are
  all Earth science, so some pairs share a topic, which makes this a hard negative set);
- `own_cue` / `other_cue`: the same against each sentence holding a cue (`cues.find_cues`), the sentences a claim's
  verdict quotes.

For each: count, median, percentiles and the share at or above each bar. Nothing is asserted.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from recon_assets.judgement.cues import find_cues, sentences
from recon_assets.judgement.text_embedding import embed, is_missing_text
from recon_assets.papers.verdicts import MIN_SENTENCE_SIMILARITY

PACKAGE = Path(__file__).resolve().parents[1] / "recon_assets"
BARS = (0.4, 0.45, 0.5, 0.55, 0.6)
MIN_WORDS = 6


def records() -> dict[str, tuple[str, str]]:
    """{DOI (lower case): (title, abstract)} of every titled abstract of the three sources (module docstring)."""
    found: dict[str, tuple[str, str]] = {}

    def add(doi: object, title: object, abstract: object) -> None:
        if isinstance(doi, str) and doi and not is_missing_text(title) and not is_missing_text(abstract):
            found.setdefault(doi.lower().removeprefix("https://doi.org/"), (str(title), str(abstract)))

    for line in (PACKAGE / "sample" / "graph.json").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row.get("type") == "node" and "Publication" in row.get("labels", []):
            properties = row["properties"]
            add(properties.get("doi"), properties.get("title"), properties.get("abstract"))
    for work in json.loads((PACKAGE / "sample" / "openalex_cache.json").read_text(encoding="utf-8"))["works"]:
        inverted = work.get("abstract_inverted_index") or {}
        words = sorted((at, word) for word, places in inverted.items() for at in places)
        add(work.get("doi"), work.get("title"), " ".join(word for _, word in words))
    for record in json.loads((PACKAGE / "reference" / "evaluation" / "publications.json").read_text(encoding="utf-8")).values():
        add(record.get("doi"), record.get("title"), record.get("abstract"))
    return found


def _figures(values: list[float]) -> dict:
    array = np.array(values, dtype=float)
    return {
        "n": len(array), "median": round(float(np.median(array)), 3),
        **{f"p{q}": round(float(np.percentile(array, q)), 3) for q in (5, 10, 90, 95, 99)},
        "share_at_or_above": {f"{bar:.2f}": round(float(np.mean(array >= bar)), 4) for bar in BARS},
    }


def measure() -> dict:
    """The four sets' figures (module docstring) and the bar in use."""
    found = records()
    keys = list(found)
    titles = embed([found[key][0] for key in keys])
    empty = np.zeros((0, titles.shape[1]), dtype=np.float32)
    every, cued = [], []
    for key in keys:
        abstract = found[key][1]
        kept = [" ".join(s.split()) for s in sentences(abstract) if len(s.split()) >= MIN_WORDS]
        every.append(embed(kept) if kept else empty)
        held = list(dict.fromkeys(cue.sentence for cue in find_cues(abstract)))
        cued.append(embed(held) if held else empty)
    own, other, own_cue, other_cue = [], [], [], []
    for i in range(len(keys)):
        for j in range(len(keys)):
            best = every[j] @ titles[i]
            if len(best):
                (own if i == j else other).append(float(best.max()))
            (own_cue if i == j else other_cue).extend(float(value) for value in cued[j] @ titles[i])
    return {
        "records": len(keys), "bar": MIN_SENTENCE_SIMILARITY,
        "own": _figures(own), "other": _figures(other), "own_cue": _figures(own_cue), "other_cue": _figures(other_cue),
    }


if __name__ == "__main__":
    print(json.dumps(measure(), indent=1))
