"""A paper's analysis as table rows: the parsed document as `paper_texts` rows and back (the later stages read the
stored text, not the PDF again), the datasets it uses as `paper_datasets` rows, its claims as `paper_claims` rows (and
what the LLM was sent as `paper_llm_use` rows), its keywords, citation gaps and claim verdicts as `paper_keywords`, `paper_citation_gaps` and `claim_verdicts` rows.
Plain values and DataFrames; the tables' DDL is in recon_assets/papers/sql/. The reads the paper stages share are here
too (`stored_document`, `paper_title`, `literature`, ...), each a SQL file of recon_assets/papers/sql/ run through the
table store (`storage.duckdb_store.Tables`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from recon_assets.papers.claims import Claim
from recon_assets.papers.dataset_evidence import DatasetMatch, UnmatchedMention
from recon_assets.papers.lifecycle_lines import lifecycle_statement
from recon_assets.papers.gaps import CitationGap
from recon_assets.papers.keywords import METHOD as KEYWORD_METHOD
from recon_assets.papers.keywords import PaperKeyword
from recon_assets.papers.online import StageUse
from recon_assets.papers.parse import Caption, PaperDocument, Paragraph, Reference, Section
from recon_assets.papers.verdicts import Judged
from recon_assets.storage.tables import Tables

# The partition column of every paper table: the paper's key (`papers.partitions`).
PAPER_KEY = "paper_key"
HEADING, PARAGRAPH, CAPTION, REFERENCE = "heading", "paragraph", "caption", "reference"
TEXT_COLUMNS = ("paper_key", "position", "part", "section", "page", "label", "doi", "text")


def document_rows(key: str, document: PaperDocument) -> pd.DataFrame:
    """The `paper_texts` rows of a parsed paper: its headings, paragraphs, captions and references, each part
    numbered from 1 in reading order (columns TEXT_COLUMNS)."""
    rows = [
        *((HEADING, s.title, s.page, None, None, s.title) for s in document.sections),
        *((PARAGRAPH, p.section, p.page, None, None, p.text) for p in document.paragraphs),
        *((CAPTION, "", c.page, f"{c.kind} {c.label}", None, c.text) for c in document.captions),
        *((REFERENCE, "References", r.page, str(r.number), r.doi, r.text) for r in document.references),
    ]
    frame = pd.DataFrame(rows, columns=["part", "section", "page", "label", "doi", "text"])
    frame.insert(0, "position", frame.groupby("part").cumcount() + 1)
    frame.insert(0, "paper_key", key)
    return frame[list(TEXT_COLUMNS)]


def document_from_rows(rows: pd.DataFrame, pages: int) -> PaperDocument:
    """The PaperDocument `document_rows` stored (rows of one paper, any order), with `pages` pages.

    Raises:
        ValueError: a caption's label is not '<figure|table> <label>'.
    """
    def part(name: str) -> pd.DataFrame:
        return rows[rows["part"] == name].sort_values("position")

    captions = []
    for row in part(CAPTION).itertuples(index=False):
        kind, _, label = row.label.partition(" ")
        if kind not in ("figure", "table") or not label:
            raise ValueError(f"paper_texts caption label {row.label!r} is not '<figure|table> <label>'")
        captions.append(Caption(kind, label, row.text, int(row.page)))
    return PaperDocument(
        pages,
        tuple(Section(row.text, int(row.page)) for row in part(HEADING).itertuples(index=False)),
        tuple(Paragraph(row.section, int(row.page), row.text) for row in part(PARAGRAPH).itertuples(index=False)),
        tuple(
            Reference(int(row.label), row.text, row.doi if isinstance(row.doi, str) else None, int(row.page))
            for row in part(REFERENCE).itertuples(index=False)
        ),
        tuple(captions),
    )


def dataset_rows(
    key: str, matches: Sequence[DatasetMatch], unmatched: Sequence[UnmatchedMention], lineage: Mapping[str, dict]
) -> pd.DataFrame:
    """The `paper_datasets` rows: the matched datasets, each with its `dataset_lineage` flag and lifecycle line
    (`lifecycle_lines.lifecycle_statement`), then the unmatched mentions with why (a graph family's version the graph lacks
    with that version's flag and line, `UnmatchedMention.superseded` and `.lifecycle`), numbered from 1.

    Args:
        lineage: {dataset_id: its dataset_lineage row as a mapping} for (at least) the matched datasets; a dataset
            without a row gets superseded NULL and "lifecycle unknown".
    """
    rows = [
        {
            "matched": True, "dataset_id": m.dataset_id, "name": m.family, "version": m.version, "stated_version": m.stated_version,
            "found_by": m.found_by, "reason": None, "quote": m.quote, "page": m.page, "section": m.section,
            "superseded": _superseded(lineage.get(m.dataset_id)),
            "lifecycle": lifecycle_statement(m, lineage.get(m.dataset_id) or {}),
        }
        for m in matches
    ] + [
        {
            "matched": False, "dataset_id": None, "name": u.name, "version": None, "stated_version": u.stated_version,
            "found_by": u.found_by, "reason": u.reason, "quote": u.quote, "page": u.page, "section": u.section or None, "superseded": u.superseded,
            "lifecycle": u.lifecycle,
        }
        for u in unmatched
    ]
    frame = pd.DataFrame(rows, columns=[
        "matched", "dataset_id", "name", "version", "stated_version", "found_by", "reason", "quote", "page", "section",
        "superseded", "lifecycle",
    ])
    frame.insert(0, "position", range(1, len(frame) + 1))
    frame.insert(0, "paper_key", key)
    return frame


def _superseded(lineage: Mapping[str, object] | None) -> bool | None:
    return bool(lineage["superseded"]) if lineage else None


def claim_rows(key: str, claims: Sequence[Claim]) -> pd.DataFrame:
    """The `paper_claims` rows of a paper's claims, numbered from 1 in reading order."""
    frame = pd.DataFrame(
        [(c.text, c.section, c.page, c.claim_type, c.confidence, list(c.results), c.novelty, c.extractor) for c in claims],
        columns=["text", "section", "page", "claim_type", "confidence", "results", "novelty", "extractor"],
    )
    frame.insert(0, "position", range(1, len(frame) + 1))
    frame.insert(0, "paper_key", key)
    return frame


def llm_use_rows(key: str, uses: Sequence[StageUse]) -> pd.DataFrame:
    """The `paper_llm_use` rows: one per stage (claims, argumentation), what it sent where (`online.StageUse.row`)."""
    frame = pd.DataFrame([use.row() for use in uses])
    frame.insert(0, "paper_key", key)
    return frame


def keyword_rows(key: str, keywords: Sequence[PaperKeyword]) -> pd.DataFrame:
    """The `paper_keywords` rows of a paper's top terms, ranked from 1, each with the GCMD keyword it fits (NULLs when
    none does) and the method (`keywords.METHOD`)."""
    frame = pd.DataFrame(
        [(k.term, k.weight, k.keyword and k.keyword.keyword_id, k.keyword and k.keyword.name, k.match) for k in keywords],
        columns=["term", "weight", "keyword_id", "keyword_name", "match"],
    )
    frame.insert(0, "rank", range(1, len(frame) + 1))
    frame.insert(0, "paper_key", key)
    frame["method"] = KEYWORD_METHOD
    return frame


def gap_rows(key: str, gaps: Sequence[CitationGap]) -> pd.DataFrame:
    """The `paper_citation_gaps` rows of a paper's gaps (`gaps.citation_gaps`, in its order), numbered from 1."""
    frame = pd.DataFrame(
        [(g.severity, g.key, g.doi, g.title, g.year, list(g.rules), g.why, g.similarity, g.citations) for g in gaps],
        columns=["severity", "work_key", "doi", "title", "year", "rules", "why", "similarity", "citations"],
    ).astype({"year": "Int64", "citations": "Int64"})
    frame.insert(0, "position", range(1, len(frame) + 1))
    frame.insert(0, "paper_key", key)
    return frame


def verdict_rows(key: str, judged: Sequence[tuple[int, Judged, Sequence[tuple[str, str]]]]) -> pd.DataFrame:
    """The `claim_verdicts` rows: one per (claim position, its verdict, its flags as (flag, reason) pairs)."""
    frame = pd.DataFrame(
        [
            (position, j.verdict, j.evidence, j.publication_id, j.doi, j.similarity, j.works_read, j.why, j.judge,
             [flag for flag, _ in flags], [reason for _, reason in flags])
            for position, j, flags in judged
        ],
        columns=["position", "verdict", "evidence", "evidence_key", "evidence_doi", "similarity", "works_read", "why", "judge", "flags", "flag_reasons"],
    )
    frame.insert(0, "paper_key", key)
    return frame


def stored_document(con: Tables, key: str) -> PaperDocument:
    """The paper's document as paper_documents and paper_texts hold it (`document_from_rows`)."""
    (pages,) = con.query_row("paper_pages", [key])
    return document_from_rows(con.partition_rows("paper_texts", key, PAPER_KEY), pages)


def paper_title(con: Tables, key: str) -> str | None:
    """The title paper_documents holds for the paper (None when none was found)."""
    (title,) = con.query_row("paper_title", [key])
    return title


def literature(con: Tables, doi: str | None) -> pd.DataFrame:
    """The graph's publications a paper is read against, one row each (publication_id, doi, title, year, text:
    title + abstract as the offline judge reads them), leaving out the paper itself when it was given by DOI `doi`."""
    return con.query("paper_literature", [doi])


def work_texts(con: Tables, publication_ids: Sequence[str]) -> tuple[dict, dict, dict]:
    """({id: title}, {id: abstract}, {id: year or None}) of the graph's publications `publication_ids`."""
    found = con.query_rows("paper_work_texts", [list(publication_ids)])
    return ({i: t for i, t, _, _ in found}, {i: a for i, _, a, _ in found}, {i: (int(y) if y is not None else None) for i, _, _, y in found})


def dataset_text(con: Tables, key: str) -> str | None:
    """What the pair judge reads as d for a paper's claims: the datasets it uses, as named with their versions
    ('; '-joined; None when it names none)."""
    return "; ".join(name for (name,) in con.query_rows("paper_dataset_text", [key])) or None


def forget_llm_use(con: Tables, key: str, stages: Sequence[str]) -> None:
    """Remove the paper's paper_llm_use rows of `stages` (created when missing): no earlier run's row passes for this
    one's, and another stage's row stays."""
    con.create("paper_llm_use")
    con.run_sql("paper_llm_use_delete", [key, list(stages)])
