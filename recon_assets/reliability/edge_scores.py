"""Score the edges of some research areas: aggregate their judged pairs into coherence, then apply the score."""

from collections.abc import Callable
from datetime import date

import numpy as np
import pandas as pd

from recon_assets.judgement.disputes import DISPUTE_COHERENCE, dispute_status
from recon_assets.judgement.offline_judge import JUDGE_ID, aggregate_edge_coherence
from recon_assets.judgement.steward import apply_steward_edges
from recon_assets.judgement.verdict_scale import OBJECTIONS
from recon_assets.reliability.scoring import score_edges
from recon_assets.reliability.settings import ScoringSettings

PAIR_KEY = ["dataset_id", "older_publication_id", "newer_publication_id"]
EDGE_KEY = ["dataset_id", "publication_id"]
AGGREGATED_PAIR_COLUMNS = [*PAIR_KEY, "verdict", "coherence", "rationale", "newer_centrality", "judge"]
# Coherences closer than this are equal (sums of weights in floating point).
_TOLERANCE = 1e-9
# Works an explanation names before it counts the rest ('[A, 2021], [B, 2022], [C, 2023] and 2 more').
NAMED_WORKS = 3


def edge_coherence(edges: pd.DataFrame, pairs: pd.DataFrame, stewards: pd.DataFrame | None = None) -> pd.DataFrame:
    """`edges` plus coherence, coherence_status, coherence_evidence (who drove it, and why; or, when the edge is
    UNVERIFIED although works were read, what was read: `_no_stance`), coherence_judges
    (`coherence_judges`) and dispute_status (`disputes.dispute_status` of its dispute_relations), one row per row of
    `edges`.

    Args:
        edges: columns dataset_id, publication_id, pagerank_centrality, dispute_relations (list, as of as_of).
        pairs: judged pairs (coherence_judgements rows, any research area) with newer_citation, the newer
            publication's citation tag, judge and prompt_version; a pair stored under several areas counts once.
        stewards: the steward's edge judgements that apply (`steward.applicable(..., "edge", as_of)`): they replace
            the coherence of their edges, judged pairs and recorded disputes alike (`steward.apply_steward_edges`).
    """
    # Judged pairs weigh a contradiction by the KG's PageRank centrality of both papers (the judge's own scale).
    older_centrality = edges.drop_duplicates("publication_id").set_index("publication_id")["pagerank_centrality"]
    unique_pairs = without_lifting_llm_answers(edges[EDGE_KEY], pairs.drop_duplicates(PAIR_KEY), older_centrality)
    # only what the aggregation reads: its sorts and merges carry every column they are given
    coherence = aggregate_edge_coherence(edges[EDGE_KEY], unique_pairs[AGGREGATED_PAIR_COLUMNS], older_centrality)
    first = unique_pairs.drop_duplicates("newer_publication_id")
    citations = dict(zip(first["newer_publication_id"].tolist(), first["newer_citation"].tolist()))
    # Named for an UNVERIFIED edge whose judges read works: the most central work read and the most central objection
    # that did not carry (as the evidence pair of a judged edge is the heaviest).
    by_centrality = unique_pairs.sort_values(["newer_centrality", "newer_publication_id"], ascending=[False, True], kind="stable")
    objecting = by_centrality["verdict"].isin(OBJECTIONS)
    objections, unobjecting = by_centrality[objecting], by_centrality[~objecting]
    # the works that read it without objection, most central first: named when they outweigh an objection
    outweighing = unobjecting.groupby(PAIR_KEY[:2], sort=False)["newer_publication_id"].agg(
        lambda newer: _named_works([citations[work] for work in newer])
    ).rename("outweighing").rename_axis(EDGE_KEY).reset_index()
    coherence = coherence.merge(
        _first_per_edge(by_centrality, "named", lambda pair: citations[pair.newer_publication_id]), on=EDGE_KEY, how="left"
    ).merge(
        _first_per_edge(objections, "objection", lambda pair: f"{citations[pair.newer_publication_id]}: {pair.rationale}"),
        on=EDGE_KEY, how="left",
    ).merge(outweighing, on=EDGE_KEY, how="left")
    coherence["coherence_evidence"] = [
        f"by {citations[newer]} (centrality {centrality:.2f}): {rationale}" if isinstance(newer, str)
        else _no_stance(read, stance, named, objection, others) if read else None
        for newer, centrality, rationale, read, stance, named, objection, others in zip(
            coherence["evidence_publication_id"].tolist(), coherence["evidence_centrality"].tolist(),
            coherence["evidence_rationale"].tolist(), coherence["n_read"].tolist(), coherence["n_pairs"].tolist(),
            coherence["named"].tolist(), coherence["objection"].tolist(), coherence["outweighing"].tolist(),
        )
    ]
    frame = edges.merge(coherence[[*EDGE_KEY, "coherence", "coherence_status", "coherence_evidence"]], on=EDGE_KEY, how="left")
    frame = frame.merge(coherence_judges(unique_pairs), on=EDGE_KEY, how="left")
    status = [dispute_status(relations) for relations in frame["dispute_relations"]]
    cap = pd.Series([DISPUTE_COHERENCE.get(value, np.nan) for value in status], index=frame.index, dtype=float)
    objected = frame["coherence_status"].isin(OBJECTIONS)
    # A recorded dispute caps a judged objection's coherence at its point of the scale (commented 0.1, debated 0.5,
    # corrected 0.7), and sets it otherwise: a SUPPORTED edge's coherence (at least 0.5, the mean of its works without
    # objection) or the neutral 0.5 is no evidence against the record (with min, adding support lowered a corrected
    # edge from 0.7 to 0.67).
    coherence = np.where(cap.isna(), frame["coherence"], np.where(objected, np.fmin(frame["coherence"], cap), cap))
    frame = frame.assign(coherence=coherence, dispute_status=status)
    return frame if stewards is None else apply_steward_edges(frame, stewards)


def without_lifting_llm_answers(edges: pd.DataFrame, pairs: pd.DataFrame, older_centrality: pd.Series) -> pd.DataFrame:
    """`pairs` with every LLM answer of an edge taken back to the offline judgement it replaced (`offline_answers`) when,
    together, that edge's LLM answers would lift it: its coherence (`offline_judge.aggregate_edge_coherence`) above the
    value from the offline answers alone, or its status from an objection to none.

    Why (issue 24): an LLM answer never lifts an edge above what the offline evidence allows, whatever the model was
    told by a text it read, because detecting planted instructions can never be complete. `llm_judge.llm_answer_counts`
    already lets an LLM answer replace a pair's offline judgement only as an objection at least as strong; but
    coherence is a weighted mean, so even an added objection can raise it (a SUPERSEDED 0.3 added to an edge held at
    0.18 by contradictions; an objection outweighed by support takes a work read without stance out of the mean). The
    bound therefore holds on the edge: its coherence and status come from its LLM-judged pairs only where they do not
    lift it, else from the offline answers alone. Steward judgements are not LLM answers and stay; a recorded dispute
    caps and a retraction decides afterwards (`edge_coherence`, label rule 1).

    Args:
        edges: dataset_id, publication_id.
        pairs: one row per judged pair with AGGREGATED_PAIR_COLUMNS, prompt_version (set on an LLM answer),
            offline_verdict and offline_coherence (the offline judgement an LLM answer replaced; NULL for a pair only
            the LLM judged).
        older_centrality: as `aggregate_edge_coherence` takes it.

    Returns:
        `pairs`, unchanged where no edge is lifted (always when no LLM answered).
    """
    answered = pairs["prompt_version"].notna().to_numpy(dtype=bool)
    if not answered.any():
        return pairs
    offline = offline_answers(pairs)
    both = aggregate_edge_coherence(edges, pairs[AGGREGATED_PAIR_COLUMNS], older_centrality).set_index(EDGE_KEY)
    alone = aggregate_edge_coherence(edges, offline[AGGREGATED_PAIR_COLUMNS], older_centrality).set_index(EDGE_KEY)
    lifted_edges = both.index[
        (both["coherence"] > alone["coherence"] + _TOLERANCE).to_numpy()
        | (alone["coherence_status"].isin(OBJECTIONS) & ~both["coherence_status"].isin(OBJECTIONS)).to_numpy()
    ]
    if lifted_edges.empty:
        return pairs
    # in the pairs' order: a coherence sums its pairs' weights in the order they are read
    back = offline.index[pd.MultiIndex.from_frame(offline[PAIR_KEY[:2]]).isin(lifted_edges)]
    bounded = pairs.copy()
    bounded.loc[back, offline.columns] = offline.loc[back]
    only_llm = pd.MultiIndex.from_frame(pairs[PAIR_KEY[:2]]).isin(lifted_edges) & ~pairs.index.isin(back)
    return bounded[~only_llm]


def offline_answers(pairs: pd.DataFrame) -> pd.DataFrame:
    """`pairs` as the offline judge (and a steward) answered them: each LLM answer (prompt_version set) back to the
    offline verdict and coherence it replaced, judged by the offline judge (JUDGE_ID), its rationale saying the LLM's
    answer is not counted; a pair only the LLM judged (offline_verdict NULL) left out. Same index as `pairs`."""
    answered = pairs["prompt_version"].notna()
    back = pairs[~answered | pairs["offline_verdict"].notna()].copy()
    llm = answered.reindex(back.index)
    back.loc[llm, "rationale"] = [
        f"{verdict} by the offline judge; the LLM's {llm_verdict} ({rationale}) is not counted: it would lift this edge (issue 24)"
        for verdict, llm_verdict, rationale in zip(back.loc[llm, "offline_verdict"], back.loc[llm, "verdict"], back.loc[llm, "rationale"])
    ]
    back.loc[llm, "verdict"] = back.loc[llm, "offline_verdict"]
    back.loc[llm, "coherence"] = back.loc[llm, "offline_coherence"].astype(float)
    back.loc[llm, "judge"] = JUDGE_ID
    back.loc[llm, "prompt_version"] = None
    return back


def _first_per_edge(pairs: pd.DataFrame, column: str, text: Callable[[object], str]) -> pd.DataFrame:
    """EDGE_KEY and `column`: `text` of the first of `pairs` (rows of PAIR_KEY ...) for each edge."""
    first = pairs.drop_duplicates(PAIR_KEY[:2])
    return pd.DataFrame({
        "dataset_id": first["dataset_id"].to_numpy(), "publication_id": first["older_publication_id"].to_numpy(),
        column: [text(pair) for pair in first.itertuples(index=False)],
    })


def _named_works(tags: list[str]) -> str:
    """'[A, 2021], [B, 2022], [C, 2023] and 2 more': the first NAMED_WORKS citation tags and a count of the rest."""
    rest = len(tags) - NAMED_WORKS
    return ", ".join(tags[:NAMED_WORKS]) + (f" and {rest} more" if rest > 0 else "")


def _no_stance(read: int, stance: int, named: str, objection: str | None, others_named: str | None) -> str:
    """The evidence of an UNVERIFIED edge whose judges read `read` works (`named`: the citation tag of the most central)
    and found an objection in `stance` of them (`objection`: the most central, its citation tag and rationale) that
    the others outweigh (`offline_judge.aggregate_edge_coherence`; `others_named`: those others, `_named_works`): '3
    works read ([Chen et al., 2023], ...): no stance wording found', or '...; 1 of them objects ([Lee, 2021]:
    contradiction wording ...), but the 2 that read it without objection ([Chen et al., 2023], [Kim, 2022]) weigh at
    least as much'. The works are not called newer: a work citing the paper may be of its own year
    (`citing_pairs`)."""
    works = f"1 work read ({named})" if read == 1 else f"{read} works read ({named}, ...)"
    if not stance:
        return f"{works}: no stance wording found"
    objects = f"1 of them objects ({objection})" if stance == 1 else f"{stance} of them object (the most central: {objection})"
    others = read - stance
    listed = f" ({others_named})" if isinstance(others_named, str) else ""
    return f"{works}; {objects}, but the {others} that read it without objection{listed} weigh{'s' if others == 1 else ''} at least as much"


def coherence_judges(pairs: pd.DataFrame) -> pd.DataFrame:
    """Per edge (dataset_id, publication_id), the judges of its judged pairs: each distinct judge once, an LLM's with
    its prompt version ('groq/llama-3.3-70b-versatile (prompt llm-v1)'), sorted and '; '-joined (column coherence_judges).

    Args:
        pairs: PAIR_KEY, judge and prompt_version (NULL for the offline judge).
    """
    llm = np.fromiter((isinstance(version, str) for version in pairs["prompt_version"].tolist()), dtype=bool, count=len(pairs))
    judge = pairs["judge"].astype("str")
    named = judge.where(~llm, judge + " (prompt " + pairs["prompt_version"].where(llm, "").astype("str") + ")")
    frame = pd.DataFrame({"dataset_id": pairs["dataset_id"], "publication_id": pairs["older_publication_id"], "judge": named})
    frame = frame.drop_duplicates().sort_values([*EDGE_KEY, "judge"])
    # each edge's judges are one run of the sorted rows: joined run by run
    dataset_ids, publication_ids = frame["dataset_id"].to_numpy(dtype=object), frame["publication_id"].to_numpy(dtype=object)
    first = np.ones(len(frame), dtype=bool)
    first[1:] = (dataset_ids[1:] != dataset_ids[:-1]) | (publication_ids[1:] != publication_ids[:-1])
    starts = np.flatnonzero(first)
    names = frame["judge"].tolist()
    return pd.DataFrame(
        {
            "dataset_id": pd.Series(dataset_ids[starts], dtype=pairs["dataset_id"].dtype),
            "publication_id": pd.Series(publication_ids[starts], dtype=pairs["older_publication_id"].dtype),
            "coherence_judges": pd.Series(
                ["; ".join(names[start:stop]) for start, stop in zip(starts.tolist(), [*starts[1:].tolist(), len(names)])], dtype="str"
            ),
        }
    )


def score_research_area_edges(
    edges: pd.DataFrame, pairs: pd.DataFrame, *, as_of: date, settings: ScoringSettings, stewards: pd.DataFrame | None = None
) -> tuple[pd.DataFrame, int]:
    """Scored edges, one row per row of `edges` whose publication is not from after as_of's year.

    Args:
        edges: columns research_area, dataset_id, publication_id and the columns `score_edges` needs besides
            coherence (recon_assets/reliability/sql/edges_in_research_areas.sql).
        pairs, stewards: see `edge_coherence`.
        settings: what `score_edges` scores with.

    Returns:
        (the scored edges: `edges` plus the coherence and `score_edges` columns; the number of edges left out
        because their publication came out after as_of's year: they did not exist as of as_of).
    """
    existing = published_by(edges, as_of)
    scored = score_edges(edge_coherence(edges[existing], pairs, stewards), as_of=as_of, settings=settings)
    return scored, int((~existing).sum())


def published_by(edges: pd.DataFrame, as_of: date) -> np.ndarray:
    """Whether each row of `edges` (columns kg_year, openalex_year) has a publication that existed as of `as_of`: its
    year (the KG's, else OpenAlex's) is not after as_of's year; a publication without a year counts as existing.
    Shape (len(edges),), bool. DOMAIN.md: nothing dated after as_of is used."""
    year = edges["kg_year"].astype("Int64").fillna(edges["openalex_year"].astype("Int64"))
    return ~(year > as_of.year).fillna(False).to_numpy(dtype=bool)
