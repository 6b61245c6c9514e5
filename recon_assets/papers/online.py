"""A paper's claims and argumentation read online (issue 22): through the judges' Groq resource and its client
(`judgement.groq_client.GroqJudgeClient.ask`: model settings, retries, pacing, run and daily budgets, fallback model),
with Groq's answers kept in `llm_answers` (`judgement.llm_cache`), only when the paper's text may go out.

Privacy: an unpublished manuscript's text goes to Groq only when the papers' own opt-in is set (`PaperIntake.send_text_online`,
RECON_PAPERS_ONLINE=online) AND the Groq resource is online (a key, RECON_GROQ not offline); otherwise no client is made,
nothing is sent, and the rows say why. Every outcome is recorded as one `paper_llm_use` row per stage (claims,
argumentation): whether text was sent, to which service and model, requests and tokens, answers reused from the cache,
claims dropped with their reasons, wording addressing a model removed, and one line saying what was sent where.

A chunk whose request fails, is not sent (budget, daily limit, 429 after the retries) or whose answer is unusable keeps
the offline extractor's claims for its paragraphs, with the reason; a failed argumentation leaves it not assessed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone

from recon_assets.judgement import llm_cache
from recon_assets.judgement.cached_ask import ANSWERED, CACHED, ask_cached, daily_budget
from recon_assets.judgement.groq_client import FAILED, GroqJudgeClient
from recon_assets.judgement.resources import GroqJudgeResource
from recon_assets.papers.claims import Claim, extract_claims
from recon_assets.papers.llm_claims import (
    ARGUMENTATION_COMPLETION_TOKENS,
    ARGUMENTATION_PROMPT_VERSION,
    ARGUMENTATION_PURPOSE,
    CLAIMS_COMPLETION_TOKENS,
    CLAIMS_PROMPT_VERSION,
    CLAIMS_PURPOSE,
    MAX_CHUNKS,
    SentParagraph,
    argumentation_messages,
    chunks,
    claims_messages,
    read_argumentation,
    read_claims,
    sent_paragraphs,
)
from recon_assets.papers.dataset_catalogue import DatasetCatalogue
from recon_assets.papers.dataset_evidence import DatasetMatch, UnmatchedMention
from recon_assets.papers.llm_datasets import STAGE as DATASETS_STAGE
from recon_assets.papers.llm_datasets import ask_datasets, merge, to_send
from recon_assets.papers.parse import PaperDocument
from recon_assets.shared.credentials import error_line

SERVICE = "Groq"
CLAIMS_STAGE, ARGUMENTATION_STAGE = "claims", "argumentation"
LLM, MIXED, FALLBACK, NOT_SENT = "llm", "llm and offline", "offline fallback", "not sent"


@dataclass
class StageUse:
    """One `paper_llm_use` row: what one stage (claims, argumentation) sent where and what came of it."""

    stage: str
    outcome: str = NOT_SENT
    models: list[str] = field(default_factory=list)
    requests: int = 0
    cached: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    paragraphs_sent: int = 0
    paragraphs_offline: int = 0
    dropped: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    value: float | None = None
    rationale: str | None = None
    reasons: list[str] = field(default_factory=list)

    @property
    def sent(self) -> bool:
        return self.requests > 0

    def summary(self) -> str:
        """One line saying what was sent where: 'claims: sent to Groq (model m), 3 requests, 4,100 prompt + 900
        completion tokens', 'claims: nothing sent in this run: 2 answers reused from the cache (this text was sent to
        Groq (model m) before)' or 'claims: not sent: <why>'; then the reasons of fallbacks, if any."""
        models = ", ".join(dict.fromkeys(self.models))
        reasons = "; ".join(dict.fromkeys(self.reasons))
        cached = f"{self.cached} answers reused from the cache" if self.cached else ""
        if self.sent:
            line = (f"{self.stage}: sent to {SERVICE} (model {models or 'no answer'}), {self.requests} requests, "
                    f"{self.prompt_tokens:,} prompt + {self.completion_tokens:,} completion tokens" + (f", {cached}" if cached else ""))
        elif self.cached:
            line = f"{self.stage}: nothing sent in this run: {cached} (this text was sent to {SERVICE} (model {models}) before)"
        else:
            return f"{self.stage}: not sent: {reasons or 'nothing to send'}"
        return line + (f"; {reasons}" if reasons else "")

    def row(self) -> dict[str, object]:
        return {
            "stage": self.stage, "sent": self.sent, "service": SERVICE if self.sent or self.cached else None,
            "model": ", ".join(dict.fromkeys(self.models)) or None, "outcome": self.outcome, "requests": self.requests,
            "cached_answers": self.cached, "prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
            "paragraphs_sent": self.paragraphs_sent, "paragraphs_offline": self.paragraphs_offline, "claims_dropped": len(self.dropped),
            "drop_reasons": list(self.dropped), "removed": list(self.removed), "value": self.value, "rationale": self.rationale,
            "reason": "; ".join(dict.fromkeys(self.reasons)) or None, "summary": self.summary(),
        }


@dataclass
class OnlineReading:
    """The paper's claims (LLM's and offline, in reading order), its argumentation (None unless the LLM's) and
    the two stages' `StageUse`."""

    claims: list[Claim]
    argumentation: float | None
    argumentation_by: str | None
    uses: list[StageUse]


@dataclass
class Asked:
    content: str | None
    model: str | None
    reason: str | None
    cached: bool = False


class PaperAsker:
    """Asks Groq through one `GroqJudgeClient` (None: the daily budget is spent, `why_not` says so: stored answers are
    still reused), through `cached_ask.ask_cached` (llm_answers reused and stored), counting each ask on its stage."""

    def __init__(self, con, groq: GroqJudgeResource, client: GroqJudgeClient | None, why_not: str | None, now: Callable[[], datetime]):
        self.con, self.groq, self.client, self.why_not, self.now = con, groq, client, why_not, now

    def ask(self, use: StageUse, purpose: str, version: str, messages: list[dict[str, str]], max_tokens: int,
            usable: Callable[[str | None], str | None]) -> Asked:
        """The answer to `messages` (stored, else asked), counted on `use`; `usable` gives why an answer is not (None:
        it is), and only usable answers are stored."""
        answer = ask_cached(
            self.con, self.client, purpose=purpose, prompt_version=version, messages=messages, models=self.groq.models(),
            max_completion_tokens=max_tokens, usable=usable, now=self.now, why_not=self.why_not,
        )
        use.requests += answer.requests
        use.prompt_tokens += answer.prompt_tokens
        use.completion_tokens += answer.completion_tokens
        if answer.model is not None:
            use.models.append(answer.model)
        if answer.status == CACHED:
            use.cached += 1
            return Asked(answer.content, answer.model, None, cached=True)
        if answer.status != ANSWERED:
            return Asked(None, None, f"{'request failed' if answer.status == FAILED else 'not sent'}: {answer.reason}")
        if answer.problem is not None:
            return Asked(None, answer.model, f"unusable answer: {answer.problem}" + (f" ({answer.reason})" if answer.reason else ""))
        return Asked(answer.content, answer.model, None)


@contextmanager
def groq_asker(con, groq: GroqJudgeResource, caller: str, *, log: Callable[[str], None], now: Callable[[], datetime] | None = None,
               **client_options) -> Iterator[PaperAsker]:
    """A `PaperAsker` for one stage's asks, its client closed after: llm_answers created when missing, the day's budget
    read (`cached_ask.daily_budget`: a client allowed what is left of it; none when it is spent, and stored answers are
    still reused). `now` gives the UTC time; `client_options` go to the client (http_client, clock, sleep).

    Raises:
        ValueError: `groq` is offline, naming `caller` (a paper's text is sent only with Groq online and the opt-in on;
            the caller checks both).
    """
    if (offline := groq.offline_reason()) is not None:
        raise ValueError(f"{caller} needs the Groq resource online: {offline}")
    now = now or (lambda: datetime.now(timezone.utc))
    llm_cache.ensure_table(con)
    day = daily_budget(con, groq.settings, now().date())
    client = groq.client(budget=day.run, log=log, **client_options) if day.run is not None else None
    try:
        yield PaperAsker(con, groq, client, day.spent, now)
    finally:
        if client is not None:
            client.close()


def read_online(
    con, document: PaperDocument, title: str | None, groq: GroqJudgeResource, *, log: Callable[[str], None],
    now: Callable[[], datetime] | None = None, **client_options,
) -> OnlineReading:
    """The paper's claims and argumentation read by Groq, for a paper whose text may go out (the papers' opt-in is
    on) with `groq` online; the caller checks both (`offline_reading` otherwise: nothing is sent).

    Args:
        con: a DuckDB connection (llm_answers and llm_judgements are created when missing; the daily budget is read
            from both; usable answers are stored in llm_answers and reused).
        log: called with one line per notable event; `now` gives the UTC time; `client_options` go to the client
            (http_client, clock, sleep).

    Raises:
        ValueError: `groq` is offline.
    """
    with groq_asker(con, groq, "read_online", log=log, now=now, **client_options) as asker:
        claims, claims_use = _claims(asker, document)
        argumentation_use = StageUse(ARGUMENTATION_STAGE)
        asked = asker.ask(argumentation_use, ARGUMENTATION_PURPOSE, ARGUMENTATION_PROMPT_VERSION,
                          argumentation_messages(title, document, claims), ARGUMENTATION_COMPLETION_TOKENS,
                          lambda raw: read_argumentation(raw)[1])
    answer = read_argumentation(asked.content)[0] if asked.content is not None else None
    if answer is not None:
        argumentation_use.outcome, argumentation_use.value, argumentation_use.rationale = LLM, answer.argumentation, answer.rationale
    else:
        argumentation_use.outcome = FALLBACK if argumentation_use.sent else NOT_SENT
        argumentation_use.reasons.append(f"not assessed: {asked.reason}")
    by = f"groq/{asked.model}" if answer is not None else None
    return OnlineReading(claims, answer.argumentation if answer else None, by, [claims_use, argumentation_use])


def read_datasets_online(
    con, document: PaperDocument, catalogue: DatasetCatalogue, matches: list[DatasetMatch], unmatched: list[UnmatchedMention],
    groq: GroqJudgeResource, *, log: Callable[[str], None], warn: Callable[[str], None], now: Callable[[], datetime] | None = None,
    **client_options,
) -> tuple[list[DatasetMatch], list[UnmatchedMention], StageUse]:
    """(matches, unmatched, the stage's `StageUse`): the rules' datasets (`datasets.detect_datasets`) with the LLM's
    reading of the data statements merged in (`llm_datasets`: the paragraphs that state data and their candidate
    families sent through the cached ask, each entry checked against the text and the catalogue, `llm_datasets.merge`),
    for a paper whose text may go out (the papers' opt-in on) with `groq` online; the caller checks both. The use says
    how many paragraphs and characters were sent, how many the bounds left out, the entries rejected with their
    reasons and what was confirmed, added and resolved. An unusable answer, a failed request, a spent budget or any
    error keeps the rules' result, with the reason in the use and a `warn` line; `log` gets the summary otherwise.
    Shared by the `paper_datasets` asset and `benchmarks/paper_analysis.py --online`. Never raises."""
    use = StageUse(DATASETS_STAGE)
    try:
        sent = to_send(document, catalogue)
        use.removed = [f"p{p.number} (page {p.paragraph.page}): {p.removed}" for p in sent.paragraphs if p.removed]
        with groq_asker(con, groq, "paper_datasets", log=warn, now=now, **client_options) as asker:
            reading, asked = ask_datasets(
                lambda purpose, version, messages, tokens, usable: asker.ask(use, purpose, version, messages, tokens, usable), sent, catalogue,
            )
        merged = merge(matches, unmatched, reading.pairs, catalogue, asked.model) if reading.pairs is not None else None
    except Exception as error:  # the online reading is optional: whatever broke, the rules' datasets stand
        use.outcome = FALLBACK if use.sent or use.cached else NOT_SENT
        use.reasons.append(f"the rules' datasets kept: {error_line(error)}")
        warn(f"paper_datasets: {use.summary()}")
        return matches, unmatched, use
    use.paragraphs_sent = len(sent.paragraphs) if use.sent else 0
    use.paragraphs_offline = sent.paragraphs_left_out
    what = (f"{len(sent.paragraphs)} paragraphs ({sent.characters:,} characters) and {len(sent.candidates)} candidate families"
            + (f"; {sent.paragraphs_left_out} paragraphs stating data left out by the bounds" if sent.paragraphs_left_out else "")
            + (f"; {sent.candidates_left_out} candidate families left out by the bounds" if sent.candidates_left_out else ""))
    if merged is None:
        use.outcome = FALLBACK if use.sent or use.cached else NOT_SENT
        use.reasons.append(f"the rules' datasets kept: {reading.problem}" + (f" ({what})" if sent.paragraphs else ""))
        warn(f"paper_datasets: {use.summary()}")
        return matches, unmatched, use
    use.outcome, use.dropped = LLM, list(reading.rejected)
    use.reasons.append(f"{what}; {len(reading.pairs)} pairs passed the checks, {len(reading.rejected)} entries rejected; "
                       + "; ".join(f"{outcome}: {', '.join(said) or 'none'}" for outcome, said in merged.outcomes.items()))
    log(use.summary())
    return merged.matches, merged.unmatched, use


def _claims(asker: PaperAsker, document: PaperDocument) -> tuple[list[Claim], StageUse]:
    """The claims chunk by chunk (`llm_claims.chunks`, the first MAX_CHUNKS): the LLM's where its answer is usable, the
    offline extractor's for the other paragraphs; in reading order."""
    use = StageUse(CLAIMS_STAGE)
    paragraphs = sent_paragraphs(document)
    use.removed = [f"p{p.number} (page {p.paragraph.page}): {p.removed}" for p in paragraphs if p.removed]
    grouped = chunks(paragraphs)
    found: list[tuple[int, int, Claim]] = []
    offline: list[SentParagraph] = [p for chunk in grouped[MAX_CHUNKS:] for p in chunk]
    if offline:
        use.reasons.append(f"{len(offline)} paragraphs after the first {MAX_CHUNKS} chunks kept the offline extractor's claims")
    answered = 0
    for chunk in grouped[:MAX_CHUNKS]:
        requests = use.requests
        asked = asker.ask(use, CLAIMS_PURPOSE, CLAIMS_PROMPT_VERSION, claims_messages(chunk), CLAIMS_COMPLETION_TOKENS,
                          lambda raw, chunk=chunk: read_claims(raw, chunk, "").problem)
        use.paragraphs_sent += len(chunk) if use.requests > requests else 0
        if asked.content is None:
            offline.extend(chunk)
            use.reasons.append(f"offline extractor for p{chunk[0].number}-p{chunk[-1].number}: {asked.reason}")
            continue
        reading = read_claims(asked.content, chunk, f"LLM (groq/{asked.model}, {CLAIMS_PROMPT_VERSION}; quote found in the paper's text)")
        answered += 1
        found.extend(reading.claims)
        use.dropped.extend(f"p{chunk[0].number}-p{chunk[-1].number} {why}" for why in reading.dropped)
    for paragraph in offline:
        extracted = extract_claims(replace(document, paragraphs=(paragraph.paragraph,)))
        found.extend((paragraph.number, max(paragraph.paragraph.text.find(claim.text), 0), claim) for claim in extracted)
    use.paragraphs_offline = len(offline)
    if not grouped:
        use.reasons.append("no claim paragraph to send")
    use.outcome = (LLM if not offline else MIXED) if answered else (FALLBACK if use.sent else NOT_SENT)
    found.sort(key=lambda item: (item[0], item[1]))
    return [claim for _, _, claim in found], use


def offline_reading(document: PaperDocument, why_not: str) -> OnlineReading:
    """The offline extractor's claims and both stages not sent, for `why_not` (no connection, no client)."""
    return OnlineReading(
        extract_claims(document), None, None,
        [StageUse(CLAIMS_STAGE, reasons=[why_not]), StageUse(ARGUMENTATION_STAGE, reasons=[why_not])],
    )


__all__ = ["OnlineReading", "StageUse", "offline_reading", "read_datasets_online", "read_online"]
