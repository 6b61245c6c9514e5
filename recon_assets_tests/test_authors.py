"""author_names over the author shapes of the KG and the sample; citation_tag as used at the head of every reason."""

from __future__ import annotations

import pytest

from recon_assets.kg.authors import author_names, citation_tag, short_title

WEI_YU = ["Wei, Haohan", "Yu, Tongning"]


@pytest.mark.parametrize(
    ("raw", "names"),
    [
        (WEI_YU, WEI_YU),
        ("['Wei, Haohan', 'Yu, Tongning']", WEI_YU),  # the real KG's stringified Python list
        ('["Wei, Haohan", "Yu, Tongning"]', WEI_YU),
        ("Haohan Wei; Tongning Yu", ["Haohan Wei", "Tongning Yu"]),
        ("Wei, Haohan; Yu, Tongning", WEI_YU),
        ("Wei, Haohan", ["Wei, Haohan"]),  # one 'Family, Given' name is not split
        ("Alvarez-Muñiz, Jaime", ["Alvarez-Muñiz, Jaime"]),
        # Display names joined with ', ' (the shipped sample's string form, from OpenAlex display_name).
        ("Ahmed Gowida, Salaheldin Elkatatny, Hany Gamal", ["Ahmed Gowida", "Salaheldin Elkatatny", "Hany Gamal"]),
        ("Sulaiman A. Alarifi", ["Sulaiman A. Alarifi"]),
        ([" Basem Zoheir ", "", None, "N/A"], ["Basem Zoheir"]),  # a JSON null in the list is no author "None"
        ("[Smith]", ["[Smith]"]),  # brackets but not a list literal
        ("['unterminated'", ["['unterminated'"]),
        ("[]", []),
        ([], []),
        ("", []),
        ("  ", []),
        ("N/A", []),
        (" ; ; ", []),
        (None, []),
        (42, []),
        # One level only: nested lists hold no names, however deep, and never crash.
        ([["Wei, Haohan"], "Yu, Tongning"], ["Yu, Tongning"]),
        ("[['Wei, Haohan'], 'Yu, Tongning']", ["Yu, Tongning"]),
        ("[" * 1500 + "]" * 1500, []),  # deeper than Python's parser allows
        ("[" * 1500 + "'Wei, Haohan'" + "]" * 1500, []),
        ("[" + "-" * 100_000 + "1]", []),  # MemoryError inside ast.literal_eval
        ("[{['a']}]", ["[{['a']}]"]),  # TypeError (unhashable) inside ast.literal_eval: not a list literal, like '[Smith]'
    ],
)
def test_author_names(raw: object, names: list[str]) -> None:
    assert author_names(raw) == names


@pytest.mark.parametrize(
    ("authors", "year", "fallback", "tag"),
    [
        (WEI_YU, 2023, "10.1000/x", "[Wei et al., 2023]"),
        (["Wei, Haohan"], 2023, "10.1000/x", "[Wei, 2023]"),
        (["Ahmed Gowida", "Salaheldin Elkatatny"], 2021, "10.1000/x", "[Gowida et al., 2021]"),
        (["Basem Zoheir"], None, "10.1000/x", "[Zoheir, n.d.]"),
        (["Madonna"], 1990, "10.1000/x", "[Madonna, 1990]"),
        ([], 2020, "10.1000/x", "[10.1000/x, 2020]"),  # no author and no title: the DOI
        ([], None, "kg-node:7", "[kg-node:7, n.d.]"),
    ],
)
def test_citation_tag(authors: list[str], year: int | None, fallback: str, tag: str) -> None:
    assert citation_tag(authors, year, fallback) == tag


@pytest.mark.parametrize(
    ("title", "year", "tag"),
    [
        # issue 21: '[Author et al., Year]'; a paper without an author by its title's first 4 significant words
        ("Assessment of IMERG-V06 Precipitation Product over Different Hydro-Climatic Regimes in the Tianshan Mountains",
         2019, '["Assessment of IMERG-V06 Precipitation Product…", 2019]'),
        ("Global Precipitation Measurement (GPM) Mission: overview", 2019, '["Global Precipitation Measurement (GPM)…", 2019]'),
        ("Boyce et al. reply", 2011, '["Boyce et al. reply", 2011]'),  # whole: no '…'
        ("Late Summer Frazil Ice", None, '["Late Summer Frazil Ice", n.d.]'),
        # quotes inside become single ones, an open one is closed after the cut
        ("Comment on “The global tree restoration potential”", 2019, '["Comment on \'The global tree restoration…\'", 2019]'),
        ('Response to Comment on "High-resolution global maps of 21st-century forest cover change"', 2014,
         '["Response to Comment on \'High-resolution global…\'", 2014]'),
        # a title cut in a parenthesis closes it; brackets become parentheses (the tag itself is bracketed); '...' is '…'
        ("Rainfall (Level 3 products of the TRMM era) revisited", 2010, '["Rainfall (Level 3 products…)", 2010]'),
        ("Rain [mm] at... the end", 2010, '["Rain (mm) at… the end", 2010]'),
        ("Estimating inundation extent using CYGNSS data: A conceptual modeling study", 2020,
         '["Estimating inundation extent using CYGNSS…", 2020]'),
        # a title with no letter or digit, or none: the DOI
        ("  ", 2020, "[10.1000/x, 2020]"),
        ("The", 2020, "[10.1000/x, 2020]"),
        (None, 2020, "[10.1000/x, 2020]"),
    ],
)
def test_a_paper_without_an_author_is_cited_by_its_title(title: str | None, year: int | None, tag: str) -> None:
    assert citation_tag([], year, "10.1000/x", title) == tag
    assert citation_tag(["Wei, Haohan"], year, "10.1000/x", title).startswith("[Wei, ")  # an author wins over the title


def test_short_title_lengths_and_letters() -> None:
    title = "Comment on The global tree restoration potential of forests"
    assert short_title(title, 1) == "Comment…"
    assert short_title(title, 5) == "Comment on The global tree restoration potential…"
    assert short_title(title, 99) == title
    assert citation_tag([], 2019, "x", title, suffix="b") == '["Comment on The global tree restoration…", 2019b]'
    assert citation_tag([], None, "x", title, suffix="a") == '["Comment on The global tree restoration…", n.d.-a]'
    with pytest.raises(ValueError, match="at least 1 word"):
        short_title(title, 0)


def test_sample_string_authors_tag_like_list_authors() -> None:
    as_string = author_names("Ahmed Gowida, Salaheldin Elkatatny, Ahmed Farid Ibrahim")
    as_list = author_names(["Ahmed Gowida", "Salaheldin Elkatatny", "Ahmed Farid Ibrahim"])

    assert citation_tag(as_string, 2024, "x") == citation_tag(as_list, 2024, "x") == "[Gowida et al., 2024]"
