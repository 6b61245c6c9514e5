"""The research briefs' planner and synthesizer online (issue 21, `briefs.online`): through the coherence judge's Groq
resource and the real `groq` SDK, Groq faked at the HTTP transport by respx (`briefs_groq_fakes.BriefsModel`: Groq's
recorded envelope and errors, fixtures/groq; the answers to our prompts are built by the stand-in). Waits go to a
fake clock. The last tests run the assets on a copy of the sample's scored database."""

from __future__ import annotations

import json
import math

import dagster as dg
import duckdb
import httpx
import pytest

from recon_assets.briefs.online import ANSWERED, CACHED, PLANNER, SYNTHESIZER, plan_question, write_brief
from recon_assets.briefs.planner import FALLBACK, LLM, OFFLINE, PLANNER_PROMPT_VERSION, QUESTION, offline_plan
from recon_assets.briefs.partitions import QuestionFileResource
from recon_assets.briefs.synthesis import EXTRACTIVE_NOTE, BriefClaim, capped, trust_summary_line
from recon_assets.definitions import build_defs
from recon_assets.papers.resources import PaperIntake
from recon_assets.briefs.critic import Debates, judge_question
from recon_assets.judgement.groq_client import FAILED, NOT_SENT
from recon_assets.judgement.resources import GroqJudgeResource
from recon_assets.shared.run_tags import QUESTION_DATASETS_TAG, QUESTION_TAG
from recon_assets.briefs.questions import asked_key
from recon_assets_tests.briefs_groq_fakes import BriefsModel, honest_plan, serving
from recon_assets_tests.groq_fakes import BASE_URL, FakeClock, answer, error, rate_limit_headers, request_json
from recon_assets_tests.pipeline_runs import SAMPLE_JSONL, pipeline_defs
from recon_assets_tests.test_briefs_assets import IMERG_QUESTION, answer as run_question, home, rows
from recon_assets_tests.test_briefs_synthesis import AS_OF, RULES, q_v02_evidence

KEY = "gsk_test_not_a_real_key_briefs"
TERMS = ["GPM_3IMERGDF"]


class Log:
    """A logger keeping every line (info and warning)."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def info(self, line: str) -> None:
        self.lines.append(line)

    warning = info


@pytest.fixture
def model():
    with serving(BriefsModel()) as fake:
        yield fake


@pytest.fixture
def clock():
    return FakeClock()


def groq(**settings) -> GroqJudgeResource:
    return GroqJudgeResource(api_key=KEY, base_url=BASE_URL, settings=settings)


def expected_tokens(request, content: str) -> tuple[int, int]:
    """The stand-in's usage for a request it answered with `content`: (prompt, completion) tokens."""
    sent = sum(len(message["content"].encode()) for message in request_json(request)["messages"])
    return math.ceil(sent / 4), math.ceil(len(content) / 4)


def plan(con, resource, clock, question=IMERG_QUESTION, log=None):
    return plan_question(con, resource, question, TERMS, ["How good is TRMM 3B42?"], AS_OF, log or Log(), clock=clock, sleep=clock.sleep)


def brief(con, resource, clock, log=None):
    papers = q_v02_evidence()
    judgement = judge_question(papers, Debates(), RULES, AS_OF)
    return papers, write_brief(con, resource, "How accurate is IMERG daily precipitation?", papers, judgement, Debates(), RULES,
                               log or Log(), clock=clock, sleep=clock.sleep)


def test_offline_nothing_is_asked_read_or_written(model, clock):
    con = duckdb.connect()
    made, asked = plan(con, GroqJudgeResource(offline=True, api_key=KEY), clock)
    assert asked is None and made == offline_plan(IMERG_QUESTION, TERMS, AS_OF)
    papers, (written, asked) = brief(con, GroqJudgeResource(api_key=None), clock)
    assert asked is None and written.extractive and written.note == EXTRACTIVE_NOTE
    assert model.requests == [] and con.execute("SELECT count(*) FROM duckdb_tables()").fetchone() == (0,)


def test_a_valid_planner_answer_becomes_the_plan_with_its_requests_and_tokens_and_is_kept(model, clock):
    con, log = duckdb.connect(), Log()
    made, asked = plan(con, groq(), clock, log=log)
    assert made.source == LLM and made.note is None
    assert [(item.kind, item.text) for item in made.subquestions] == [(s["kind"], s["text"]) for s in honest_plan(IMERG_QUESTION)["subquestions"]]
    (request,) = model.requests
    body = request_json(request)
    assert (body["temperature"], body["response_format"], body["model"]) == (0.2, {"type": "json_object"}, "llama-3.3-70b-versatile")
    assert body["max_completion_tokens"] == 400 and request.headers["authorization"] == f"Bearer {KEY}"
    prompt, completion = expected_tokens(request, json.dumps(honest_plan(IMERG_QUESTION)))
    assert (asked.status, asked.requests, asked.prompt_tokens, asked.completion_tokens) == (ANSWERED, 1, prompt, completion)
    stored = con.execute("SELECT purpose, prompt_version, model, prompt_tokens, completion_tokens, request_id FROM llm_answers").fetchall()
    assert stored == [(PLANNER, PLANNER_PROMPT_VERSION, "llama-3.3-70b-versatile", prompt, completion, "chatcmpl-fake-1")]
    # the same question again: the stored answer, no request; the daily budget counts the first
    again, cached = plan(con, groq(), clock)
    assert again == made and (cached.status, cached.requests, cached.tokens) == (CACHED, 0, 0) and len(model.requests) == 1
    assert con.execute("SELECT * FROM llm_answers").fetchall()[0][3] == PLANNER_PROMPT_VERSION
    assert all(KEY not in line for line in log.lines)


@pytest.mark.parametrize(("content", "why"), [
    ("Sure! Here are the sub-questions: 1. IMERG accuracy", "not JSON"),
    ('{"subquestions": [{"kind": "recent", "text": "IMERG"}]}', "at least 2 items"),
    ('{"subquestions": [{"kind": "foundational", "text": "Volcanic ash in aviation"}, {"kind": "recent", "text": "Cooking with rice"}]}',
     "sub-question 0 ('Volcanic ash in aviation') shares no word with the question or its datasets"),
])
def test_an_unparseable_or_off_topic_planner_answer_falls_back_to_the_question_with_its_reason(model, clock, content, why):
    con = duckdb.connect()
    model.queue.append(answer(content, prompt_tokens=700, completion_tokens=40))
    made, asked = plan(con, groq(), clock)
    assert made.source == FALLBACK and why in made.note
    assert [(item.kind, item.text) for item in made.subquestions] == [(QUESTION, IMERG_QUESTION)]
    assert (asked.status, asked.requests, asked.tokens) == (ANSWERED, 1, 740)
    assert con.execute("SELECT count(*) FROM llm_answers").fetchone() == (0,), "an answer that does not validate is not kept"


def test_a_failed_planner_request_falls_back_to_the_question_with_the_reason(model, clock):
    model.queue += [error(503, "error_service_unavailable.json")] * 2
    made, asked = plan(duckdb.connect(), groq(retries=1, max_failed_requests_in_row=5), clock)
    assert made.source == FALLBACK and made.note == "the LLM planner's request failed: HTTP 503: Service Unavailable"
    assert (asked.status, asked.requests, asked.tokens) == (FAILED, 2, 0) and len(model.requests) == 2


def test_a_daily_limit_leaves_the_offline_plan_and_brief_saying_why(model, clock):
    con, log = duckdb.connect(), Log()
    model.queue += [error(429, "error_rate_limit_tpd.json", rate_limit_headers(retry_after="578"))] * 2
    made, asked = plan(con, groq(), clock, log=log)
    offline = offline_plan(IMERG_QUESTION, TERMS, AS_OF)
    assert (made.subquestions, made.source) == (offline.subquestions, OFFLINE)
    assert made.note.startswith("the LLM planner was not asked: Groq daily limit reached") and asked.status == NOT_SENT
    papers, (written, asked) = brief(con, groq(), clock, log=log)
    assert written.extractive and "The model was not asked: Groq daily limit reached" in written.note
    assert asked.requests == 1 and clock.sleeps == [] and len(model.requests) == 2
    assert any("tokens per day (TPD)" in line for line in log.lines)


def test_the_shared_daily_budget_spent_sends_nothing(model, clock):
    con = duckdb.connect()
    plan(con, groq(), clock)  # one stored answer today: the day's one request
    made, asked = plan(con, groq(daily_requests=1), clock, question="Is the Greenland ice sheet losing mass faster?")
    assert asked.status == NOT_SENT and "daily LLM budget spent: 1 of 1 requests" in asked.reason and made.source == OFFLINE
    assert len(model.requests) == 1


def test_a_refused_key_echoed_by_the_server_reaches_no_reason_or_log(model, clock):
    body = {"error": {"message": f"Invalid API Key {KEY}", "type": "invalid_request_error", "code": "invalid_api_key"}}  # OpenAI-compatible shape
    model.queue.append(lambda request: httpx.Response(401, json=body))
    log = Log()
    made, asked = plan(duckdb.connect(), groq(), clock, log=log)
    assert asked.status == NOT_SENT and "Groq refused the API key (HTTP 401)" in asked.reason and made.source == OFFLINE
    assert KEY not in made.note and all(KEY not in line for line in log.lines)


def test_a_valid_synthesizer_answer_is_the_brief_with_the_computed_trust_summary(model, clock):
    con = duckdb.connect()
    papers, (written, asked) = brief(con, groq(), clock)
    (request,) = model.requests
    assert (request_json(request)["temperature"], request_json(request)["max_completion_tokens"]) == (0.3, 1_500)
    assert not written.extractive and written.note.startswith("Written by a language model")
    assert written.trust_summary == tuple(trust_summary_line(item, RULES) for item in papers)  # every paper cited, in evidence order
    assert [claim.citations for claim in written.key_findings] == [(papers[3].paper.citation,)]
    assert (asked.status, asked.requests) == (ANSWERED, 1) and asked.tokens > 0
    assert con.execute("SELECT purpose, prompt_tokens + completion_tokens FROM llm_answers").fetchall() == [(SYNTHESIZER, asked.tokens)]


def test_a_synthesizer_answer_citing_a_paper_outside_the_evidence_gives_the_extractive_brief_saying_why(model, clock):
    con = duckdb.connect()
    invented = {"overview": [{"text": "Settled.", "confidence": "HIGH"}],
                "key_findings": [{"text": "IMERG is unbiased [Smith et al., 2030].", "confidence": "HIGH", "citations": ["[Smith et al., 2030]"]}]}
    model.queue.append(answer(json.dumps(invented)))
    papers, (written, asked) = brief(con, groq(), clock)
    assert written.extractive and written.note.startswith(EXTRACTIVE_NOTE)
    assert "The model's answer was not used: it cites [Smith et al., 2030], outside the evidence set." in written.note
    assert asked.status == ANSWERED and con.execute("SELECT count(*) FROM llm_answers").fetchone() == (0,)


def test_a_synthesizer_answer_grounding_a_finding_on_a_low_paper_is_refused_and_confidence_is_capped(model, clock):
    papers = q_v02_evidence()
    low, high = papers[0].paper.citation, papers[3].paper.citation
    model.queue.append(answer(json.dumps({"overview": [{"text": "V06 settles it.", "confidence": "HIGH"}], "key_findings": [
        {"text": f"V06 is accurate {low}.", "confidence": "HIGH", "citations": [low]}]})))
    model.queue.append(answer(json.dumps({"overview": [{"text": "Summary.", "confidence": "HIGH"}], "key_findings": [
        {"text": f"V07 improves on V06 {high} {low}.", "confidence": "HIGH", "citations": []}]})))
    _, (refused, _) = brief(duckdb.connect(), groq(), clock)
    assert refused.extractive and f"its Key Findings rest on {low}, of LOW network reliability" in refused.note
    # a finding citing a HIGH and a LOW paper is refused too; a claim citing a MEDIUM paper is capped at MEDIUM
    _, (also, _) = brief(duckdb.connect(), groq(), clock)
    assert also.extractive


def test_a_claim_states_no_more_confidence_than_the_papers_it_cites():
    trust = {"[A, 2020]": "MEDIUM", "[B, 2021]": "UNASSESSED", "[C, 2022]": "HIGH"}
    assert capped(BriefClaim("x [A, 2020] [C, 2022]", "HIGH"), trust).confidence == "MEDIUM"
    assert capped(BriefClaim("x", "HIGH", ("B, 2021",)), trust).confidence == "LOW"
    assert capped(BriefClaim("x [C, 2022]", "LOW"), trust).confidence == "LOW"
    assert capped(BriefClaim("no citation", "HIGH"), trust).confidence == "HIGH"


def test_the_assets_online_record_requests_and_tokens_per_brief_and_reuse_the_answers(sample_run, tmp_path):
    database = sample_run.copy_database(tmp_path / "recon.duckdb")
    defs = online_defs(database, tmp_path)
    key = asked_key(IMERG_QUESTION, ["GPM_3IMERGDF"])
    tags = {QUESTION_TAG: IMERG_QUESTION, QUESTION_DATASETS_TAG: '["GPM_3IMERGDF"]'}
    with serving(BriefsModel()) as fake, dg.instance_for_test(temp_dir=str(home(tmp_path, "home"))) as instance:
        result = run_question(defs, instance, key, tags)
        assert result.success
        assert fake.heard == ["planner", "synthesizer"]
        plan_rows = rows(database, "SELECT source, llm_model, llm_requests, llm_tokens FROM question_plans WHERE question_id = ?", [key])
        brief_row = rows(database, "SELECT extractive, llm_requests, llm_tokens, brief_llm_requests, brief_llm_tokens, note FROM research_briefs "
                                   "WHERE question_id = ?", [key])[0]
        used = [r["prompt_tokens"] + r["completion_tokens"] for r in fake.usage]
        assert plan_rows == [("llm", "llama-3.3-70b-versatile", 1, used[0])] * 3
        assert brief_row[:5] == (False, 1, used[1], 2, sum(used)), brief_row[5]
        figures = result.asset_materializations_for_node("research_briefs")[0].metadata
        assert figures["llm_synthesizer_requests"].value == 1 and figures["brief_llm_tokens"].value == sum(used)
        assert figures["llm_synthesizer"].value == "answered by llama-3.3-70b-versatile"
        # again: the stored answers, no request, and the brief the same
        again = run_question(defs, instance, key, tags)
        assert again.success and len(fake.requests) == 2
        assert rows(database, "SELECT extractive, llm_requests, brief_llm_requests, brief_llm_tokens FROM research_briefs WHERE question_id = ?",
                    [key]) == [(False, 0, 0, 0)]
        events = [str(event) for event in instance.all_logs(again.run_id)] + [str(event) for event in instance.all_logs(result.run_id)]
    assert all(KEY not in event for event in events)
    with duckdb.connect(str(database), read_only=True) as con:
        assert KEY not in json.dumps([list(map(str, row)) for row in con.execute("SELECT * FROM llm_answers").fetchall()])



def online_defs(database, tmp_path, **settings) -> dg.Definitions:
    """The definitions of `briefs_defs` (the sample's, offline) with the Groq resource online against the fake."""
    resources = dict(pipeline_defs(SAMPLE_JSONL, database).resources)
    resources["papers"] = PaperIntake(folder=str(tmp_path / "papers"))
    resources["questions"] = QuestionFileResource(path="")
    resources["groq_judge"] = groq(**settings)
    return build_defs(resources)


def test_a_daily_limit_online_leaves_the_offline_plan_and_brief_and_the_run_succeeds(sample_run, tmp_path):
    """Groq's 429 on its tokens-per-day limit, to the planner and to the synthesizer: the partition's run succeeds with
    the offline plan and the extractive brief, each saying why, one request each and no tokens."""
    database = sample_run.copy_database(tmp_path / "recon.duckdb")
    key = asked_key(IMERG_QUESTION, ["GPM_3IMERGDF"])
    fake = BriefsModel(queue=[error(429, "error_rate_limit_tpd.json", rate_limit_headers(retry_after="578"))] * 2)
    with serving(fake), dg.instance_for_test(temp_dir=str(home(tmp_path, "home"))) as instance:
        result = run_question(online_defs(database, tmp_path), instance, key,
                              {QUESTION_TAG: IMERG_QUESTION, QUESTION_DATASETS_TAG: '["GPM_3IMERGDF"]'})
    assert result.success and len(fake.requests) == 2
    plans = rows(database, "SELECT kind, source, note, llm_requests, llm_tokens FROM question_plans WHERE question_id = ? ORDER BY position", [key])
    assert [(kind, source) for kind, source, *_ in plans] == [("foundational", "offline"), ("recent", "offline"), ("contested", "offline")]
    assert all(note.startswith("the LLM planner was not asked: Groq daily limit reached") and (requests, tokens) == (1, 0)
               for _, _, note, requests, tokens in plans)
    ((extractive, note, requests, tokens),) = rows(
        database, "SELECT extractive, note, brief_llm_requests, brief_llm_tokens FROM research_briefs WHERE question_id = ?", [key])
    assert extractive and "The model was not asked: Groq daily limit reached" in note and (requests, tokens) == (2, 0)


def test_the_benchmark_prints_requests_and_tokens_per_brief(sample_run, tmp_path, monkeypatch, capsys):
    """benchmarks/briefs_online.py on the sample against the stand-in: two requests a brief (planner, synthesizer),
    their tokens, none on the second pass (the stored answers), the database given left as it was."""
    from benchmarks import briefs_online

    database = sample_run.copy_database(tmp_path / "recon.duckdb")
    before = database.read_bytes()
    monkeypatch.setattr("sys.argv", ["briefs_online", "--db", str(database), "--questions", "2"])
    briefs_online.main()
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert report["per_brief"]["requests"] == {"mean": 2.0, "max": 2} and report["per_brief"]["tokens"]["mean"] > 0
    assert report["per_brief_again"] == {"requests": {"mean": 0.0, "max": 0}, "tokens": {"mean": 0.0, "max": 0}}
    assert all(row["planner"]["status"] == "answered" and row["synthesizer"]["status"] == "answered" for row in report["briefs"])
    assert "planner req/prompt/completion" in err and database.read_bytes() == before
