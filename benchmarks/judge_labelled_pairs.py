"""Run the offline judge on the labelled dispute and control pairs and print what it calls them (one JSON report).

    python benchmarks/judge_labelled_pairs.py

Pairs: `recon_assets/reference/evaluation/labelled_pairs.csv` (kind `dispute`: a published comment or rebuttal on the
original paper; kind `control`: a newer same-topic paper that is not a dispute). Each pair is judged as the pipeline
judges (older = original, newer = the comment or control paper): its text is title + abstract as
`judge_edges` builds it (the abstract only where `publications.json` holds an openly licensed one, else the title
alone), the similarity is the WordLlama cosine of the two texts, and the verdict is `judge_pair(similarity,
find_cue(newer text))`. Figures are given on three nested sets of pairs, each with its denominator:

- `both_abstracts`: the original's and the newer paper's abstracts are both available (the strict set);
- `newer_abstract`: the newer paper's abstract is available (the text the cue is looked for in);
- `all_known`: every pair whose two DOIs are known (title only where no open abstract).

For each set: disputes called CONTRADICTED / disputes, controls called CONTRADICTED / controls, and the same counts
for the cue alone (`find_cue` of the newer text is a contradiction, whatever the similarity). Beside them, the cue
reading speed (`find_cue` texts per second over the pairs' newer texts, best of 3). Nothing is asserted; the
figures are for the report (issue 10, "Tests and measurements").
"""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path

from recon_assets.judgement.offline_judge import JUDGE_ID, CueKind, find_cue, judge_pair
from recon_assets.judgement.text_embedding import embed, is_missing_text

EVALUATION = Path(__file__).resolve().parents[1] / "recon_assets" / "reference" / "evaluation"
SETS = ("both_abstracts", "newer_abstract", "all_known")


def _text(record: dict) -> str:
    """Title + abstract, as `judge_edges` joins them."""
    return ". ".join(str(part) for part in (record.get("title"), record.get("abstract")) if not is_missing_text(part))


def judged_pairs() -> list[dict]:
    """One row per labelled pair with both DOIs in publications.json: pair_id, kind, the sets it belongs to,
    similarity, verdict, cue kind and cue phrase."""
    publications = json.loads((EVALUATION / "publications.json").read_text(encoding="utf-8"))
    with (EVALUATION / "labelled_pairs.csv").open(encoding="utf-8", newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if row["original_doi"] and row["comment_doi"]]
    pairs = [(row, publications[row["original_doi"].lower()], publications[row["comment_doi"].lower()]) for row in rows]
    vectors = embed([_text(record) for _, older, newer in pairs for record in (older, newer)])
    judged = []
    for index, (row, older, newer) in enumerate(pairs):
        similarity = round(float(vectors[2 * index] @ vectors[2 * index + 1]), 4)
        cue = find_cue(_text(newer))
        has_older, has_newer = (not is_missing_text(record.get("abstract")) for record in (older, newer))
        judged.append(
            {
                "pair_id": row["pair_id"],
                "kind": row["kind"],
                "sets": [name for name, member in zip(SETS, (has_older and has_newer, has_newer, True)) if member],
                "similarity": similarity,
                "verdict": judge_pair(similarity, cue).verdict,
                "cue_kind": str(cue.kind) if cue else None,
                "cue_phrase": cue.phrase if cue else None,
            }
        )
    return judged


def report(judged: list[dict]) -> dict:
    """Per set: disputes and controls called CONTRADICTED by the judge and by the cue alone, with denominators."""
    figures = {}
    for name in SETS:
        members = [pair for pair in judged if name in pair["sets"]]
        figures[name] = {}
        for kind in ("dispute", "control"):
            of_kind = [pair for pair in members if pair["kind"] == kind]
            figures[name][kind] = {
                "pairs": len(of_kind),
                "judged_contradicted": sum(pair["verdict"] == "CONTRADICTED" for pair in of_kind),
                "cue_contradiction": sum(pair["cue_kind"] == CueKind.CONTRADICTION for pair in of_kind),
                "below_similarity_gate": sum(pair["verdict"] == "UNVERIFIED" for pair in of_kind),
            }
    return {"judge": JUDGE_ID, "sets": figures, "pairs": judged}


def cue_texts_per_second(texts: list[str], repeats: int = 3) -> float:
    """`find_cue` throughput over `texts`, best of `repeats` passes (a printed figure, never asserted)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for text in texts:
            find_cue(text)
        best = min(best, time.perf_counter() - start)
    return len(texts) / best if best > 0 else float("inf")


def main() -> None:
    publications = json.loads((EVALUATION / "publications.json").read_text(encoding="utf-8"))
    figures = report(judged_pairs())
    figures["find_cue_texts_per_second"] = round(cue_texts_per_second([_text(record) for record in publications.values()]))
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
