"""A paper's keywords, citation gaps and claim verdicts as pure functions (issue 22): rows for the edge cases (empty
text, no references, no keyword that fits, no literature) and the rules' severities and flags. The texts are short
made-up sentences as test inputs; the graph's own rows are exercised in test_paper_assets.py."""

import pytest

from recon_assets.judgement.offline_judge import JUDGE_ID
from recon_assets.papers.gaps import (
    COMMENT_ON_CITED_WORK,
    HIGH,
    MEDIUM,
    NEWER_VERSION_REFERENCE,
    SAME_DATASET_HIGHLY_CITED,
    SIMILAR_WORK,
    Comment,
    References,
    UsedDataset,
    Work,
    citation_gaps,
)
from recon_assets.papers.keywords import KEYWORD_IN_TERM, SAME_WORDS, TERM_IN_KEYWORD, ScienceKeyword, TfidfCorpus, match_keyword, paper_keywords
from recon_assets.papers.scores import citation_score, verification_score
from recon_assets.papers.verdicts import (
    REPLACED_DATASET,
    SUPERSEDED_PAPER,
    ReplacedDataset,
    SupersededReference,
    cites,
    claim_flags,
    judge_claim,
)
from recon_assets.papers.verdicts import Work as Evidence

KEYWORDS = [
    ScienceKeyword("k1", "PRECIPITATION AMOUNT", 3), ScienceKeyword("k2", "PRECIPITATION", 1), ScienceKeyword("k3", "AEROSOLS"),
    ScienceKeyword("k4", "LAND USE/LAND COVER", 2), ScienceKeyword("k5", "PRECIPITATION RATE", 5),
]


@pytest.mark.parametrize(
    ("term", "keyword", "match"),
    [
        ("precipitation", "PRECIPITATION", SAME_WORDS),
        ("aerosol", "AEROSOLS", SAME_WORDS),  # stems meet
        ("precipitation amount", "PRECIPITATION AMOUNT", SAME_WORDS),
        ("land cover", "LAND USE/LAND COVER", TERM_IN_KEYWORD),
        ("satellite precipitation", "PRECIPITATION", KEYWORD_IN_TERM),
        ("rain gauges", None, None),  # no keyword fits: kept without one
        ("", None, None),
    ],
)
def test_a_term_is_matched_to_the_gcmd_keyword_it_fits(term, keyword, match):
    found, how = match_keyword(term, KEYWORDS)
    assert (found.name if found else None, how) == (keyword, match)


def test_term_in_keyword_prefers_fewest_extra_words_then_most_links():
    keywords = [ScienceKeyword("a", "PRECIPITATION RATE", 1), ScienceKeyword("b", "PRECIPITATION AMOUNT", 9)]
    assert match_keyword("precipitation", keywords)[0].keyword_id == "b"


@pytest.mark.parametrize(
    ("text", "publications", "keywords", "terms"),
    [
        ("", ["Aerosol optical depth"], KEYWORDS, 0),  # empty text: no term
        ("the of and 12 mm 2010", [], KEYWORDS, 0),  # stop words and numbers only, no literature: no term, no error
        # no literature, no keyword: terms, none matched (stop words go before pairs are made: 'gauges basin')
        ("rain gauges in the basin", [], [], 5),
    ],
    ids=["empty-text", "no-terms", "no-literature"],
)
def test_keywords_edge_cases(text, publications, keywords, terms):
    found = paper_keywords(text, publications, keywords)
    assert len(found) == terms and all(k.keyword is None for k in found)


def test_tfidf_terms_weigh_what_sets_the_paper_apart_and_never_pair_across_sentences():
    found = paper_keywords(
        "Precipitation over the basin. Aerosols matter. Precipitation amount rose.", ["Aerosols over oceans", "Aerosols and clouds"], KEYWORDS,
    )
    terms = {k.term: k for k in found}
    assert found[0].term == "precipitation" and found[0].keyword.name == "PRECIPITATION"
    assert terms["aerosols"].weight < terms["precipitation"].weight  # common in the literature: lower idf
    assert "basin aerosols" not in terms and all(0 < k.weight <= 1 for k in found)
    assert TfidfCorpus("", ["a text"]).similarities().tolist() == [0.0]


def _work(key, similarity=0.0, citations=0, datasets=(), doi=None, title=None):
    return Work(key, doi or f"10.1/{key}", title or f"Work {key}", 2020, citations, "OpenAlex cited_by_count", frozenset(datasets), similarity)


TRMM = UsedDataset("d-trmm", "TRMM_3B42 V7", "d-imerg", "GPM_3IMERGHH V07")
MODIS = UsedDataset("d-modis", "MOD13Q1 V061")


@pytest.mark.parametrize(
    ("references", "works", "comments", "expected"),
    [
        # no reference list: every similar work is a gap, the highly cited one on the paper's dataset high
        (References(), [_work("a", 0.3, 500, ["d-modis"]), _work("b", 0.2), _work("c", 0.05)], [],
         [("a", HIGH, (SAME_DATASET_HIGHLY_CITED, SIMILAR_WORK)), ("b", MEDIUM, (SIMILAR_WORK,))]),
        # cited by DOI, or by its title inside a reference's text: no gap
        (References(frozenset({"10.1/a"}), ("Smith J. Rain gauges over the Nile basin. J Hydrol 2010",)),
         [_work("a", 0.3, 500, ["d-modis"]), _work("b", 0.4, title="Rain gauges over the Nile basin")], [], []),
        # on the paper's dataset, highly cited but not similar: still high; on the dataset, not similar, few citations: none
        (References(), [_work("a", 0.01, 100, ["d-trmm"]), _work("b", 0.01, 99, ["d-trmm"])], [],
         [("a", HIGH, (SAME_DATASET_HIGHLY_CITED,))]),
        # the newer version: its most cited work, however dissimilar
        (References(), [_work("i1", 0.0, 40, ["d-imerg"]), _work("i2", 0.0, 80, ["d-imerg"])], [],
         [("i2", HIGH, (NEWER_VERSION_REFERENCE,))]),
        # a recorded comment on a cited work: high; a comment on an uncited one, or one the paper cites, is none
        (References(frozenset({"10.1/a", "10.1/c2"})), [_work("a"), _work("b")],
         [Comment("a", "10.1/a", "c1", "10.1/c1", "Comment on A", 2012), Comment("b", "10.1/b", "c3", None, "Comment on B", 2013),
          Comment("a", "10.1/a", "c2", "10.1/c2", "Another comment on A", 2014)],
         [("c1", HIGH, (COMMENT_ON_CITED_WORK,))]),
        # the paper itself (given by DOI, or its own title) is no gap
        (References(own_doi="10.1/self", own_title="My Own Paper"), [_work("self", 0.9), _work("t", 0.9, title="My own paper")], [], []),
    ],
    ids=["no-references", "cited", "same-dataset", "newer-version", "comment", "itself"],
)
def test_citation_gap_rules(references, works, comments, expected):
    gaps = citation_gaps(references, [TRMM, MODIS], works, comments)
    assert [(g.key, g.severity, g.rules) for g in gaps] == expected
    assert all(g.why for g in gaps)


def test_gaps_without_datasets_or_works_and_the_medium_cap():
    assert citation_gaps(References(), [], []) == []
    gaps = citation_gaps(References(), [], [_work(str(i), 0.5) for i in range(12)], max_medium=10)
    assert len(gaps) == 10 and citation_score(0, len(gaps)) == 0.0
    with pytest.raises(ValueError, match="highly_cited"):
        citation_gaps(References(), [], [], highly_cited=0)


SUPPORTING = "Our results agree with earlier estimates and confirm the drying trend."
CONTRADICTING = "These estimates contradict earlier reports of a drying trend."


@pytest.mark.parametrize(
    ("works", "verdict", "read"),
    [
        ([], "UNVERIFIED", 0),  # no literature
        ([Evidence("p1", "10.1/p1", SUPPORTING, 0.3)], "UNVERIFIED", 0),  # nothing about the same thing
        ([Evidence("p1", "10.1/p1", SUPPORTING, 0.7), Evidence("p2", None, "Unrelated words.", 0.6)], "SUPPORTED", 2),
        ([Evidence("p1", "10.1/p1", CONTRADICTING, 0.7)], "CONTRADICTED", 1),  # a lone objection decides
        # one objection against one work read without objection: does not decide
        ([Evidence("p1", "10.1/p1", CONTRADICTING, 0.7), Evidence("p2", None, "Rain was measured.", 0.6)], "UNVERIFIED", 2),
        ([Evidence("p1", None, None, float("nan"))], "UNVERIFIED", 0),
    ],
    ids=["no-literature", "below-gate", "supported", "contradicted", "outweighed", "nan"],
)
def test_judge_claim(works, verdict, read):
    judged = judge_claim(works)
    assert (judged.verdict, judged.works_read, judged.judge) == (verdict, read, JUDGE_ID)
    assert (judged.evidence is not None) == (verdict != "UNVERIFIED") and judged.why


def test_verdicts_feed_the_verification_score():
    verdicts = [judge_claim([Evidence("p1", None, SUPPORTING, 0.7)]).verdict, judge_claim([]).verdict]
    assert verification_score(verdicts) == 5.0 and verification_score([]) == 5.0


TRMM_USED = ReplacedDataset("TRMM_3B42", "Daily rainfall came from the TRMM 3B42 product.", "uses TRMM_3B42 V7: replaced by GPM_3IMERGHH V07")
RETRACTED = SupersededReference(2, "Smith, J. Rainfall trends. 2001.", "SUPERSEDED: retracted (OpenAlex is_retracted)")


@pytest.mark.parametrize(
    ("claim", "flags"),
    [
        ("Results show that 3B42 outperforms the real-time product.", [REPLACED_DATASET]),
        ("TRMM 3B42 totals rose by 5%.", [REPLACED_DATASET]),
        ("Daily rainfall came from the TRMM 3B42 product.", [REPLACED_DATASET]),  # the sentence the dataset was found in
        ("IMERG totals rose by 5%.", []),
        ("Rainfall decreased, as found before [1-3].", [SUPERSEDED_PAPER]),
        ("Rainfall decreased, as Smith et al. found.", [SUPERSEDED_PAPER]),
        ("Rainfall decreased (Smith, 2001) in 3B42.", [REPLACED_DATASET, SUPERSEDED_PAPER]),
        ("Rainfall decreased [1, 3].", []),
        ("", []),
    ],
)
def test_claim_flags(claim, flags):
    found = claim_flags(claim, [TRMM_USED], [RETRACTED])
    assert [flag for flag, _ in found] == flags
    assert all(reason in (TRMM_USED.lifecycle, f"[2] {RETRACTED.reason}") for _, reason in found)


@pytest.mark.parametrize(
    ("claim", "number", "text", "cited"),
    [("see [2-4]", 3, "", True), ("see [2–4]", 5, "", False), ("Huffman and Bolvin (2007)", 9, "Huffman, G. TRMM", True),
     ("Huffman showed", 9, "Huffman, G. TRMM", False), ("see [3]", 3, "", True)],
)
def test_cites(claim, number, text, cited):
    assert cites(claim, number, text) is cited
