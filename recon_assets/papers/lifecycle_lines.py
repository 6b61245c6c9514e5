"""The lines a paper's datasets carry beyond the text's evidence: each used dataset's lifecycle in one line
(`lifecycle_statement`, the authority in words: `authority_words`), the lifecycle of a graph family's version the
graph lacks (`with_lifecycle`, by `stated_lifecycle`), and, for a paper given by DOI that the graph holds, the Dataset
nodes the graph links its publication to by USES_DATASET (`with_graph_links`), found by "the graph's USES_DATASET
relationship" beside any text evidence."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from recon_assets.lifecycle.lineage import CMR_COLLECTION_PROGRESS, CURATED, INFERRED, since_text
from recon_assets.papers.dataset_catalogue import DatasetCatalogue
from recon_assets.papers.dataset_evidence import GRAPH_LINK, NAME_AND_VERSION, QUOTE_LIMIT, SOURCE_SEPARATOR, DatasetMatch, UnmatchedMention
from recon_assets.papers.phrases import stated_sort_key


def with_lifecycle(mention: UnmatchedMention, catalogue: DatasetCatalogue) -> UnmatchedMention:
    """A graph family's version the graph lacks, with its lifecycle (`DatasetCatalogue.stated_lineage`); a version no
    record attests (`stated_lifecycle`: known False, superseded None) keeps its status unknown (superseded None) with
    the lineage's statement ("version not known to the catalogue; the family's current version is <V>")."""
    if mention.family not in catalogue.by_family or mention.stated_version is None or not stated_sort_key(mention.stated_version):
        return mention
    lineage = catalogue.stated_lineage(mention.family, mention.stated_version)
    if lineage.get("known") is False and lineage["superseded"] is None:
        line = f"uses {mention.family} {mention.stated_version} (a version the graph lacks): {lineage['statement']}"
        return replace(mention, superseded=None, lifecycle=line)
    used = DatasetMatch("", mention.family, f"{mention.stated_version} (a version the graph lacks)", NAME_AND_VERSION, mention.stated_version, mention.quote, mention.page)
    return replace(mention, superseded=bool(lineage["superseded"]), lifecycle=lifecycle_statement(used, lineage))


def with_graph_links(
    matches: Sequence[DatasetMatch], unmatched: Sequence[UnmatchedMention], linked: Mapping[str, Sequence[str]], catalogue: DatasetCatalogue,
) -> tuple[list[DatasetMatch], list[UnmatchedMention]]:
    """The datasets of a paper given by DOI: those its text names (`detect_datasets`) and those the graph links its
    publication to by USES_DATASET, one match per dataset_id.

    Args:
        matches, unmatched: `detect_datasets`' result for the paper's text.
        linked: {dataset_id: its USES_DATASET relationship ids} of the paper's publication (`dataset_publication_edges`),
            in the order to list the ones the text lacks.
        catalogue: the graph's Dataset nodes (family and version of each linked dataset).

    Returns:
        (matches, unmatched). matches: the text's, in their order, a linked one's found_by extended with
        SOURCE_SEPARATOR + GRAPH_LINK (both sources kept, its quote and page those of the text); then each linked
        dataset the text does not name, found_by GRAPH_LINK, stated_version None, page 1 and a quote naming the
        relationship ids (section 'knowledge graph'). A dataset_id absent from the catalogue is named by its id, without
        version. unmatched: the text's, less the mentions "named without a version" of a linked dataset's family or
        of a product line (alias) it belongs to (the graph says which version). Never raises.
    """
    merged = [replace(m, found_by=f"{m.found_by}{SOURCE_SEPARATOR}{GRAPH_LINK}") if m.dataset_id in linked else m for m in matches]
    named = {m.dataset_id for m in matches}
    for dataset_id, relationships in linked.items():
        if dataset_id in named:
            continue
        known = catalogue.by_id.get(dataset_id)
        quote = f"The graph links this publication to {dataset_id} by USES_DATASET (relationship {', '.join(map(str, relationships)) or 'id unknown'})."
        merged.append(DatasetMatch(
            dataset_id, known.family if known and known.family else dataset_id, known.version if known else None, GRAPH_LINK, None,
            quote[:QUOTE_LIMIT], 1, "knowledge graph",
        ))
    families = {known.family for dataset_id in linked if (known := catalogue.by_id.get(dataset_id)) and known.family}
    covered = families | {name for name, members in catalogue.members.items() if families & set(members)}
    kept = [u for u in unmatched if not (u.stated_version is None and u.family is not None and u.family in covered)]
    return merged, kept


def lifecycle_statement(match: DatasetMatch, lineage: dict) -> str:
    """One line on a used dataset's lifecycle, e.g. "uses TRMM_3B42 V7: replaced by GPM_3IMERGHH (now V07) (since 2019,
    on the authority of curated)", a successor line named with its version now (the date is the line's), or "uses
    MYD11A1 5: replaced by MYD11A1 V006 (...)" within a family, "replaced by MYD11A1 V006 (now V061) (...)" when the
    lineage gives the line's current version and the successor is no longer it, or "uses MOD13Q1 061: current"; the
    authority in words (`authority_words`): an
    inferred succession says it is inferred from the version order, no notice recorded (DOMAIN.md "Dataset
    lifecycle"); a date known only by its first record says so ("on an unknown date, on record by 2021-02-04").

    Args:
        match: the dataset the paper uses.
        lineage: its `dataset_lineage` row as a mapping (superseded, successor_family, successor_version,
            superseded_since, succession_basis, and optionally current_version: the version that ends the
            successor's chain in its family, as `stated_lifecycle.stated_version_lineage` gives it); None or {} when
            the lineage has no row for it.
    """
    used = f"uses {match.family} {match.version or '(no version)'}"
    if not lineage:
        return f"{used}: lifecycle unknown (no dataset_lineage row)"
    if not lineage.get("superseded"):
        return f"{used}: current"
    family, version, current = lineage.get("successor_family"), lineage.get("successor_version"), lineage.get("current_version")
    across = family and version and family != match.family  # new-user pass: "GPM_3IMERGHH V07 (since 2019" read as V07's date
    successor = f"{family} (now {version})" if across else " ".join(str(part) for part in (family, version) if part)
    if not across and family and version and current and current != version:
        # hostile pass: "replaced by MYD11A1 V006" while V006 was replaced by V061 left the current version unsaid
        successor = f"{successor} (now {current})"
    since = lineage.get("superseded_since")
    when = since_text(since).strip() if isinstance(since, str) and since else "since date unknown"
    return f"{used}: replaced by {successor or 'a successor'} ({when}, {authority_words(lineage.get('succession_basis'))})"


# dataset_lineage.succession_basis in words (DOMAIN.md "Dataset lifecycle": the archive's own record, a curated list
# with sources, or a succession inferred from version ordering, marked as inferred).
AUTHORITY_WORDS = {
    CMR_COLLECTION_PROGRESS: "on the authority of CMR's CollectionProgress",
    CURATED: "on the authority of curated",
    INFERRED: "inferred from the version order, no notice recorded",
}


def authority_words(basis: object) -> str:
    """The succession basis as the lifecycle line says it (AUTHORITY_WORDS); an unknown basis as "on the authority of
    <basis>", none as "authority not recorded"."""
    if not isinstance(basis, str) or not basis:
        return "authority not recorded"
    return AUTHORITY_WORDS.get(basis, f"on the authority of {basis}")
