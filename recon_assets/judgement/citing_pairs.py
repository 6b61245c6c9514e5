"""Judge a publication against the works that cite it (DOMAIN.md "coherence" (a): newer works that cite the
publication, at any date after it up to as_of).

The citation is the link between the two papers, so no text-similarity gate applies (the similarity is still
reported): the offline judge reads the citing work's wording (`offline_judge.find_cue`, `judge_pair`). A highly cited
paper keeps its `top_k` most similar citing works, and every citing work whose title reads as a comment, reply or
correction (`disputes.title_relation`), whatever its similarity. Nothing dated after as_of's year is evidence; a citing
work without a year is left out (nothing says it came before as_of), and so is a retraction notice or erratum, which
speaks about its own paper (it is a recorded correction, `disputes`).

A work of the cited paper's own year is read: it came out after the paper, since it cites it ("at any date after it"),
and comments and replies often follow within months. It is a citing work, not a newer one (reasons say "works
read"); a work dated before the cited paper is left out (its year or the citation is wrong).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date

import numpy as np
import pandas as pd

from recon_assets.judgement.disputes import title_relation
from recon_assets.judgement.cues import Cue
from recon_assets.judgement.offline_judge import JUDGE_ID, NOT_EVIDENCE_TITLE, find_each_cue, judge_pair
from recon_assets.judgement.text_embedding import embed, is_missing_text

CITES, SAME_DATASET, SUCCESSOR_VERSION = "cites", "same_dataset", "successor_version"
# Citing works judged per publication besides those whose title reads as a comment, reply or correction: enough to
# outvote one odd abstract among the closest citing works, few enough for a paper cited thousands of times.
DEFAULT_TOP_K_CITING = 20
CITING_COLUMNS = ["cited_publication_id", "citing_key", "citing_year", "citing_citation", "citing_centrality"]


def work_text(title: object, abstract: object) -> str | None:
    """'title. abstract' of a work, the parts that are present; None without either."""
    return ". ".join(str(part) for part in (title, abstract) if not is_missing_text(part)) or None


def judge_citing_pairs(
    edges: pd.DataFrame,
    citing: pd.DataFrame,
    texts: pd.DataFrame,
    *,
    as_of: date,
    top_k: int = DEFAULT_TOP_K_CITING,
    embedder: Callable[[Sequence[object]], np.ndarray] = embed,
    read_cues: Callable[[Sequence[str | None]], list[Cue | None]] = find_each_cue,
) -> pd.DataFrame:
    """One judgement per (edge, citing work of its publication).

    Args:
        edges: columns dataset_id, publication_id: the edges whose publications are judged (duplicates ignored).
        citing: CITING_COLUMNS: each work citing a publication of `edges`, its year (NA allowed), citation tag
            ('[Chen et al., 2023]') and centrality in [0, 1] (its weight in the edge's coherence).
        texts: columns key, year, title, abstract for every cited publication and every citing work (keys are
            publication ids or citing keys).
        top_k: citing works judged per publication besides comments, replies and corrections (>= 1).
        embedder: `text_embedding.embed` or a function giving the same vectors (e.g. from a cache).
        read_cues: `offline_judge.find_each_cue` or a function giving the same cues (e.g. from a cache:
            `text_readings.read_cues`); called once, with the texts of the citing works judged.

    Returns:
        columns dataset_id, older_publication_id, newer_publication_id, similarity, verdict, coherence, rationale,
        judge, newer_centrality, newer_via_successor (false), evidence_kind ('cites'), newer_citation, newer_year;
        sorted by dataset, older publication, similarity (descending), newer key.

    Raises:
        ValueError: top_k < 1, or a key of `edges` / `citing` without a row of `texts`.
    """
    if top_k < 1:
        raise ValueError(f"top_k must be >= 1, got {top_k}")
    columns = ["dataset_id", "older_publication_id", "newer_publication_id", "similarity", "verdict", "coherence", "rationale",
               "judge", "newer_centrality", "newer_via_successor", "evidence_kind", "newer_citation", "newer_year"]
    text_of = texts.drop_duplicates("key").set_index("key")
    needed = set(edges["publication_id"]) | set(citing["citing_key"])
    if missing := sorted(needed - set(text_of.index))[:5]:
        raise ValueError(f"no text row for {missing}")
    cited_year = citing["cited_publication_id"].map(text_of["year"]).astype("Float64")
    year = citing["citing_year"].astype("Float64")
    title = citing["citing_key"].map(text_of["title"]).fillna("").astype(str)
    dated = (year <= as_of.year) & (cited_year.isna() | (year >= cited_year))
    kept = citing[dated.fillna(False).to_numpy(dtype=bool) & ~title.str.contains(NOT_EVIDENCE_TITLE).to_numpy()]
    kept = kept[kept["cited_publication_id"].isin(edges["publication_id"]) & (kept["citing_key"] != kept["cited_publication_id"])]
    kept = kept.drop_duplicates(["cited_publication_id", "citing_key"])
    if kept.empty:
        return pd.DataFrame(columns=columns)
    keys = sorted(set(kept["cited_publication_id"]) | set(kept["citing_key"]))
    position = {key: index for index, key in enumerate(keys)}
    title_of, abstract_of = text_of["title"].to_dict(), text_of["abstract"].to_dict()
    vectors = embedder([work_text(title_of[key], abstract_of[key]) for key in keys])
    cited_pos = kept["cited_publication_id"].map(position).to_numpy()
    citing_pos = kept["citing_key"].map(position).to_numpy()
    kept = kept.assign(
        similarity=np.round(np.einsum("ij,ij->i", vectors[cited_pos], vectors[citing_pos]), 4).astype(float),
        answers=kept["citing_key"].map(text_of["title"]).map(title_relation).notna().to_numpy(),
    )
    ranked = kept.sort_values(["cited_publication_id", "similarity", "citing_key"], ascending=[True, False, True], kind="stable")
    ranked = ranked[ranked.groupby("cited_publication_id").cumcount().lt(top_k) | ranked["answers"]]
    read = ranked["citing_key"].unique()
    cue_of = dict(zip(read, read_cues([work_text(title_of[key], abstract_of[key]) for key in read])))
    # No similarity gate: the citation links the two works (module docstring).
    judgements = [judge_pair(similarity, cue_of[key], min_similarity=-1.0) for similarity, key in zip(ranked["similarity"], ranked["citing_key"])]
    pairs = pd.DataFrame({
        "older_publication_id": ranked["cited_publication_id"].to_numpy(),
        "newer_publication_id": ranked["citing_key"].to_numpy(),
        "similarity": ranked["similarity"].to_numpy(),
        "verdict": [j.verdict for j in judgements],
        "coherence": [j.coherence for j in judgements],
        "rationale": [f"cites it; {j.rationale}" for j in judgements],
        "judge": JUDGE_ID,
        "newer_centrality": ranked["citing_centrality"].astype(float).fillna(0.0).to_numpy(),
        "newer_via_successor": False,
        "evidence_kind": CITES,
        "newer_citation": ranked["citing_citation"].to_numpy(),
        "newer_year": pd.array(ranked["citing_year"], dtype="Int64"),
    })
    datasets = edges[["dataset_id", "publication_id"]].drop_duplicates().rename(columns={"publication_id": "older_publication_id"})
    return (
        pairs.merge(datasets, on="older_publication_id")[columns]
        .sort_values(["dataset_id", "older_publication_id", "similarity", "newer_publication_id"], ascending=[True, True, False, True], kind="stable")
        .reset_index(drop=True)
    )
