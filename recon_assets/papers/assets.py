"""The `papers` group (issue 22): one dynamic partition per paper (the SHA-256 of its PDF, or `doi:<DOI>`), each
read, matched to the graph's datasets and their lifecycle, its claims extracted, scored and reported.

`paper_documents` and `paper_datasets` are critical: a paper that cannot be read fails its own partition with one line
(`parse.UnreadablePaper`), nothing else. `paper_claims` and `paper_reports` are optional: a failure is recorded in
`paper_stage_failures` and on the partition's materialization (`stage_failed`, `error`), and the rest completes.
"""


from collections.abc import Callable
from datetime import datetime, timezone

import dagster as dg
import pandas as pd

from recon_assets.declarations import ASSET_TABLES
from recon_assets.kg.assets import OWNERS
from recon_assets.papers.claims import extract_claims
from recon_assets.papers.datasets import DatasetCatalogue, detect_datasets
from recon_assets.papers.intake import doi_document, key_doi
from recon_assets.papers.parse import PaperDocument, UnreadablePaper, parse_pdf
from recon_assets.papers.partitions import PAPER_SOURCE_TAG, paper_partitions
from recon_assets.papers.report import paper_sections, write_paper_report
from recon_assets.papers.resources import PaperIntake, PaperNotFound
from recon_assets.papers.scores import paper_scores as compute_paper_scores
from recon_assets.papers.stored import claim_rows, dataset_rows, document_from_rows, document_rows
from recon_assets.shared.credentials import redact
from recon_assets.shared.metadata import table_metadata
from recon_assets.storage.output_files import REPORTS
from recon_assets.storage.duckdb_store import Tables, TableStore
from recon_assets.storage.outputs import OutputFiles

PAPERS = dict(group_name="papers", kinds={"duckdb"}, owners=OWNERS, pool="duckdb", partitions_def=paper_partitions)
PAPER_KEY = "paper_key"
# The paper reports' folder inside the database's reports folder (`OutputFiles.folder(REPORTS)`).
PAPER_REPORTS_FOLDER = "papers"


@dg.asset(**ASSET_TABLES["paper_documents"].asset_arguments(), **PAPERS)
def paper_documents(context: dg.AssetExecutionContext, store: TableStore, papers: PaperIntake) -> dg.MaterializeResult:
    """The paper read into text by section and paragraph with page numbers, its reference list with DOIs and its
    figure and table captions (pypdf, `papers.parse`), held to the page limit (RECON_PAPER_PAGE_LIMIT); a paper given
    by DOI is its title, abstract and cited works from the graph's tables. Critical: an empty, non-PDF, truncated,
    encrypted, image-only or over-long PDF, or a DOI the graph lacks, fails this partition with one line."""
    key = context.partition_key
    doi = key_doi(key)
    with store.connect() as con:
        try:
            if doi:
                title, document = doi_document(
                    doi, con.execute("SELECT title, abstract FROM publications WHERE doi = ? ORDER BY publication_id LIMIT 1", [doi]).df(),
                    con.execute(
                        "SELECT cited.doi, cited.title FROM publications AS paper JOIN publication_citations AS c "
                        "ON c.citing_publication_id = paper.publication_id JOIN publications AS cited "
                        "ON cited.publication_id = c.cited_publication_id WHERE paper.doi = ? ORDER BY cited.doi, cited.title",
                        [doi],
                    ).df(),
                )
                source, page_limit = doi, None
            else:
                path, data = papers.pdf(key, context.run.tags.get(PAPER_SOURCE_TAG))
                title, document, source, page_limit = None, parse_pdf(data, papers.page_limit), str(path), papers.page_limit
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


@dg.asset(**ASSET_TABLES["paper_datasets"].asset_arguments(), **PAPERS)
def paper_datasets(context: dg.AssetExecutionContext, store: TableStore) -> dg.MaterializeResult:
    """Every dataset the paper uses, matched to the graph's Dataset nodes by DOI (text and references) and by short
    name and version (`papers.datasets`), each with its quote, page and section and its lifecycle from
    `dataset_lineage` ("uses TRMM_3B42 V7: replaced by ..."); a dataset the paper names that no node matches is
    listed as unmatched with why, never dropped. Critical."""
    key = context.partition_key
    with store.connect() as con:
        document = _stored_document(con, key)
        catalogue = DatasetCatalogue(con.execute("SELECT dataset_id, short_name, long_name, doi FROM datasets ORDER BY dataset_id").df())
        matches, unmatched = detect_datasets(document, catalogue)
        lineage = con.execute(
            "SELECT dataset_id, superseded, successor_family, successor_version, superseded_since, succession_basis "
            "FROM dataset_lineage WHERE list_contains(?, dataset_id)", [[m.dataset_id for m in matches]],
        ).df()
        frame = dataset_rows(key, matches, unmatched, {row["dataset_id"]: row for row in lineage.to_dict("records")})
        _replace(con, "paper_datasets", frame, key)
        metadata = _partition_metadata(con, "paper_datasets", key, ["matched", "name", "stated_version", "page", "lifecycle", "reason"])
    replaced = int(frame["superseded"].fillna(False).astype(bool).sum())
    context.log.info(f"{len(matches)} datasets matched ({replaced} on a replaced version), {len(unmatched)} unmatched")
    return dg.MaterializeResult(metadata={**metadata, "matched": len(matches), "on_replaced_versions": replaced, "unmatched": len(unmatched)})


@dg.asset(**ASSET_TABLES["paper_claims"].asset_arguments(), **PAPERS)
def paper_claims(context: dg.AssetExecutionContext, store: TableStore) -> dg.MaterializeResult:
    """The paper's claims, each quoted with its section and page, typed METHODOLOGICAL / EMPIRICAL / THEORETICAL /
    COMPARATIVE with a confidence, by the offline deterministic extractor (`papers.claims`, which says it is one;
    novelty 'not assessed'). Online extraction (Groq, only for papers opted in) is not built yet. Optional: a failure
    is recorded in paper_stage_failures and the rest completes."""
    key = context.partition_key

    def extract(con: Tables) -> dict[str, object]:
        frame = claim_rows(key, extract_claims(_stored_document(con, key)))
        _replace(con, "paper_claims", frame, key)
        return {**_partition_metadata(con, "paper_claims", key, ["claim_type", "confidence", "page", "text"]),
                "claims": len(frame), **{f"claims_{kind}": int(n) for kind, n in frame["claim_type"].value_counts().items()}}

    return _optional_stage(context, store, extract, table="paper_claims")


@dg.asset(**ASSET_TABLES["paper_scores"].asset_arguments(), **PAPERS)
def paper_scores(context: dg.AssetExecutionContext, store: TableStore) -> dg.MaterializeResult:
    """The paper's scores (`papers.scores.paper_scores`): CitationEdge's citation, verification, literary and overall
    (0-10) and this project's share of dataset uses on current versions (0-1), each with how it was computed.
    Offline, argumentation needs the LLM, and the citation gaps and claim verdicts are not built yet: those scores are
    'not assessed' (value NULL), never guessed."""
    key = context.partition_key
    with store.connect() as con:
        con.create("paper_datasets", "paper_claims")  # paper_claims is optional: it may never have been written
        superseded = con.execute(
            "SELECT superseded FROM paper_datasets WHERE paper_key = ? AND matched AND superseded IS NOT NULL ORDER BY position", [key]
        ).fetchall()
        confidences = con.execute("SELECT confidence FROM paper_claims WHERE paper_key = ? ORDER BY position", [key]).fetchall()
        scores = compute_paper_scores(None, None, None, [c for (c,) in confidences], None, [bool(s) for (s,) in superseded])
        frame = pd.DataFrame(scores.rows(), columns=["score", "value", "how"])
        frame.insert(0, PAPER_KEY, key)
        frame.insert(3, "assessed", frame["value"].notna())
        _replace(con, "paper_scores", frame, key)
        metadata = _partition_metadata(con, "paper_scores", key, ["score", "value", "how"])
    context.log.info("; ".join(f"{row.score}: {row.how}" for row in frame.itertuples()))
    return dg.MaterializeResult(metadata={
        **metadata, **{f"score_{row.score}": (float(row.value) if row.assessed else "not assessed") for row in frame.itertuples()},
    })


@dg.asset(**ASSET_TABLES["paper_reports"].asset_arguments(), **{**PAPERS, "kinds": {"duckdb", "html", "pdf"}})
def paper_reports(context: dg.AssetExecutionContext, store: TableStore, outputs: OutputFiles) -> dg.MaterializeResult:
    """The paper's report, an HTML page and its PDF in `reports/<database>/papers/paper_<key>.html|pdf`: the datasets
    with their lifecycle (colour-coded), the scores with how each was computed, the claims, the stages that failed
    and what was sent where. Optional: a failure is recorded in paper_stage_failures and the rest completes."""
    key = context.partition_key

    def report(con: Tables) -> dict[str, object]:
        folder = outputs.folder(REPORTS) / PAPER_REPORTS_FOLDER
        document = con.execute("SELECT * FROM paper_documents WHERE paper_key = ?", [key]).df().iloc[0].to_dict()
        con.create("paper_claims")
        sections = paper_sections(
            document,
            con.execute("SELECT * FROM paper_datasets WHERE paper_key = ? ORDER BY position", [key]).df(),
            con.execute("SELECT * FROM paper_claims WHERE paper_key = ? ORDER BY position", [key]).df(),
            con.execute("SELECT * FROM paper_scores WHERE paper_key = ?", [key]).df(),
            # its own failure of an earlier run is not this report's news
            con.execute("SELECT * FROM paper_stage_failures WHERE paper_key = ? AND stage <> 'paper_reports' ORDER BY stage", [key]).df(),
        )
        title = f"Paper analysis: {document['title'] or document['source']}"
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
            line = _one_line(error)
            con.upsert("paper_stage_failures", pd.DataFrame([{PAPER_KEY: key, "stage": stage, "error": line, "failed_at": _now()}]))
            if table is not None:
                con.create(table)
                con.execute(f"DELETE FROM {table} WHERE paper_key = ?", [key])
            context.log.warning(f"{stage} failed for paper {key}: {line}; recorded in paper_stage_failures, the other stages go on")
            return dg.MaterializeResult(metadata={"stage_failed": stage, "error": line})
        con.execute("DELETE FROM paper_stage_failures WHERE paper_key = ? AND stage = ?", [key, stage])
    return dg.MaterializeResult(metadata={**metadata, "stage_failed": "none"})


def _stored_document(con: Tables, key: str) -> PaperDocument:
    """The paper's document as paper_documents and paper_texts hold it."""
    (pages,) = con.execute("SELECT coalesce(pages, 0) FROM paper_documents WHERE paper_key = ?", [key]).fetchone()
    return document_from_rows(con.execute("SELECT * FROM paper_texts WHERE paper_key = ?", [key]).df(), pages)


def _replace(con: Tables, table: str, rows: pd.DataFrame, key: str) -> None:
    """Create `table` when missing and replace the paper's rows in it by `rows`, in one transaction."""
    con.create(table)
    con.replace_partitions(table, rows, [key], column=PAPER_KEY)


def _partition_metadata(con: Tables, table: str, key: str, preview: list[str]) -> dict[str, object]:
    return table_metadata(con, table, where="paper_key = ?", params=[key], preview_columns=preview)


def _one_line(error: BaseException) -> str:
    """'<type>: <first line of its message>', without secrets (`credentials.redact`: a library's error may quote a URL
    with its key)."""
    first = next((line.strip() for line in str(error).splitlines() if line.strip()), "")
    return redact(f"{type(error).__name__}: {first}" if first else type(error).__name__)


def _now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)
