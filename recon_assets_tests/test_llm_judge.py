"""The LLM judge over frames and DuckDB: triage, the llm_judgements cache through GroqJudgeResource (respx under
the groq SDK), daily budgets, offline mode, precedence over the offline judge and the agreement table."""

import logging
from datetime import datetime, timedelta, timezone

import duckdb
import numpy as np
import pandas as pd
import pytest
import respx

from recon_assets.judgement import llm_judge, llm_prompt, verdict_scale
from recon_assets.judgement.llm_judge import (
    CANDIDATE_COLUMNS,
    LLM_JUDGEMENT_COLUMNS,
    TRIAGE_COLUMNS,
    TriageRules,
    judge_agreement,
    prefer_llm_judgements,
    threshold_margin,
    triage,
)
from recon_assets.judgement.resources import GroqJudgeResource, groq_offline
from recon_assets.shared.table_docs import TABLE_DOCS
from recon_assets_tests.groq_fakes import ABSTRACTS, BASE_URL, COMPLETIONS, FakeClock, FakeGroq, pair_indices

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
LOG = logging.getLogger("test_llm_judge")


def candidates(count: int, **triage_values) -> pd.DataFrame:
    """`count` candidate pairs; by default every one has a recorded dispute (so triage sends it)."""
    rows = []
    for index in range(count):
        rows.append({
            "dataset_id": f"kg:dataset-{index % 3}", "older_publication_id": f"10.1000/older.{index}",
            "newer_publication_id": f"10.1000/newer.{index}", "dataset_text": "GRCTellus.JPL RL06 mascons",
            "older_title": f"Older {index}", "older_abstract": ABSTRACTS[(2 * index) % 8], "older_year": 2012,
            "newer_title": f"Newer {index}", "newer_abstract": ABSTRACTS[(2 * index + 1) % 8], "newer_year": 2016,
            "offline_verdict": "SUPPORTED", "offline_similarity": 0.9, "threshold_margin": 0.5,
            "older_centrality": 0.1, "recorded_dispute": True,
        })
    frame = pd.DataFrame(rows, columns=list(CANDIDATE_COLUMNS) + list(TRIAGE_COLUMNS))
    for column, value in triage_values.items():
        frame[column] = value
    return frame


@pytest.fixture
def fake():
    fake = FakeGroq()
    with respx.mock(assert_all_called=False) as router:
        router.post(COMPLETIONS).mock(side_effect=fake)
        yield fake


@pytest.fixture
def con(tmp_path):
    connection = duckdb.connect(str(tmp_path / "recon.duckdb"))
    yield connection
    connection.close()


def resource(**settings) -> GroqJudgeResource:
    return GroqJudgeResource(api_key="gsk_test", base_url=BASE_URL, settings=settings)


def judge(con, frame, groq=None, **options):
    clock = FakeClock()
    return (groq or resource()).judge(con, frame, log=LOG, now=lambda: NOW, clock=clock, sleep=clock.sleep, **options)


# --- triage


@pytest.mark.parametrize(
    "values, reasons",
    [
        ({}, ""),
        ({"recorded_dispute": True}, "recorded dispute"),
        ({"older_centrality": 0.6}, "older publication central"),
        ({"older_centrality": 0.59}, ""),
        ({"threshold_margin": 0.27}, "edge near a label threshold"),
        ({"threshold_margin": 0.28}, ""),
        ({"threshold_margin": np.nan}, ""),
        ({"offline_verdict": None}, "offline judge found no stance or did not judge"),
        ({"offline_verdict": "UNVERIFIED"}, "offline judge found no stance or did not judge"),
        ({"offline_verdict": "CONTRADICTED"}, "offline verdict rests on a cue word"),
        ({"offline_verdict": "SUPERSEDED"}, "offline verdict rests on a cue word"),
        ({"offline_similarity": 0.55}, "offline similarity near its gate"),
        ({"offline_similarity": 0.6}, ""),
        ({"recorded_dispute": True, "older_centrality": 0.9, "offline_verdict": None},
         "recorded dispute; older publication central; offline judge found no stance or did not judge"),
    ],
)
def test_triage_reasons(values, reasons):
    base = {"offline_verdict": "SUPPORTED", "offline_similarity": 0.9, "threshold_margin": 0.5,
            "older_centrality": 0.1, "recorded_dispute": False}
    row = pd.DataFrame([{**base, **values}])
    result = triage(row)
    assert result.loc[0, "triage_reasons"] == reasons
    assert bool(result.loc[0, "send"]) is bool(reasons)


def test_triage_orders_by_reason_then_centrality():
    # Hostile finding on rules v2: with stance-less pairs UNVERIFIED, "uncertain" held nearly every pair, and the
    # cue-word contradictions fell behind them in a budget; they now go first, the stance-less pairs last.
    frame = pd.DataFrame({
        "name": ["no stance", "dispute", "central-low", "central-high", "none", "cue word"],
        "offline_verdict": [None, "SUPPORTED", "SUPPORTED", "SUPPORTED", "SUPPORTED", "CONTRADICTED"],
        "offline_similarity": [0.9] * 6, "threshold_margin": [0.5] * 6,
        "older_centrality": [0.3, 0.1, 0.7, 0.95, 0.2, 0.1], "recorded_dispute": [False, True, False, False, False, False],
    })
    assert list(triage(frame)["name"]) == ["dispute", "central-high", "central-low", "cue word", "no stance", "none"]


def test_triage_names_missing_columns():
    with pytest.raises(KeyError, match="recorded_dispute"):
        triage(pd.DataFrame({column: [] for column in TRIAGE_COLUMNS if column != "recorded_dispute"}))


@pytest.mark.parametrize("reliability, margin", [(0.35, 0.0), (0.30, 0.05), (0.90, 0.50), (0.38, 0.02), (np.nan, np.nan)])
def test_threshold_margin(reliability, margin):
    result = threshold_margin(pd.Series([reliability]))[0]
    assert (np.isnan(result) and np.isnan(margin)) or result == pytest.approx(margin)


# --- judging through the resource: batching, cache, budgets, offline


def test_pairs_are_sent_in_batches_and_stored(con, fake):
    report = judge(con, candidates(10))
    assert [len(pair_indices(request)) for request in fake.requests] == [8, 2]
    assert list(report.judgements.columns) == list(LLM_JUDGEMENT_COLUMNS)
    assert report.judgements["llm_status"].tolist() == ["judged"] * 10
    assert report.totals["judged"] == 10 and report.totals["http_requests"] == 2 and report.totals["stored"] == 10
    stored = con.execute("SELECT * FROM llm_judgements ORDER BY older_publication_id").df()
    assert list(stored.columns) == list(TABLE_DOCS["llm_judgements"])
    assert len(stored) == 10 and set(stored["judge"]) == {"groq/llama-3.3-70b-versatile"}
    assert set(stored["prompt_version"]) == {llm_prompt.PROMPT_VERSION}
    first = stored.iloc[0]
    assert first["request_id"] == "chatcmpl-fake-1" and first["pairs_in_request"] == 8 and first["prompt_tokens"] > 0
    assert list(first["evidence"]) and first["verdict"] in verdict_scale.VERDICTS


def test_a_rerun_asks_nothing_again(con, fake):
    first = judge(con, candidates(10))
    asked = len(fake.requests)
    second = judge(con, candidates(10))
    assert len(fake.requests) == asked
    assert second.judgements["llm_status"].tolist() == ["cached"] * 10
    assert second.totals["http_requests"] == 0 and second.totals["cached"] == 10 and second.totals["stored"] == 0
    columns = ["verdict", "coherence", "rationale", "judge", "request_id"]
    assert second.judgements[columns].equals(first.judgements[columns])


def test_changed_texts_are_asked_again_and_only_they(con, fake):
    judge(con, candidates(4))
    changed = candidates(4)
    changed.loc[2, "newer_abstract"] = ABSTRACTS[1]
    asked = len(fake.requests)
    report = judge(con, changed)
    assert report.judgements["llm_status"].tolist() == ["cached", "cached", "judged", "cached"]
    assert pair_indices(fake.requests[asked]) == [0] and len(fake.requests) == asked + 1


def test_a_new_prompt_version_invalidates_only_its_own_rows(con, fake, monkeypatch):
    judge(con, candidates(3))
    v1_requests = len(fake.requests)
    current, following = llm_prompt.PROMPT_VERSION, f"{llm_prompt.PROMPT_VERSION}-next"
    monkeypatch.setattr(llm_prompt, "PROMPT_VERSION", following)
    monkeypatch.setattr(llm_judge, "PROMPT_VERSION", following)
    monkeypatch.setattr("recon_assets.judgement.llm_cache.PROMPT_VERSION", following)
    v2 = judge(con, candidates(3))
    assert v2.judgements["llm_status"].tolist() == ["judged"] * 3 and len(fake.requests) == v1_requests + 1
    monkeypatch.undo()
    again = judge(con, candidates(3))
    assert again.judgements["llm_status"].tolist() == ["cached"] * 3 and len(fake.requests) == v1_requests + 1
    versions = con.execute("SELECT prompt_version, count(*) FROM llm_judgements GROUP BY 1 ORDER BY 1").fetchall()
    assert versions == [(current, 3), (following, 3)]


def test_answers_of_the_fallback_model_are_reused(con, fake):
    judge(con, candidates(2), groq=resource(model="llama-3.1-8b-instant"))
    asked = len(fake.requests)
    report = judge(con, candidates(2))  # configured model llama-3.3-70b-versatile, fallback llama-3.1-8b-instant
    assert report.judgements["llm_status"].tolist() == ["cached"] * 2 and len(fake.requests) == asked
    assert set(report.judgements["judge"]) == {"groq/llama-3.1-8b-instant"}


def test_triaged_out_pairs_are_not_sent(con, fake):
    frame = candidates(3, recorded_dispute=False)
    frame.loc[1, "older_centrality"] = 0.8
    report = judge(con, frame)
    statuses = dict(zip(report.judgements["older_publication_id"], report.judgements["llm_status"]))
    assert statuses == {"10.1000/older.1": "judged", "10.1000/older.0": "not_sent", "10.1000/older.2": "not_sent"}
    assert report.totals["triaged_out"] == 2 and len(fake.requests) == 1
    skipped = report.judgements[report.judgements["llm_status"] == "not_sent"].iloc[0]
    assert skipped["verdict"] == "UNVERIFIED" and "triage" in skipped["rationale"]


def test_failed_pairs_are_reported_unverified_and_not_stored(con, fake):
    from recon_assets_tests.groq_fakes import error

    fake.queue += [error(503, "error_service_unavailable.json") for _ in range(4)]
    report = judge(con, candidates(2))
    assert report.judgements["llm_status"].tolist() == ["failed", "failed"]
    assert report.judgements["verdict"].tolist() == ["UNVERIFIED"] * 2
    assert report.judgements["rationale"].iloc[0] == "LLM judge failed: HTTP 503: Service Unavailable"
    assert con.execute("SELECT count(*) FROM llm_judgements").fetchone() == (0,)
    again = judge(con, candidates(2))  # a failure is asked again next run
    assert again.judgements["llm_status"].tolist() == ["judged", "judged"]


def test_a_spent_daily_budget_stops_llm_judging_cleanly(con, fake):
    judge(con, candidates(8))
    spent = con.execute("SELECT max(prompt_tokens) + max(completion_tokens) FROM llm_judgements").fetchone()[0]
    report = judge(con, candidates(12).iloc[8:], groq=resource(daily_tokens=int(spent)))
    assert report.judgements["llm_status"].tolist() == ["not_sent"] * 4
    assert report.totals["stopped"].startswith("daily LLM budget spent: 1 of 1000 requests")
    assert report.judgements["rationale"].iloc[0].startswith("not sent to the LLM judge: daily LLM budget spent")
    assert len(fake.requests) == 1


def test_the_daily_budget_counts_only_today(con, fake):
    judge(con, candidates(8))
    con.execute("UPDATE llm_judgements SET judged_at = judged_at - INTERVAL 1 DAY")
    report = judge(con, candidates(12).iloc[8:], groq=resource(daily_requests=1))
    assert report.judgements["llm_status"].tolist() == ["judged"] * 4


def test_the_daily_budget_bounds_the_run_budget(con, fake):
    report = judge(con, candidates(24), groq=resource(daily_requests=2))
    assert len(fake.requests) == 2
    assert report.totals["judged"] == 16 and report.totals["not_sent"] == 8
    assert report.totals["stopped"].startswith("run budget spent")


@pytest.mark.parametrize(
    "groq, reason",
    [
        (GroqJudgeResource(), "GROQ_API_KEY is not set"),
        (GroqJudgeResource(api_key="gsk_test", offline=True), "Groq LLM judge offline (RECON_GROQ=offline)"),
    ],
)
def test_offline_nothing_is_sent_and_the_reason_is_given(con, fake, groq, reason):
    report = judge(con, candidates(3), groq=groq)
    assert fake.requests == []
    assert report.judgements["llm_status"].tolist() == ["not_sent"] * 3
    assert report.judgements["rationale"].iloc[0] == f"not sent to the LLM judge: {report.totals['stopped']}"
    assert report.totals["stopped"].startswith(reason) and report.totals["notes"] == [report.totals["stopped"]]


@pytest.mark.parametrize("setting, offline", [("", False), ("online", False), ("offline", True)])
def test_groq_offline_setting(setting, offline):
    assert groq_offline(setting) is offline


def test_groq_offline_setting_rejects_others():
    with pytest.raises(ValueError, match="RECON_GROQ"):
        groq_offline("maybe")


def test_judge_candidates_names_missing_columns(con):
    with pytest.raises(KeyError, match="older_abstract"):
        llm_judge.judge_candidates(candidates(1).drop(columns="older_abstract"), None, now=lambda: NOW)


def test_candidate_and_triage_columns_are_documented():
    assert set(CANDIDATE_COLUMNS) | set(TRIAGE_COLUMNS) == set(candidates(1).columns)


# --- precedence and agreement


def offline_frame() -> pd.DataFrame:
    return pd.DataFrame({
        "dataset_id": ["d", "d", "d"], "older_publication_id": ["p1", "p2", "p3"], "newer_publication_id": ["q1", "q2", "q3"],
        "similarity": [0.8, 0.7, 0.6], "verdict": ["SUPPORTED", "SUPERSEDED", "CONTRADICTED"], "coherence": [1.0, 0.3, 0.1],
        "rationale": ["no cue", "cue 'successor'", "cue 'contrary to'"], "judge": ["offline/cues-v1"] * 3,
        "newer_centrality": [0.2, 0.3, 0.4], "newer_via_successor": [False, True, False],
    })


def llm_frame(rows) -> pd.DataFrame:
    frame = pd.DataFrame(columns=list(LLM_JUDGEMENT_COLUMNS), data=[{
        column: None for column in LLM_JUDGEMENT_COLUMNS
    } | {"dataset_id": "d", "older_publication_id": p, "newer_publication_id": q, "llm_status": status, "verdict": verdict,
         "coherence": coherence, "rationale": "Model says so.", "evidence": ["a quote"], "judge": "groq/llama-3.3-70b-versatile",
         "prompt_version": "coherence-pairs-v1"} for p, q, status, verdict, coherence in rows])
    return frame


def test_an_llm_judgement_replaces_its_pair_only_when_it_adds_an_objection():
    llm = llm_frame([
        ("p1", "q1", "judged", "SUPERSEDED", 0.3),      # an objection where the offline judge had none: replaces
        ("p2", "q2", "judged", "SUPPORTED", 1.0),       # would remove the offline SUPERSEDED: not counted (issue 24)
        ("p3", "q3", "failed", "UNVERIFIED", 0.5),      # a failure never replaces
        ("p4", "q4", "cached", "CONTRADICTED", 0.1),    # judged by the LLM only, an objection: added
        ("p5", "q5", "cached", "SUPPORTED", 1.0),       # judged by the LLM only, no objection: not added
        ("p6", "q6", "cached", "CONTRADICTED", 0.5),    # debated, by the LLM only: an objection, added
    ])
    merged = prefer_llm_judgements(offline_frame(), llm).set_index("older_publication_id")
    assert merged.loc["p1", ["verdict", "coherence", "judge", "prompt_version", "offline_verdict"]].tolist() == [
        "SUPERSEDED", 0.3, "groq/llama-3.3-70b-versatile", "coherence-pairs-v1", "SUPPORTED"]
    assert merged.loc["p1", "rationale"] == 'Model says so. "a quote"'
    assert not merged.loc["p1", "newer_via_successor"] and merged.loc["p1", "similarity"] == 0.8  # offline columns kept
    assert merged.loc["p2", ["verdict", "coherence", "judge", "prompt_version", "offline_verdict"]].tolist() == [
        "SUPERSEDED", 0.3, "offline/cues-v1", None, None]
    assert merged.loc["p2", "rationale"] == f"cue 'successor'; groq/llama-3.3-70b-versatile answered SUPPORTED 1.0: {llm_judge.NOT_AN_OBJECTION}"
    assert merged.loc["p3", ["verdict", "rationale"]].tolist() == ["CONTRADICTED", "cue 'contrary to'"]
    assert merged.loc["p4", "verdict"] == "CONTRADICTED" and np.isnan(merged.loc["p4", "similarity"])
    assert merged.loc["p6", ["verdict", "coherence"]].tolist() == ["CONTRADICTED", 0.5]
    assert len(merged) == 5


@pytest.mark.parametrize(
    "offline, llm, counts",
    [
        # the offline judge objects: only an objection at least as severe replaces it
        (("CONTRADICTED", 0.1), ("SUPPORTED", 1.0), False),
        (("CONTRADICTED", 0.1), ("SUPPORTED", 0.7), False),
        (("CONTRADICTED", 0.1), ("UNVERIFIED", 0.5), False),
        (("CONTRADICTED", 0.1), ("CONTRADICTED", 0.5), False),  # milder: debated
        (("CONTRADICTED", 0.1), ("SUPERSEDED", 0.3), False),  # milder: loses the contradiction's weight, coherence up
        (("CONTRADICTED", 0.1), ("CONTRADICTED", 0.1), True),  # the same objection, now by a reader
        (("SUPERSEDED", 0.3), ("SUPPORTED", 1.0), False),
        (("SUPERSEDED", 0.3), ("UNVERIFIED", 0.5), False),
        (("SUPERSEDED", 0.3), ("CONTRADICTED", 0.5), False),  # coherence up
        (("SUPERSEDED", 0.3), ("SUPERSEDED", 0.3), True),
        (("SUPERSEDED", 0.3), ("CONTRADICTED", 0.1), True),
        # the offline judge does not object, or did not judge the pair: an objection is added, nothing else
        (("UNVERIFIED", 0.5), ("SUPPORTED", 1.0), False),  # the obeying model of issue 24
        (("UNVERIFIED", 0.5), ("SUPPORTED", 0.7), False),
        (("SUPPORTED", 1.0), ("UNVERIFIED", 0.5), False),
        (("SUPPORTED", 0.7), ("SUPPORTED", 1.0), False),
        (("UNVERIFIED", 0.5), ("CONTRADICTED", 0.5), True),  # debated: an objection (the edge's bound holds its value)
        (("UNVERIFIED", 0.5), ("CONTRADICTED", 0.1), True),
        (("SUPPORTED", 1.0), ("SUPERSEDED", 0.3), True),
        (("SUPPORTED", 0.7), ("CONTRADICTED", 0.1), True),
        ((None, np.nan), ("SUPPORTED", 1.0), False),
        ((None, np.nan), ("UNVERIFIED", 0.5), False),
        ((None, np.nan), ("SUPERSEDED", 0.3), True),
    ],
)
def test_an_llm_answer_counts_only_as_an_objection_at_least_as_strong_as_the_offline_judges(offline, llm, counts):
    assert llm_judge.llm_answer_counts(*offline, *llm) is counts


def test_an_answer_that_is_not_counted_replaces_nothing_and_is_not_compared():
    llm = llm_frame([("p2", "q2", "cached", "UNVERIFIED", 0.5), ("p3", "q3", "judged", "UNVERIFIED", 0.5)])
    llm["rationale"] = [f"{llm_prompt.NOT_COUNTED}SUPPORTED 1.0 quotes no passage ...", "No stance."]
    merged = prefer_llm_judgements(offline_frame(), llm).set_index("older_publication_id")
    assert merged.loc["p2", ["verdict", "judge"]].tolist() == ["SUPERSEDED", "offline/cues-v1"]  # the offline verdict stands
    assert merged.loc["p3", ["verdict", "judge"]].tolist() == ["CONTRADICTED", "offline/cues-v1"]  # an UNVERIFIED answer: not counted
    assert judge_agreement(offline_frame(), llm).pairs == 1


def test_without_llm_answers_the_offline_judgements_stand():
    merged = prefer_llm_judgements(offline_frame(), llm_frame([("p1", "q1", "not_sent", "UNVERIFIED", 0.5)]))
    assert merged[["verdict", "judge"]].equals(offline_frame()[["verdict", "judge"]])


def test_judge_agreement_counts_the_pairs_judged_by_both():
    llm = llm_frame([
        ("p1", "q1", "judged", "SUPPORTED", 1.0),
        ("p2", "q2", "cached", "SUPPORTED", 0.7),
        ("p3", "q3", "judged", "CONTRADICTED", 0.1),
        ("p9", "q9", "judged", "SUPERSEDED", 0.3),     # no offline verdict: not compared
    ])
    llm.loc[len(llm)] = llm.iloc[0].to_dict() | {"older_publication_id": "p8", "llm_status": "failed"}
    result = judge_agreement(offline_frame(), llm)
    assert (result.pairs, result.agreeing, result.rate) == (3, 2, pytest.approx(2 / 3))
    assert result.table.loc["SUPERSEDED", "SUPPORTED"] == 1 and result.table.loc["CONTRADICTED", "CONTRADICTED"] == 1
    assert int(result.table.to_numpy().sum()) == 3
    assert result.markdown.startswith("Offline and LLM verdicts agree on 2 of 3 pairs judged by both (67%).")
    assert "| SUPERSEDED | 1 | 0 | 0 | 0 |" in result.markdown


def test_judge_agreement_without_common_pairs_says_not_measured():
    result = judge_agreement(offline_frame(), llm_frame([("p7", "q7", "judged", "SUPPORTED", 1.0)]))
    assert result.pairs == 0 and result.rate is None and "not measured" in result.markdown


def test_no_candidates_no_request(con, fake):
    report = judge(con, candidates(0))
    assert report.judgements.empty and list(report.judgements.columns) == list(LLM_JUDGEMENT_COLUMNS)
    assert report.totals["candidates"] == 0 and fake.requests == []


def test_the_environment_configures_the_groq_judge(monkeypatch, tmp_path):
    from recon_assets.definitions import resources_from_environment

    monkeypatch.setenv("RECON_DB_PATH", str(tmp_path / "recon.duckdb"))
    monkeypatch.setenv("GROQ_API_KEY", "gsk_from_env")
    monkeypatch.setenv("GROQ_BASE_URL", BASE_URL)
    monkeypatch.delenv("RECON_GROQ", raising=False)
    groq = resources_from_environment()["groq_judge"].process_config_and_initialize()
    assert (groq.api_key, groq.base_url, groq.offline_reason()) == ("gsk_from_env", BASE_URL, None)
    monkeypatch.setenv("RECON_GROQ", "offline")
    assert resources_from_environment()["groq_judge"].offline_reason().startswith("Groq LLM judge offline")
    monkeypatch.delenv("GROQ_API_KEY")
    monkeypatch.delenv("RECON_GROQ")
    assert resources_from_environment()["groq_judge"].offline_reason().startswith("GROQ_API_KEY is not set")


def test_without_a_base_url_the_sdk_reads_groq_base_url(monkeypatch, con, fake):
    monkeypatch.setenv("GROQ_BASE_URL", BASE_URL)
    report = judge(con, candidates(2), groq=GroqJudgeResource(api_key="gsk_test"))
    assert report.totals["judged"] == 2 and len(fake.requests) == 1
