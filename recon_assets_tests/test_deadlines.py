"""Issue 14: a slow-drip server hung the run. One byte every 5 s never trips a 30 s timeout (it is per read): two
requests took 580 s. Every request to OpenAlex (pyalex over requests), Crossref (httpx) and Hugging Face
(huggingface_hub over httpx2) now has a total deadline, set small here through each resource's config. The real
clients run against a loopback server dripping one byte a second (slow_server.py), in the status/header block or in
the body; the per-read timeout (5 s) is never reached."""

from __future__ import annotations

import threading

import dagster as dg
import huggingface_hub
import pytest

from recon_assets.enrichment import crossref
from recon_assets.enrichment.openalex_client import ERROR
from recon_assets.enrichment.resources import CrossrefResource, OpenAlexResource
from recon_assets.kg.hub_source import KgDownloadError
from recon_assets.kg.resources import HuggingFaceKgExport
from recon_assets.shared.deadlines import DeadlineExceeded, call_with_deadline

from recon_assets_tests.slow_server import serve_slow_drip

PHASES = ["headers", "body"]
# Hang guard, not a timed assertion: without a total deadline each call below never returns.
HANG_GUARD_SECONDS = 120


def _finishes(function):
    """`function()`'s result, failing the test (instead of hanging it) if it has not returned after the guard."""
    outcome = {}

    def work():
        try:
            outcome["value"] = function()
        except Exception as error:
            outcome["error"] = error

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(HANG_GUARD_SECONDS)
    assert not worker.is_alive(), "the request hung: no total deadline"
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


@pytest.mark.parametrize("phase", PHASES)
def test_openalex_requests_stop_at_their_total_deadline(phase):
    with serve_slow_drip(phase=phase) as base:
        resource = OpenAlexResource(api_key="oa-key-for-tests", base_url=base, timeout_seconds=5, deadline_seconds=1, retries=1, backoff_seconds=0)
        report = _finishes(lambda: resource.fetch(["10.3390/rs12081239", "10.1029/2018gl077145"], dg.get_dagster_logger()))
    assert [result.status for result in report.results] == [ERROR, ERROR]
    assert report.results[0].error == (
        "RequestDeadlineExceeded: GET /works did not finish within its total deadline of 1s (a server answering too slowly)"
    )
    assert report.requests == 2  # the batch, retried once like any timeout


@pytest.mark.parametrize("phase", PHASES)
def test_crossref_requests_stop_at_their_total_deadline(phase):
    with serve_slow_drip(phase=phase) as base:
        resource = CrossrefResource(base_url=base, timeout_seconds=5, deadline_seconds=1, retries=0)
        report = _finishes(lambda: resource.check(["10.3390/rs12081239"], dg.get_dagster_logger()))
    [check] = report.results
    assert check.status == crossref.ERROR
    assert check.error == "ReadTimeout: GET Crossref /works did not finish within its total deadline of 1s (a server answering too slowly)"


def test_the_hugging_face_download_stops_at_its_total_deadline(monkeypatch, tmp_path):
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_DISABLE_TELEMETRY", True)
    with serve_slow_drip(phase="headers") as base:
        monkeypatch.setattr(huggingface_hub.constants, "ENDPOINT", base)
        with pytest.raises(KgDownloadError) as raised:
            _finishes(lambda: HuggingFaceKgExport(deadline_seconds=1).fetch(dg.get_dagster_logger()))
    assert str(raised.value) == (
        "cannot fetch 'graph.json' from Hugging Face dataset 'nasa-gesdisc/nasa-eo-knowledge-graph' at revision "
        "'79ce32b663a96dd093513bb68d82f5ca2996cfe9': the download of 'graph.json' from Hugging Face dataset "
        "'nasa-gesdisc/nasa-eo-knowledge-graph' at revision '79ce32b663a96dd093513bb68d82f5ca2996cfe9' did not finish "
        "within its total deadline of 1s (a server answering too slowly)"
    )


def test_call_with_deadline_returns_and_raises_what_the_call_does():
    assert call_with_deadline(lambda: 42, seconds=5, what="x") == 42
    with pytest.raises(KeyError):
        call_with_deadline(lambda: {}["missing"], seconds=5, what="x")
    release = threading.Event()
    with pytest.raises(DeadlineExceeded, match="^a stalled call did not finish within its total deadline of 0.1s"):
        call_with_deadline(release.wait, seconds=0.1, what="a stalled call")
    release.set()
    with pytest.raises(ValueError, match="positive"):
        call_with_deadline(lambda: 1, seconds=0, what="x")


@pytest.mark.parametrize("phase", PHASES)
def test_groq_requests_stop_at_their_deadline(phase):
    """Hostile pass: a Groq body that never finishes held a request for 739 s; now the pairs fail at the deadline."""
    from recon_assets.judgement.groq_client import FAILED, GroqJudgeClient, GroqJudgeSettings
    from recon_assets.judgement.llm_prompt import PairTexts

    with serve_slow_drip(phase=phase) as base:
        judge = GroqJudgeClient(
            GroqJudgeSettings(attempt_timeout_seconds=3, request_deadline_seconds=3, retries=0), api_key="gsk_test_drip", base_url=base,
        )
        outcomes = _finishes(lambda: judge.judge([PairTexts("d", "older", "abstract", 2015, "newer", "abstract", 2020)]))
    assert [outcome.status for outcome in outcomes] == [FAILED]
    assert outcomes[0].reason == "no whole answer within 3 s (a server answering too slowly)"
