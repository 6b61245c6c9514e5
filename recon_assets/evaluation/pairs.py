"""Measure how coherence finds documented disputes, on the labelled dispute and control pairs (issue 10).

The pairs (`recon_assets/reference/evaluation/labelled_pairs.csv`, LABELLED_CASES.md): 27 documented Earth-science
disputes (a published comment, rebuttal or reply on an original paper) and 37 same-topic controls that are not
disputes. Their labels come from the journals that printed them, never from the pipeline's rules. Two ways of
finding a dispute are reported apart, each with its false-positive rate on the controls:

- **metadata**: the dispute is recorded (a title reading "Comment on ...", "Reply to ...", or a Crossref relation);
- **content**: the judge reads the two papers' text and calls the pair CONTRADICTED, with the metadata hidden (the
  offline judge reads title and abstract; recorded disputes never enter its verdict).

Two settings:

- **through the pipeline** (`pipeline_outcomes`): what the run's tables hold for each pair whose original paper is an
  edge of the KG (a NASA dataset it uses; disputes over non-NASA or unnamed data are out of the pipeline's scope and
  counted as such): was the pair judged at all, recorded as a dispute, judged CONTRADICTED. The pipeline's dispute
  catch and its false-positive rate on controls both run over the pairs **in the graph** (in scope, and the newer
  paper a KG publication with a `CITES` edge to the original, as the real graph's citation crawl gives every comment
  and every citing work), so the two rates are read alike;
- **on the pairs themselves** (`judged_on_texts`): the pipeline's own functions applied to every pair with text: the
  content judge exactly as for a citing work (`offline_judge.judge_pair` of the WordLlama similarity and the newer
  text's cue, no similarity gate) and the title reading of `disputes.disputes_from_titles`. Disputes and controls
  are read alike here, so these two rates are the fair comparison.

The LLM judge cannot be measured here (no Groq key, and scoring hand-written answers would measure nothing): it is
reported as not measured.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from recon_assets.evaluation.metrics import Rate
from recon_assets.judgement.citing_pairs import work_text
from recon_assets.judgement.disputes import COMMENT, REPLY, disputes_from_titles
from recon_assets.judgement.offline_judge import find_cue, judge_pair
from recon_assets.judgement.text_embedding import embed
from recon_assets.judgement.verdict_scale import CONTRADICTED
from recon_assets.kg.doi import canonical_doi

EVALUATION = Path(__file__).resolve().parents[1] / "reference" / "evaluation"
LABELLED_PAIRS, PUBLICATIONS = EVALUATION / "labelled_pairs.csv", EVALUATION / "publications.json"
DISPUTE, CONTROL = "dispute", "control"
DISPUTE_RELATIONS = (COMMENT, REPLY)
# measure: what it is. Each is a Rate (its Wilson interval) but llm_judge (not measured).
PAIR_MEASURES = {
    "pipeline_pairs_judged": "in-scope disputes the pipeline judged (a judged pair or a recorded dispute)",
    "pipeline_dispute_catch": "disputes in the graph (in scope, the comment citing the original) the pipeline calls CONTRADICTED or records as a dispute",
    "pipeline_metadata_catch": "in-scope disputes recorded (comment or reply title, Crossref relation)",
    "pipeline_content_catch": "in-scope disputes the pipeline judged CONTRADICTED (reading text, metadata hidden)",
    "pipeline_content_catch_unrecorded": "in-scope disputes not recorded in the metadata that the pipeline judged CONTRADICTED",
    "pipeline_control_false_positive": "controls in the graph (in scope, the newer work citing the original) the pipeline calls CONTRADICTED or records as a dispute",
    "disputes_in_scope": "disputes whose original paper is an edge of the KG (uses a NASA dataset in it)",
    "disputes_in_graph": "disputes in the graph: in scope, and the comment cites the original in the KG",
    "controls_in_graph": "controls in the graph: in scope, and the newer work cites the original in the KG",
    "content_dispute_catch": "disputes the content judge calls CONTRADICTED, read on the pair's texts",
    "content_control_false_positive": "controls the content judge calls CONTRADICTED, read on the pair's texts",
    "metadata_dispute_catch": "disputes whose newer title reads as a comment or reply on the original",
    "metadata_control_false_positive": "controls whose newer title reads as a comment or reply on the original",
    "llm_judge": "the Groq LLM judge: not measured (no key here; hand-written answers would measure nothing)",
}
# The targets: (measure, bound, at least or at most).
PAIR_TARGETS = (
    ("pipeline_pairs_judged", 1.0, "min"),
    ("pipeline_dispute_catch", 0.50, "min"),
    ("content_control_false_positive", 0.10, "max"),
    ("metadata_control_false_positive", 0.10, "max"),
    ("pipeline_control_false_positive", 0.10, "max"),
)


def load_pairs(path: Path = LABELLED_PAIRS, publications_path: Path = PUBLICATIONS) -> pd.DataFrame:
    """The labelled pairs: pair_id, kind, original / newer DOI (canonical, NA when unknown), title, year and abstract
    (publications.json where it holds the DOI, else the pair file's title and year; abstract only when openly
    licensed)."""
    pairs = pd.read_csv(path, dtype=str, keep_default_na=False)
    records = json.loads(publications_path.read_text(encoding="utf-8"))
    rows = []
    for row in pairs.to_dict("records"):
        out = {"pair_id": row["pair_id"], "kind": row["kind"]}
        for side, prefix in (("original", "original"), ("newer", "comment")):
            doi = canonical_doi(row[f"{prefix}_doi"]) if row[f"{prefix}_doi"] else None
            record = records.get(doi, {}) if doi else {}
            out |= {
                f"{side}_doi": doi, f"{side}_title": record.get("title") or row[f"{prefix}_title"] or None,
                f"{side}_year": record.get("year") or row[f"{prefix}_year"] or None, f"{side}_abstract": record.get("abstract") or None,
            }
        rows.append(out)
    return pd.DataFrame(rows)


def judged_on_texts(pairs: pd.DataFrame, *, embedder: Callable[[Sequence[object]], np.ndarray] = embed) -> pd.DataFrame:
    """`pairs` with what the pipeline's functions make of each pair's own texts: similarity, content_verdict,
    content_cue (the cue phrase), content_judged (the newer paper has a text), title_relation (comment / reply /
    correction / NA from `disputes_from_titles`, with the original's title to match a quoted one)."""
    older = [work_text(t, a) for t, a in zip(pairs["original_title"], pairs["original_abstract"])]
    newer = [work_text(t, a) for t, a in zip(pairs["newer_title"], pairs["newer_abstract"])]
    vectors = embedder([*older, *newer])
    similarity = np.einsum("ij,ij->i", vectors[: len(pairs)], vectors[len(pairs):]).round(4) if len(pairs) else np.array([])
    cues = [find_cue(text) for text in newer]
    judgements = [judge_pair(float(s), cue, min_similarity=-1.0) for s, cue in zip(similarity, cues)]
    titles = disputes_from_titles(pd.DataFrame({
        "cited_publication_id": pairs["pair_id"], "cited_title": pairs["original_title"], "citing_key": pairs["pair_id"],
        "citing_doi": pairs["newer_doi"], "citing_title": pairs["newer_title"].fillna(""),
        "citing_year": pd.array(pd.to_numeric(pairs["newer_year"], errors="coerce"), dtype="Int64"), "source": "labelled",
    }))
    relation = titles.drop_duplicates("publication_id").set_index("publication_id")["relation"]
    return pairs.assign(
        similarity=similarity, content_verdict=[j.verdict for j in judgements],
        content_cue=[cue.phrase if cue else None for cue in cues], content_judged=[text is not None for text in newer],
        title_relation=pairs["pair_id"].map(relation),
    )


def pipeline_outcomes(
    pairs: pd.DataFrame, publications: pd.DataFrame, edges: pd.DataFrame, judgements: pd.DataFrame, recorded: pd.DataFrame,
    citations: pd.DataFrame,
) -> pd.DataFrame:
    """`pairs` with what the run's tables hold for each: in_kg (both papers are KG publications: by DOI, else by
    exact title for a newer paper without one), in_scope (its original paper is an edge of the KG), in_graph (in
    scope, and the newer paper cites the original in the KG), pipeline_judged,
    pipeline_verdicts (the judged verdicts of the pair, any dataset), recorded_relations (recorded_disputes of the
    original naming the newer paper), pipeline_contradicted, pipeline_recorded.

    Args:
        publications: publication_id, doi, title. edges: dataset_id, publication_id.
        judgements: coherence_judgements' older_publication_id, newer_publication_id, verdict.
        recorded: recorded_disputes' publication_id, relation, other_key, other_doi.
        citations: publication_citations' citing_publication_id, cited_publication_id.
    """
    by_doi = publications.dropna(subset=["doi"]).drop_duplicates("doi").set_index("doi")["publication_id"]
    by_title = publications[publications["doi"].isna()].assign(key=lambda f: f["title"].str.casefold()).drop_duplicates("key").set_index("key")["publication_id"]
    original = pairs["original_doi"].map(by_doi)
    by_newer_title = pairs["newer_title"].str.casefold().map(by_title)
    newer = pairs["newer_doi"].map(by_doi).where(lambda ids: ids.notna(), by_newer_title)
    used = set(edges["publication_id"])
    cites = set(zip(citations["citing_publication_id"], citations["cited_publication_id"]))
    verdicts = judgements.groupby(["older_publication_id", "newer_publication_id"])["verdict"].agg(lambda v: sorted(set(v)))
    rows = []
    for o, n, doi in zip(original, newer, pairs["newer_doi"]):
        mine = recorded[(recorded["publication_id"] == o) & ((recorded["other_key"] == n) | (recorded["other_doi"] == doi))] if isinstance(o, str) else recorded.iloc[:0]
        judged = verdicts.get((o, n), []) if isinstance(o, str) and isinstance(n, str) else []
        relations = sorted(set(mine["relation"]))
        rows.append({
            "original_publication_id": o if isinstance(o, str) else None, "newer_publication_id": n if isinstance(n, str) else None,
            "in_kg": isinstance(o, str) and isinstance(n, str), "in_scope": isinstance(o, str) and o in used,
            "in_graph": isinstance(o, str) and o in used and (n, o) in cites,
            "pipeline_verdicts": judged, "recorded_relations": relations,
            "pipeline_judged": bool(judged) or bool(relations),
            "pipeline_contradicted": CONTRADICTED in judged,
            "pipeline_recorded": bool(set(relations) & set(DISPUTE_RELATIONS)),
        })
    return pd.concat([pairs.reset_index(drop=True), pd.DataFrame(rows)], axis=1)


@dataclass(frozen=True)
class PairEvaluation:
    """measures: {measure: Rate, or None for llm_judge}; pairs: one row per pair with every outcome; targets: one row
    per PAIR_TARGETS entry (figure, met or None when not measured)."""

    measures: dict[str, Rate | None]
    pairs: pd.DataFrame
    targets: pd.DataFrame


def evaluate_pairs(outcomes: pd.DataFrame) -> PairEvaluation:
    """The PAIR_MEASURES of `pipeline_outcomes` rows that `judged_on_texts` has read."""
    disputes, controls = outcomes[outcomes["kind"] == DISPUTE], outcomes[outcomes["kind"] == CONTROL]
    scope = disputes[disputes["in_scope"]]
    judged = scope[scope["pipeline_judged"]]
    unrecorded = judged[~judged["pipeline_recorded"]]
    graph_disputes, graph_controls = disputes[disputes["in_graph"]], controls[controls["in_graph"]]

    def rate(frame: pd.DataFrame, hit: pd.Series) -> Rate:
        return Rate(int(hit.loc[frame.index].sum()), len(frame))

    caught = outcomes["pipeline_contradicted"] | outcomes["pipeline_recorded"]
    read = outcomes["content_judged"]
    dispute_title = outcomes["title_relation"].isin(DISPUTE_RELATIONS)
    measures: dict[str, Rate | None] = {
        "pipeline_pairs_judged": rate(scope, outcomes["pipeline_judged"]),
        "pipeline_dispute_catch": rate(graph_disputes, caught),
        "pipeline_metadata_catch": rate(scope, outcomes["pipeline_recorded"]),
        "pipeline_content_catch": rate(judged, outcomes["pipeline_contradicted"]),
        "pipeline_content_catch_unrecorded": rate(unrecorded, outcomes["pipeline_contradicted"]),
        "pipeline_control_false_positive": rate(graph_controls, caught),
        "disputes_in_scope": Rate(len(scope), len(disputes)),
        "disputes_in_graph": Rate(len(graph_disputes), len(disputes)),
        "controls_in_graph": Rate(len(graph_controls), len(controls)),
        "content_dispute_catch": rate(disputes[read.loc[disputes.index]], outcomes["content_verdict"] == CONTRADICTED),
        "content_control_false_positive": rate(controls[read.loc[controls.index]], outcomes["content_verdict"] == CONTRADICTED),
        "metadata_dispute_catch": rate(disputes, dispute_title),
        "metadata_control_false_positive": rate(controls, dispute_title),
        "llm_judge": None,
    }
    rows = []
    for measure, bound, kind in PAIR_TARGETS:
        value = measures[measure].value
        met = None if np.isnan(value) else (value >= bound - 1e-12 if kind == "min" else value <= bound + 1e-12)
        rows.append({"measure": measure, "target": f"{'>=' if kind == 'min' else '<='} {bound:.0%}", "value": value,
                     "numerator": measures[measure].numerator, "denominator": measures[measure].denominator, "met": met})
    return PairEvaluation(measures, outcomes, pd.DataFrame(rows))
