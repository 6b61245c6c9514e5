"""Offline retrieval for the labelled research questions (issue 21) on the shipped sample: does the retriever's
first step, the KG's publications ranked by RECON's hybrid score (semantic similarity of the question's offline
sub-questions to title + abstract with the project's embedding model, recency, no authority offline), find the papers
each question's right answer names? Prints one JSON report; nothing is asserted.

    .venv/bin/python benchmarks/briefs_retrieval.py [--top 10] [--as-of 2026-12-01] [--decay linear]

For every case of `reference/evaluation/question_cases.yaml`: its named papers (stale, rely_on, foundational, the
dispute's original and comments with a DOI) and how many of them rank in the top `--top` among (a) every sample
publication and (b) the publications with an edge to a dataset of the question's scope; per kind, the mean recall
and the time per question. Edge labels are not read: what the critic then makes of the evidence needs the pipeline.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from datetime import date
from statistics import mean

import numpy as np

from recon_assets.briefs.planner import offline_plan
from recon_assets.briefs.question_cases import read_question_cases
from recon_assets.briefs.questions import DatasetRow, resolve_scope
from recon_assets.briefs.retrieval import KG, Candidate, merge_candidates, score_papers
from recon_assets.judgement.text_embedding import embed
from recon_assets.kg.authors import author_names
from recon_assets.kg.doi import canonical_doi
from recon_assets.kg.years import parse_year
from recon_assets.shared.paths import SAMPLE_DIR


def sample_graph() -> tuple[list[Candidate], dict[str, set[str]], list[DatasetRow]]:
    """(a candidate per sample publication, semantic 0; the dataset ids each uses; the Dataset rows)."""
    nodes, uses = {}, defaultdict(set)
    for line in (SAMPLE_DIR / "graph.json").read_text().splitlines():
        record = json.loads(line)
        if record["type"] == "node":
            nodes[record["id"]] = record
        elif record["label"] == "USES_DATASET":
            uses[record["start"]["id"]].add(record["end"]["id"])
    papers = []
    for node_id, node in nodes.items():
        if "Publication" not in node["labels"]:
            continue
        properties = node["properties"]
        abstract = properties.get("abstract")
        papers.append(Candidate(
            doi=properties.get("doi") or properties.get("DOI"), title=properties.get("title") or "", source=KG, semantic=0.0,
            year=parse_year(properties.get("year"), latest_year=date.today().year + 1).year, authors=tuple(author_names(properties.get("authors"))),
            abstract=None if abstract in (None, "", "N/A") else abstract, publication_id=node_id,
        ))
    datasets = [DatasetRow(node_id, node["properties"]["shortName"], doi=node["properties"].get("doi"))
                for node_id, node in nodes.items() if "Dataset" in node["labels"]]
    return papers, uses, datasets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--as-of", type=date.fromisoformat, default=date(2026, 12, 1))
    parser.add_argument("--decay", choices=("none", "linear", "log"), default="linear")
    args = parser.parse_args()
    papers, uses, datasets = sample_graph()
    started = time.perf_counter()
    paper_vectors = embed([f"{paper.title}. {paper.abstract or ''}" for paper in papers])
    embed_seconds = time.perf_counter() - started
    rows, by_kind = [], defaultdict(lambda: defaultdict(list))
    for case in read_question_cases().cases:
        started = time.perf_counter()
        scope = resolve_scope(case.scope, datasets)
        queries = [case.question, *(item.text for item in offline_plan(case.question, case.scope.datasets, args.as_of).subquestions)]
        semantic = (embed(queries) @ paper_vectors.T).max(axis=0)
        found = [Candidate(**{**paper.__dict__, "semantic": float(np.clip(value, -1, 1))}) for paper, value in zip(papers, semantic)]
        in_scope = [paper for paper in found if uses[paper.publication_id] & set(scope.dataset_ids or ())]
        named = {paper.doi for paper in (*case.stale, *case.rely_on, *case.foundational)}
        if case.dispute:
            named |= {case.dispute.original.doi} | {comment.doi for comment in case.dispute.comments if comment.doi}
        row = {"id": case.id, "kind": case.kind, "named": len(named)}
        for name, pool in (("all", found), ("in_scope", in_scope)):
            top = score_papers(merge_candidates(pool).papers, args.as_of, args.decay)[: args.top]
            hits = len(named & {canonical_doi(paper.candidate.doi) for paper in top})
            row[f"recall_{name}"] = round(hits / len(named), 3)
            by_kind[case.kind][f"recall_{name}"].append(hits / len(named))
        row["seconds"] = round(time.perf_counter() - started, 3)
        by_kind[case.kind]["seconds"].append(row["seconds"])
        rows.append(row)
    summary = {kind: {key: round(mean(values), 3) for key, values in figures.items()} | {"questions": len(figures["seconds"])}
               for kind, figures in by_kind.items()}
    print(json.dumps({"top": args.top, "as_of": args.as_of.isoformat(), "decay": args.decay, "publications": len(papers),
                      "embed_publications_seconds": round(embed_seconds, 3), "by_kind": summary, "questions": rows}, indent=1))


if __name__ == "__main__":
    main()
