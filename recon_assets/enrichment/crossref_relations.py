"""Crossref relation entries that can record a dispute or a correction of a KG publication, as Crossref gives them.

Two kinds of entry, both kept as found (reading them is `judgement.disputes.disputes_from_crossref`):
- `relation` entries of the publication's Crossref record (`crossref.CrossrefClient.records`) of the comment and
  reply kinds (`is-comment-on`, `has-comment`, `is-reply-to`, `has-reply`) and the peer-review kinds
  (`is-review-of`, `has-review`, kept so that a referee report is seen and set aside, not missed); Crossref's
  relation types as its schema names them (REST API `relation` object, from the deposit schema's
  `inter_work_relation` relationship types isCommentOn, hasComment, isReplyTo, hasReply, isReviewOf, hasReview);
- `updated-by` entries: the update notices pointing at the publication (`crossref.update_notices`, from the
  `updates:` check crossref_retractions makes: no request of its own), with Crossref's update type.

A comment or reply names another work; its record is asked for too (`collect_records`), for its year (a past
as_of must not see it), type, title and its own relations, up to RELATION_HOPS works away from the KG publication:
a reply to a comment on the publication is two away. Relations out of an open peer-review discussion
(`open_discussion`: a Copernicus discussion preprint's author and referee comments) are kept but not followed.
Other relation types (`is-preprint-of`, `references`, `has-translation`, ...) are counted, not stored.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pandas as pd

from recon_assets.enrichment.crossref import ERROR, FOUND, NOT_FOUND, RecordReport
from recon_assets.kg.doi import canonical_doi
from recon_assets.shared.table_docs import declared_columns

COMMENT_RELATIONS = ("is-comment-on", "has-comment")
REPLY_RELATIONS = ("is-reply-to", "has-reply")
REVIEW_RELATIONS = ("is-review-of", "has-review")
STORED_RELATIONS = (*COMMENT_RELATIONS, *REPLY_RELATIONS, *REVIEW_RELATIONS)
FOLLOWED_RELATIONS = (*COMMENT_RELATIONS, *REPLY_RELATIONS)
UPDATED_BY = "updated-by"
# Works away from the KG publication whose records are asked for: a comment on it (1), a reply to that comment (2).
RELATION_HOPS = 2
RELATION_COLUMNS = declared_columns("crossref_relations")
# Crossref types of the works of an open peer-review discussion: a preprint under discussion and the reports on it.
DISCUSSION_TYPES = ("posted-content", "peer-review")
# A Copernicus interactive-discussion item: an author (AC), referee (RC), community (CC), editor (EC) or short (SC)
# comment on a discussion paper, e.g. 10.5194/acp-2021-781-AC1 (fixtures/crossref/SOURCES.md).
COPERNICUS_DISCUSSION_ITEM = re.compile(r"^10\.5194/[a-z]+-\d{4}-\d+-(?:ac|rc|cc|ec|sc)\d+$")


def open_discussion(*works: tuple[str | None, str | None]) -> bool:
    """Whether a relation between `works` ((DOI, Crossref type) pairs, either unknown) belongs to an open
    peer-review discussion rather than the published record: one of them is a preprint or a review report
    (DISCUSSION_TYPES), or a Copernicus discussion item (COPERNICUS_DISCUSSION_ITEM). Copernicus discussion
    preprints list their authors' replies to referees as `has-comment` and the referee reports as `has-review`
    (10.5194/cp-2020-95, 10.5194/acp-2021-781): neither is a published comment on a paper."""
    return any(
        kind in DISCUSSION_TYPES or (isinstance(doi, str) and COPERNICUS_DISCUSSION_ITEM.match(doi) is not None)
        for doi, kind in works
    )


def relation_entries(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The stored entries (STORED_RELATIONS) of a record's `relation` object, one per (relation, other id):
    relation, other_id (the canonical DOI for id-type doi, else the id as given), other_id_type, asserted_by.
    An entry without an id is left out (Crossref's schema requires one)."""
    entries: dict[tuple[str, str], dict[str, Any]] = {}
    for relation, related in (record.get("relation") or {}).items():
        if relation not in STORED_RELATIONS:
            continue
        for entry in related if isinstance(related, list) else [related]:
            if not isinstance(entry, Mapping) or not isinstance(entry.get("id"), str):
                continue
            id_type = entry.get("id-type") or "doi"
            other = canonical_doi(entry["id"]) if id_type == "doi" else entry["id"]
            if other is None:
                other, id_type = entry["id"], "not a DOI"
            entries.setdefault((relation, other), {
                "relation": relation, "other_id": other, "other_id_type": id_type, "asserted_by": entry.get("asserted-by"),
            })
    return list(entries.values())


def other_relation_counts(records: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """{relation type: entries} of the relation types not stored (is-preprint-of, references, ...), for the
    asset's metadata: what was read and left out."""
    counts: dict[str, int] = {}
    for record in records:
        for relation, related in (record.get("relation") or {}).items():
            if relation not in STORED_RELATIONS:
                counts[relation] = counts.get(relation, 0) + (len(related) if isinstance(related, list) else 1)
    return dict(sorted(counts.items()))


def followed_dois(record: Mapping[str, Any], records: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The DOIs a record's comment and reply entries name (FOLLOWED_RELATIONS, id-type doi), except relations of
    an open peer-review discussion (`open_discussion`, judged on what is known of both works)."""
    followed = []
    for entry in relation_entries(record):
        if entry["relation"] not in FOLLOWED_RELATIONS or entry["other_id_type"] != "doi":
            continue
        other = records.get(entry["other_id"]) or {}
        if not open_discussion((record.get("DOI"), record.get("type")), (entry["other_id"], other.get("type"))):
            followed.append(entry["other_id"])
    return followed


def collect_records(
    dois: Iterable[str], ask: Callable[[list[str]], Mapping[str, Mapping[str, Any]]], *, hops: int = RELATION_HOPS
) -> dict[str, dict[str, Any]]:
    """The Crossref records of `dois` and of the works their comment and reply relations name, `hops` works away.

    Args:
        dois: the KG publications' canonical DOIs.
        ask: answers a list of DOIs with {doi: record} for those it has a record of (asked once per round: the
            asset's fetch-and-cache, or the cache alone offline).
        hops: rounds after the first.

    Returns:
        {doi: record} of every DOI answered.
    """
    records: dict[str, dict[str, Any]] = {}
    asked: set[str] = set()
    frontier = list(dict.fromkeys(dois))
    for _ in range(hops + 1):
        if not frontier:
            break
        asked.update(frontier)
        answered = {doi: dict(record) for doi, record in ask(frontier).items()}
        records.update(answered)
        frontier = list(dict.fromkeys(
            other for record in answered.values() for other in followed_dois(record, records) if other not in asked
        ))
    return records


def relation_rows(
    requested: pd.DataFrame, records: Mapping[str, Mapping[str, Any]], checked_at: Mapping[str, object], updates: pd.DataFrame,
    *, hops: int = RELATION_HOPS,
) -> pd.DataFrame:
    """crossref_relations rows of the requested (research_area, doi) pairs.

    For each pair: the stored entries of the DOI's record and of the records reachable from it through followed
    relations (`followed_dois`, up to `hops` works away), each with both sides' type, title and year when their
    records are known; and one `updated-by` row per update notice pointing at the DOI.

    Args:
        requested: columns research_area, doi (canonical).
        records: {doi: record} (`crossref.crossref_record`: DOI, type, title, year, relation).
        checked_at: {doi: when its record was last answered}.
        updates: crossref_cache rows: doi, updates (JSON list of {notice_doi, update_type, year, title}, or NULL
            for a check made before update types were kept), checked_at.

    Returns:
        DataFrame with RELATION_COLUMNS, one row per (research_area, doi, record_doi, relation, update_type, other_id).
    """
    notices = {
        row.doi: (json.loads(row.updates), row.checked_at) for row in updates.itertuples(index=False) if isinstance(row.updates, str)
    }
    rows = []
    for area, doi in zip(requested["research_area"], requested["doi"]):
        for record_doi, record in _reachable(doi, records, hops):
            for entry in relation_entries(record):
                other = records.get(entry["other_id"], {}) if entry["other_id_type"] == "doi" else {}
                rows.append((
                    area, doi, record_doi, record.get("type"), record.get("title"), record.get("year"), entry["relation"],
                    None, entry["other_id"], entry["other_id_type"], entry["asserted_by"], other.get("type"), other.get("title"),
                    other.get("year"), checked_at.get(record_doi),
                ))
        own = records.get(doi, {})
        found, when = notices.get(doi, ([], None))
        for notice in found:
            rows.append((
                area, doi, doi, own.get("type"), own.get("title"), own.get("year"), UPDATED_BY, notice["update_type"],
                notice["notice_doi"], "doi", None, None, notice.get("title"), notice.get("year"), when,
            ))
    frame = pd.DataFrame(rows, columns=list(RELATION_COLUMNS))
    frame = frame.drop_duplicates(["research_area", "doi", "record_doi", "relation", "update_type", "other_id"], ignore_index=True)
    return frame.assign(
        record_year=frame["record_year"].astype("Int64"), other_year=frame["other_year"].astype("Int64"),
        checked_at=pd.to_datetime(frame["checked_at"], utc=True),
    )


def fetch_summary(
    dois: Iterable[str], reports: Iterable[RecordReport], records: Mapping[str, Mapping[str, Any]], rows: pd.DataFrame
) -> tuple[dict[str, object], str | None]:
    """What a crossref_relations run asked and holds, for its metadata: http_requests, kg_dois, kg_dois_this_run
    ({found, not_found, error}: this run's answers for the KG DOIs; all error offline), kg_dois_with_a_record (this
    run's or an earlier one's), related_works_asked / related_works_with_a_record, entries_per_relation, and
    other_relation_entries_not_stored (`other_relation_counts` of the KG records); and one error text (or None)."""
    kg = set(dois)
    reports = list(reports)
    answers = {check.doi: check for report in reports for check in report.results}
    this_run = {status: 0 for status in (FOUND, NOT_FOUND, ERROR)}
    for doi in kg:
        this_run[answers[doi].status if doi in answers else ERROR] += 1
    held = kg & set(records)
    summary = {
        "http_requests": sum(report.requests for report in reports),
        "kg_dois": len(kg),
        "kg_dois_this_run": this_run,
        "kg_dois_with_a_record": len(held),
        "related_works_asked": len(set(answers) - kg),
        "related_works_with_a_record": len(set(records) - kg),
        "entries_per_relation": {relation: int(count) for relation, count in rows["relation"].value_counts().sort_index().items()},
        "other_relation_entries_not_stored": other_relation_counts(records[doi] for doi in held),
    }
    return summary, next((check.error for check in answers.values() if check.error), None)


def _reachable(doi: str, records: Mapping[str, Mapping[str, Any]], hops: int) -> list[tuple[str, Mapping[str, Any]]]:
    """(DOI, record) of `doi` and of the works reachable from it through followed relations, `hops` away at most."""
    if doi not in records:
        return []
    seen, frontier = {doi}, [doi]
    found = [(doi, records[doi])]
    for _ in range(hops):
        following = []
        for current in frontier:
            for other in followed_dois(records[current], records):
                if other in records and other not in seen:
                    seen.add(other)
                    following.append(other)
        found += [(other, records[other]) for other in following]
        frontier = following
    return found
