"""Recorded disputes and corrections of a publication: published comments on it, its authors' replies, its
corrections and errata (DOMAIN.md "coherence" (b) and "Negative signals").

Two sources, read the same way: a work's relation to the publication as a registry records it (Crossref `relation`
`is-comment-on` / `is-reply-to`, `update-to` of type correction or erratum), and the title of a work citing the
publication ("Comment on ...", "Reply to ...", "Response to ...", "Corrigendum to ...", "Erratum"; Nature's
"<Author> et al. reply"). A comment is dispute evidence against the publication it comments on; a reply makes the
pair *debated* (coherence 0.5); a correction is a refinement (0.7); a retraction stays the retraction rule. The status
of a publication as of a date takes only what was published up to that date.

Known limitation: a reply is credited to the disputed paper's authors without checking the authors (neither the KG nor
the cached records carry both author lists reliably); a comment whose title quotes another work's title is matched to
the publication only when the quoted title is close to its own (`quotes_title`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import pandas as pd

COMMENT, REPLY, CORRECTION = "comment", "reply", "correction"
RELATIONS = (COMMENT, REPLY, CORRECTION)
# dispute_status of a publication (edge_reliability.dispute_status), strongest first.
COMMENTED, DEBATED, CORRECTED = "commented", "debated", "corrected"
# Coherence of a recorded dispute or correction on DOMAIN.md's scale: "actively debated" 0.5, "foundational but
# refined" 0.7; an unanswered comment stands against the paper: "contradicted" 0.1 until its authors answer.
DISPUTE_COHERENCE = {COMMENTED: 0.1, DEBATED: 0.5, CORRECTED: 0.7}

_TITLES = {
    COMMENT: re.compile(
        r"^\W*(?:(?:a |technical )?comments? (?:on|to)\b|matters arising\b|discussion of\b)"
        r"|[-–—:]\s*a comment\W*$",
        re.IGNORECASE,
    ),
    REPLY: re.compile(
        # the answer names what it answers ("Reply to", "Response to:", "Responses to comments"): "Responses of
        # vegetation to drought" is no reply
        r"^\W*(?:authors'? )?(?:reply|response|rebuttal)s?(?: to\b| on\b|\s*:)|\bet al\.? reply\W*$",
        re.IGNORECASE,
    ),
    CORRECTION: re.compile(r"^\W*(?:corrigendum|erratum|correction|addendum)\b", re.IGNORECASE),
}
# A title quoted in a comment's title: between typographic or straight quotes.
_QUOTED = re.compile(r"[\"“‘'](.{12,}?)[\"”’']")
_WORD = re.compile(r"[a-z0-9]+")
# Share of the quoted title's words the publication's title must hold (a quoted title is often cut or re-cased).
QUOTED_TITLE_OVERLAP = 0.6


def title_relation(title: object) -> str | None:
    """comment, reply or correction when the title reads as one ("Comment on “...”", "Reply to ...", "Response to
    Comments on ...", "Boyce et al. reply", "Corrigendum to ...", "Erratum: ..."), else None. A reply is tested
    first: "Response to Comment on ..." is a reply."""
    if not isinstance(title, str):
        return None
    for relation in (REPLY, CORRECTION, COMMENT):
        if _TITLES[relation].search(title):
            return relation
    return None


def quoted_title_matches(citing_title: str, cited_title: object) -> bool | None:
    """None when `citing_title` quotes no title; else whether one quoted title's words are mostly in `cited_title`
    (QUOTED_TITLE_OVERLAP of them: a quoted title is often cut or re-cased)."""
    quoted = _QUOTED.findall(citing_title or "")
    if not quoted:
        return None
    cited = set(_WORD.findall(cited_title.lower())) if isinstance(cited_title, str) else set()
    return any(
        (words := set(_WORD.findall(text.lower()))) and len(words & cited) / len(words) >= QUOTED_TITLE_OVERLAP for text in quoted
    )


def disputes_from_titles(citing: pd.DataFrame) -> pd.DataFrame:
    """The recorded disputes and corrections that the titles of citing works show.

    Args:
        citing: one row per (cited publication, citing work): cited_publication_id, cited_title, citing_key,
            citing_doi, citing_title, citing_year (NA when unknown), source (where the citation comes from: 'kg',
            'openalex').

    Returns:
        columns publication_id, relation (comment / reply / correction), other_key, other_doi, other_title,
        other_year, source ('<source> title'); one row per citing work whose title reads as one of them, unless it
        quotes a title that is not the publication's (a comment on another paper it also cites). A "Reply to" or
        "Response to" quoting the publication's own title, without the word comment, answers the publication
        itself: it is a comment on it (Kahn et al.'s "Response to 'Toward unified satellite climatology ...'").
    """
    relation = citing["citing_title"].map(title_relation)
    kept = citing[relation.notna()].assign(relation=relation[relation.notna()])
    matches = [quoted_title_matches(t, c) for t, c in zip(kept["citing_title"], kept["cited_title"])]
    kept = kept.assign(quotes=pd.array(matches, dtype="boolean"))
    kept = kept[kept["quotes"].fillna(True).astype(bool)]
    answers_paper = (kept["relation"] == REPLY) & kept["quotes"].fillna(False).astype(bool) & ~kept["citing_title"].str.contains(
        "comment", case=False
    )
    kept = kept.assign(relation=kept["relation"].where(~answers_paper, COMMENT))
    return pd.DataFrame({
        "publication_id": kept["cited_publication_id"].to_numpy(),
        "relation": kept["relation"].to_numpy(),
        "other_key": kept["citing_key"].to_numpy(),
        "other_doi": kept["citing_doi"].to_numpy(),
        "other_title": kept["citing_title"].to_numpy(),
        "other_year": pd.array(kept["citing_year"], dtype="Int64"),
        "source": (kept["source"] + " title").to_numpy(),
    })


def dispute_status(relations: Iterable[str]) -> str | None:
    """A publication's status from the relations recorded for it up to a date: commented (a comment, no reply),
    debated (a comment and a reply, or a reply alone: it answers something), corrected (a correction only), None."""
    found = set(relations)
    if REPLY in found:
        return DEBATED
    if COMMENT in found:
        return COMMENTED
    if CORRECTION in found:
        return CORRECTED
    return None
