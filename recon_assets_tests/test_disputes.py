"""Recorded disputes from titles, and judging a publication against the works citing it. Titles are the real ones
of the labelled disputes (recon_assets/reference/evaluation/labelled_pairs.csv, their sources there)."""

import json
from datetime import date, datetime, timezone
from types import SimpleNamespace

import duckdb
import numpy as np
import pandas as pd
import pytest

from recon_assets.judgement.citing_pairs import judge_citing_pairs
from recon_assets.judgement.disputes import (
    COMMENT,
    COMMENTED,
    CORRECTED,
    CORRECTION,
    DEBATED,
    ENTRY_KEY,
    REPLY,
    crossref_reading,
    disputes_from_crossref,
    disputes_from_titles,
    dispute_status,
    merge_recorded_disputes,
    title_relation,
)
from recon_assets.enrichment.crossref_relations import relation_rows
from recon_assets.shared.sql_files import load_sql
from recon_assets.storage.tables import create_tables

from recon_assets_tests.test_crossref_relations import CONSTRUCTED, COPERNICUS, PAPER, TEST_ACCOUNTS
from recon_assets_tests.test_crossref_relations import COMMENT as COMMENT_DOI, REPLY as REPLY_DOI

WHEN = datetime(2026, 11, 30, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("title", "relation"),
    [
        ("Comment on “High-resolution global maps of 21st-century forest cover change”", COMMENT),
        ("Comment on ‘Mass gains of the Antarctic ice sheet exceed losses’ by H. J. Zwally and others", COMMENT),
        ("Analysis of stable states in global savannas: is the CART pulling the horse? – a comment", COMMENT),
        ("Response to Comment on “High-resolution global maps of 21st-century forest cover change”", REPLY),
        ("Response to Comments on “Drought-Induced Reduction in Global Terrestrial Net Primary Production from 2000 Through 2009”", REPLY),
        ("Boyce et al. reply", REPLY),
        ("Reply to: “Tropical cirrus and water vapor: an effective Earth infrared iris feedback?”", REPLY),
        ("Corrigendum to “Evaluation of IMERG”", CORRECTION),
        ("Erratum: Global trends", CORRECTION),
        # titles that only look like one
        ("Responses of vegetation to drought", None),
        ("Amazon forests did not green-up during the 2005 drought", None),
        ("Commentary on methods", None),
        (None, None),
    ],
)
def test_title_relation(title, relation):
    assert title_relation(title) == relation


def _citing(rows):
    return pd.DataFrame(rows, columns=["cited_publication_id", "cited_title", "citing_key", "citing_doi", "citing_title", "citing_year", "source"])


def test_disputes_from_titles_match_the_quoted_title_and_read_a_response_to_the_paper_as_a_comment():
    original = "High-resolution global maps of 21st-century forest cover change"
    other = "Global trends in wind speed and wave height"
    citing = _citing([
        ("p", original, "c1", "10.1/c1", f"Comment on “{original}”", 2014, "kg"),
        ("p", original, "r1", "10.1/r1", f"Response to Comment on “{original}”", 2014, "kg"),
        # a comment on another paper the work also cites is not a comment on this one
        ("p", original, "c2", "10.1/c2", f"Comment on “{other}”", 2015, "kg"),
        # a response quoting this paper's own title answers the paper itself: a comment on it
        ("q", "Toward unified satellite climatology of aerosol properties", "k1", None,
         "Response to “Toward unified satellite climatology of aerosol properties. 3. MODIS versus MISR”", 2011, "openalex"),
        ("p", original, "x", "10.1/x", "An unrelated application", 2016, "kg"),
    ])
    found = disputes_from_titles(citing)
    assert found[["publication_id", "relation", "other_key", "source"]].values.tolist() == [
        ["p", COMMENT, "c1", "kg title"], ["p", REPLY, "r1", "kg title"], ["q", COMMENT, "k1", "openalex title"],
    ]
    assert found["other_year"].tolist() == [2014, 2014, 2011]


@pytest.mark.parametrize(
    ("relations", "status"),
    [([], None), ([COMMENT], COMMENTED), ([COMMENT, REPLY], DEBATED), ([REPLY], DEBATED), ([CORRECTION], CORRECTED),
     ([COMMENT, CORRECTION], COMMENTED)],
)
def test_dispute_status(relations, status):
    assert dispute_status(relations) == status


def _vectors(texts):
    """A stand-in embedder: each text's first letter picks a direction, so similarities are known."""
    vectors = np.zeros((len(texts), 4), dtype=np.float32)
    for row, text in enumerate(texts):
        if text:
            vectors[row, ord(text[0].lower()) % 4] = 1.0
    return vectors


TEXTS = pd.DataFrame([
    ("p", 2007, "Amazon forests green-up during 2005 drought", None),
    ("c", 2010, "Amazon forests did not green-up during the 2005 drought", "We show that the earlier greening is an overestimation caused by atmospheric artifacts; the results are inconsistent with the reported green-up."),
    ("s", 2012, "A satellite view of Amazon drought", "We build on earlier work."),
    ("late", 2030, "Amazon later", None),
    ("undated", None, "Amazon undated", None),
    ("n", 2011, "Retraction Note: something", None),
], columns=["key", "year", "title", "abstract"])


def test_citing_works_are_judged_at_any_date_up_to_as_of_without_a_similarity_gate():
    edges = pd.DataFrame({"dataset_id": ["d1", "d2"], "publication_id": ["p", "p"]})
    citing = pd.DataFrame({
        "cited_publication_id": ["p"] * 5, "citing_key": ["c", "s", "late", "undated", "n"],
        "citing_year": pd.array([2010, 2012, 2030, None, 2011], dtype="Int64"),
        "citing_citation": ["[Samanta et al., 2010]", "[S, 2012]", "[L, 2030]", "[U, n.d.]", "[N, 2011]"],
        "citing_centrality": [0.4, 0.1, 0.0, 0.0, 0.0],
    })
    pairs = judge_citing_pairs(edges, citing, TEXTS, as_of=date(2026, 1, 1), embedder=_vectors)
    # after as_of, undated and retraction notices are no evidence; each pair is judged for every dataset of p
    assert sorted(set(pairs["newer_publication_id"])) == ["c", "s"]
    assert set(pairs["dataset_id"]) == {"d1", "d2"} and len(pairs) == 4
    contradiction = pairs[pairs["newer_publication_id"] == "c"].iloc[0]
    assert contradiction["verdict"] == "CONTRADICTED" and contradiction["evidence_kind"] == "cites"
    assert contradiction["rationale"].startswith("cites it; contradiction wording")
    assert (contradiction["newer_citation"], contradiction["newer_year"], contradiction["newer_centrality"]) == ("[Samanta et al., 2010]", 2010, 0.4)
    # not before the cited publication, and not as of a date before the citing work
    assert judge_citing_pairs(edges, citing, TEXTS, as_of=date(2009, 1, 1), embedder=_vectors).empty


def test_a_citing_work_of_the_papers_own_year_is_read_and_one_dated_before_it_is_not():
    """Issue 24 (a citing work of the paper's own year was called "newer"): it is read, since it cites the paper it
    came after it (DOMAIN.md "at any date after it"; comments often follow within months), and the reason calls the
    works read neither newer nor older; a work dated before the paper it cites is left out."""
    from recon_assets.reliability.edge_scores import edge_coherence

    texts = pd.concat([TEXTS, pd.DataFrame([("same", 2007, "Comment on Amazon forests green-up", "We show an overestimation."),
                                            ("before", 2006, "Amazon 2006", None)], columns=TEXTS.columns)])
    citing = pd.DataFrame({
        "cited_publication_id": ["p", "p"], "citing_key": ["same", "before"], "citing_year": pd.array([2007, 2006], dtype="Int64"),
        "citing_citation": ["[Same, 2007]", "[Before, 2006]"], "citing_centrality": [0.2, 0.2],
    })
    edges = pd.DataFrame({"dataset_id": ["d1"], "publication_id": ["p"]})
    pairs = judge_citing_pairs(edges, citing, texts, as_of=date(2026, 1, 1), embedder=_vectors)
    assert pairs["newer_publication_id"].tolist() == ["same"] and pairs["newer_year"].tolist() == [2007]
    read = pairs.assign(verdict="UNVERIFIED", coherence=0.5, prompt_version=None)
    coherence = edge_coherence(edges.assign(pagerank_centrality=0.0, dispute_relations=[[]]), read)
    assert coherence["coherence_evidence"].tolist() == ["1 work read ([Same, 2007]): no stance wording found"]


def test_a_highly_cited_paper_keeps_its_most_similar_citing_works_and_every_comment():
    texts = pd.concat([TEXTS, pd.DataFrame([("z", 2015, "Zebra study of vegetation", None)], columns=TEXTS.columns)])
    citing = pd.DataFrame({
        "cited_publication_id": ["p", "p", "p"], "citing_key": ["s", "z", "c"],
        "citing_year": pd.array([2012, 2015, 2010], dtype="Int64"), "citing_citation": ["[S]", "[Z]", "[C]"],
        "citing_centrality": [0.0, 0.0, 0.0],
    })
    texts.loc[texts["key"] == "c", "title"] = "Comment on “Amazon forests green-up during 2005 drought”"
    pairs = judge_citing_pairs(pd.DataFrame({"dataset_id": ["d"], "publication_id": ["p"]}), citing, texts, as_of=date(2026, 1, 1), top_k=1, embedder=_vectors)
    # 's' is the most similar ('a...' like 'A...'), 'c' is kept as a comment whatever its similarity, 'z' is left out
    assert sorted(pairs["newer_publication_id"]) == ["c", "s"]


def test_judge_citing_pairs_refuses_a_missing_text_and_a_bad_top_k():
    edges = pd.DataFrame({"dataset_id": ["d"], "publication_id": ["p"]})
    citing = pd.DataFrame({"cited_publication_id": ["p"], "citing_key": ["nowhere"], "citing_year": [2010], "citing_citation": ["[X]"], "citing_centrality": [0.0]})
    with pytest.raises(ValueError, match="no text row"):
        judge_citing_pairs(edges, citing, TEXTS, as_of=date(2026, 1, 1), embedder=_vectors)
    with pytest.raises(ValueError, match="top_k"):
        judge_citing_pairs(edges, citing.iloc[:0], TEXTS, as_of=date(2026, 1, 1), top_k=0, embedder=_vectors)


# Reading Crossref's relations and update notices (crossref_relations entries). Entries built from the fixtures of
# fixtures/crossref through the enrichment code, so they are in the shape the asset stores.
ENTRY_COLUMNS = [
    "record_doi", "record_type", "record_title", "record_year", "relation", "update_type", "other_id", "other_id_type",
    "other_type", "other_title", "other_year", "record_publication_id", "other_publication_id",
]


def _relations(records: dict, dois: list[str], updates: list[tuple] = (), area: str = "a") -> pd.DataFrame:
    """crossref_relations rows of `dois` in research area `area`, as the enrichment stores them."""
    return relation_rows(
        pd.DataFrame({"research_area": area, "doi": dois}), records, {doi: WHEN for doi in records},
        pd.DataFrame(list(updates), columns=["doi", "updates", "checked_at"]),
    )


def _entries(records: dict, kg: set[str], dois: list[str], updates: list[tuple] = ()) -> pd.DataFrame:
    """crossref_relations rows of `dois` (one research area) as recon_assets/judgement/sql/crossref_dispute_entries.sql gives them, the KG
    publication ids (here the DOIs themselves, as for every KG publication with a DOI) of the works in `kg`: each
    entry once (the copies of an entry reached from several of `dois` are alike here) in the order of its key.
    `test_the_entries_query_reads_each_entry_once` runs the query itself."""
    rows = _relations(records, dois, updates)
    rows = rows.assign(
        record_publication_id=rows["record_doi"].where(rows["record_doi"].isin(kg)),
        other_publication_id=rows["other_id"].where(rows["other_id"].isin(kg)),
    )
    return rows[ENTRY_COLUMNS].drop_duplicates().sort_values(ENTRY_KEY, ignore_index=True)


def _notices(*notices):
    return json.dumps([dict(zip(("notice_doi", "update_type", "year", "title"), notice)) for notice in notices])


def _rows(frame: pd.DataFrame) -> list[tuple]:
    return [tuple(None if pd.isna(value) else value for value in row) for row in frame.astype(object).itertuples(index=False)]


def test_a_crossref_comment_and_the_reply_to_it_make_the_paper_debated_at_the_reply_year():
    entries = _entries(CONSTRUCTED, {PAPER}, [PAPER])
    rows, set_aside = disputes_from_crossref(entries)
    # recorded from both sides (has-comment and is-comment-on; has-reply and is-reply-to): one row each; the reply to
    # the comment answers the paper
    assert _rows(rows[["publication_id", "relation", "other_key", "other_year", "source"]]) == [
        (PAPER, COMMENT, COMMENT_DOI, 2019, "crossref relation"),
        (PAPER, REPLY, REPLY_DOI, 2020, "crossref relation"),
    ]
    assert rows["other_title"].tolist()[0].startswith("Comment on “Benthic Foraminifera")
    # the reply names the comment, which is not in the KG; through it the reply answers the paper: nothing is set aside
    assert set_aside.empty
    assert dispute_status(rows[rows["other_year"] <= 2019]["relation"]) == COMMENTED
    assert dispute_status(rows["relation"]) == DEBATED


def test_a_copernicus_preprints_author_comments_and_referee_reports_are_no_dispute():
    preprint = "10.5194/acp-2021-781"
    rows, set_aside = disputes_from_crossref(_entries(COPERNICUS, {preprint}, [preprint]))
    assert rows.empty
    reasons = set_aside.groupby("relation")["reason"].agg(set).to_dict()
    assert reasons == {
        "has-comment": {"open peer-review discussion of a preprint (e.g. Copernicus author and referee comments), not a published comment"},
        "has-review": {"a peer-review report, not a published comment"},
    }
    assert len(set_aside) == 5  # AC1-AC3, RC1-RC2: every entry accounted for


def test_update_notices_read_as_corrections_only_for_correcting_types():
    paper = "10.5555/12345678"
    updates = [(paper, _notices(
        ("10.5555/24242424x", "retraction", 2009, "Retraction: ..."), ("10.5555/12345678", "corrigendum", 2018, None),
        ("10.5555/c1", "Erratum", 2010, "Erratum"), ("10.5555/c2", "clarification", 2011, None),
        ("10.5555/c3", "expression_of_concern", 2012, None), ("10.5555/c4", "partial_retraction", 2013, None),
    ), WHEN)]
    rows, set_aside = disputes_from_crossref(_entries({}, {paper}, [paper], updates))
    assert _rows(rows[["publication_id", "relation", "other_key", "other_doi", "other_year", "source"]]) == [
        (paper, CORRECTION, "10.5555/c1", "10.5555/c1", 2010, "crossref update-to"),
        # corrected in place: keyed apart from the paper itself, dated by the update
        (paper, CORRECTION, "in-place:10.5555/12345678", "10.5555/12345678", 2018, "crossref update-to"),
    ]
    assert dict(zip(set_aside["other_id"], set_aside["reason"])) == {
        "10.5555/24242424x": "a retraction notice: the retraction rule (crossref_retractions), not a recorded dispute",
        "10.5555/c2": "update type 'clarification' does not correct the work",
        "10.5555/c3": "update type 'expression_of_concern' does not correct the work",
        "10.5555/c4": "update type 'partial_retraction' does not correct the work",
    }


def test_the_real_reply_relation_recorded_from_both_sides_is_one_reply():
    """Crossref's test record 10.5555/12345678 says it is-reply-to 10.5555/24242424x, whose record says has-reply back."""
    notice, paper = "10.5555/24242424x", "10.5555/12345678"
    entries = _entries(TEST_ACCOUNTS, {notice, paper}, [paper, notice])
    rows, set_aside = disputes_from_crossref(entries)
    assert _rows(rows[["publication_id", "relation", "other_key", "other_year"]]) == [(notice, REPLY, paper, 2008)]
    # has-translation and references are not stored; the has-review reports of 12345681 are not reached
    assert set_aside.empty
    # with the replied-to work outside the KG, the reply answers no KG publication: set aside, said so
    rows, set_aside = disputes_from_crossref(_entries(TEST_ACCOUNTS, {paper}, [paper]))
    assert rows.empty and set(set_aside["reason"]) == {"answers no publication of the KG"} and len(set_aside) == 2


def test_every_entry_makes_rows_or_is_set_aside_once():
    entries = pd.concat([_entries(CONSTRUCTED, {PAPER}, [PAPER]), _entries(COPERNICUS, set(), ["10.5194/cp-2020-95"])], ignore_index=True)
    rows, set_aside = disputes_from_crossref(entries)
    read = entries.merge(set_aside, on=ENTRY_KEY, how="left")["reason"].isna().sum()
    assert len(entries) == read + len(set_aside) and read == 4 and len(set_aside) == 6
    # an entry given twice is refused: the query keeps one
    with pytest.raises(ValueError, match=r"^1 Crossref entries repeat an entry key .*crossref_dispute_entries\.sql, which keeps one$"):
        disputes_from_crossref(pd.concat([entries, entries.iloc[[0]]], ignore_index=True))


def test_the_entries_query_reads_each_entry_once():
    """An entry stored for two research areas, and a copy of it without the other side's year, is one row of
    crossref_dispute_entries.sql: the copy with the year, as the entries of one area alone give it."""
    one_area = _relations(CONSTRUCTED, [PAPER])
    yearless = _relations(CONSTRUCTED, [PAPER], area="b").assign(other_year=None)
    with duckdb.connect() as con:
        create_tables(con, "crossref_relations")
        con.execute("CREATE TABLE publications AS SELECT ? AS publication_id, ? AS doi", [PAPER, PAPER])
        con.execute("CREATE TABLE publication_research_areas AS SELECT ? AS publication_id, unnest(['a', 'b']) AS research_area", [PAPER])
        for rows in (one_area, _relations(CONSTRUCTED, [PAPER], area="b"), yearless):
            con.execute("INSERT INTO crossref_relations BY NAME SELECT * FROM rows")
        read = con.execute(load_sql("crossref_dispute_entries"), [["a", "b"]]).df()
    assert yearless["other_year"].isna().all() and one_area["other_year"].notna().any()
    assert _rows(read) == _rows(_entries(CONSTRUCTED, {PAPER}, [PAPER]))
    assert not read.duplicated(ENTRY_KEY).any()


@pytest.mark.parametrize(
    ("crossref_relation", "title_relation_read", "sources", "overridden"),
    [
        # the same comment read from its title and recorded by Crossref: one row, both sources
        (COMMENT, COMMENT, [("p", COMMENT, "10.1/c", "crossref relation + kg title")], 0),
        # Crossref records it as a reply, the title read a comment: Crossref's relation stands
        (REPLY, COMMENT, [("p", REPLY, "10.1/c", "crossref relation")], 1),
    ],
)
def test_merge_keeps_one_reading_per_publication_and_answering_work(crossref_relation, title_relation_read, sources, overridden):
    columns = ["publication_id", "relation", "other_key", "other_doi", "other_title", "other_year", "source"]
    titles = pd.DataFrame([
        ("p", title_relation_read, "10.1/c", "10.1/c", "Comment on P", 2014, "kg title"),
        ("p", REPLY, "W42", "10.1/r", "Reply to comment on P", 2015, "openalex title"),
    ], columns=columns)
    crossref = pd.DataFrame([("p", crossref_relation, "10.1/c", "10.1/c", "Comment on P", 2014, "crossref relation")], columns=columns)
    merged, count = merge_recorded_disputes(titles, crossref)
    assert sorted(_rows(merged[["publication_id", "relation", "other_key", "source"]])) == sorted(
        [("p", REPLY, "W42", "openalex title"), *sources]
    )
    assert count == overridden
    empty = crossref.iloc[0:0]
    assert _rows(merge_recorded_disputes(titles, empty)[0][["other_key"]]) == [("10.1/c",), ("W42",)]


def _entry(relation, other_id="10.1/o", update_type=None, record_type="journal-article", other_type=None, other_id_type="doi"):
    return SimpleNamespace(record_doi="10.1/r", record_type=record_type, relation=relation, update_type=update_type,
                           other_id=other_id, other_id_type=other_id_type, other_type=other_type)


@pytest.mark.parametrize(
    ("entry", "reading"),
    [
        (_entry("is-comment-on"), (COMMENT, "10.1/r", "10.1/o")),
        (_entry("has-comment"), (COMMENT, "10.1/o", "10.1/r")),
        (_entry("is-reply-to"), (REPLY, "10.1/r", "10.1/o")),
        (_entry("has-reply"), (REPLY, "10.1/o", "10.1/r")),
        (_entry("updated-by", update_type="correction"), (CORRECTION, "10.1/o", "10.1/r")),
        # deposits spell update types in other cases and with hyphens (a field survey of update-to types)
        (_entry("updated-by", update_type="Corrigendum"), (CORRECTION, "10.1/o", "10.1/r")),
        (_entry("updated-by", update_type="Addendum"), (CORRECTION, "10.1/o", "10.1/r")),
        (_entry("updated-by", update_type="new_version"), "update type 'new_version' does not correct the work"),
        (_entry("updated-by", update_type="expression-of-concern"), "update type 'expression-of-concern' does not correct the work"),
        (_entry("has-review"), "a peer-review report, not a published comment"),
        (_entry("is-review-of"), "a peer-review report, not a published comment"),
        (_entry("has-reply", other_id="https://example.org/r", other_id_type="uri"), "the related work has no DOI (uri)"),
        (_entry("has-comment", record_type="posted-content"),
         "open peer-review discussion of a preprint (e.g. Copernicus author and referee comments), not a published comment"),
        (_entry("is-reply-to", other_id="10.5194/tc-2019-54-ac1"),
         "open peer-review discussion of a preprint (e.g. Copernicus author and referee comments), not a published comment"),
        (_entry("is-comment-on", other_type="peer-review"),
         "open peer-review discussion of a preprint (e.g. Copernicus author and referee comments), not a published comment"),
    ],
)
def test_crossref_reading(entry, reading):
    assert crossref_reading(entry) == reading
