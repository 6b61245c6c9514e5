"""What paper dataset detection finds (`datasets.detect_datasets`): a Dataset node the paper uses (`DatasetMatch`) or a
dataset it names that no node matches (`UnmatchedMention`), each with how it was found, its quote and its page."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from recon_assets.papers.phrases import Sentences
from recon_assets.shared.excerpt import excerpt

DOI_IN_TEXT, DOI_IN_REFERENCES, NAME_AND_VERSION = "DOI in text", "DOI in references", "short name and version"
# How an unmatched mention was found when no version is stated with the name ("named without a version").
NAME_WITHOUT_VERSION = "short name without a version"
# The KG's own link of a publication to a dataset it uses: (:Publication)-[:USES_DATASET]->(:Dataset).
GRAPH_LINK = "the graph's USES_DATASET relationship"
# How a match found both in the text and by the graph's link says so: "DOI in references; the graph's ...".
SOURCE_SEPARATOR = "; "
QUOTE_LIMIT = 400


@dataclass(frozen=True)
class DatasetMatch:
    """A Dataset node the paper uses: dataset_id, its family and version as the graph has them, how it was found
    (DOI_IN_TEXT, DOI_IN_REFERENCES or NAME_AND_VERSION), the version as the paper states it (None when found by
    DOI), the quoted sentence (at most QUOTE_LIMIT characters), the 1-based page and the section heading it is
    under ('References' or 'caption' for those)."""

    dataset_id: str
    family: str
    version: str | None
    found_by: str
    stated_version: str | None
    quote: str
    page: int
    section: str = ""


@dataclass(frozen=True)
class UnmatchedMention:
    """A dataset the paper names that no Dataset node matches: the name (or DOI), the stated version, why it did
    not match, the quote, the page, and the graph family or product line (an alias of `dataset_aliases`) when the
    name is one of the graph's (a version the graph lacks, several candidates, or no version stated), else None.

    superseded and lifecycle: for a graph family stated with a version the graph lacks, that version's lifecycle
    by the lifecycle's own rules (`stated_lifecycle.stated_version_lineage`: replaced when a later version of the
    family is in the graph, unless a curated line makes them parallel streams) and its one line
    (`lifecycle_statement`); None otherwise.

    found_by and section: how it was found, as a match's (DOI_IN_TEXT, DOI_IN_REFERENCES, NAME_AND_VERSION, or
    NAME_WITHOUT_VERSION), and the heading its quote is under ('References', 'caption'; '' before the first)."""

    name: str
    stated_version: str | None
    reason: str
    quote: str
    page: int
    family: str | None = None
    superseded: bool | None = None
    lifecycle: str | None = None
    found_by: str = NAME_AND_VERSION
    section: str = ""


def sentence_quote(sentences: Sentences, start: int, end: int) -> str:
    """The sentence around text[start:end] (`sentences`: the text's, read once), cut to QUOTE_LIMIT characters around the
    mention at word boundaries, an ellipsis marking each cut end (`excerpt`)."""
    text, bounds = sentences.text, sentences.bounds
    left = bounds[bisect_right(bounds, start) - 1]
    right = bounds[min(bisect_left(bounds, end), len(bounds) - 1)]
    return excerpt(text[left:right], start - left, end - left, QUOTE_LIMIT)


ELISION = " [...] "


def joined_quote(sentences: Sentences, first: tuple[int, int], second: tuple[int, int]) -> str:
    """The sentences of two spans of one text (`sentences`: its, read once; a collection statement and a product it
    lends its version to), joined by ELISION when they differ, each cut at word boundaries (`excerpt`) so the whole is
    at most QUOTE_LIMIT characters."""
    one, two = sentence_quote(sentences, *first), sentence_quote(sentences, *second)
    if one == two:
        return one
    joined = f"{one}{ELISION}{two}"
    if len(joined) <= QUOTE_LIMIT:
        return joined
    half = (QUOTE_LIMIT - len(ELISION)) // 2
    # the first sentence keeps its opening (the statement), the second its part around the product
    one_cut = one if len(one) <= half else excerpt(one, 0, 0, half)
    left = QUOTE_LIMIT - len(ELISION) - len(one_cut)
    two_cut = two if len(two) <= left else excerpt(two, len(two), len(two), left)
    return f"{one_cut}{ELISION}{two_cut}"
