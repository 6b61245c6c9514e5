"""Crossref relation entries: which are kept, which are followed to the related work's record, and the
crossref_relations rows built from the caches. Records from fixtures/crossref (PROVENANCE.md: the Copernicus
preprints and Crossref's test records are real, the comment chain is constructed)."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pandas as pd
import pytest

from recon_assets.enrichment.crossref import crossref_record
from recon_assets.enrichment.crossref_relations import (
    RELATION_COLUMNS,
    collect_records,
    followed_dois,
    open_discussion,
    other_relation_counts,
    relation_entries,
    relation_rows,
)

from recon_assets_tests.fake_crossref import fixture_works


def records_of(*names: str) -> dict[str, dict]:
    """{doi: record} of fixture works, as `crossref_record` keeps them."""
    return {record["DOI"]: record for name in names for record in map(crossref_record, fixture_works(name))}


COPERNICUS = records_of("records/10.5194_cp-2020-95.json", "records/10.5194_acp-2021-781.json")
TEST_ACCOUNTS = records_of("crossref_test_accounts_work_list.json")
CONSTRUCTED = records_of("constructed_comment_relations.json")
PAPER, COMMENT, REPLY = "10.2113/gsjfr.48.1.29", "10.5555/recon-constructed-comment-1", "10.5555/recon-constructed-reply-1"
WHEN = datetime(2026, 11, 30, tzinfo=timezone.utc)


def test_a_copernicus_preprints_comments_and_reviews_are_kept_but_not_followed():
    record = COPERNICUS["10.5194/cp-2020-95"]
    assert [(e["relation"], e["other_id"], e["asserted_by"]) for e in relation_entries(record)] == [
        ("has-review", "10.5194/cp-2020-95-rc1", "subject"), ("has-review", "10.5194/cp-2020-95-rc2", "subject"),
        ("has-review", "10.5194/cp-2020-95-ec1", "subject"), ("has-comment", "10.5194/cp-2020-95-ac1", "subject"),
        ("has-comment", "10.5194/cp-2020-95-ac2", "subject"), ("has-comment", "10.5194/cp-2020-95-ac3", "subject"),
    ]
    # the preprint's interactive discussion is not followed: no request for the authors' comments AC1-AC3
    assert followed_dois(record, COPERNICUS) == []
    assert other_relation_counts(COPERNICUS.values()) == {"is-preprint-of": 2, "is-supplemented-by": 1}


@pytest.mark.parametrize(
    ("works", "discussion"),
    [
        ((("10.5194/cp-2020-95", "posted-content"), ("10.5194/cp-2020-95-ac1", None)), True),
        # a discussion item named by a record whose type is not known yet
        ((("10.5555/x", None), ("10.5194/hess-2017-111-sc3", None)), True),
        ((("10.5194/acp-22-2365-2022", "journal-article"), ("10.5555/x", "peer-review")), True),
        # a Copernicus journal article and its formal comment (a journal article too) are published work
        ((("10.5194/acp-22-2365-2022", "journal-article"), ("10.5194/acp-23-1-2023", "journal-article")), False),
        ((("10.2113/gsjfr.48.1.29", "journal-article"), ("10.5555/recon-constructed-comment-1", None)), False),
    ],
)
def test_open_discussion(works, discussion):
    assert open_discussion(*works) is discussion


def test_entries_keep_what_crossref_gives_and_only_the_kinds_that_can_record_a_dispute():
    record = {"DOI": "10.5555/a", "relation": {
        "is-comment-on": [{"id-type": "doi", "id": "https://doi.org/10.5555/B", "asserted-by": "subject"},
                          {"id-type": "doi", "id": "10.5555/b", "asserted-by": "object"}],
        "has-reply": {"id-type": "uri", "id": "https://example.org/reply", "asserted-by": "object"},
        "is-reply-to": [{"id-type": "doi", "id": "not a doi"}, {"id-type": "doi"}],
        "references": [{"id-type": "doi", "id": "10.5555/c"}],
    }}
    assert relation_entries(record) == [
        {"relation": "is-comment-on", "other_id": "10.5555/b", "other_id_type": "doi", "asserted_by": "subject"},
        {"relation": "has-reply", "other_id": "https://example.org/reply", "other_id_type": "uri", "asserted_by": "object"},
        {"relation": "is-reply-to", "other_id": "not a doi", "other_id_type": "not a DOI", "asserted_by": None},
    ]
    assert followed_dois(record, {}) == ["10.5555/b"]


def test_collect_records_follows_comments_and_replies_two_works_away_and_asks_each_doi_once():
    asked = []

    def ask(dois):
        asked.append(list(dois))
        return {doi: CONSTRUCTED[doi] for doi in dois if doi in CONSTRUCTED}

    records = collect_records([PAPER, "10.5555/no-record"], ask)
    # the paper names the comment; the comment names the paper (asked already) and the reply
    assert asked == [[PAPER, "10.5555/no-record"], [COMMENT], [REPLY]]
    assert set(records) == {PAPER, COMMENT, REPLY}
    asked.clear()
    assert set(collect_records([PAPER], ask, hops=1)) == {PAPER, COMMENT} and asked == [[PAPER], [COMMENT]]


def _updates(rows):
    return pd.DataFrame(rows, columns=["doi", "updates", "checked_at"])


def test_relation_rows_of_a_paper_its_comment_and_the_reply_and_its_update_notices():
    requested = pd.DataFrame({"research_area": ["ocean", "ocean"], "doi": [PAPER, "10.5555/12345678"]})
    records = {**CONSTRUCTED, **{doi: TEST_ACCOUNTS[doi] for doi in ("10.5555/12345678", "10.5555/24242424x")}}
    notices = json.dumps([
        {"notice_doi": "10.5555/24242424x", "update_type": "retraction", "year": 2009, "title": "Retraction: Toward ..."},
        {"notice_doi": "10.5555/12345678", "update_type": "corrigendum", "year": 2018, "title": None},
    ])
    rows = relation_rows(
        requested, records, {doi: WHEN for doi in records},
        # a check made before update notices were kept (NULL) gives none, never an error
        _updates([("10.5555/12345678", notices, WHEN), (PAPER, None, WHEN)]),
    )
    assert rows.columns.tolist() == list(RELATION_COLUMNS)
    shown = rows[["doi", "record_doi", "relation", "update_type", "other_id", "other_type", "other_year"]].astype(object)
    assert [tuple(None if pd.isna(v) else v for v in row) for row in shown.itertuples(index=False)] == [
        (PAPER, PAPER, "has-comment", None, COMMENT, "journal-article", 2019),
        (PAPER, COMMENT, "is-comment-on", None, PAPER, "journal-article", 2018),
        (PAPER, COMMENT, "has-reply", None, REPLY, "journal-article", 2020),
        (PAPER, REPLY, "is-reply-to", None, COMMENT, "journal-article", 2019),
        # the real test record: is-reply-to its retraction notice, whose record says has-reply back
        ("10.5555/12345678", "10.5555/12345678", "is-reply-to", None, "10.5555/24242424x", "journal-article", 2009),
        ("10.5555/12345678", "10.5555/24242424x", "has-reply", None, "10.5555/12345678", "journal-article", 2008),
        ("10.5555/12345678", "10.5555/12345678", "updated-by", "retraction", "10.5555/24242424x", None, 2009),
        ("10.5555/12345678", "10.5555/12345678", "updated-by", "corrigendum", "10.5555/12345678", None, 2018),
    ]
    assert set(rows["research_area"]) == {"ocean"} and rows["checked_at"].notna().all()


def test_a_doi_without_a_record_or_notices_has_no_rows():
    requested = pd.DataFrame({"research_area": ["ocean"], "doi": ["10.5555/nothing"]})
    assert relation_rows(requested, {}, {}, _updates([])).empty
