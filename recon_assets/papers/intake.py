"""How a paper comes in: its partition key (the SHA-256 of its PDF's bytes, or `doi:<canonical DOI>`), the PDFs of the
papers folder by key, and a paper given by DOI read from the graph's own tables. No Dagster import: the sensor, the
assets and `recon paper` share it.

A renamed file keeps its key (the bytes are the same); a changed file is a new key, so a new paper.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pandas as pd

from recon_assets.kg.checksum import file_sha256
from recon_assets.kg.doi import canonical_doi
from recon_assets.papers.parse import PaperDocument, Paragraph, Reference, Section, UnreadablePaper

DOI_KEY_PREFIX = "doi:"
# The default papers folder's name, beside the database (`default_papers_folder`).
PAPERS_FOLDER_NAME = "papers"
PDF_SUFFIX = ".pdf"


def pdf_key(data: bytes) -> str:
    """A PDF's partition key: the SHA-256 of its bytes, 64 lowercase hex characters (FIPS 180-4)."""
    return hashlib.sha256(data).hexdigest()


def doi_key(text: str) -> str | None:
    """`doi:<canonical DOI>` (`kg.doi.canonical_doi`) for a DOI in any spelling, None when `text` is not a DOI."""
    doi = canonical_doi(text)
    return f"{DOI_KEY_PREFIX}{doi}" if doi else None


def key_doi(key: str) -> str | None:
    """The canonical DOI of a `doi:` key, None for a PDF's key."""
    return key.removeprefix(DOI_KEY_PREFIX) if key.startswith(DOI_KEY_PREFIX) else None


def default_papers_folder(anchor: Path) -> Path:
    """`papers/` beside `anchor`, the path the database's outputs are named after (`duckdb_settings.output_anchor`:
    the DuckDB file itself, or data/md_<name> for a MotherDuck database)."""
    return Path(anchor).parent / PAPERS_FOLDER_NAME


def folder_pdfs(folder: Path) -> dict[str, Path]:
    """{key: path} of the `*.pdf` files directly in `folder` (case-insensitive suffix), each hashed; when two files
    hold the same bytes the first by name keeps the key. A missing folder gives {}; a file that cannot be read now
    (removed or still being written) is passed over: the next look sees it."""
    found: dict[str, Path] = {}
    if not folder.is_dir():
        return found
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() != PDF_SUFFIX or not path.is_file():
            continue
        try:
            found.setdefault(file_sha256(path), path)
        except OSError:
            continue
    return found


def doi_document(doi: str, publications: pd.DataFrame, cited: pd.DataFrame) -> tuple[str | None, PaperDocument]:
    """A paper given by DOI, from the graph (or OpenAlex's record of it): its title, and a document whose one paragraph
    is its abstract (under 'Abstract', page 1) and whose references are the works it cites.

    Args:
        doi: canonical DOI.
        publications: the `publications` rows with this DOI (columns title, abstract); the first is used.
        cited: the works it cites (columns doi, title; doi None when unknown), in the order to list them.

    Returns:
        (title, document); the document has 0 pages (nothing was printed).

    Raises:
        UnreadablePaper: `publications` is empty, or the paper has neither an abstract nor a reference to read (one
            line). A DOI the graph lacks is read from OpenAlex instead (`papers.doi_lookup`), then given here as rows.
    """
    if publications.empty:
        raise UnreadablePaper(f"DOI {doi} is no publication of the graph")
    row = publications.iloc[0]
    title = row["title"] if isinstance(row["title"], str) else None
    abstract = row["abstract"] if isinstance(row["abstract"], str) and row["abstract"].strip() else None
    if abstract is None and cited.empty:
        raise UnreadablePaper(f"DOI {doi}: the graph holds neither its abstract nor a work it cites; nothing to analyse")
    paragraphs = (Paragraph("Abstract", 1, abstract),) if abstract else ()
    references = tuple(
        Reference(number, " ".join(part for part in (reference.title, reference.doi) if isinstance(part, str)), canonical_doi(reference.doi), 1)
        for number, reference in enumerate(cited.itertuples(index=False), start=1)
    )
    sections = (Section("Abstract", 1),) * bool(abstract) + (Section("References", 1),) * bool(references)
    return title, PaperDocument(0, sections, paragraphs, references, ())
