"""Recorded disputes from titles, and judging a publication against the works citing it. Titles are the real ones
of the labelled disputes (recon_assets/reference/evaluation/labelled_pairs.csv, their sources there)."""

from datetime import date

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
    REPLY,
    disputes_from_titles,
    dispute_status,
    title_relation,
)


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
