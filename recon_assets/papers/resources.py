"""The papers' intake settings as a resource: the folder the sensor watches, the page limit a PDF is held to, and
the papers' own opt-in to send a paper's text to an online service (RECON_PAPERS_ONLINE)."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
from pydantic import Field

from recon_assets.kg.checksum import file_sha256
from recon_assets.papers.intake import folder_pdfs
from recon_assets.papers.parse import DEFAULT_PAGE_LIMIT
from recon_assets.shared.switches import ONLINE, checked_switch

# Why a paper's text stays on this machine when the opt-in is off (the report and paper_llm_use say it).
OPT_IN_OFF = "papers opt-in off (RECON_PAPERS_ONLINE is not 'online'): a paper's text is sent nowhere"


class PaperNotFound(LookupError):
    """No PDF with the partition's SHA-256 is where it was given nor in the papers folder (moved or changed)."""


class PaperIntake(dg.ConfigurableResource):
    """Where papers come in (RECON_PAPERS_DIR; default `papers/` beside the database), the most pages a PDF may
    have (RECON_PAPER_PAGE_LIMIT; default `parse.DEFAULT_PAGE_LIMIT`), and whether a paper's text may be sent to an
    online service (RECON_PAPERS_ONLINE=online; default off). The opt-in is the papers' own, separate from the judges'
    key: an unpublished manuscript's text goes to Groq only when it is set AND the Groq resource is online."""

    folder: str = Field(description="The papers folder the sensor watches: each PDF in it is a paper, keyed by its SHA-256.")
    page_limit: int = Field(default=DEFAULT_PAGE_LIMIT, ge=1, description="The most pages a PDF may have; a longer one fails its partition in one line.")
    send_text_online: bool = Field(
        default=False,
        description="Send a paper's text to Groq (data statements, claims, argumentation) when the Groq resource is online (RECON_PAPERS_ONLINE=online); off: nothing of a paper is sent.",
    )

    def online_reason(self) -> str | None:
        """Why a paper's text may not go out (OPT_IN_OFF), or None when the opt-in is set."""
        return None if self.send_text_online else OPT_IN_OFF

    def pdfs(self) -> dict[str, Path]:
        """{SHA-256: path} of the PDFs in the papers folder (`intake.folder_pdfs`)."""
        return folder_pdfs(Path(self.folder))

    def pdf(self, key: str, given: str | None) -> tuple[Path, bytes]:
        """The path and bytes of the PDF whose SHA-256 is `key`: the file `given` (the run's recon/paper_source tag,
        set by the sensor and `recon paper`) when it still holds those bytes, else the papers folder's file that does.

        Raises:
            PaperNotFound: in one line, naming the folder looked in.
        """
        candidates = [Path(given)] if given else []
        for path in [*candidates, self.pdfs().get(key)]:
            if path is None or not path.is_file():
                continue
            data = path.read_bytes()
            if file_sha256(path) == key:
                return path, data
        raise PaperNotFound(
            f"no PDF with SHA-256 {key} at {given or '(no path given)'} nor in the papers folder {self.folder}: "
            "moved, or changed (a changed file is a new paper)"
        )


def papers_online(setting: str) -> bool:
    """Whether RECON_PAPERS_ONLINE `setting` ('online', 'offline' or '' for unset: off) opts papers in.

    Raises:
        ValueError: another setting, naming the variable.
    """
    return checked_switch("RECON_PAPERS_ONLINE", setting) == ONLINE
