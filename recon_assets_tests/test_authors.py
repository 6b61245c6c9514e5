"""author_names over the author shapes of the KG and the sample; citation_tag as used at the head of every reason."""

from __future__ import annotations

import pytest

from recon_assets.kg.authors import author_names, citation_tag

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
        ([], 2020, "10.1000/x", "[10.1000/x, 2020]"),
        ([], None, "kg-node:7", "[kg-node:7, n.d.]"),
    ],
)
def test_citation_tag(authors: list[str], year: int | None, fallback: str, tag: str) -> None:
    assert citation_tag(authors, year, fallback) == tag


def test_sample_string_authors_tag_like_list_authors() -> None:
    as_string = author_names("Ahmed Gowida, Salaheldin Elkatatny, Ahmed Farid Ibrahim")
    as_list = author_names(["Ahmed Gowida", "Salaheldin Elkatatny", "Ahmed Farid Ibrahim"])

    assert citation_tag(as_string, 2024, "x") == citation_tag(as_list, 2024, "x") == "[Gowida et al., 2024]"
