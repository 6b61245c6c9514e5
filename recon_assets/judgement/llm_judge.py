"""The LLM judge over DataFrames: which pairs to send (triage), asking a client batch by batch with the cache
in front, what an LLM answer may do to a pair's judgement (only add an objection: `llm_answer_counts`, issue 24), and
how far the two judges agree. No Dagster, no DuckDB.

Input: one row per candidate pair, with the columns of CANDIDATE_COLUMNS (the texts the model reads) and
TRIAGE_COLUMNS (what triage decides on). Output of `judge_candidates`: one row per candidate with the columns
of LLM_JUDGEMENT_COLUMNS, and the rows to add to the `llm_judgements` cache (CACHE_COLUMNS).

Triage (`triage`) sends a pair only when its answer can change a label; each reason is one input column:
- `recorded_dispute`: a comment, reply or correction links the two papers (DOMAIN.md: disputes reach the
  verdicts without the 2-year rule, so reading them matters most);
- `older_centrality` >= `central_centrality` (0.6, DOMAIN.md's FOUNDATIONAL gate): a contradiction of a central
  paper is what may stop it being FOUNDATIONAL;
- `threshold_margin` <= `max_swing`: the edge's reliability is so close to a label threshold that the pair's
  coherence can move it across (`max_swing` default 0.27 = coherence weight 0.3 x the scale's span 1.0 - 0.1);
- the offline verdict rests on a cue word (CONTRADICTED or SUPERSEDED: issue 10 measured 3 of 7 contradictions
  caught and three false supersessions from cue words);
- the offline similarity lies within `similarity_band` of its gate;
- the offline judge found no stance (UNVERIFIED) or did not judge the pair (NULL): a rebuttal in paraphrase reads
  so, but so do most citations, hence last.
Pairs are sent in that order of reasons (then most central first), so a budget that runs out leaves out the
pairs that matter least.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

import numpy as np
import pandas as pd

from recon_assets.judgement.llm_prompt import NOT_COUNTED, PROMPT_VERSION, PairTexts, pair_digest
from recon_assets.judgement.verdict_scale import CONTRADICTED, NEUTRAL_COHERENCE, OBJECTIONS, SUPERSEDED, UNVERIFIED, VERDICTS
from recon_assets.shared.table_docs import declared_columns

KEY = ["dataset_id", "older_publication_id", "newer_publication_id"]
CANDIDATE_COLUMNS: dict[str, str] = {
    "dataset_id": "The dataset d both publications use.",
    "older_publication_id": "The older publication p (canonical DOI, or kg:<id> without one).",
    "newer_publication_id": "The newer publication q.",
    "dataset_text": "What the model reads about d: short name, version and title (cut to 300 characters).",
    "older_title": "Title of p (NULL allowed).",
    "older_abstract": "Abstract of p (NULL allowed; cut to 1,500 characters).",
    "older_year": "Publication year of p (NULL allowed).",
    "newer_title": "Title of q.",
    "newer_abstract": "Abstract of q.",
    "newer_year": "Publication year of q.",
}
TRIAGE_COLUMNS: dict[str, str] = {
    "offline_verdict": "The offline judge's verdict for the pair; NULL when it did not judge it.",
    "offline_similarity": "The offline judge's similarity of the pair's texts; NaN when not computed.",
    "threshold_margin": "Distance of the edge's reliability to the nearest label threshold (`threshold_margin`); NaN when unknown.",
    "older_centrality": "Centrality of p in [0, 1]; NaN when unknown.",
    "recorded_dispute": "A recorded comment, reply or correction links p and q (Crossref relation or title).",
}
LLM_STATUSES = ("judged", "cached", "failed", "not_sent")
LLM_JUDGEMENT_COLUMNS: dict[str, str] = {
    "dataset_id": "The dataset.",
    "older_publication_id": "The older publication p.",
    "newer_publication_id": "The newer publication q.",
    "llm_status": "judged (asked in this run), cached (answer of an earlier run reused), failed (asked, no valid answer) or not_sent.",
    "verdict": "SUPPORTED, CONTRADICTED, SUPERSEDED or UNVERIFIED (always UNVERIFIED when failed or not_sent).",
    "coherence": "DOMAIN.md scale: 1.0 consensus, 0.7 refined, 0.5 debated or unverified, 0.3 superseded, 0.1 contradicted.",
    "rationale": "The model's one sentence; for failed and not_sent pairs, why.",
    "evidence": "Passages quoted from the pair's texts and found there.",
    "judge": "groq/<model> that answered (or would have).",
    "prompt_version": "Version of the prompt and answer schema (llm_prompt.PROMPT_VERSION).",
    "input_sha256": "SHA-256 of the texts sent for the pair with the prompt version (llm_prompt.pair_digest).",
    "request_id": "Groq's completion id of the request that answered; NULL when salvaged, failed or not sent.",
    "pairs_in_request": "Pairs the answering request held (its tokens and latency are shared among them).",
    "prompt_tokens": "Prompt tokens of that request (Groq usage).",
    "completion_tokens": "Completion tokens of that request.",
    "latency_ms": "Wall time of that request's answered attempt, in milliseconds.",
    "triage_reasons": "Why the pair was worth asking ('; '-joined); empty when triage left it out.",
    "judged_at": "When the answer was received (UTC); NULL when failed or not sent.",
}
CACHE_COLUMNS = list(declared_columns("llm_judgements"))
# Label thresholds on reliability: settings.LabelThresholds.superseded_reliability and VerdictRules.reliable.
DEFAULT_RELIABILITY_THRESHOLDS = (0.35, 0.40)
# Decimal thresholds meet binary floats: 0.6 - 0.5 < 0.1 in floating point, so comparisons allow this much.
_TOLERANCE = 1e-9
_REASON_ORDER = (
    "recorded dispute", "older publication central", "edge near a label threshold", "offline verdict rests on a cue word",
    "offline similarity near its gate", "offline judge found no stance or did not judge",
)


@dataclass(frozen=True)
class TriageRules:
    """Triage thresholds (module docstring): `min_similarity` the offline judge's gate (0.5) and `similarity_band`
    around it; `max_swing` the largest reliability change one pair's coherence can make; `central_centrality`."""

    min_similarity: float = 0.5
    similarity_band: float = 0.1
    max_swing: float = 0.27
    central_centrality: float = 0.6


def threshold_margin(reliability: pd.Series, thresholds: Sequence[float] = DEFAULT_RELIABILITY_THRESHOLDS) -> pd.Series:
    """|reliability - t| for the nearest threshold t of `thresholds`, per row; NaN where reliability is NaN."""
    values = pd.to_numeric(reliability, errors="coerce").to_numpy(dtype=float)
    distances = np.abs(values[:, None] - np.asarray(thresholds, dtype=float)[None, :]) if len(values) else np.empty((0, 1))
    return pd.Series(distances.min(axis=1) if len(values) else [], index=reliability.index, dtype=float)


def triage(candidates: pd.DataFrame, rules: TriageRules = TriageRules()) -> pd.DataFrame:
    """`candidates` with `triage_reasons` (str, '; '-joined in the module docstring's order, '' when none),
    `send` (bool) and `triage_rank` (0 = ask first), sorted by rank.

    Raises:
        KeyError: a TRIAGE_COLUMNS column is missing.
    """
    missing = [column for column in TRIAGE_COLUMNS if column not in candidates.columns]
    if missing:
        raise KeyError(f"triage needs the columns {missing} (see llm_judge.TRIAGE_COLUMNS)")
    frame = candidates.copy()
    verdict = frame["offline_verdict"].astype(object)
    similarity = pd.to_numeric(frame["offline_similarity"], errors="coerce")
    centrality = pd.to_numeric(frame["older_centrality"], errors="coerce")
    margin = pd.to_numeric(frame["threshold_margin"], errors="coerce")
    flags = {
        "recorded dispute": frame["recorded_dispute"].fillna(False).astype(bool),
        "older publication central": centrality >= rules.central_centrality,
        "edge near a label threshold": margin <= rules.max_swing + _TOLERANCE,
        "offline verdict rests on a cue word": verdict.isin(OBJECTIONS),
        "offline similarity near its gate": (similarity - rules.min_similarity).abs() < rules.similarity_band - _TOLERANCE,
        "offline judge found no stance or did not judge": verdict.isna() | (verdict == UNVERIFIED),
    }
    frame["triage_reasons"] = [
        "; ".join(reason for reason in _REASON_ORDER if flags[reason].iloc[row]) for row in range(len(frame))
    ]
    frame["send"] = frame["triage_reasons"] != ""
    first = [next((rank for rank, reason in enumerate(_REASON_ORDER) if flags[reason].iloc[row]), len(_REASON_ORDER))
             for row in range(len(frame))]
    frame["triage_rank"] = first
    frame["_centrality"] = centrality.fillna(-1.0)
    frame = frame.sort_values(["triage_rank", "_centrality"], ascending=[True, False], kind="stable")
    return frame.drop(columns="_centrality").reset_index(drop=True)


# What the model reads about a dataset: at most this many characters (CANDIDATE_COLUMNS["dataset_text"]).
DATASET_TEXT_CHARACTERS = 300


def pair_candidates(pairs: pd.DataFrame, texts: pd.DataFrame, datasets: pd.DataFrame, disputed: set[tuple[str, str]]) -> pd.DataFrame:
    """The LLM candidates (CANDIDATE_COLUMNS and TRIAGE_COLUMNS) of the offline judge's pairs.

    Args:
        pairs: KEY, verdict and similarity of each judged pair (offline_judge.PAIR_COLUMNS).
        texts: key, year, title, abstract and centrality (NaN allowed) of every older and newer publication.
        datasets: dataset_id, short_name, long_name.
        disputed: (older, newer) publication pairs a recorded comment, reply or correction links.

    Returns:
        One row per row of `pairs`; threshold_margin NaN (the edge's reliability is not scored yet when judging).
    """
    text = texts.drop_duplicates("key").set_index("key")
    named = datasets.drop_duplicates("dataset_id").set_index("dataset_id")
    dataset_text = (named["short_name"].fillna("").astype(str) + ": " + named["long_name"].fillna("").astype(str)).str[:DATASET_TEXT_CHARACTERS]
    older, newer = pairs["older_publication_id"], pairs["newer_publication_id"]
    return pd.DataFrame({
        **{column: pairs[column].to_numpy() for column in KEY},
        "dataset_text": pairs["dataset_id"].map(dataset_text).to_numpy(),
        **{f"{side}_{field}": ids.map(text[field]).to_numpy() for side, ids in (("older", older), ("newer", newer))
           for field in ("title", "abstract", "year")},
        "offline_verdict": pairs["verdict"].to_numpy(),
        "offline_similarity": pairs["similarity"].astype(float).to_numpy(),
        "threshold_margin": np.nan,
        "older_centrality": older.map(text["centrality"]).astype(float).to_numpy(),
        "recorded_dispute": [(o, n) in disputed for o, n in zip(older, newer)],
    })


def pair_texts(row) -> PairTexts:
    """The PairTexts of a candidate row (CANDIDATE_COLUMNS)."""
    def text(name: str) -> str | None:
        value = row[name]
        return None if value is None or (isinstance(value, float) and math.isnan(value)) else str(value)

    def year(name: str) -> int | None:
        value = row[name]
        return None if value is None or pd.isna(value) else int(value)

    return PairTexts(
        dataset=text("dataset_text"), older_title=text("older_title"), older_abstract=text("older_abstract"),
        older_year=year("older_year"), newer_title=text("newer_title"), newer_abstract=text("newer_abstract"),
        newer_year=year("newer_year"),
    )


class BatchJudge(Protocol):
    """What `judge_candidates` needs of a client (GroqJudgeClient has it)."""

    @property
    def judge_id(self) -> str: ...

    stopped: str | None

    def judge(self, pairs: Sequence[PairTexts]) -> list: ...


@dataclass
class LlmJudgeReport:
    """`judgements` (LLM_JUDGEMENT_COLUMNS, one row per candidate), `new_rows` (CACHE_COLUMNS, to store) and
    `totals` (figures for the asset's metadata; see `judge_candidates`)."""

    judgements: pd.DataFrame
    new_rows: pd.DataFrame
    totals: dict[str, object] = field(default_factory=dict)


def judge_candidates(
    candidates: pd.DataFrame,
    client: BatchJudge | None,
    *,
    cached: pd.DataFrame | None = None,
    models: Sequence[str] = (),
    pairs_per_request: int = 8,
    rules: TriageRules = TriageRules(),
    offline_reason: str | None = None,
    now: Callable[[], datetime],
) -> LlmJudgeReport:
    """Judge `candidates` with `client`, reusing `cached` answers.

    Args:
        candidates: CANDIDATE_COLUMNS and TRIAGE_COLUMNS; one row per pair (duplicates of KEY are judged once).
        client: the batch judge, or None offline (then nothing is sent; `offline_reason` says why).
        cached: rows of the llm_judgements table (CACHE_COLUMNS) for PROMPT_VERSION; a row is reused when its
            KEY and `input_sha256` match, preferring the model listed first in `models`.
        pairs_per_request: pairs per request.
        rules: the triage rules.
        now: the time of an answer (UTC), e.g. `lambda: datetime.now(timezone.utc)`.

    Returns:
        LlmJudgeReport; `totals` has candidates, cached, triaged_out, sent, judged, failed, not_sent, verdicts (of
        the answers that count: `counted_answers`), not_counted, stopped (why LLM judging stopped, or None), judge, prompt_version.

    Raises:
        KeyError: a CANDIDATE_COLUMNS or TRIAGE_COLUMNS column is missing.
    """
    missing = [column for column in CANDIDATE_COLUMNS if column not in candidates.columns]
    if missing:
        raise KeyError(f"judge_candidates needs the columns {missing} (see llm_judge.CANDIDATE_COLUMNS)")
    pool = triage(candidates.drop_duplicates(KEY), rules)
    pool["input_sha256"] = [pair_digest(pair_texts(row)) for _, row in pool.iterrows()]
    rows: dict[tuple, dict] = {}
    reuse = _reusable(cached, models)
    for _, row in pool.iterrows():
        key = tuple(row[column] for column in KEY)
        hit = reuse.get(key)
        if hit is not None and hit["input_sha256"] == row["input_sha256"]:
            rows[key] = {**hit, "llm_status": "cached", "triage_reasons": row["triage_reasons"]}
    judge_id = client.judge_id if client is not None else (f"groq/{models[0]}" if models else "groq")
    asked = pool.loc[np.array([tuple(row[column] for column in KEY) not in rows for _, row in pool.iterrows()], dtype=bool)]
    to_send = asked[asked["send"]]
    for _, row in asked[~asked["send"]].iterrows():
        rows[tuple(row[c] for c in KEY)] = _unanswered(row, "not_sent", "triage: the answer cannot change a label", judge_id)
    if client is None:
        for _, row in to_send.iterrows():
            rows[tuple(row[c] for c in KEY)] = _unanswered(row, "not_sent", offline_reason or "LLM judge offline", judge_id)
    else:
        for start in range(0, len(to_send), pairs_per_request):
            batch = to_send.iloc[start:start + pairs_per_request]
            outcomes = client.judge([pair_texts(row) for _, row in batch.iterrows()])
            for (_, row), outcome in zip(batch.iterrows(), outcomes):
                rows[tuple(row[c] for c in KEY)] = _from_outcome(row, outcome, client.judge_id, now)
    judgements = pd.DataFrame([rows[tuple(row[c] for c in KEY)] for _, row in pool.iterrows()], columns=list(LLM_JUDGEMENT_COLUMNS))
    new = judgements[judgements["llm_status"] == "judged"].assign(
        model=lambda frame: frame["judge"].str.removeprefix("groq/")
    )[CACHE_COLUMNS].reset_index(drop=True)
    counts = judgements["llm_status"].value_counts()
    answered = counted_answers(judgements)
    totals = {
        "candidates": len(pool),
        "cached": int(counts.get("cached", 0)),
        "triaged_out": int((~pool["send"]).sum()),
        "sent": int(counts.get("judged", 0) + counts.get("failed", 0)),
        "judged": int(counts.get("judged", 0)),
        "failed": int(counts.get("failed", 0)),
        "not_sent": int(counts.get("not_sent", 0)),
        "verdicts": {verdict: int(n) for verdict, n in answered["verdict"].value_counts().items()},
        "not_counted": int(judgements["llm_status"].isin(["judged", "cached"]).sum()) - len(answered),
        "stopped": (client.stopped if client is not None else offline_reason),
        "judge": client.judge_id if client is not None else judge_id,
        "prompt_version": PROMPT_VERSION,
    }
    return LlmJudgeReport(judgements.reset_index(drop=True), new, totals)


def _reusable(cached: pd.DataFrame | None, models: Sequence[str]) -> dict[tuple, dict]:
    """KEY -> cached row of PROMPT_VERSION, the first model of `models` winning."""
    if cached is None or cached.empty:
        return {}
    rank = {model: position for position, model in enumerate(models)}
    usable = cached[(cached["prompt_version"] == PROMPT_VERSION) & cached["model"].isin(list(rank))].copy()
    usable["_rank"] = usable["model"].map(rank)
    usable = usable.sort_values("_rank", kind="stable").drop_duplicates(KEY)
    return {
        tuple(row[c] for c in KEY): {column: row[column] for column in LLM_JUDGEMENT_COLUMNS if column in row.index}
        for _, row in usable.iterrows()
    }


def _unanswered(row, status: str, reason: str, judge_id: str) -> dict:
    prefix = "LLM judge failed" if status == "failed" else "not sent to the LLM judge"
    return {
        **{column: row[column] for column in KEY},
        "llm_status": status, "verdict": UNVERIFIED, "coherence": NEUTRAL_COHERENCE, "rationale": f"{prefix}: {reason}",
        "evidence": [], "judge": judge_id, "prompt_version": PROMPT_VERSION, "input_sha256": row["input_sha256"],
        "request_id": None, "pairs_in_request": None, "prompt_tokens": None, "completion_tokens": None,
        "latency_ms": None, "triage_reasons": row["triage_reasons"], "judged_at": None,
    }


def _from_outcome(row, outcome, judge_id: str, now: Callable[[], datetime]) -> dict:
    if outcome.status != "judged":
        return _unanswered(row, outcome.status, outcome.reason or "no reason given", judge_id)
    answer, request = outcome.answer, outcome.request
    return {
        **{column: row[column] for column in KEY},
        "llm_status": "judged", "verdict": answer.verdict, "coherence": float(answer.coherence),
        "rationale": answer.rationale + (f" ({outcome.reason})" if outcome.reason else ""),
        "evidence": list(answer.evidence), "judge": judge_id, "prompt_version": PROMPT_VERSION,
        "input_sha256": row["input_sha256"],
        "request_id": request.request_id if request else None,
        "pairs_in_request": request.pairs if request else None,
        "prompt_tokens": request.prompt_tokens if request else None,
        "completion_tokens": request.completion_tokens if request else None,
        "latency_ms": request.latency_ms if request else None,
        "triage_reasons": row["triage_reasons"], "judged_at": now(),
    }


def counted_answers(llm: pd.DataFrame) -> pd.DataFrame:
    """The rows of `llm` (LLM_JUDGEMENT_COLUMNS) whose answer counts: llm_status judged or cached, and not an answer
    whose quotes state no stance of its verdict (rationale starting with llm_prompt.NOT_COUNTED)."""
    answered = llm["llm_status"].isin(["judged", "cached"]) & ~llm["rationale"].astype(str).str.startswith(NOT_COUNTED)
    return llm[answered]


def llm_answer_counts(offline_verdict: str | None, offline_coherence: float, llm_verdict: str, llm_coherence: float) -> bool:
    """Whether an LLM answer replaces the offline judge's judgement of its pair: only when it objects to the older paper
    p at least as strongly (issue 24). The answer is one `counted_answers` keeps (its quotes passed the check);
    `offline_verdict` is None when the offline judge did not judge the pair.

    Why: a model can be told what to answer by any text it reads, and detecting such text can never be complete (a
    hostile pass found 31 of 31 new phrasings that `judge_address`'s list missed: other languages, lower-case verdicts,
    homoglyphs, spaced letters, `<system>` tags). So whatever the model was told, its answer can only add an objection
    to a pair, never remove or soften one:
    - SUPPORTED and UNVERIFIED never count: on a pair the offline judge objects to they would remove the objection; on
      any other they add weight and coherence to the works without objection, which `offline_judge.
      aggregate_edge_coherence` weighs against the objections (an obeying model's SUPPORTED 1.0 lifted SUPERSEDED
      edges).
    - CONTRADICTED and SUPERSEDED count where the offline judge found no objection or did not judge the pair, and where
      it objects only when at least as severe: the same verdict, or CONTRADICTED for SUPERSEDED, at a coherence no
      higher. The pair then is a reader's objection (it has to outweigh only the SUPPORTED pairs).
    A stored pair so never loses an objection (the dataset verdicts' contradiction check reads pairs). An edge's
    coherence is a weighted mean, so even an added objection can raise it; `reliability.edge_scores.
    without_lifting_llm_answers` keeps every edge at or below its value from the offline answers alone. Recorded
    disputes and a retraction bound every judge afterwards (`reliability.edge_scores.edge_coherence` caps coherence by
    the dispute; label rule 1 makes a retracted paper SUPERSEDED). The price: an LLM no longer confirms p (an
    UNVERIFIED edge the model finds supported stays UNVERIFIED), and a model that obeys an instruction withholds the
    objection it would have added, leaving the pair to the offline judge.
    """
    if llm_verdict not in OBJECTIONS:
        return False
    if offline_verdict not in OBJECTIONS:
        return True
    stronger = llm_verdict == offline_verdict or (llm_verdict, offline_verdict) == (CONTRADICTED, SUPERSEDED)
    return stronger and llm_coherence <= offline_coherence + _TOLERANCE


def prefer_llm_judgements(offline: pd.DataFrame, llm: pd.DataFrame) -> pd.DataFrame:
    """The pair judgements to score with: the LLM's where its answer counts (`llm_answer_counts`: an objection at
    least as strong as the offline judge's), the offline judge's elsewhere.

    Args:
        offline: one row per pair with KEY, verdict, coherence, rationale, judge and any other columns
            (offline_judge.PAIR_COLUMNS).
        llm: LLM_JUDGEMENT_COLUMNS (from `judge_candidates`); only `counted_answers` are read.

    Returns:
        `offline`'s columns plus `prompt_version` (NULL for offline rows), `offline_verdict` and `offline_coherence`
        (the offline judgement an LLM answer replaced, NULL otherwise: `reliability.edge_scores.edge_coherence` bounds
        each edge by them). A pair whose LLM answer counts has verdict, coherence,
        rationale (with the first quoted passage) and judge replaced; its other columns stay the offline row's. A pair
        whose answer does not count keeps the offline row, its rationale saying what the LLM answered ("; <judge>
        answered SUPPORTED 1.0: not counted, ..."). A pair only the LLM judged is added (NaN in the offline-only
        columns) when its answer counts. A failed, unsent or uncounted LLM pair never replaces an offline judgement.
    """
    answered = counted_answers(llm).drop_duplicates(KEY).set_index(KEY)
    merged = offline.copy()
    merged["prompt_version"] = None
    merged["offline_verdict"] = None
    merged["offline_coherence"] = np.nan
    if answered.empty:
        return merged
    index = pd.MultiIndex.from_frame(merged[KEY]) if len(merged) else pd.MultiIndex.from_tuples([], names=KEY)
    hit = index.isin(answered.index)
    answer = answered.reindex(index[hit])
    counts = np.array([
        llm_answer_counts(verdict, coherence, llm_verdict, llm_coherence) for verdict, coherence, llm_verdict, llm_coherence in zip(
            merged.loc[hit, "verdict"].tolist(), merged.loc[hit, "coherence"].astype(float).tolist(),
            answer["verdict"].tolist(), answer["coherence"].astype(float).tolist(),
        )
    ], dtype=bool)
    replaced, kept = np.flatnonzero(hit)[counts], np.flatnonzero(hit)[~counts]
    replacement, unused = answer[counts], answer[~counts]
    rows = merged.index[replaced]
    merged.loc[rows, "offline_verdict"] = merged.loc[rows, "verdict"].to_numpy()
    merged.loc[rows, "offline_coherence"] = merged.loc[rows, "coherence"].astype(float).to_numpy()
    for column in ("verdict", "coherence", "judge", "prompt_version"):
        merged.loc[rows, column] = replacement[column].to_numpy()
    merged.loc[rows, "rationale"] = [_with_quote(r, e) for r, e in zip(replacement["rationale"], replacement["evidence"])]
    merged.loc[merged.index[kept], "rationale"] = [
        f"{rationale}; {judge} answered {verdict} {coherence:.1f}: {NOT_AN_OBJECTION}"
        for rationale, judge, verdict, coherence in zip(
            merged.loc[merged.index[kept], "rationale"].tolist(), unused["judge"].tolist(), unused["verdict"].tolist(),
            unused["coherence"].astype(float).tolist(),
        )
    ]
    extra = answered[~answered.index.isin(index)].reset_index()
    extra = extra[[llm_answer_counts(None, np.nan, verdict, coherence) for verdict, coherence in zip(extra["verdict"], extra["coherence"].astype(float))]]
    if not extra.empty:
        added = pd.DataFrame({column: extra[column] if column in extra.columns else np.nan for column in merged.columns})
        added["rationale"] = [_with_quote(r, e) for r, e in zip(extra["rationale"], extra["evidence"])]
        added["offline_verdict"] = None
        added["offline_coherence"] = np.nan
        merged = pd.concat([merged, added], ignore_index=True) if len(merged) else added
    return merged.reset_index(drop=True)


# Said in the rationale of a pair whose LLM answer `llm_answer_counts` leaves out of the score.
NOT_AN_OBJECTION = "not counted (an LLM answer counts only as an objection at least as strong as the offline judge's: issue 24)"


def _with_quote(rationale: str, evidence) -> str:
    quotes = list(evidence) if evidence is not None and not isinstance(evidence, float) else []
    return f'{rationale} "{quotes[0]}"' if quotes else rationale


@dataclass(frozen=True)
class Agreement:
    """Offline against LLM verdicts on the pairs both judged: `pairs`, `agreeing`, `rate` (None without pairs),
    `table` (offline verdict rows x LLM verdict columns, counts) and `markdown`."""

    pairs: int
    agreeing: int
    rate: float | None
    table: pd.DataFrame
    markdown: str


def judge_agreement(offline: pd.DataFrame, llm: pd.DataFrame) -> Agreement:
    """Confusion table and agreement rate of the offline judge's verdicts against the LLM's, on the pairs that
    have both (offline verdict not NULL; an LLM answer that counts: `counted_answers`), verdicts in VERDICTS order."""
    answered = counted_answers(llm)[KEY + ["verdict"]].drop_duplicates(KEY)
    both = offline[KEY + ["verdict"]].dropna(subset=["verdict"]).drop_duplicates(KEY).merge(
        answered, on=KEY, suffixes=("_offline", "_llm")
    )
    table = pd.crosstab(
        pd.Categorical(both["verdict_offline"], categories=VERDICTS),
        pd.Categorical(both["verdict_llm"], categories=VERDICTS), dropna=False,
    )
    table.index.name, table.columns.name = "offline", "LLM"
    pairs, agreeing = len(both), int((both["verdict_offline"] == both["verdict_llm"]).sum())
    if not pairs:
        return Agreement(0, 0, None, table, "No pair has both an offline and an LLM verdict: agreement not measured.")
    rate = agreeing / pairs
    header = "| offline \\ LLM | " + " | ".join(VERDICTS) + " |\n|---|" + "---:|" * len(VERDICTS)
    lines = [f"| {verdict} | " + " | ".join(str(int(table.loc[verdict, other])) for other in VERDICTS) + " |" for verdict in VERDICTS]
    markdown = (
        f"Offline and LLM verdicts agree on {agreeing} of {pairs} pairs judged by both ({rate:.0%}).\n\n"
        + header + "\n" + "\n".join(lines)
    )
    return Agreement(pairs, agreeing, rate, table, markdown)
