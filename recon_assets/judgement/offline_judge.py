"""The offline coherence judge: explicit wording in newer publications, gated by text similarity.

For a Dataset->Publication edge (dataset d, older publication p) the evidence is the newer work that
uses d or its successor version: publications with a year after p's and inside the window
`as_of.year - window_years .. as_of.year` (DOMAIN.md, "coherence"). The `top_k` most similar ones (cosine
of WordLlama embeddings of title + abstract; `newer_neighbours` finds them, through an index for a dataset with very
many publications) are judged pairwise (p, newer): below `min_similarity` the
newer paper is not about the same thing and says nothing about p; otherwise the most severe non-negated
cue of its title + abstract (`cues.find_cue`, rules in `cues.yaml`) decides, on the DOMAIN.md scale:

    contradiction wording -> CONTRADICTED 0.1    supersession wording -> SUPERSEDED 0.3
    refinement wording    -> SUPPORTED    0.7    support wording      -> SUPPORTED  1.0
    no stance wording     -> UNVERIFIED   0.5 (neutral)

A newer paper in which no cue is found is read but is no evidence either way (DOMAIN.md: "no evidence means
UNVERIFIED", with a neutral value; most citations take no stance on the cited work, Teufel, Siddharthan & Tidhar
2006, "Automatic classification of citation function", EMNLP). Rules version 1 called such a pair SUPPORTED 1.0,
so that coherence 1.0 mostly meant "no cue found" (103 of the sample's 110 judged pairs), not consensus. It still
counts as a work read without objection when an edge's pairs are combined (`aggregate_edge_coherence`): a lone
cue-word contradiction among many such readers does not decide the edge.

A newer paper on the successor version is evidence like any other (flagged `newer_via_successor`, said in
the rationale), judged by its wording only: using the successor version is the dataset lifecycle, counted
once by the version chain (DOMAIN.md "Labels are findings"), never a SUPERSEDED verdict by itself.

Known limitations, seen on real OpenAlex abstracts (recon_assets_tests/test_offline_judge.py has rows):
- Cues are wording, not claims: "underestimated" or "fails to explain" may describe the newer paper's
  own comparison ("IMERG V6 data generally underestimate the actual rainfall") rather than a verdict on
  the older paper, and an author's own limitation ("may overestimate") reads like a contradiction.
- The cue is not tied to p: a newer paper that contradicts *some* earlier work on the same topic
  counts against every similar older paper. Similarity is the only link.
- Negation is a look-back of a few tokens within a clause: "overestimation was not found" (negation
  after the cue) and negations further away are missed.
- Title-only text (the KG's 'N/A' abstracts) scores lower similarity than title + abstract: on the
  real sample, citing/cited pairs where one side has only its title reach 0.5 in 7% of cases, so such
  edges mostly stay UNVERIFIED (neutral), never wrongly judged.
- Sentence splitting is a punctuation rule; "et al." or "e.g." cut a quoted sentence short.
- Retraction notices, retracted articles and errata (by title: "Retraction Note: ...",
  "RETRACTED ARTICLE: ...", "Correction to: ...") are not evidence: they speak about their own
  paper. A retraction of p itself reaches the score through OpenAlex `is_retracted`, not through here.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

import numpy as np
import pandas as pd

from recon_assets.judgement.cues import QUOTE_CHARS, Cue, CueKind, find_cue, packaged_cue_rules
from recon_assets.judgement.newer_neighbours import EXACT_SEARCH_LIMIT, TopPairs, top_pairs
from recon_assets.judgement.text_embedding import EMBEDDING_DIM, MODEL_ID, embed, is_missing_text
from recon_assets.judgement.verdict_scale import (
    CONSENSUS_COHERENCE,
    CONTRADICTED,
    CONTRADICTED_COHERENCE,
    NEUTRAL_COHERENCE,
    OBJECTIONS,
    REFINED_COHERENCE,
    SUPERSEDED,
    SUPERSEDED_COHERENCE,
    SUPPORTED,
    UNVERIFIED,
    Verdict,
)

# Chosen on the real OpenAlex sample (44 works, title + abstract embedded): the 29 citing/cited pairs
# with both abstracts have similarity 0.48-0.83 (median 0.67), the 410 pairs from different OpenAlex
# fields 0.12-0.58 (median 0.30, 90th percentile 0.40). At 0.5, 97% of citing pairs pass and 1.2%
# of cross-field pairs do.
DEFAULT_MIN_SIMILARITY = 0.5
DEFAULT_TOP_K = 5  # enough newer papers to outvote one odd abstract, few enough to keep judging cheap
DEFAULT_WINDOW_YEARS = 3  # DOMAIN.md: newer work "in the last 3 years before as_of"
# An uncited new paper still says something; without a floor its verdict would weigh nothing.
MIN_EVIDENCE_WEIGHT = 0.05

# The version of the verdict rules (`_RULES`, module docstring); 2: a pair without stance wording is UNVERIFIED.
RULES_VERSION = 2
# The rules' and the cue file's versions are part of the judge id, so judgements cached under others are redone.
JUDGE_VERSION = f"rules-v{RULES_VERSION}+cues-v{packaged_cue_rules().version}+{MODEL_ID}"
OFFLINE_JUDGE_PREFIX = "offline/"  # every offline judge id, of any version, starts so
JUDGE_ID = f"{OFFLINE_JUDGE_PREFIX}{JUDGE_VERSION}"

PAIR_COLUMNS = [
    "dataset_id",
    "older_publication_id",
    "newer_publication_id",
    "similarity",
    "verdict",
    "coherence",
    "rationale",
    "judge",
    "newer_centrality",
    "newer_via_successor",
]


# Titles of retraction notices, retracted articles and errata: not evidence (module docstring).
NOT_EVIDENCE_TITLE = re.compile(
    r"^\W*(?:retract\w*|notice of retraction|erratum|corrigendum|correction(?:\s+to\b|\s*:)"
    r"|expression of concern)",
    re.IGNORECASE,
)

_RULES: dict[CueKind | None, tuple[Verdict, float]] = {
    CueKind.CONTRADICTION: (CONTRADICTED, CONTRADICTED_COHERENCE),
    CueKind.SUPERSESSION: (SUPERSEDED, SUPERSEDED_COHERENCE),
    CueKind.REFINEMENT: (SUPPORTED, REFINED_COHERENCE),
    CueKind.SUPPORT: (SUPPORTED, CONSENSUS_COHERENCE),
    None: (UNVERIFIED, NEUTRAL_COHERENCE),
}
# Sums of weights closer than this are a tie (0.1 + 0.2 against 0.3 in floating point).
_WEIGHT_TOLERANCE = 1e-9
_EVIDENCE_COLUMNS = {
    "newer_publication_id": "evidence_publication_id",
    "verdict": "evidence_verdict",
    "rationale": "evidence_rationale",
    "newer_centrality": "evidence_centrality",
}


@dataclass(frozen=True)
class PairJudgement:
    """Verdict on one (older, newer) pair: a DOMAIN.md verdict, its coherence and a checkable reason."""

    verdict: str
    coherence: float
    rationale: str


def _evidence(cue: Cue | None) -> str:
    if cue is None:
        return "no contradiction, supersession, refinement or support wording found: no stance either way"
    return f'{cue.kind} wording "{cue.phrase}": "{cue.quote()}"'


def find_each_cue(texts: Sequence[str | None]) -> list[Cue | None]:
    """`find_cue` of each text (None, NA and 'N/A' allowed), each distinct text read once."""
    cue_of = functools.cache(find_cue)
    return [cue_of(text) for text in texts]


def judge_pair(
    similarity: float, newer_cue: Cue | None, *, min_similarity: float = DEFAULT_MIN_SIMILARITY
) -> PairJudgement:
    """Judge an (older, newer) publication pair from their text similarity and the newer one's cue.

    Args:
        similarity: cosine similarity of the two texts, in [-1, 1]; NaN counts as below the gate.
        newer_cue: `find_cue` of the newer publication's text.
        min_similarity: below it the newer paper is not about the same thing (DEFAULT_MIN_SIMILARITY).

    Returns:
        UNVERIFIED (NEUTRAL_COHERENCE) below the gate, else the verdict and coherence of the cue's kind
        (module docstring) with a rationale quoting the cue sentence and giving the similarity.
    """
    if not similarity >= min_similarity:
        return PairJudgement(
            UNVERIFIED,
            NEUTRAL_COHERENCE,
            f"not about the same thing (similarity {similarity:.2f} < {min_similarity:.2f})",
        )
    verdict, coherence = _RULES[newer_cue.kind if newer_cue else None]
    return PairJudgement(verdict, coherence, f"{_evidence(newer_cue)} (similarity {similarity:.2f})")


def _require_columns(frame: pd.DataFrame, columns: list[str], name: str) -> None:
    missing = sorted(set(columns) - set(frame.columns))
    if missing:
        raise ValueError(f"{name} lacks columns {missing}")


def judge_edges(
    edges: pd.DataFrame,
    publications: pd.DataFrame,
    *,
    as_of: date,
    top_k: int = DEFAULT_TOP_K,
    min_similarity: float = DEFAULT_MIN_SIMILARITY,
    window_years: int = DEFAULT_WINDOW_YEARS,
    embedder: Callable[[Sequence[object]], np.ndarray] = embed,
    read_cues: Callable[[Sequence[str | None]], list[Cue | None]] = find_each_cue,
    exact_up_to: int = EXACT_SEARCH_LIMIT,
    progress: Callable[[str], None] | None = None,
) -> pd.DataFrame:
    """Judge every Dataset->Publication edge against the newer publications using the same dataset or its
    successor version (DOMAIN.md "coherence": "newer work ... that uses the same dataset or its successor version").

    Args:
        edges: columns dataset_id, publication_id (one row per edge; duplicates are ignored), and optionally
            via_successor (bool): the publication uses the dataset's successor version, so it is evidence
            about the dataset's edges but not an edge of it (never judged as the older publication).
        publications: columns publication_id (unique), year (Int64, NA allowed), title, abstract
            (None/'N/A' allowed), centrality (float in [0, 1]); must hold every publication of `edges`.
        as_of: the evaluation date; evidence years are `as_of.year - window_years .. as_of.year`.
        top_k: at most this many newer publications judged per edge, most similar first.
        min_similarity: pairs below it are not evidence and are not emitted.
        window_years: width of the evidence window in years.
        embedder: `text_embedding.embed` or a function giving the same vectors (e.g. from a cache); called
            once, with the title + abstract text of every publication of `edges`.
        read_cues: `find_each_cue` (`find_cue` of each text, each distinct text read once) or a function giving the same
            (e.g. from a cache: `text_readings.read_cues`); called once, with the newer publications' texts.
        exact_up_to: a dataset with more older x newer publications than this is searched through an index
            (`newer_neighbours.top_pairs`: sub-quadratic, its recall against the exact search measured and reported).
        progress: called with a line of progress (embedding, each indexed dataset's search, the totals), e.g. a
            logger's info method.

    Returns:
        One row per judged pair, columns PAIR_COLUMNS (newer_via_successor: the newer publication uses the
        successor version, and the rationale begins with "uses the successor version; "), sorted by dataset_id, older_publication_id,
        similarity (descending), newer_publication_id. Similarity is rounded to 4 decimals so that
        floating-point summation order cannot reorder near-ties; exact ties go to the smaller id.
        An edge whose publication has no year, or no newer same-topic text in the window, has no row.

    Raises:
        ValueError: missing columns, duplicate publication ids, an edge publication not in
            `publications`, or top_k < 1.
    """
    _require_columns(edges, ["dataset_id", "publication_id"], "edges")
    _require_columns(publications, ["publication_id", "year", "title", "abstract", "centrality"], "publications")
    if top_k < 1:
        raise ValueError(f"top_k must be >= 1, got {top_k}")
    if publications["publication_id"].duplicated().any():
        raise ValueError("publications has duplicate publication_id values")
    # Sorted by id, positions order like ids: a stable sort over positions breaks ties by id.
    pubs = publications.sort_values("publication_id", kind="stable").reset_index(drop=True)
    via_successor = edges["via_successor"].astype(bool) if "via_successor" in edges else False
    # A publication using both versions is a direct edge: the direct row wins the de-duplication.
    edges = (
        edges.assign(via_successor=via_successor)[["dataset_id", "publication_id", "via_successor"]]
        .sort_values("via_successor", kind="stable")
        .drop_duplicates(["dataset_id", "publication_id"])
    )
    position = pd.Index(pubs["publication_id"]).get_indexer(edges["publication_id"])
    if (position < 0).any():
        unknown = edges["publication_id"][position < 0].unique()[:5].tolist()
        raise ValueError(f"edges reference publications not in publications, e.g. {unknown}")
    edges = edges.assign(position=position)

    year = pubs["year"].astype("Float64").to_numpy(dtype=float, na_value=np.nan)
    is_candidate = (
        (year >= as_of.year - window_years)
        & (year <= as_of.year)
        & ~pubs["title"].fillna("").astype(str).str.contains(NOT_EVIDENCE_TITLE).to_numpy()
    )
    texts = [
        ". ".join(str(part) for part in (title, abstract) if not is_missing_text(part)) or None
        for title, abstract in zip(pubs["title"], pubs["abstract"])
    ]
    involved = np.unique(position)
    vectors = np.zeros((len(pubs), EMBEDDING_DIM), dtype=np.float32)
    started = time.monotonic()
    vectors[involved] = embedder([texts[i] for i in involved])
    if progress:
        progress(f"vectors of {involved.size:,} publications' texts in {time.monotonic() - started:.1f} s")

    codes, dataset_ids = pd.factorize(edges["dataset_id"], sort=True)
    found = []
    started = time.monotonic()
    for code, group in edges[["position", "via_successor"]].groupby(codes, sort=True):
        group = group.sort_values("position")
        users = group["position"].to_numpy()
        on_successor = group["via_successor"].to_numpy(dtype=bool)
        older = users[~np.isnan(year[users]) & ~on_successor]
        newer = users[is_candidate[users]]
        where = f"dataset {dataset_ids[code]}: "
        pairs = top_pairs(
            vectors, year, older, newer, top_k=top_k, min_similarity=min_similarity, exact_up_to=exact_up_to,
            progress=progress and (lambda line, where=where: progress(where + line)),
        )
        found.append((np.full(pairs.older.size, code), pairs, np.isin(pairs.newer, users[on_successor])))
    if progress:
        progress(f"same-dataset search: {len(dataset_ids):,} datasets in {time.monotonic() - started:.1f} s")
    code = np.concatenate([np.empty(0, dtype=np.intp), *(part[0] for part in found)])
    pairs = TopPairs.concatenate([part[1] for part in found])
    older_pos, newer_pos, similarity = pairs.older, pairs.newer, pairs.similarity
    via = np.concatenate([np.empty(0, dtype=bool), *(part[2] for part in found)])

    # Each newer publication's cue is found once, however many pairs it is part of, and each distinct text once.
    started = time.monotonic()
    newer_read = np.unique(newer_pos)
    cue_of = dict(zip(newer_read, read_cues([texts[n] for n in newer_read])))
    judgements = [judge_pair(s, cue_of[n], min_similarity=min_similarity) for s, n in zip(similarity, newer_pos)]
    if progress:
        progress(f"{len(judgements):,} pairs judged, the wording of {len(cue_of):,} newer publications read, in "
                 f"{time.monotonic() - started:.1f} s")
    return pd.DataFrame(
        {
            "dataset_id": dataset_ids[code],
            "older_publication_id": pubs["publication_id"].iloc[older_pos].to_numpy(),
            "newer_publication_id": pubs["publication_id"].iloc[newer_pos].to_numpy(),
            "similarity": similarity,
            "verdict": pd.Series([j.verdict for j in judgements], dtype=str),
            "coherence": pd.Series([j.coherence for j in judgements], dtype=float),
            "rationale": pd.Series(
                [("uses the successor version; " if v else "") + j.rationale for j, v in zip(judgements, via)], dtype=str
            ),
            "judge": JUDGE_ID,
            "newer_centrality": pubs["centrality"].iloc[newer_pos].to_numpy(dtype=float),
            "newer_via_successor": via,
        },
        columns=PAIR_COLUMNS,
    )


def aggregate_edge_coherence(
    edges: pd.DataFrame, pairs: pd.DataFrame, older_centrality: pd.Series
) -> pd.DataFrame:
    """Combine pair judgements into one coherence per Dataset->Publication edge.

    Each pair weighs w = max(MIN_EVIDENCE_WEIGHT, newer centrality), times (1 + older centrality) for CONTRADICTED
    pairs (DOMAIN.md, "a contradiction counts more when both papers are central"). The works that read the paper
    without objecting to it - SUPPORTED, and UNVERIFIED (read, no stance wording: no evidence either way) - are weighed
    against the objections (CONTRADICTED and SUPERSEDED together). The offline judge's objections are cue words, false
    far more often than true where disputes are rare (controls 1/37 called CONTRADICTED, disputes 2/27: README
    "Disputes, pair by pair"), so an objection decides the edge only when the objections strictly outweigh the works
    without objection; an objection by another judge (the LLM, a steward), who read the paper, only has to outweigh
    the SUPPORTED pairs. A lone objection with nothing else read decides (DOMAIN.md worked case 2).
    - Objection decides: status CONTRADICTED or SUPERSEDED, whichever weighs more (ties to CONTRADICTED); coherence =
      sum(w * pair coherence) / sum(w) over the pairs that count, an UNVERIFIED one at the neutral 0.5, not at
      consensus. When only a reader's objection decides, the outweighed offline objections do not count (status,
      value and evidence rest on the readers' objections).
    - Otherwise: SUPPORTED when a pair is SUPPORTED, with that mean over the works without objection only (an
      outweighed objection never lowers it, and it stays >= 0.5); else UNVERIFIED with NEUTRAL_COHERENCE: nothing
      read states a stance that carries (DOMAIN.md "no evidence means UNVERIFIED").

    Args:
        edges: columns dataset_id, publication_id.
        pairs: columns dataset_id, older_publication_id, newer_publication_id, verdict, coherence, rationale,
            newer_centrality (NaN counts as 0) and judge (OFFLINE_JUDGE_PREFIX... for the offline judge's), as from
            `judge_edges`.
        older_centrality: centrality in [0, 1] indexed by publication_id; a missing value means no boost.

    Returns:
        One row per distinct edge, in `edges` order: dataset_id, publication_id, coherence (float), coherence_status,
        n_pairs (pairs with a stance: not UNVERIFIED), n_read (every pair), and the heaviest pair with the status's
        verdict as evidence_publication_id, evidence_verdict, evidence_rationale, evidence_centrality (ties to the
        smaller id; NA when UNVERIFIED). An edge without pairs gets NEUTRAL_COHERENCE, UNVERIFIED and NA evidence.

    Raises:
        ValueError: missing columns.
    """
    _require_columns(edges, ["dataset_id", "publication_id"], "edges")
    _require_columns(pairs, PAIR_COLUMNS[:3] + ["verdict", "coherence", "rationale", "newer_centrality", "judge"], "pairs")
    key = ["dataset_id", "publication_id"]
    read = pairs.rename(columns={"older_publication_id": "publication_id"})
    verdict = read["verdict"]
    boost = 1.0 + older_centrality.reindex(read["publication_id"]).fillna(0.0).to_numpy(dtype=float)
    weight = np.maximum(MIN_EVIDENCE_WEIGHT, read["newer_centrality"].fillna(0.0).to_numpy(dtype=float))
    weight = np.where(verdict == CONTRADICTED, weight * boost, weight)
    objection = verdict.isin(OBJECTIONS).to_numpy()
    by_reader = ~read["judge"].astype(str).str.startswith(OFFLINE_JUDGE_PREFIX).to_numpy()
    coherence = read["coherence"].to_numpy(dtype=float)
    edge = pd.MultiIndex.from_frame(read[key])
    vote = pd.DataFrame({
        "n_read": 1, "n_pairs": (verdict != UNVERIFIED).astype(int).to_numpy(), "n_supported": (verdict == SUPPORTED).astype(int).to_numpy(),
        "against": np.where(objection, weight, 0.0), "against_by_reader": np.where(objection & by_reader, weight, 0.0),
        "without": np.where(objection, 0.0, weight), "supported": np.where(verdict == SUPPORTED, weight, 0.0),
        "weighted_without": np.where(objection, 0.0, weight * coherence),
    }, index=edge).groupby(level=key, sort=False).sum()
    by_all = vote["against"] > vote["without"] + _WEIGHT_TOLERANCE
    decides = by_all | (vote["against_by_reader"] > vote["supported"] + _WEIGHT_TOLERANCE)
    # The objections that count: all of them when together they outweigh the works without objection, else only the
    # readers' (the offline cue words were outweighed), so the status, its evidence and the value rest on them alone.
    counts = ~objection | by_reader | by_all.reindex(edge).to_numpy()
    counted = pd.DataFrame({
        "contradicted": np.where(counts & (verdict == CONTRADICTED).to_numpy(), weight, 0.0),
        "superseded": np.where(counts & (verdict == SUPERSEDED).to_numpy(), weight, 0.0),
        "weight": np.where(counts, weight, 0.0), "weighted": np.where(counts, weight * coherence, 0.0),
    }, index=edge).groupby(level=key, sort=False).sum()
    kind = np.where(counted["contradicted"] >= counted["superseded"] - _WEIGHT_TOLERANCE, CONTRADICTED, SUPERSEDED)
    supported = vote["n_supported"] > 0
    totals = vote[["n_pairs", "n_read"]].assign(
        coherence_status=np.where(decides, kind, np.where(supported, SUPPORTED, UNVERIFIED)),
        coherence=np.where(
            decides, counted["weighted"] / counted["weight"],
            np.where(supported, vote["weighted_without"] / vote["without"].where(supported, 1.0), NEUTRAL_COHERENCE),
        ),
    )
    # The evidence is the heaviest counted pair carrying the status, so the reason never disagrees with it.
    strongest = (
        read.assign(weight=weight, counts=counts)
        .merge(totals["coherence_status"].reset_index(), on=key)
        .query(f"verdict == coherence_status and verdict != '{UNVERIFIED}' and counts")
        .sort_values([*key, "weight", "newer_publication_id"], ascending=[True, True, False, True], kind="stable")
        .drop_duplicates(key)
        .rename(columns=_EVIDENCE_COLUMNS)
    )
    result = (
        edges[key]
        .drop_duplicates()
        .merge(totals[["coherence", "coherence_status", "n_pairs", "n_read"]].reset_index(), on=key, how="left")
        .merge(strongest[[*key, *_EVIDENCE_COLUMNS.values()]], on=key, how="left")
    )
    return result.assign(
        coherence=result["coherence"].fillna(NEUTRAL_COHERENCE),
        coherence_status=result["coherence_status"].fillna(UNVERIFIED),
        n_pairs=result["n_pairs"].fillna(0).astype("int64"),
        n_read=result["n_read"].fillna(0).astype("int64"),
    ).reset_index(drop=True)
