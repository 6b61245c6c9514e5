"""The `papers` group (issue 22): one dynamic partition per paper (the SHA-256 of its PDF, or `doi:<DOI>`), each
read, matched to the graph's datasets and their lifecycle, its claims extracted, scored and reported.

`paper_documents` and `paper_datasets` are critical: a paper that cannot be read fails its own partition with one line
(`parse.UnreadablePaper`), nothing else. The other stages are optional: a failure is recorded in `paper_stage_failures`
and on the partition's materialization (`stage_failed`, `error`), and the rest completes. Only `paper_claims` and
`paper_datasets` (its data statements) may send a paper's paragraphs online, and only with the papers' own opt-in
(RECON_PAPERS_ONLINE) and the Groq resource online.
"""


import functools
from collections.abc import Callable
from datetime import datetime, timezone

import dagster as dg
import numpy as np
import pandas as pd

from recon_assets.declarations import ASSET_TABLES
from recon_assets.judgement.resources import GroqJudgeResource
from recon_assets.judgement.embedding_store import embedded
from recon_assets.judgement.text_embedding import cosine_similarities
from recon_assets.kg.assets import OWNERS
from recon_assets.papers.dataset_catalogue import DatasetCatalogue
from recon_assets.papers.datasets import detect_datasets
from recon_assets.papers.lifecycle_lines import with_graph_links
from recon_assets.enrichment.openalex_records import rebuild_abstract
from recon_assets.enrichment.openalex_search import CACHED, FAILED, cached_results, search_query, search_works
from recon_assets.enrichment.resources import OpenAlexResource
from recon_assets.papers.gaps import HIGH, MEDIUM, Comment, References, UsedDataset, citation_gaps, search_texts
from recon_assets.papers.gaps import openalex_works as openalex_gap_works
from recon_assets.papers.gaps import Work as GapWork
from recon_assets.papers.doi_lookup import lookup_doi
from recon_assets.papers.search_cache import PAPER_SEARCHES, read_paper_searches
from recon_assets.papers.intake import doi_document, key_doi
from recon_assets.papers.keywords import ScienceKeyword, TfidfCorpus, document_text
from recon_assets.papers.keywords import paper_keywords as find_paper_keywords
from recon_assets.papers.parse import UnreadablePaper, parse_pdf
from recon_assets.papers.partitions import PAPER_SOURCE_TAG, paper_partitions
from recon_assets.papers.report import PaperFindings, paper_sections, write_paper_report
from recon_assets.papers.title import display_name, pdf_title
from recon_assets.papers.online import DATASETS_STAGE, offline_reading, read_datasets_online, read_online
from recon_assets.papers.resources import PaperIntake, PaperNotFound
from recon_assets.papers.scores import paper_scores as compute_paper_scores
from recon_assets.papers.stored import (
    PAPER_KEY,
    claim_rows,
    dataset_rows,
    dataset_text,
    document_rows,
    forget_llm_use,
    gap_rows,
    keyword_rows,
    literature,
    llm_use_rows,
    paper_title,
    stored_document,
    verdict_rows,
    work_texts,
)
from recon_assets.judgement import steward
from recon_assets.judgement.assets import stored_steward_judgements
from recon_assets.papers import claim_judge, llm_keywords
from recon_assets.papers.claim_judge import ClaimToJudge, judge_claims_online
from recon_assets.papers.keywords import METHOD as KEYWORD_METHOD
from recon_assets.papers.llm_keywords import PROMPT_VERSION as KEYWORDS_PROMPT_VERSION
from recon_assets.papers.llm_keywords import refine_online
from recon_assets.papers.online import FALLBACK, LLM, NOT_SENT, StageUse, groq_asker
from recon_assets.papers.verdicts import (
    TOP_K,
    ReplacedDataset,
    StewardRow,
    SupersededReference,
    cites,
    claim_flags,
    judge_claim,
    sentence_similarities,
    steward_flags,
    steward_pair_judgements,
)
from recon_assets.papers.verdicts import Work as ClaimWork
from recon_assets.shared.credentials import error_line, redact
from recon_assets.shared.metadata import table_metadata
from recon_assets.shared.table_docs import declared_columns
from recon_assets.storage.output_files import REPORTS
from recon_assets.storage.duckdb_store import TableStore
from recon_assets.storage.tables import Tables
from recon_assets.storage.outputs import OutputFiles

PAPERS = dict(group_name="papers", kinds={"duckdb"}, owners=OWNERS, pool="duckdb", partitions_def=paper_partitions)
PAPER_ASSETS = (
    "paper_documents", "paper_datasets", "paper_claims", "paper_keywords", "paper_citation_gaps", "claim_verdicts", "paper_scores",
    "paper_reports",
)


def _arguments(name: str) -> dict[str, object]:
    """The asset's declared `deps` and code version (`declarations.ASSET_TABLES`), each upstream asset outside this
    group read whole: a paper is read against every research area's records and scores (AllPartitionMapping)."""
    arguments = ASSET_TABLES[name].asset_arguments()
    whole = dg.AllPartitionMapping()
    arguments["deps"] = [key if key.to_user_string() in PAPER_ASSETS else dg.AssetDep(key, partition_mapping=whole) for key in arguments["deps"]]
    return arguments

# The paper reports' folder inside the database's reports folder (`OutputFiles.folder(REPORTS)`).
PAPER_REPORTS_FOLDER = "papers"
# OpenAlex search for citation gaps (online, opted in): works asked for per search.
GAP_SEARCH_PER_QUERY = 25


@dg.asset(**_arguments("paper_documents"), **PAPERS)
def paper_documents(
    context: dg.AssetExecutionContext, store: TableStore, papers: PaperIntake, openalex: OpenAlexResource
) -> dg.MaterializeResult:
    """The paper read into text by section and paragraph with page numbers, its reference list with DOIs and its
    figure and table captions (pypdf, `papers.parse`), held to the page limit (RECON_PAPER_PAGE_LIMIT), with its title
    (the PDF's Title metadata when it reads as one, else the largest type on its first page: `papers.title`); a paper given
    by DOI is its title, abstract and cited works from the graph's tables or, for a DOI the graph lacks, from OpenAlex
    (`papers.doi_lookup`, online only: the DOI and its cited work ids are sent, 1 list call and 1 per 100 references on
    the shared daily budget; a paper_llm_use row, stage doi_lookup, says what was sent).
    Critical: an empty, non-PDF, truncated, encrypted, image-only or over-long PDF, or a DOI neither the graph nor
    OpenAlex gives, fails this partition with one line."""
    key = context.partition_key
    doi = key_doi(key)
    with store.connect() as con:
        try:
            in_graph = con.query("paper_graph_publication", [doi]) if doi else None
            if doi and in_graph.empty:
                title, document, source = _openalex_document(context, con, key, doi, openalex)
                page_limit = None
            elif doi:
                title, document = doi_document(doi, in_graph, con.query("paper_graph_references", [doi]))
                source, page_limit = doi, None
            else:
                path, data = papers.pdf(key, context.run.tags.get(PAPER_SOURCE_TAG))
                document, source, page_limit = parse_pdf(data, papers.page_limit), str(path), papers.page_limit
                title = pdf_title(data)
        except (UnreadablePaper, PaperNotFound) as error:
            raise dg.Failure(description=str(error), metadata={"paper_key": key}) from None
        summary = pd.DataFrame([{
            PAPER_KEY: key, "kind": "doi" if doi else "pdf", "source": source, "doi": doi, "title": title,
            "pages": document.pages if not doi else None, "sections": len(document.sections),
            "paragraphs": len(document.paragraphs), "reference_count": len(document.references),
            "captions": len(document.captions), "page_limit": page_limit, "recorded_at": _now(),
        }])
        _replace(con, "paper_documents", summary, key)
        _replace(con, "paper_texts", document_rows(key, document), key)
        metadata = _partition_metadata(con, "paper_texts", key, ["part", "section", "page", "text"])
    context.log.info(f"{source}: {len(document.sections)} headings, {len(document.paragraphs)} paragraphs, {len(document.references)} references")
    return dg.MaterializeResult(metadata={
        **metadata, "source": source, "pages": document.pages, "headings": len(document.sections),
        "references": len(document.references), "references_with_doi": sum(r.doi is not None for r in document.references),
        "captions": len(document.captions),
    })


@dg.asset(**_arguments("paper_datasets"), **PAPERS)
def paper_datasets(
    context: dg.AssetExecutionContext, store: TableStore, papers: PaperIntake, groq_judge: GroqJudgeResource
) -> dg.MaterializeResult:
    """Every dataset the paper uses, matched to the graph's Dataset nodes by DOI (text and references) and by short
    name and version (`papers.datasets`), each with its quote, page and section and its lifecycle from
    `dataset_lineage` ("uses TRMM_3B42 V7: replaced by ..."); a paper given by DOI adds the datasets the graph links
    its publication to by USES_DATASET (`dataset_publication_edges`; `lifecycle_lines.with_graph_links`). A dataset the
    paper names that no node matches is listed as unmatched with why, never dropped; a graph family's version the graph
    lacks gets that version's lifecycle (`stated_lifecycle`), unknown for a version no record attests.

    Online, only with the papers' opt-in (RECON_PAPERS_ONLINE=online) and the Groq resource online, the LLM reads the
    paragraphs that state data (`online.read_datasets_online`: cached, on the shared daily budget), each pair it gives
    counted only when the rules' checks pass (`papers.llm_datasets`, checks (a)-(e)), merged with the rules' result
    (confirmed, added, or resolving an ambiguous mention; never dropping a rules' match), recorded as a
    `paper_llm_use` row (stage datasets). Any failure of the online part keeps the rules' result and says so in that
    row and the log. Critical for the rules' part only."""
    key = context.partition_key
    with store.connect() as con:
        document = stored_document(con, key)
        catalogue = DatasetCatalogue(con.query("paper_dataset_catalogue"))
        matches, unmatched = detect_datasets(document, catalogue)
        forget_llm_use(con, key, [DATASETS_STAGE])  # no earlier run's row passes for this one's
        read = {}
        if (papers.online_reason() or groq_judge.offline_reason()) is None:
            matches, unmatched, use = read_datasets_online(con, document, catalogue, matches, unmatched, groq_judge,
                                                           log=context.log.info, warn=context.log.warning)
            con.upsert("paper_llm_use", llm_use_rows(key, [use]))
            read = {"sent_where": use.summary(), "llm_requests": use.requests, "datasets_outcome": use.outcome, "datasets_rejected": len(use.dropped)}
        if doi := key_doi(key):
            linked = con.query_rows("paper_graph_dataset_links", [doi])
            matches, unmatched = with_graph_links(matches, unmatched, dict(linked), catalogue)
        lineage = con.query("paper_dataset_lineage", [[m.dataset_id for m in matches]])
        frame = dataset_rows(key, matches, unmatched, {row["dataset_id"]: row for row in lineage.to_dict("records")})
        _replace(con, "paper_datasets", frame, key)
        metadata = _partition_metadata(con, "paper_datasets", key, ["matched", "name", "stated_version", "page", "lifecycle", "reason"])
    replaced = int(frame["superseded"].fillna(False).astype(bool).sum())
    context.log.info(f"{len(matches)} datasets matched ({replaced} on a replaced version), {len(unmatched)} unmatched")
    return dg.MaterializeResult(metadata={
        **metadata, "matched": len(matches), "on_replaced_versions": replaced, "unmatched": len(unmatched), **read,
    })


@dg.asset(**_arguments("paper_claims"), **PAPERS)
def paper_claims(context: dg.AssetExecutionContext, store: TableStore, papers: PaperIntake, groq_judge: GroqJudgeResource) -> dg.MaterializeResult:
    """The paper's claims, each quoted with its section and page, typed METHODOLOGICAL / EMPIRICAL / THEORETICAL /
    COMPARATIVE with a confidence (0-1), and its argumentation score (0-10).

    Online only when the papers' opt-in is set (RECON_PAPERS_ONLINE=online) AND the Groq resource is online: the claim
    paragraphs go to Groq in chunks (`papers.online.read_online`, `papers.llm_claims`), each answer validated, a claim
    whose quote is not in the paper's text dropped and counted, a chunk without a usable answer left to the offline
    extractor with the reason; then the argumentation request. Otherwise nothing is sent: the offline extractor
    (`papers.claims`, which says it is one; novelty 'not assessed') and no argumentation. `paper_llm_use` says for
    each stage what was sent where, with requests and tokens. Optional: a failure is recorded in
    paper_stage_failures and the rest completes."""
    key = context.partition_key

    def extract(con: Tables) -> dict[str, object]:
        # no earlier run's row passes for this one's (the citation gaps' search row is that stage's own)
        forget_llm_use(con, key, ["claims", "argumentation"])
        document = stored_document(con, key)
        why_not = papers.online_reason() or groq_judge.offline_reason()
        if why_not is None:
            reading = read_online(con, document, paper_title(con, key), groq_judge, log=context.log.warning)
        else:
            reading = offline_reading(document, why_not)
        frame = claim_rows(key, reading.claims)
        uses = llm_use_rows(key, reading.uses)
        _replace(con, "paper_claims", frame, key)
        con.upsert("paper_llm_use", uses)  # its own stages (deleted above); another stage's row stays
        context.log.info("; ".join(uses["summary"]))
        claims_use = uses.iloc[0]
        return {**_partition_metadata(con, "paper_claims", key, ["claim_type", "confidence", "page", "text"]),
                "claims": len(frame), **{f"claims_{kind}": int(n) for kind, n in frame["claim_type"].value_counts().items()},
                "sent_where": "\n".join(uses["summary"]), "llm_requests": int(uses["requests"].sum()),
                "llm_prompt_tokens": int(uses["prompt_tokens"].sum()), "llm_completion_tokens": int(uses["completion_tokens"].sum()),
                "llm_cached_answers": int(uses["cached_answers"].sum()), "claims_outcome": str(claims_use["outcome"]),
                "claims_dropped": int(claims_use["claims_dropped"]),
                "argumentation": reading.argumentation if reading.argumentation is not None else "not assessed"}

    return _optional_stage(context, store, extract, table="paper_claims")


@dg.asset(**_arguments("paper_keywords"), **PAPERS)
def paper_keywords(
    context: dg.AssetExecutionContext, store: TableStore, papers: PaperIntake, groq_judge: GroqJudgeResource
) -> dg.MaterializeResult:
    """The paper's top TF-IDF terms against the graph's publications (titles and abstracts; scikit-learn's
    TfidfVectorizer, `papers.keywords`), each matched to the graph's GCMD ScienceKeyword nodes (`science_keywords`)
    where one fits, NULL where none does. Online, only with the papers' opt-in (RECON_PAPERS_ONLINE=online) and the
    Groq resource online, the LLM refines them (`papers.llm_keywords`: junk dropped, terms merged, each mapped to a
    GCMD keyword of the graph; every keyword returned a TF-IDF term or a GCMD keyword of the graph, anything else
    rejected and counted; the paper's title and terms sent, never its paragraphs), recorded as a `paper_llm_use` row
    (stage keywords); an unusable answer keeps the TF-IDF keywords, with the reason. Optional: a failure is recorded
    in paper_stage_failures and the rest completes."""
    key = context.partition_key

    def find(con: Tables) -> dict[str, object]:
        forget_llm_use(con, key, [KEYWORDS_STAGE])
        publications = literature(con, key_doi(key))
        keywords = [ScienceKeyword(keyword_id, name, int(links)) for keyword_id, name, links in con.query_rows("paper_science_keywords")]
        found = find_paper_keywords(_paper_text(con, key), publications["text"].tolist(), keywords)
        frame = keyword_rows(key, found)
        refined = {}
        if (papers.online_reason() or groq_judge.offline_reason()) is None:
            refinement, use = _refined_keywords(context, con, paper_title(con, key), found, keywords, groq_judge)
            if refinement.keywords is not None:
                frame = keyword_rows(key, refinement.keywords)
                frame["method"] = f"LLM refinement ({', '.join(dict.fromkeys(use.models))}, {KEYWORDS_PROMPT_VERSION}) of the {KEYWORD_METHOD}"
            con.upsert("paper_llm_use", llm_use_rows(key, [use]))
            context.log.info(use.summary())
            refined = {"sent_where": use.summary(), "llm_requests": use.requests, "keywords_refined": refinement.keywords is not None,
                       "keywords_rejected": len(refinement.rejected), "terms_dropped": len(refinement.dropped_terms)}
        _replace(con, "paper_keywords", frame, key)
        return {**_partition_metadata(con, "paper_keywords", key, ["term", "weight", "keyword_name", "match"]),
                "terms": len(frame), "matched_to_gcmd": int(frame["keyword_id"].notna().sum()), "publications_read": len(publications), **refined}

    return _optional_stage(context, store, find, table="paper_keywords")


# The stage name of the LLM's keyword refinement in paper_llm_use.
KEYWORDS_STAGE = llm_keywords.STAGE


def _refined_keywords(context, con: Tables, title: str | None, found, keywords, groq: GroqJudgeResource):
    """(`llm_keywords.Refinement`, its `online.StageUse`): the TF-IDF keywords refined by Groq through the cached ask
    (llm_answers, the shared daily budget), for a paper opted in with Groq online."""
    use = StageUse(KEYWORDS_STAGE)
    with groq_asker(con, groq, "paper_keywords", log=context.log.warning) as asker:
        refinement, _ = refine_online(
            lambda purpose, version, messages, tokens, usable: asker.ask(use, purpose, version, messages, tokens, usable), title, found, keywords,
        )
    if refinement.keywords is not None:
        use.outcome = LLM
        use.dropped = list(refinement.rejected)
        use.reasons.append(f"the paper's title and {len(found)} TF-IDF terms sent; {len(refinement.keywords)} keywords kept, "
                           f"{len(refinement.rejected)} entries rejected, {len(refinement.dropped_terms)} terms dropped as junk")
    else:
        use.outcome = FALLBACK if use.sent or use.cached else NOT_SENT
        use.reasons.append(f"TF-IDF keywords kept: {refinement.problem}")
    return refinement, use


@dg.asset(**_arguments("paper_citation_gaps"), **PAPERS)
def paper_citation_gaps(
    context: dg.AssetExecutionContext, store: TableStore, papers: PaperIntake, openalex: OpenAlexResource
) -> dg.MaterializeResult:
    """Works on the paper's keywords (TF-IDF similarity, `papers.keywords`) and datasets that its reference list
    lacks, each high (same dataset and highly cited, the newer version's reference paper, a recorded comment on a work
    it cites) or medium (a similar work) with why (`papers.gaps`): the graph's publications, and online, OpenAlex
    search's works (`enrichment.openalex_search`: cached, 10 list calls a search on the shared daily budget). A search
    is built from the paper's own top terms and dataset names (`gaps.search_texts`), so it is sent only with the
    papers' opt-in (RECON_PAPERS_ONLINE=online) and OpenAlex online; a `paper_llm_use` row (stage
    citation_gaps_search) says what was sent where, or why nothing was. Offline nothing is sent and no row written.
    Optional: a failure is recorded in paper_stage_failures and the rest completes."""
    key = context.partition_key

    def search(con: Tables) -> dict[str, object]:
        con.create("openalex_works", "recorded_disputes")  # research-area runs write them: none before the first
        works = con.query("paper_gap_works", [key_doi(key)])
        paper_text = _paper_text(con, key)
        document = stored_document(con, key)
        references = References(
            frozenset(r.doi for r in document.references if r.doi), tuple(r.text for r in document.references), key_doi(key), paper_title(con, key),
        )
        names = [name for (name,) in con.query_rows("paper_matched_dataset_names", [key])]
        found, searched = _openalex_gap_works(context, con, key, openalex, papers, paper_text, works["text"].tolist(), names)
        corpus = TfidfCorpus(paper_text, works["text"].tolist() + [_work_text(work) for work in found])
        similarity = corpus.similarities()
        extra = openalex_gap_works(found, similarity[len(works):], set(works["doi"].dropna()), references)
        similarity = similarity[: len(works)]
        used = {row[0]: UsedDataset(*row) for row in con.query_rows("paper_used_datasets", [key])}
        comments = [Comment(*row) for row in con.query_rows("recorded_comments")]
        candidates = [
            GapWork(row.publication_id, row.doi, row.title, _int(row.year),
                    _int(row.openalex_citations) if not pd.isna(row.openalex_citations) else int(row.kg_citations),
                    "OpenAlex cited_by_count" if not pd.isna(row.openalex_citations) else "KG citing publications",
                    frozenset(row.dataset_ids), float(value))
            for row, value in zip(works.itertuples(index=False), similarity)
        ]
        frame = gap_rows(key, citation_gaps(references, list(used.values())[::-1], candidates + extra, comments))
        _replace(con, "paper_citation_gaps", frame, key)
        counts = frame["severity"].value_counts()
        return {**_partition_metadata(con, "paper_citation_gaps", key, ["severity", "doi", "title", "why"]),
                "high_gaps": int(counts.get(HIGH, 0)), "medium_gaps": int(counts.get(MEDIUM, 0)), "publications_read": len(works),
                "openalex_works_read": len(extra), "openalex_gaps": int(frame["work_key"].str.startswith("openalex:").sum()), **searched}

    return _optional_stage(context, store, search, table="paper_citation_gaps")


@dg.asset(**_arguments("claim_verdicts"), **PAPERS)
def claim_verdicts(
    context: dg.AssetExecutionContext, store: TableStore, papers: PaperIntake, groq_judge: GroqJudgeResource
) -> dg.MaterializeResult:
    """Each claim of paper_claims against the graph's publications most similar to it, through the project's judges
    (`papers.verdicts.judge_claim`): the offline judge; Groq (`papers.claim_judge`) only with the papers' opt-in
    (RECON_PAPERS_ONLINE=online) and the Groq resource online, its answers counting only as objections at least as
    strong as the offline judge's; the stewards' pair judgements (steward_judgements) of a work against one the claim
    cites, which take precedence. SUPPORTED / CONTRADICTED / UNVERIFIED with the quoted evidence and who judged
    (`judge`); a claim resting on a replaced dataset version (paper_datasets), on a cited paper labelled SUPERSEDED
    (edge_reliability) or on work a steward judged contradicted or superseded is flagged with the lifecycle line, the
    edge's reason or the steward's words. A `paper_llm_use` row (stage claim_verdicts) says what was sent to Groq, only
    when it could be (opted in, Groq online). Optional: a failure (paper_claims' failure included) is recorded in
    paper_stage_failures and the rest completes."""
    key = context.partition_key

    def judge(con: Tables) -> dict[str, object]:
        con.create("paper_claims", "edge_reliability", "text_embeddings")
        forget_llm_use(con, key, [CLAIM_VERDICTS_STAGE])
        failed = con.query_row("paper_stage_failure", [key, "paper_claims"])
        if failed:
            raise RuntimeError(f"paper_claims failed for this paper, so its claims cannot be judged ({failed[0]})")
        claims = con.query_rows("paper_claim_texts", [key])
        publications = literature(con, key_doi(key))
        # one embedder for the works and the quoted sentences: the embedding cache, so a re-run embeds no text again
        embed_texts = functools.partial(embedded, con)
        similarity = cosine_similarities(embed_texts, [text for _, text in claims], publications["text"].tolist())
        # matched or not: a version the graph lacks that the lifecycle replaces flags the claims resting on it too
        replaced = [ReplacedDataset(*row) for row in con.query_rows("paper_replaced_datasets", [key])]
        superseded = [SupersededReference(int(number), text, reason) for number, text, reason in con.query_rows("paper_superseded_references", [key])]
        # the references' publications in the graph (a claim citing one rests on it) and the paper itself, given by DOI
        cited = [(int(number), text, publication_id) for number, text, publication_id in con.query_rows("paper_cited_publications", [key])]
        itself = {row[0] for row in con.query_rows("publication_ids_of_doi", [key_doi(key)])} if key_doi(key) else set()
        stewards = _steward_rows(con)
        names = dict(zip(publications["publication_id"], publications["doi"].fillna(publications["publication_id"])))
        nearest_works = []
        for (position, text), row in zip(claims, similarity):
            nearest = np.argsort(-row, kind="stable")[:TOP_K]
            nearest_works.append([
                ClaimWork(publications["publication_id"][i], publications["doi"][i], publications["text"][i], float(row[i])) for i in nearest
            ])
        why_not = papers.online_reason() or groq_judge.offline_reason()
        online_answers, sent = {}, {}
        if why_not is None and claims:
            judging = judge_claims_online(
                con, [ClaimToJudge(position, text, works, *work_texts(con, [work.publication_id for work in works]))
                      for (position, text), works in zip(claims, nearest_works)],
                paper_title(con, key), dataset_text(con, key), groq_judge, log=context.log.warning,
            )
            online_answers = judging.answers
            uses = llm_use_rows(key, [judging.use])
            con.upsert("paper_llm_use", uses)
            context.log.info(judging.use.summary())
            sent = {"sent_where": judging.use.summary(), "llm_requests": judging.use.requests, "llm_cached_answers": judging.use.cached}
        judged = []
        for (position, text), works in zip(claims, nearest_works):
            rests_on = {publication_id for number, reference, publication_id in cited if cites(text, number, reference)} | itself
            verdict = judge_claim(
                works, claim=text, llm=online_answers.get(position), steward=steward_pair_judgements(rests_on, works, stewards),
                similarities=functools.partial(sentence_similarities, embed_texts=embed_texts),
            )
            flags = claim_flags(text, replaced, superseded) + steward_flags(rests_on, verdict.publication_id, stewards, names)
            judged.append((position, verdict, flags))
        frame = verdict_rows(key, judged)
        _replace(con, "claim_verdicts", frame, key)
        return {**_partition_metadata(con, "claim_verdicts", key, ["position", "verdict", "judge", "evidence", "flags"]),
                **{f"claims_{verdict}": int(n) for verdict, n in frame["verdict"].value_counts().items()},
                "judges": ", ".join(sorted(set(frame["judge"]))) or "none", "groq": why_not or "asked",
                "flagged": int(frame["flags"].map(len).gt(0).sum()), "publications_read": len(publications), **sent}

    return _optional_stage(context, store, judge, table="claim_verdicts")


# The stage name of Groq's claim judging in paper_llm_use.
CLAIM_VERDICTS_STAGE = claim_judge.STAGE


def _steward_rows(con: Tables) -> list[StewardRow]:
    """The steward judgements that apply today (UTC; `steward.applicable`), pair and edge, as `verdicts.StewardRow`s;
    none before steward_judgements was first materialized."""
    stored = stored_steward_judgements(con)  # never created here: its DDL replaces it
    today = datetime.now(timezone.utc).date()
    rows = []
    for scope in ("pair", "edge"):
        for row in steward.applicable(stored, scope, today).to_dict("records"):
            newer = row["newer_publication_id"] if isinstance(row["newer_publication_id"], str) else None
            rows.append(StewardRow(scope, row["dataset_id"], row["publication_id"], newer, row["verdict"], float(row["coherence"]),
                                   row["steward"], steward.steward_evidence(row)))
    return rows


@dg.asset(**_arguments("paper_scores"), **PAPERS)
def paper_scores(context: dg.AssetExecutionContext, store: TableStore) -> dg.MaterializeResult:
    """The paper's scores (`papers.scores.paper_scores`): CitationEdge's citation, verification, literary and overall
    (0-10) and this project's share of dataset uses on current versions (0-1), each with how it was computed.
    Citation counts paper_citation_gaps' high and medium gaps, verification claim_verdicts' verdicts; a stage whose
    latest materialization of this paper did not complete (`_stage_completed`: it failed, or never ran) makes its
    score 'not assessed' (value NULL), never zero gaps or no claim. Argumentation is the LLM's score that paper_claims
    recorded in paper_llm_use (online, opted in); without it literary and overall are 'not assessed', never guessed,
    and with it their `how` says they were computed from it."""
    key = context.partition_key
    gaps_searched, claims_judged = _stage_completed(context, "paper_citation_gaps"), _stage_completed(context, "claim_verdicts")
    claims_read = _stage_completed(context, "paper_claims")
    with store.connect() as con:
        # the optional stages' tables may never have been written
        con.create("paper_datasets", "paper_claims", "paper_citation_gaps", "claim_verdicts", "paper_llm_use")
        argued = con.query_row("paper_argumentation", [key]) if claims_read else None
        # every dataset use, matched or a version the graph lacks; NULL superseded: status unknown, not counted
        superseded, confidences, high, medium, verdicts = con.query_row("paper_score_inputs", [key])
        scores = compute_paper_scores(
            high if gaps_searched else None, medium if gaps_searched else None, verdicts if claims_judged else None,
            confidences, argued[0] if argued else None, [None if s is None else bool(s) for s in superseded],
            argumentation_by=f"the LLM's (Groq, {argued[1]}; paper_llm_use)" if argued else None,
        )
        frame = pd.DataFrame(scores.rows(), columns=["score", "value", "how"])
        frame.insert(0, PAPER_KEY, key)
        frame.insert(3, "assessed", frame["value"].notna())
        _replace(con, "paper_scores", frame, key)
        metadata = _partition_metadata(con, "paper_scores", key, ["score", "value", "how"])
    context.log.info("; ".join(f"{row.score}: {row.how}" for row in frame.itertuples()))
    return dg.MaterializeResult(metadata={
        **metadata, **{f"score_{row.score}": (float(row.value) if row.assessed else "not assessed") for row in frame.itertuples()},
    })


@dg.asset(**_arguments("paper_reports"), **{**PAPERS, "kinds": {"duckdb", "html", "pdf"}})
def paper_reports(context: dg.AssetExecutionContext, store: TableStore, outputs: OutputFiles) -> dg.MaterializeResult:
    """The paper's report, an HTML page and its PDF in `reports/<database>/papers/paper_<key>.html|pdf`: the datasets
    with their lifecycle (colour-coded), the scores with how each was computed, the claims, the stages that failed
    and what was sent where (paper_llm_use). Optional: a failure is recorded in paper_stage_failures and the rest completes."""
    key = context.partition_key

    def report(con: Tables) -> dict[str, object]:
        folder = outputs.folder(REPORTS) / PAPER_REPORTS_FOLDER
        document = con.partition_rows("paper_documents", key, PAPER_KEY).iloc[0].to_dict()
        con.create("paper_claims", "paper_keywords", "paper_citation_gaps", "claim_verdicts", "paper_llm_use")

        def rows(table: str, order: str) -> pd.DataFrame:
            return con.partition_rows(table, key, PAPER_KEY, order_by=order)

        sections = paper_sections(
            document, rows("paper_datasets", "position"), rows("paper_claims", "position"), con.partition_rows("paper_scores", key, PAPER_KEY),
            # its own failure of an earlier run is not this report's news
            con.query("paper_earlier_failures", [key, "paper_reports"]),
            PaperFindings(rows("paper_keywords", "rank"), rows("paper_citation_gaps", "position"), rows("claim_verdicts", "position"),
                          rows("paper_llm_use", "stage DESC")),
        )
        title = f"Paper analysis: {display_name(_text(document['title']), document['source'])}"
        files = write_paper_report(title, sections, folder, f"paper_{key.replace(':', '_').replace('/', '_')}")
        context.log.info(f"paper report written: {files.html} and {files.pdf} ({files.pdf_pages} pages)")
        return {"html": dg.MetadataValue.path(str(files.html)), "pdf": dg.MetadataValue.path(str(files.pdf)), "pdf_pages": files.pdf_pages}

    return _optional_stage(context, store, report, table=None)


def _optional_stage(
    context: dg.AssetExecutionContext, store: TableStore, work: Callable[[Tables], dict[str, object]], table: str | None
) -> dg.MaterializeResult:
    """Run an optional stage's `work` (which returns its metadata): on success its paper_stage_failures row is
    removed; on any error the row records the error's one line, the paper's rows of the stage's `table` are removed
    (no earlier run's rows pass for this one's), the materialization says `stage_failed` and `error` (the partition's
    page in the UI), and the run goes on to the stages after it."""
    key, stage = context.partition_key, context.asset_key.to_user_string()
    with store.connect() as con:
        con.create("paper_stage_failures")
        try:
            metadata = work(con)
        except Exception as error:  # optional (issue 22): whatever broke, the paper's other stages still complete
            line = error_line(error)
            con.upsert("paper_stage_failures", pd.DataFrame([{PAPER_KEY: key, "stage": stage, "error": line, "failed_at": _now()}]))
            if table is not None:
                con.create(table)
                con.delete_partitions(table, [key], PAPER_KEY)
            context.log.warning(f"{stage} failed for paper {key}: {line}; recorded in paper_stage_failures, the other stages go on")
            return dg.MaterializeResult(metadata={"stage_failed": stage, "error": line})
        con.run_sql("paper_stage_failure_delete", [key, stage])
    return dg.MaterializeResult(metadata={**metadata, "stage_failed": "none"})


# The stage name of the citation gaps' OpenAlex search in paper_llm_use (what was sent where).
GAPS_SEARCH_STAGE = "citation_gaps_search"


def _openalex_gap_works(
    context: dg.AssetExecutionContext, con: Tables, key: str, openalex: OpenAlexResource, papers: PaperIntake, paper_text: str,
    graph_texts: list[str], dataset_names: list[str],
) -> tuple[list[dict], dict[str, object]]:
    """The OpenAlex works the paper's searches find (each once, in answer order) and the stage's metadata. Online
    (OpenAlex may be asked): with the opt-in the searches go out (`openalex_search.search_works`), without it nothing
    is sent (why said); either way the paper's paper_llm_use row for the stage says so. Offline: no request, no row;
    answers an opted-in online run cached are used."""
    terms = [term for term, _ in TfidfCorpus(paper_text, graph_texts).top_terms()]
    queries = [search_query(text, GAP_SEARCH_PER_QUERY) for text in search_texts(terms, dataset_names)]
    if not openalex.may_request:
        results = cached_results(con, queries, read_paper_searches)
        return _unique_works(results), {"openalex_search": f"not sent (OpenAlex offline); {len(results)} cached answer(s) used"}
    report = search_works(con, queries, client=openalex.client(), asset="paper_citation_gaps", run_id=context.run.run_id,
                          now=datetime.now(timezone.utc), daily_list_calls=openalex.daily_list_calls, why_not=papers.online_reason(),
                          cache=PAPER_SEARCHES)
    sent = report.sent
    where = redact(openalex.base_url)
    if sent:
        summary = (f"citation gaps: {len(sent)} OpenAlex search(es) built from the paper's terms and dataset names sent to {where}: "
                   + "; ".join(f"'{text}'" for text in sent) + f" ({report.requests} requests, {report.list_calls} list calls)")
    else:
        failed = [result for result in report.results if result.status == FAILED]
        # hostile pass: with OpenAlex at a closed port this said "every search answered from the cache" (there was none)
        attempted = f"{len(failed)} search(es) failed after {report.requests} request(s) to {where}: {failed[0].reason}" if failed else None
        why = papers.online_reason() or report.budget_spent or attempted or "every search answered from the cache"
        summary = f"citation gaps: no answer from OpenAlex ({why})" if failed else f"citation gaps: nothing of the paper sent to OpenAlex ({why})"
    cached = sum(result.status == CACHED for result in report.results)
    reasons = sorted({result.reason for result in report.results if result.reason})
    row = {column: None for column in declared_columns("paper_llm_use")} | {
        PAPER_KEY: key, "stage": GAPS_SEARCH_STAGE, "sent": bool(sent), "service": f"OpenAlex search ({where})" if sent or cached else None,
        "outcome": "searched" if sent else ("cached" if cached else "not sent"), "requests": report.requests, "cached_answers": cached,
        "prompt_tokens": 0, "completion_tokens": 0, "paragraphs_sent": 0, "paragraphs_offline": 0, "claims_dropped": 0,
        "drop_reasons": [], "removed": [], "reason": "; ".join(reasons) or None, "summary": summary,
    }
    forget_llm_use(con, key, [GAPS_SEARCH_STAGE])
    con.upsert("paper_llm_use", pd.DataFrame([row]))
    context.log.info(summary)
    usable = [result for result in report.results if result.works]
    return _unique_works(usable), {"openalex_search": summary, "openalex_requests": report.requests, "openalex_list_calls": report.list_calls}


DOI_LOOKUP_STAGE = "doi_lookup"


def _openalex_document(context: dg.AssetExecutionContext, con: Tables, key: str, doi: str, openalex: OpenAlexResource):
    """(title, document, source) of a paper given by a DOI the graph lacks, from OpenAlex (`doi_lookup.lookup_doi`);
    its paper_llm_use row (stage doi_lookup) says what was sent where.

    Raises:
        UnreadablePaper: neither the cache nor OpenAlex gives it (one line, `lookup_doi`)."""
    forget_llm_use(con, key, [DOI_LOOKUP_STAGE])
    where = redact(openalex.base_url)
    why_not = "RECON_OPENALEX=offline" if openalex.offline else "OPENALEX_API_KEY is not set"
    found = lookup_doi(con, doi, openalex.client(), run_id=context.run.run_id, now=datetime.now(timezone.utc),
                       daily_list_calls=openalex.daily_list_calls, where=where, offline_reason=why_not)
    title, document = doi_document(
        doi, pd.DataFrame([{"title": found.title, "abstract": found.abstract}]),
        pd.DataFrame(found.references, columns=["doi", "title"]),
    )
    row = {column: None for column in declared_columns("paper_llm_use")} | {
        PAPER_KEY: key, "stage": DOI_LOOKUP_STAGE, "sent": True, "service": f"OpenAlex ({where})",
        "outcome": "looked up", "requests": found.requests, "cached_answers": 0,
        "prompt_tokens": 0, "completion_tokens": 0, "paragraphs_sent": 0, "paragraphs_offline": 0, "claims_dropped": 0,
        "drop_reasons": [], "removed": [], "summary": found.summary,
    }
    con.upsert("paper_llm_use", pd.DataFrame([row]))
    context.log.info(found.summary)
    return title, document, f"OpenAlex (doi:{doi})"


def _unique_works(results) -> list[dict]:
    return list({work["id"]: work for result in results for work in reversed(result.works)}.values())[::-1]


def _work_text(work: dict) -> str:
    """An OpenAlex work's title and abstract, as the graph's publications are read (`paper_gap_works`)."""
    return ". ".join(part for part in (work.get("title"), rebuild_abstract(work.get("abstract_inverted_index"))) if part)


def _paper_text(con: Tables, key: str) -> str:
    """The paper's title and stored text (`keywords.document_text`)."""
    return document_text(stored_document(con, key), paper_title(con, key))


def _text(value: object) -> str | None:
    """A VARCHAR read back through a data frame: None for NULL (None or NaN)."""
    return value if isinstance(value, str) else None


def _int(value: object) -> int | None:
    return None if value is None or pd.isna(value) else int(value)


def _stage_completed(context: dg.AssetExecutionContext, stage: str) -> bool:
    """The optional `stage`'s latest materialization of this partition completed (`_optional_stage`'s metadata
    stage_failed is 'none'); False when it failed or never ran. Read from the instance, not paper_stage_failures:
    every optional stage keeps that table, so reading it would make this asset depend on the report after it."""
    records = context.instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=dg.AssetKey(stage), asset_partitions=[context.partition_key]), limit=1
    ).records
    if not records or records[0].asset_materialization is None:
        return False
    failed = records[0].asset_materialization.metadata.get("stage_failed")
    return failed is not None and failed.value == "none"


def _replace(con: Tables, table: str, rows: pd.DataFrame, key: str) -> None:
    """Create `table` when missing and replace the paper's rows in it by `rows`, in one transaction."""
    con.create(table)
    con.replace_partitions(table, rows, [key], column=PAPER_KEY)


def _partition_metadata(con: Tables, table: str, key: str, preview: list[str]) -> dict[str, object]:
    return table_metadata(con, table, match={"paper_key": key}, preview_columns=preview)


def _now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)
