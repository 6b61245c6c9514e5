"""The `briefs` group (issue 21): one dynamic partition per research question (`briefs.partitions`), planned,
answered from the graph's publications, judged by the critic over the edge scores in up to 2 rewrite rounds, written
up as a brief with a trust summary per cited paper, and its verdict tracked from refresh to refresh.

Offline (the default: no GROQ_API_KEY, or RECON_GROQ=offline): the planner's templates (`planner.offline_plan`), the
extractive brief. Online, through the coherence judge's Groq resource (`groq_judge`), the LLM planner and synthesizer
(`briefs.online`), each falling back to the offline plan or brief with the reason when the model is not asked, fails
or answers what does not pass the checks. Retrieval is over the KG's publications and, online (the `openalex`
resource may send requests), OpenAlex search: `question_evidence` searches the question and its plan's sub-questions
(`enrichment.openalex_search`: cached, on the shared daily OpenAlex budget) and their works join the question's pool,
merged by DOI (`briefs.searching`); the assets after it read the same answers from the cache, with no request. The
rewrite rounds use the planner's templates (`planner.rewrite`), online too; online, `question_verdicts` searches each
rewrite round's sub-questions the same way (cached, on the same budget) and merges their works into the pool that
round retrieves from (offline, only answers an online run cached). A question whose id the question file
rejects fails its own partition with the reason; a scope that matches nothing is answered INSUFFICIENT with the
reason; no other partition is touched.
"""


import json
from dataclasses import replace
from datetime import date, datetime, timezone

import dagster as dg
import pandas as pd

from recon_assets.briefs.answering import Pool, RoundSearch, answer_rounds, assess, cosine_similarity, debates_of, empty_pool_problem, load_pool, retrieve
from recon_assets.briefs.critic import Debates, Evidence, QuestionJudgement, judge_question
from recon_assets.briefs.online import ModelAnswer, plan_question, write_brief
from recon_assets.briefs.partitions import QuestionFileResource, question_partitions
from recon_assets.briefs.planner import SESSION_QUESTIONS, SubQuestion, question_text, scope_terms
from recon_assets.briefs.questions import (
    ASKED_PREFIX, NAMED_IN_QUESTION, DatasetRow, Question, QuestionFileError, Scope, datasets_named_in, resolve_scope,
)
from recon_assets.briefs.retrieval import Searched
from recon_assets.briefs.searching import GraphDois, RunSearch, round_search, search_queries, search_summary, searched_dois, searched_pool
from recon_assets.briefs.synthesis import Brief
from recon_assets.declarations import ASSET_TABLES
from recon_assets.enrichment.openalex_search import (
    QUESTION_SEARCHES, SearchQuery, SearchReport, SearchResult, cached_results, read_question_searches, search_works,
)
from recon_assets.enrichment.resources import OpenAlexResource
from recon_assets.judgement.judge_address import without_judge_address
from recon_assets.judgement.resources import GroqJudgeResource
from recon_assets.judgement.embedding_store import embedded
from recon_assets.kg.assets import OWNERS
from recon_assets.papers.datasets import products_with_versions
from recon_assets.report.figures import LABEL_COLOURS
from recon_assets.report.render import ReportTable, Section, sections_html
from recon_assets.reliability.labels import CURRENT, DECLINING, SUPERSEDED, UNVERIFIED
from recon_assets.shared.as_of import AsOfDate
from recon_assets.shared.metadata import table_metadata
from recon_assets.storage.output_files import REPORTS
from recon_assets.shared.run_tags import QUESTION_DATASETS_TAG, QUESTION_TAG
from recon_assets.storage.duckdb_store import TableStore
from recon_assets.storage.tables import Tables
from recon_assets.storage.outputs import OutputFiles
from recon_assets.verdicts.critic import VerdictRules

BRIEFS = dict(group_name="briefs", kinds={"duckdb"}, owners=OWNERS, pool="duckdb", partitions_def=question_partitions)
QUESTION_ID = "question_id"
# The briefs' folder inside the database's reports folder (`OutputFiles.folder(REPORTS)`).
BRIEFS_FOLDER = "briefs"
OFFLINE_JUDGE = "critic over the edge scores (offline, deterministic)"
# Trust levels in the report's colours: HIGH as CURRENT, MEDIUM as DECLINING, LOW as SUPERSEDED, UNASSESSED as UNVERIFIED.
TRUST_COLOURS = {"HIGH": LABEL_COLOURS[CURRENT], "MEDIUM": LABEL_COLOURS[DECLINING], "LOW": LABEL_COLOURS[SUPERSEDED],
                 "UNASSESSED": LABEL_COLOURS[UNVERIFIED]}
VERDICT_CHECK = "question_verdict_unchanged"


def _arguments(name: str) -> dict[str, object]:
    """The asset's declared `deps` and code version (`declarations.ASSET_TABLES`), each upstream asset outside this
    group read whole: a question reads every research area's scores (AllPartitionMapping), never one area's."""
    arguments = ASSET_TABLES[name].asset_arguments()
    arguments["deps"] = [key if key.to_user_string() in _BRIEF_ASSETS else dg.AssetDep(key, partition_mapping=dg.AllPartitionMapping())
                         for key in arguments["deps"]]
    return arguments


_BRIEF_ASSETS = ("question_plans", "question_evidence", "question_verdicts", "research_briefs", "question_verdict_history")


@dg.asset(**_arguments("question_plans"), **BRIEFS)
def question_plans(
    context: dg.AssetExecutionContext, store: TableStore, as_of: AsOfDate, questions: QuestionFileResource, groq_judge: GroqJudgeResource
) -> dg.MaterializeResult:
    """The question's 2-3 sub-questions typed foundational / recent / contested, one row each, with its scope resolved
    against the KG (a question whose scope names no dataset but whose text names KG datasets is scoped to those, read by
    the papers' dataset detector: `questions.datasets_named_in`, said in `note`) and the last 3 questions of its session (question_sessions). Offline, from templates and the KG
    short names of the datasets its scope matches (`planner.offline_plan`). Online (`groq_judge`), the LLM planner at
    temperature 0.2 in JSON mode, its answer validated (`planner.plan_from_answer`): source 'llm'; an unparseable,
    off-topic or failed answer falls back to the question itself (source 'fallback'), a request not sent (budgets,
    Groq's daily limit, a refused key, an unreachable server) to the offline plan, the reason in `note`
    (`briefs.online.plan_question`); the planner's requests and tokens are on every row (llm_requests, llm_tokens) and
    in the metadata. Wording in the question (or an earlier one of its session) that addresses a model is removed
    before anything reads it (`planner.question_text`), said in `note`. A question the file rejects (duplicate id,
    empty or over-long text) or no longer holds fails this partition with the reason."""
    key, day = context.partition_key, as_of.for_run(context)
    with store.connect() as con:
        con.create("asked_questions", "question_sessions", "question_plans")
        question = _question(con, key, questions, context.run.tags)
        text, removed = question_text(question.question)
        datasets = [DatasetRow(*row) for row in con.query_rows("question_datasets")]
        areas = [name for (name,) in con.query_rows("question_research_areas")]
        scope, inferred = resolve_scope(question.scope, datasets, areas), None
        if not question.scope.datasets and (named := datasets_named_in(text, datasets) or tuple(products_with_versions(text))):
            # DOMAIN.md weighs the edges to the question's datasets: a question naming one is about it (`datasets_named_in`);
            # one naming only products the graph lacks ("FOOBAR-9 V3") is about none of its datasets: the scope matches
            # nothing, and the verdict is INSUFFICIENT with that reason (it weighed every edge and could PASS)
            scope = resolve_scope(question.scope.model_copy(update={"datasets": named}), datasets, areas)
            inferred = f"{NAMED_IN_QUESTION} {', '.join(named)}: the critic weighs the papers' edges to those datasets (every version where no version is named)"
        session = question.session or question.id
        asked = [without_judge_address(earlier)[0] for (earlier,) in con.query_rows("question_session_asked", [session, key, SESSION_QUESTIONS])][::-1]
        earlier = [item for item in asked if item]
        names = {row.dataset_id: row.short_name for row in datasets}
        terms = scope_terms([names.get(dataset_id) for dataset_id in scope.dataset_ids or ()] or list(question.scope.datasets))
        plan, answer = plan_question(con, groq_judge, text, terms, earlier, day, context.log, addressed=removed is not None and text == question.question)
        now = _now()
        note = "; ".join(part for part in (removed, inferred, plan.note) if part) or None
        frame = pd.DataFrame([{
            QUESTION_ID: key, "position": position, "kind": item.kind, "text": item.text, "source": plan.source, "note": note,
            "question": text, "session": session, "session_questions": earlier, "decay": question.decay,
            "scope_datasets": None if scope.dataset_ids is None else list(scope.dataset_ids), "scope_unknown": list(scope.unknown),
            "scope_problem": scope.problem, "as_of": day, "planned_at": now, **_usage_columns(answer),
        } for position, item in enumerate(plan.subquestions)], columns=_columns("question_plans"))
        con.replace_partitions("question_plans", frame, [key], column=QUESTION_ID)
        con.upsert("question_sessions", pd.DataFrame([{"session": session, QUESTION_ID: key, "question": question.question, "asked_at": now}]))
        metadata = _metadata(con, "question_plans", key, ["kind", "text", "source"])
    if scope.problem:
        context.log.warning(f"{key}: {scope.problem}; the verdict will be INSUFFICIENT")
    if note:  # the datasets the question names alone are no warning: `recon ask` says them once, after the run
        (context.log.warning if removed or plan.note else context.log.info)(f"{key}: {note}")
    return dg.MaterializeResult(metadata={**metadata, "subquestions": len(plan.subquestions), "plan_source": plan.source,
                                          "scope_unknown": ", ".join(scope.unknown) or "none", **usage_metadata("llm_planner", answer, groq_judge)})


@dg.asset(**_arguments("question_evidence"), **BRIEFS)
def question_evidence(context: dg.AssetExecutionContext, store: TableStore, openalex: OpenAlexResource) -> dg.MaterializeResult:
    """The papers retrieved for the question and its plan: from the KG's publications that use a dataset of its scope
    and those citing them and, online, the works OpenAlex search finds for the question and each sub-question
    (`enrichment.openalex_search`: 10 works a query, cached 30 days, 10 list calls a search on the shared daily
    OpenAlex budget; nothing published after as_of's year), merged by DOI with the KG's (`retrieval.searched_papers`);
    the best 8 by RECON's hybrid score (0.5 semantic + 0.3 recency + 0.2 authority; semantic by the project's
    embedding model through text_embeddings), each with its edges to the scope's datasets (assessed, stale, the
    governing edge). A paper found only in OpenAlex has no edge: unassessed (source openalex). Offline nothing is sent;
    answers an earlier online run cached are used."""
    key = context.partition_key
    with store.connect() as con:
        plan = _plan(con, key)
        results, report = _run_search(con, openalex, context.run.run_id, "question_evidence")(search_queries(_plan_texts(plan)))
        pool, searched = searched_pool(load_pool(con, plan.dataset_ids), results, plan.as_of, _in_graph(con)(searched_dois(results, plan.as_of)))
        candidates = retrieve(pool, [plan.question, *(item.text for item in plan.subquestions)], _similarity(con), plan.as_of, plan.decay)
        evidence = assess(pool, candidates, plan.as_of, plan.decay)
        frame = pd.DataFrame([_evidence_row(key, rank, item, plan.as_of) for rank, item in enumerate(evidence, start=1)],
                             columns=_columns("question_evidence"))
        con.create("question_evidence")
        con.replace_partitions("question_evidence", frame, [key], column=QUESTION_ID)
        metadata = _metadata(con, "question_evidence", key, ["rank", "citation", "source", "hybrid", "governing_edge"])
    said = search_summary(report, results, _offline_why(openalex))
    context.log.info(f"{key}: {len(evidence)} papers of a pool of {len(pool.papers)}, {int(frame['assessed'].sum())} assessed, "
                     f"{int(frame['stale'].sum())} stale; {said}")
    return dg.MaterializeResult(metadata={
        **metadata, "pool": len(pool.papers), "assessed": int(frame["assessed"].sum()), "stale": int(frame["stale"].sum()),
        "openalex_search": said, "openalex_queries_sent": "\n".join(report.sent) if report else "none",
        "openalex_requests": report.requests if report else 0, "openalex_list_calls": report.list_calls if report else 0,
        "openalex_papers_added": len(searched.papers), "openalex_only_papers": searched.openalex_only,
        "openalex_papers_in_pool": searched.in_pool, "openalex_only_in_evidence": int(frame["source"].eq("openalex").sum()),
    })


def _plan_texts(plan: "_Plan") -> list[str]:
    """What the question's retriever searches with: the question and each sub-question of its plan."""
    return [plan.question, *(item.text for item in plan.subquestions)]


def _run_search(con: Tables, openalex: OpenAlexResource, run_id: str, asset: str) -> RunSearch:
    """How this run answers the question's OpenAlex searches (`searching.RunSearch`): online (`openalex.may_request`)
    `openalex_search.search_works` through one client (cached in openalex_search_cache, charged to the shared daily
    budget under `asset`; never raises for OpenAlex's failures), only the results holding works kept; else the cached
    answers, no request and no report."""
    client = openalex.client() if openalex.may_request else None

    def run(queries: list[SearchQuery]) -> tuple[list[SearchResult], SearchReport | None]:
        if client is None:
            return cached_results(con, queries, read_question_searches), None
        report = search_works(con, queries, client=client, asset=asset, run_id=run_id, now=datetime.now(timezone.utc),
                              daily_list_calls=openalex.daily_list_calls, cache=QUESTION_SEARCHES)
        return [result for result in report.results if result.works], report

    return run


def _in_graph(con: Tables) -> GraphDois:
    """The graph's publications of canonical DOIs: {doi: its smallest publication id}."""

    def lookup(dois: list[str]) -> dict[str, str]:
        if not dois:
            return {}
        return dict(con.query_rows("publications_of_dois", [dois]))

    return lookup


def _cached_pool(con: Tables, plan: "_Plan", texts: list[str]) -> tuple[Pool, Searched, int]:
    """The question's pool widened by the cached OpenAlex answers to the searches of `texts` (in order: the plan's,
    then each rewrite round's), merged by DOI as the searches merged them (`searching.searched_pool`); no request.
    Also the number of cached answers read."""
    results = cached_results(con, search_queries(texts), read_question_searches)
    pool, searched = searched_pool(load_pool(con, plan.dataset_ids), results, plan.as_of, _in_graph(con)(searched_dois(results, plan.as_of)))
    return pool, searched, len(results)


def _offline_why(openalex: OpenAlexResource) -> str:
    """Why no OpenAlex search may be sent (read when `openalex.may_request` is false)."""
    return "RECON_OPENALEX=offline" if openalex.offline else "OPENALEX_API_KEY is not set"


@dg.asset(**_arguments("question_verdicts"), **BRIEFS)
def question_verdicts(context: dg.AssetExecutionContext, store: TableStore, openalex: OpenAlexResource) -> dg.MaterializeResult:
    """The critic's verdict over the question's evidence (DOMAIN.md "Verdicts over an evidence set", its paragraph on
    research questions): staleness by hybrid weight and contradiction (judged pairs 2+ years apart, recorded comments;
    coherence_judgements and recorded_disputes) first, then sufficiency; a non-PASS verdict rewrites the sub-questions
    (broaden, recent, probe_contradiction), retrieves again, merges by DOI and judges again, at most 2 rounds, then
    FORCED_PASS. Online, a rewrite round first searches OpenAlex for its sub-questions as question_evidence searches
    the plan's (cached 30 days, on the shared daily budget, charged to this asset) and merges their works into the pool
    by DOI (`searching.round_search`); a failed search adds nothing and the round is judged over the pool it had, the
    failure said. Offline nothing is sent (answers an online run cached are used). Every round is logged in
    question_verdict_log, beside RECON's age rule, with the OpenAlex works it added."""
    key, rules = context.partition_key, VerdictRules()
    judged_at = _now()
    with store.connect() as con:
        plan = _plan(con, key)
        pool, searched, answers = _cached_pool(con, plan, _plan_texts(plan))
        opening = RoundSearch(len(searched.papers), f"question_evidence's search of the question and its plan: {answers} answer(s) read from openalex_search_cache")
        search = round_search(_run_search(con, openalex, context.run.run_id, "question_verdicts"), _in_graph(con), plan.as_of, _offline_why(openalex))
        rounds = answer_rounds(plan.question, plan.subquestions, plan.terms, pool, _similarity(con), plan.as_of, plan.decay, rules,
                               plan.problem, first=_stored_evidence(con, pool, key), search=search, first_search=opening)
        log = pd.DataFrame([{
            QUESTION_ID: key, "judged_at": judged_at, "round": item.number, "verdict": item.judgement.verdict,
            "unresolved": item.judgement.unresolved, "age_rule_verdict": item.judgement.age_rule_verdict,
            "rewrite": item.judgement.rewrite, "decay": plan.decay, "retries": item.number, "latency_seconds": item.seconds,
            "judge": OFFLINE_JUDGE, "subquestions": [sub.text for sub in item.subquestions], "papers": len(item.evidence),
            "evidence_ids": [e.paper.candidate.publication_id or e.paper.key for e in item.evidence],
            "evidence_semantic": [e.paper.candidate.semantic for e in item.evidence], "reason": item.judgement.reason, "as_of": plan.as_of,
            "openalex_added": item.search.added, "openalex_search": item.search.said,
        } for item in rounds], columns=_columns("question_verdict_log"))
        last = rounds[-1]
        judgement = last.judgement
        verdict = pd.DataFrame([{
            QUESTION_ID: key, "question": plan.question, "verdict": judgement.verdict, "unresolved": judgement.unresolved,
            "age_rule_verdict": judgement.age_rule_verdict, "rounds": last.number, "papers": len(last.evidence),
            "assessed": sum(e.assessed for e in last.evidence), "stale": sum(e.stale for e in last.evidence),
            "staleness": judgement.staleness.why, "contradiction": judgement.contradiction.why, "sufficiency": judgement.sufficiency.why,
            "age_rule": judgement.age_rule.why, "reason": judgement.reason, "judged_at": judged_at, "as_of": plan.as_of,
        }], columns=_columns("question_verdicts"))
        con.create("question_verdicts", "question_verdict_log")
        con.upsert("question_verdict_log", log)  # kept: one row per round of every materialization
        con.replace_partitions("question_verdicts", verdict, [key], column=QUESTION_ID)
        metadata = _metadata(con, "question_verdicts", key, ["verdict", "rounds", "reason"])
    for item in rounds:
        context.log.info(f"{key} round {item.number}: {item.judgement.verdict} ({item.seconds:.2f}s); {item.judgement.reason}")
        (context.log.warning if item.search.unanswered else context.log.info)(
            f"{key} round {item.number}: {item.search.added} OpenAlex work(s) added to the pool; {item.search.said}")
    return dg.MaterializeResult(metadata={
        **metadata, "verdict": judgement.verdict, "age_rule_verdict": judgement.age_rule_verdict, "rounds": last.number,
        "unresolved": judgement.unresolved or "none",
        "openalex_added_by_round": ", ".join(f"round {item.number}: {item.search.added}" for item in rounds),
        "openalex_search_by_round": "\n".join(f"round {item.number}: {item.search.said}" for item in rounds),
        "openalex_requests": sum(item.search.requests for item in rounds), "openalex_list_calls": sum(item.search.list_calls for item in rounds),
    })


@dg.asset(**_arguments("research_briefs"), **{**BRIEFS, "kinds": {"duckdb", "html", "markdown"}})
def research_briefs(context: dg.AssetExecutionContext, store: TableStore, outputs: OutputFiles, groq_judge: GroqJudgeResource) -> dg.MaterializeResult:
    """The brief: Overview / Key Findings / Active Debates / Outlook, each claim with HIGH / MEDIUM / LOW confidence and
    inline [Author et al., Year] citations, and a trust summary line per cited paper from its edge's label and reason.
    Offline it is extractive (sentences quoted from the evidence's abstracts, which it says). Online (`groq_judge`) the
    LLM synthesizer writes it at temperature 0.3 in JSON mode, used only when it validates, cites only the evidence
    set and grounds no Key Finding on a LOW paper (`synthesis.brief_from_answer`); else, or when the model is not
    asked or its request fails, the extractive brief says why (`briefs.online.write_brief`). The synthesizer's
    requests and tokens, and the brief's with the planner's, are in its row and metadata. Stored here, exported as
    Markdown and as an HTML page in the reliability report's style (reports/<database>/briefs/brief_<question>.md|html)."""
    key, rules = context.partition_key, VerdictRules()
    with store.connect() as con:
        plan = _plan(con, key)
        stored = con.query_row("question_verdict_state", [key])
        if stored is None:
            raise dg.Failure(description=f"{key} has no verdict: materialize question_verdicts first")
        logged = con.query_rows("question_verdict_rounds", [key, stored[2]])
        _, ids, semantic = logged[-1]
        # the pool the rounds had: the plan's and every rewrite round's searches, as cached
        pool, _, _ = _cached_pool(con, plan, [plan.question, *(text for subquestions, *_ in logged for text in subquestions)])
        evidence, judgement, debates = _judged_again(plan, pool, ids, semantic, stored, rules)
        brief, answer = write_brief(con, groq_judge, plan.question, evidence, judgement, debates, rules, context.log)
        usage = _usage_columns(answer)
        folder = outputs.folder(REPORTS) / BRIEFS_FOLDER
        folder.mkdir(parents=True, exist_ok=True)
        markdown, html = folder / f"brief_{key}.md", folder / f"brief_{key}.html"
        markdown.write_text(brief.markdown(), encoding="utf-8")
        html.write_text(sections_html(f"Research brief: {brief.question}", brief_sections(brief), {}, list(TRUST_COLOURS), TRUST_COLOURS), encoding="utf-8")
        frame = pd.DataFrame([{
            QUESTION_ID: key, "question": brief.question, "verdict": brief.verdict, "extractive": brief.extractive, "note": brief.note,
            "trust_summary": list(brief.trust_summary), "cited": [c for c, _ in brief.trust_levels],
            "cited_trust": [level for _, level in brief.trust_levels], "markdown": brief.markdown(), "markdown_path": str(markdown),
            "html_path": str(html), "as_of": plan.as_of, "written_at": _now(), **usage,
            "brief_llm_requests": plan.llm_requests + usage["llm_requests"], "brief_llm_tokens": plan.llm_tokens + usage["llm_tokens"],
        }], columns=_columns("research_briefs"))
        con.create("research_briefs")
        con.replace_partitions("research_briefs", frame, [key], column=QUESTION_ID)
        metadata = _metadata(con, "research_briefs", key, ["verdict", "extractive", "note"])
    context.log.info(f"{key}: brief written to {markdown} and {html}")
    return dg.MaterializeResult(metadata={
        **metadata, "brief": dg.MetadataValue.md(brief.markdown()), "markdown_file": dg.MetadataValue.path(str(markdown)),
        "html": dg.MetadataValue.path(str(html)), "cited": len(brief.trust_levels), **usage_metadata("llm_synthesizer", answer, groq_judge),
        "brief_llm_requests": plan.llm_requests + usage["llm_requests"], "brief_llm_tokens": plan.llm_tokens + usage["llm_tokens"],
    })


@dg.asset(**_arguments("question_verdict_history"), **BRIEFS,
          check_specs=[dg.AssetCheckSpec(VERDICT_CHECK, asset="question_verdict_history",
                                         description="WARN when the question's verdict, or a cited paper's trust or label, changed since the last refresh.")])
def question_verdict_history(context: dg.AssetExecutionContext, store: TableStore) -> dg.MaterializeResult:
    """One row per refresh of the question's brief: its verdict, each cited paper's trust and label, and what changed
    since the refresh before and why. Its check (WARN) names any verdict or cited paper's label that changed."""
    key = context.partition_key
    with store.connect() as con:
        con.create("question_verdict_history")
        verdict, reason, as_of_day = con.query_row("question_verdict_reason", [key])
        (summary,) = con.query_row("question_trust_summary", [key])
        before = con.query_row("question_last_refresh", [key])
        labels = sorted(cited_label(line) for line in summary)
        changes = verdict_changes(before, verdict, reason, labels, summary)
        row = pd.DataFrame([{QUESTION_ID: key, "refreshed_at": _now(), "as_of": as_of_day, "verdict": verdict,
                             "previous_verdict": before[0] if before else None, "cited_labels": labels, "changes": changes}],
                           columns=_columns("question_verdict_history"))
        con.upsert("question_verdict_history", row)
        metadata = _metadata(con, "question_verdict_history", key, ["refreshed_at", "verdict", "changes"])
    check = dg.AssetCheckResult(
        check_name=VERDICT_CHECK, passed=not changes, severity=dg.AssetCheckSeverity.WARN,
        description="; ".join(changes) if changes else ("first refresh" if before is None else "nothing changed since the last refresh"),
        metadata={"changes": len(changes), "verdict": verdict},
    )
    return dg.MaterializeResult(metadata={**metadata, "changes": len(changes)}, check_results=[check])


def cited_label(line: str) -> str:
    """A trust summary line up to its reason's first ';': '[Smith et al., 2019]  Network reliability: LOW. Reason: uses
    GPM_3IMERGDF 06, a replaced version: DECLINING 0.31' (the citation, trust level, dataset, label and reliability)."""
    return line.split(";", 1)[0]


def verdict_changes(before: tuple[str, list[str]] | None, verdict: str, reason: str, labels: list[str], summary: list[str]) -> list[str]:
    """What changed since the refresh `before` ((verdict, cited_labels), None for the first): the verdict with the new
    reason, each cited paper whose trust or label changed with its new trust summary line, papers newly cited or no
    longer cited."""
    if before is None:
        return []
    old_verdict, old_labels = before
    changes = [f"verdict {old_verdict} -> {verdict}: {reason}"] if old_verdict != verdict else []
    old = {_cited(label): label for label in old_labels}
    new = {_cited(label): label for label in labels}
    lines = {_cited(line): line for line in summary}
    for paper in sorted(old.keys() & new.keys()):
        if old[paper] != new[paper]:
            changes.append(f"{paper} changed from '{old[paper].split('  ', 1)[1]}' to '{new[paper].split('  ', 1)[1]}': {lines[paper]}")
    changes += [f"{paper} newly cited: {lines[paper]}" for paper in sorted(new.keys() - old.keys())]
    changes += [f"{paper} no longer cited (was '{old[paper].split('  ', 1)[1]}')" for paper in sorted(old.keys() - new.keys())]
    return changes


def _cited(line: str) -> str:
    """The citation a trust summary line starts with (two spaces end it)."""
    return line.split("  ", 1)[0]


def brief_sections(brief: Brief) -> list[Section]:
    """The brief as the report's sections: the verdict and note, the four sections, the trust summary."""
    parts = [Section("Verdict", f"{brief.verdict_text}. {brief.note}")]
    for title, claims in zip(("Overview", "Key Findings", "Active Debates", "Outlook"),
                             (brief.overview, brief.key_findings, brief.active_debates, brief.outlook)):
        parts.append(Section(title, " ".join(f"{claim.text} ({claim.confidence})." for claim in claims)))
    rows = [(citation, level, line.split("Reason: ", 1)[-1]) for (citation, level), line in zip(brief.trust_levels, brief.trust_summary)]
    parts.append(Section("Trust summary", "Each cited paper's network reliability, from its edge to the question's datasets.",
                         tables=[ReportTable(("paper", "trust", "reason"), rows, coloured_column=1)]))
    return parts


class _Plan:
    """The stored plan of a question: its text, decay, scope (dataset ids or None, the problem), sub-questions, the
    KG terms it was planned with and the run's as_of."""

    def __init__(self, rows: pd.DataFrame):
        first = rows.iloc[0]
        self.question: str = first["question"]
        self.decay: str = first["decay"]
        scope = first["scope_datasets"]
        # an unscoped question's list reads back from DuckDB as None, NaN or pd.NA depending on its neighbours' types
        self.dataset_ids: list[str] | None = None if pd.api.types.is_scalar(scope) and pd.isna(scope) else list(scope)
        self.problem: str | None = first["scope_problem"] if isinstance(first["scope_problem"], str) else None
        self.subquestions = tuple(SubQuestion(row.kind, row.text) for row in rows.itertuples())
        self.as_of: date = pd.Timestamp(first["as_of"]).date()
        self.terms: list[str] = []
        # the planner's requests and tokens (NULL in rows planned before they were recorded)
        self.llm_requests: int = _count(first.get("llm_requests"))
        self.llm_tokens: int = _count(first.get("llm_tokens"))


def _plan(con: Tables, key: str) -> _Plan:
    con.create("question_plans")
    rows = con.partition_rows("question_plans", key, QUESTION_ID, order_by="position")
    if rows.empty:
        raise dg.Failure(description=f"{key} has no plan: materialize question_plans first")
    plan = _Plan(rows)
    names = dict(con.query_rows("dataset_short_names"))
    plan.terms = scope_terms([names.get(dataset_id) for dataset_id in plan.dataset_ids or ()])
    return plan


def _question(con: Tables, key: str, questions: QuestionFileResource, tags: dict[str, str]) -> Question:
    """The question of partition `key`: an ad-hoc one from its run's tags (recorded in asked_questions) or from
    asked_questions; else the question file's entry of that id.

    Raises:
        dg.Failure: the file rejects the id (its reason), does not hold it, or cannot be read; an ad-hoc key that
            was never asked.
    """
    if key.startswith(ASKED_PREFIX):
        if QUESTION_TAG in tags:
            datasets = json.loads(tags.get(QUESTION_DATASETS_TAG) or "[]")
            con.run_sql("asked_question_record", [key, tags[QUESTION_TAG], datasets, _now()])
        row = con.query_row("asked_question", [key])
        if row is None:
            raise dg.Failure(description=f"{key} is an ad-hoc question never asked on this database: ask it with `recon ask`")
        try:
            return Question(id=key, question=row[0], scope=Scope(datasets=tuple(row[1])))
        except ValueError as error:
            raise dg.Failure(description=f"{key}: the question cannot be answered: {error}") from None
    try:
        read = questions.read()
    except (OSError, QuestionFileError) as error:
        raise dg.Failure(description=f"the question file {questions.where()} cannot be read: {error}") from None
    found = next((question for question in read.accepted if question.id == key), None)
    if found is not None:
        return found
    rejected = [entry.reason for entry in read.rejected if entry.id == key]
    if rejected:
        raise dg.Failure(description=f"{key}: the question file {questions.where()} rejects this entry: {rejected[0]}")
    raise dg.Failure(description=f"{key} is not in the question file {questions.where()} (removed?): the sensor removes its partition")


def _similarity(con: Tables):
    """Cosine similarity with the project's embedding model, through text_embeddings (new vectors stored)."""

    con.create("text_embeddings")
    return cosine_similarity(lambda texts: embedded(con, texts))


def _stored_evidence(con: Tables, pool: Pool, key: str):
    """Round 0's candidates as question_evidence holds them: the pool's papers with their stored similarity (a paper
    found only in OpenAlex is in the pool by its DOI, the paper_key)."""
    rows = con.query_rows("question_stored_evidence", [key])
    return [replace(pool.papers[publication_id], semantic=semantic) for publication_id, semantic in rows if publication_id in pool.papers]


def _judged_again(plan: _Plan, pool: Pool, ids: list[str], semantic: list[float], stored: tuple,
                  rules: VerdictRules) -> tuple[list[Evidence], QuestionJudgement, Debates]:
    """The last round's evidence, judged again from the same evidence (deterministic), with its debates.

    Raises:
        dg.Failure: the verdict differs from the stored one (the tables changed under the run).
    """
    evidence = assess(pool, [replace(pool.papers[i], semantic=s) for i, s in zip(ids, semantic) if i in pool.papers], plan.as_of, plan.decay)
    debates = debates_of(pool, evidence)
    judgement = judge_question(evidence, debates, rules, plan.as_of, stored[1], plan.problem or empty_pool_problem(pool))
    if judgement.verdict != stored[0]:
        raise dg.Failure(description=f"the evidence now gives {judgement.verdict}, question_verdicts holds {stored[0]}: re-materialize question_verdicts")
    return evidence, judgement, debates


def _usage_columns(answer: ModelAnswer | None) -> dict[str, object]:
    """llm_model, llm_requests and llm_tokens of a plan or brief row: the model that answered (None offline or without
    an answer), the HTTP requests made (0 offline or from llm_answers) and Groq's prompt plus completion tokens."""
    if answer is None:
        return {"llm_model": None, "llm_requests": 0, "llm_tokens": 0}
    return {"llm_model": answer.model, "llm_requests": answer.requests, "llm_tokens": answer.tokens}


def usage_metadata(name: str, answer: ModelAnswer | None, groq_judge: GroqJudgeResource) -> dict[str, object]:
    """The asset's metadata of its LLM request: `name` (why it was not asked offline, else its status, model and
    reason), `<name>_requests`, `<name>_prompt_tokens` and `<name>_completion_tokens`. Holds no key: the reasons are
    the client's, redacted (`credentials.redact`)."""
    if answer is None:
        return {name: groq_judge.offline_reason() or "not asked: the whole question addresses a model"}
    said = f"{answer.status}" + (f" by {answer.model}" if answer.model else "") + (f": {answer.reason}" if answer.reason else "")
    return {name: said, f"{name}_requests": answer.requests, f"{name}_prompt_tokens": answer.prompt_tokens,
            f"{name}_completion_tokens": answer.completion_tokens}


def _count(value: object) -> int:
    return 0 if value is None or pd.isna(value) else int(value)


def _evidence_row(key: str, rank: int, item: Evidence, as_of: date) -> dict[str, object]:
    paper, edge = item.paper, item.governing_edge
    return {
        QUESTION_ID: key, "rank": rank, "paper_key": paper.key, "publication_id": paper.candidate.publication_id,
        "doi": paper.candidate.doi, "citation": paper.citation, "title": paper.candidate.title, "year": paper.candidate.year,
        "source": paper.candidate.source, "semantic": paper.candidate.semantic, "recency": paper.recency, "authority": paper.authority,
        "hybrid": paper.hybrid, "cited_by_count": paper.candidate.cited_by_count, "edges": len(item.edges), "assessed": item.assessed,
        "stale": item.stale, "governing_edge": None if edge is None else f"{edge.dataset} {edge.label} {edge.reliability:.2f}",
        "as_of": as_of,
    }


def _columns(table: str) -> list[str]:
    from recon_assets.shared.table_docs import declared_columns

    return list(declared_columns(table))


def _metadata(con: Tables, table: str, key: str, preview: list[str]) -> dict[str, object]:
    return table_metadata(con, table, match={"question_id": key}, preview_columns=preview)


def _now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)
