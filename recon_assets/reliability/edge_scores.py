"""Score the edges of some research areas: aggregate their judged pairs into coherence, then apply the score."""

from datetime import date

import pandas as pd

from recon_assets.judgement.offline_judge import aggregate_edge_coherence
from recon_assets.reliability.scoring import ScoringSettings, score_edges

PAIR_KEY = ["dataset_id", "older_publication_id", "newer_publication_id"]
EDGE_KEY = ["dataset_id", "publication_id"]


def score_research_area_edges(
    edges: pd.DataFrame,
    pairs: pd.DataFrame,
    *,
    as_of: date,
    settings: ScoringSettings,
) -> pd.DataFrame:
    """Scored edges, one row per row of `edges` (an edge appears once per research area of its publication).

    Args:
        edges: columns research_area, dataset_id, publication_id and the columns `score_edges` needs
            besides coherence (sql/edges_in_research_areas.sql).
        pairs: judged pairs (coherence_judgements rows, any research area) with newer_citation, the newer
            publication's citation tag; a pair stored under several areas counts once.
        settings: what `score_edges` scores with.

    Returns:
        `edges` plus coherence, coherence_status, evidence and the `score_edges` columns; empty in, empty out.
    """
    unique_pairs = pairs.drop_duplicates(PAIR_KEY)
    # Judged pairs weigh a contradiction by the KG's PageRank centrality of both papers (the judge's own scale).
    older_centrality = edges.drop_duplicates("publication_id").set_index("publication_id")["pagerank_centrality"]
    coherence = aggregate_edge_coherence(edges, unique_pairs, older_centrality)
    citations = unique_pairs.drop_duplicates("newer_publication_id").set_index("newer_publication_id")["newer_citation"]
    coherence["evidence"] = [
        f"by {citations[newer]} (centrality {centrality:.2f}): {rationale}" if isinstance(newer, str) else None
        for newer, centrality, rationale in zip(
            coherence["evidence_publication_id"], coherence["evidence_centrality"], coherence["evidence_rationale"]
        )
    ]
    frame = edges.merge(coherence[[*EDGE_KEY, "coherence", "coherence_status", "evidence"]], on=EDGE_KEY, how="left")
    return score_edges(frame, as_of=as_of, **settings.score_kwargs())
