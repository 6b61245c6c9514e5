"""A paper's keywords, citation gaps and claim verdicts as pure functions (issue 22): rows for the edge cases (empty
text, no references, no keyword that fits, no literature) and the rules' severities and flags. The texts are short
made-up sentences as test inputs; the graph's own rows are exercised in test_paper_assets.py."""

import pytest

from recon_assets.judgement.cues import find_cue
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
    MIN_SENTENCE_SIMILARITY,
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


CLAIM = "Annual rainfall across the northern catchments decreased between 2001 and 2010."
SUPPORTING = "Gauge records confirm that annual rainfall across the northern catchments decreased between 2001 and 2010."
CONTRADICTING = "Gauge records across the northern catchments contradict the reported decrease of annual rainfall between 2001 and 2010."
# Stance wording about something else: a work can be about the claim's topic (its similarity passes the gate) and still
# agree or disagree only on another subject.
UNRELATED_SUPPORT = "Leaf area index over croplands was in good agreement with field measurements."
UNRELATED_CONTRADICTION = "The satellite product overestimated aerosol optical depth over deserts."
# Real rows of the fixture papers (issue 22, papers 1-5 against the sample graph, offline), SUPPORTED or CONTRADICTED
# before the quoted sentence had to be about the claim: the claim as the paper's text gives it, the graph's work's stance
# sentence and the work's similarity to the claim.
KIM2021_CLAIM = ("(2019) presented L-band SM products (SMAP and SMOS-IC) are generally better than a Xband derived product "
                 "(AMSR2-LPRM) using global groundbased observations distributed over varied climate zones.")
RS11091113 = ("SM2RAIN-ASCAT largely underestimated rainfall across the country, particularly over the CAAT and CER biomes (bias "
              "median < −16.05%), while SM2RAIN-CCI is characterized by providing rainfall estimates with only a slight bias (bias "
              "median: −0.20%), and TRMM TMPA tended to overestimate the amount of rainfall (bias median: 7.82%).")
KIM2022_CLAIM = ("This study investigated the relationship between extreme precipitation (EP), atmospheric precipitable water (W), "
                 "and temperature using 17\xa0years of global daily data.")
SDATA201566 = ("The Climate Hazards group Infrared Precipitation with Stations (CHIRPS) dataset builds on previous approaches to "
               "‘smart’ interpolation techniques and high resolution, long period of record precipitation estimates based on "
               "infrared Cold Cloud Duration (CCD) observations.")


@pytest.mark.parametrize(
    ("claim", "works", "verdict", "read"),
    [
        (CLAIM, [], "UNVERIFIED", 0),  # no literature
        (CLAIM, [Evidence("p1", "10.1/p1", SUPPORTING, 0.3)], "UNVERIFIED", 0),  # nothing about the same thing
        (CLAIM, [Evidence("p1", "10.1/p1", SUPPORTING, 0.7), Evidence("p2", None, "Unrelated words.", 0.6)], "SUPPORTED", 2),
        (CLAIM, [Evidence("p1", "10.1/p1", CONTRADICTING, 0.7)], "CONTRADICTED", 1),  # a lone objection decides
        # one objection against one work read without objection: does not decide
        (CLAIM, [Evidence("p1", "10.1/p1", CONTRADICTING, 0.7), Evidence("p2", None, "Rain was measured.", 0.6)], "UNVERIFIED", 2),
        (CLAIM, [Evidence("p1", None, None, float("nan"))], "UNVERIFIED", 0),
        # a work about the same thing whose stance wording is about something else: read, no stance
        (CLAIM, [Evidence("p1", "10.1/p1", f"Rainfall over the northern catchments. {UNRELATED_SUPPORT}", 0.7)], "UNVERIFIED", 1),
        (CLAIM, [Evidence("p1", "10.1/p1", f"Rainfall over the northern catchments. {UNRELATED_CONTRADICTION}", 0.7)], "UNVERIFIED", 1),
        # the stance taken on the claim's subject decides, not the most severe wording anywhere in the work
        (CLAIM, [Evidence("p1", "10.1/p1", f"{UNRELATED_CONTRADICTION} {SUPPORTING}", 0.7)], "SUPPORTED", 1),
        (KIM2021_CLAIM, [Evidence("w", "10.3390/rs11091113", RS11091113, 0.519)], "UNVERIFIED", 1),  # was CONTRADICTED
        (KIM2022_CLAIM, [Evidence("w", "10.1038/sdata.2015.66", SDATA201566, 0.559)], "UNVERIFIED", 1),  # was SUPPORTED
    ],
    ids=["no-literature", "below-gate", "supported", "contradicted", "outweighed", "nan", "unrelated-support",
         "unrelated-contradiction", "the-related-sentence-decides", "kim2021-claim-10", "kim2022-claim-7"],
)
def test_judge_claim(claim, works, verdict, read):
    judged = judge_claim(works, claim=claim)
    assert (judged.verdict, judged.works_read, judged.judge) == (verdict, read, JUDGE_ID)
    assert (judged.evidence is not None) == (verdict != "UNVERIFIED") and judged.why
    if judged.evidence is not None:  # the quoted sentence is the one about the claim
        assert judged.evidence in (SUPPORTING, CONTRADICTING) and "the quoted sentence's similarity to the claim" in judged.why
    if verdict == "UNVERIFIED" and read == 1:  # stance wording there, but about something else: the why says so
        assert all(find_cue(w.text) for w in works)
        assert "only in a sentence not about the claim (similarity" in judged.why and "no stance on it" in judged.why


def test_a_sentence_just_below_the_bar_says_so_in_three_decimals():
    judged = judge_claim([Evidence("p1", "10.1/p1", f"Rainfall. {UNRELATED_SUPPORT}", 0.7)], claim=CLAIM,
                         similarities=lambda claim, sentences: [0.547] * len(sentences))
    assert judged.verdict == "UNVERIFIED" and "(similarity 0.547 < 0.55)" in judged.why
    at_the_bar = judge_claim([Evidence("p1", "10.1/p1", UNRELATED_SUPPORT, 0.7)], claim=CLAIM,
                             similarities=lambda claim, sentences: [MIN_SENTENCE_SIMILARITY] * len(sentences))
    assert at_the_bar.verdict == "SUPPORTED"


def test_verdicts_feed_the_verification_score():
    verdicts = [judge_claim([Evidence("p1", None, SUPPORTING, 0.7)], claim=CLAIM).verdict, judge_claim([], claim=CLAIM).verdict]
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
