"""The Groq LLM coherence judge (`groq_client`, over the official `groq` SDK) as a Dagster resource, with its
answers cached in the `llm_judgements` table (`llm_cache`)."""

from __future__ import annotations

import os
from datetime import datetime, timezone

import dagster as dg
from pydantic import Field

from recon_assets.judgement import llm_cache
from recon_assets.judgement.cached_ask import daily_budget
from recon_assets.judgement.groq_client import GroqJudgeClient, GroqJudgeSettings, RunBudget
from recon_assets.judgement.llm_judge import LlmJudgeReport, TriageRules, judge_candidates
from recon_assets.shared.key_transport import check_key_transport
from recon_assets.shared.switches import OFFLINE, checked_switch


class GroqJudgeResource(dg.ConfigurableResource):
    """The Groq LLM coherence judge (`recon_assets.judgement.groq_client` over the official `groq` SDK), with
    its answers cached in the `llm_judgements` table.

    Offline, nothing is sent and every candidate comes back `not_sent` with the reason: when `api_key` is not
    set (GROQ_API_KEY), or `offline` is true (RECON_GROQ=offline). `base_url` (GROQ_BASE_URL) points the SDK at
    a compatible server or a fake; None means the SDK's own default (https://api.groq.com). The key is never
    logged nor written anywhere, nor sent over plain HTTP to another machine (`check_key_transport`, when it starts).
    """

    offline: bool = Field(default=False, description="Send nothing even with a key (RECON_GROQ=offline).")
    api_key: str | None = Field(default=None, description="Groq API key (GROQ_API_KEY).")
    base_url: str | None = Field(default=None, description="API root (GROQ_BASE_URL); None: the SDK's default.")
    settings: GroqJudgeSettings = Field(default_factory=GroqJudgeSettings, description="Model, batching, retries, pacing and budgets.")

    def offline_reason(self) -> str | None:
        """Why nothing will be sent, or None when the judge is online."""
        if self.offline:
            return "Groq LLM judge offline (RECON_GROQ=offline): only the offline judge's verdicts are used"
        if not self.api_key:
            return "GROQ_API_KEY is not set: the LLM judge is off and only the offline judge's verdicts are used"
        return None

    def check_key_transport(self) -> None:
        """Refuse to start when the key would go over plain HTTP to another machine (`shared.key_transport`).

        Raises:
            key_transport.PlainHttpRefused: online, with GROQ_BASE_URL (or `base_url`) `http://` to a non-loopback host.
        """
        if self.offline_reason() is None:
            # base_url None: the SDK reads GROQ_BASE_URL itself.
            check_key_transport("GROQ_BASE_URL", self.base_url or os.environ.get("GROQ_BASE_URL") or "", "GROQ_API_KEY")

    def setup_for_execution(self, context: dg.InitResourceContext) -> None:
        self.check_key_transport()

    def models(self) -> list[str]:
        """The models whose stored answers count: the configured one first, then the fallback."""
        return list(dict.fromkeys(m for m in (self.settings.model, self.settings.fallback_model) if m))

    def client(self, *, budget: RunBudget | None = None, log=None, **options) -> GroqJudgeClient | None:
        """A `GroqJudgeClient` as configured, or None offline. `options` go to the client (http_client, clock, sleep)."""
        if self.offline_reason():
            return None
        # Stripped as the OpenAlex key is: a key pasted with its line end must not break the Authorization header.
        return GroqJudgeClient(self.settings, api_key=self.api_key.strip(), base_url=self.base_url, budget=budget, log=log, **options)

    def judge(
        self, con, candidates, *, log, rules: TriageRules = TriageRules(), now=None, **client_options
    ) -> LlmJudgeReport:
        """Judge `candidates` (llm_judge.CANDIDATE_COLUMNS and TRIAGE_COLUMNS) on the DuckDB connection `con`:
        stored answers reused, triaged pairs asked within the run's and the day's budgets, new answers stored.

        Args:
            con: a DuckDB connection (llm_judgements is created when missing).
            log: a logger (its info/warning methods are used); `now`: a callable giving the UTC time (default now).

        Returns:
            `LlmJudgeReport`; its `totals` also hold http_requests, prompt_tokens, completion_tokens, retries,
            json_validate_failed, salvaged_generations, temperature_zero_retries, latency_ms_mean, wait_seconds,
            daily_budget_left, stored, unavailable (`_unavailable`) and notes.
        """
        now = now or (lambda: datetime.now(timezone.utc))
        llm_cache.ensure_table(con)
        cached = llm_cache.cached_judgements(con, candidates, self.models())
        reason = self.offline_reason()
        client, day = None, None
        if reason is None:
            day = daily_budget(con, self.settings, now().date())
            if day.run is None:
                reason = f"{day.spent}; LLM judging stops for this run"
            else:
                client = self.client(budget=day.run, log=log.warning, **client_options)
        if reason:
            log.warning(reason)
        try:
            report = judge_candidates(
                candidates, client, cached=cached, models=self.models(), pairs_per_request=self.settings.pairs_per_request,
                rules=rules, offline_reason=reason, now=now,
            )
        finally:
            if client is not None:
                client.close()
        stored = llm_cache.store_judgements(con, report.new_rows)
        totals = client.totals if client is not None else None
        report.totals.update({
            "http_requests": totals.http_requests if totals else 0,
            "prompt_tokens": totals.prompt_tokens if totals else 0,
            "completion_tokens": totals.completion_tokens if totals else 0,
            "retries": totals.retries if totals else 0,
            "json_validate_failed": totals.json_validate_failed if totals else 0,
            "salvaged_generations": totals.salvaged_generations if totals else 0,
            "temperature_zero_retries": totals.temperature_zero_retries if totals else 0,
            "latency_ms_mean": round(totals.latency_ms / totals.answered_requests, 1) if totals and totals.answered_requests else None,
            "wait_seconds": round(client.pacer.waited_seconds, 1) if client is not None else 0.0,
            "daily_budget_left": {"requests": day.requests_left, "tokens": day.tokens_left} if day else None,
            "stored": stored,
            "unavailable": _unavailable(client),
            "notes": list(totals.notes) if totals else ([reason] if reason else []),
        })
        log.info(
            f"LLM judge {report.totals['judge']}: {report.totals['candidates']} candidate pairs, {report.totals['cached']} cached, "
            f"{report.totals['triaged_out']} left out by triage, {report.totals['judged']} judged, {report.totals['failed']} failed, "
            f"{report.totals['not_sent']} not sent; {report.totals['http_requests']} requests, "
            f"{report.totals['prompt_tokens'] + report.totals['completion_tokens']:,} tokens"
        )
        return report


def _unavailable(client: GroqJudgeClient | None) -> str | None:
    """One line when no connection to the server could be made (`GroqJudgeClient.unreachable`, redacted): why, and how
    many pairs were left to the offline judge's verdicts for it; else None."""
    if client is None or client.unreachable is None:
        return None
    return f"unavailable: {client.unreachable}; {client.totals.unreachable_pairs} pairs kept the offline judge's verdict"


def groq_offline(setting: str) -> bool:
    """Whether RECON_GROQ `setting` ('offline', 'online' or '') turns the LLM judge off.

    Raises:
        ValueError: another setting.
    """
    return checked_switch("RECON_GROQ", setting) == OFFLINE
