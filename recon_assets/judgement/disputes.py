"""Recorded disputes and corrections of a publication: published comments on it, its authors' replies, its
corrections and errata (DOMAIN.md "coherence" (b) and "Negative signals").

Two sources, read the same way:
- the title of a work citing the publication ("Comment on ...", "Reply to ...", "Response to ...", "Corrigendum to
  ...", "Erratum"; Nature's "<Author> et al. reply"): `disputes_from_titles`;
- a work's relation to the publication as Crossref records it (crossref_relations): `relation` `is-comment-on` /
  `has-comment` (a comment), `is-reply-to` / `has-reply` (a reply; a reply to a comment on the publication
  answers the publication), and update notices of type correction, corrigendum, erratum or addendum (`update-to`,
  a correction): `disputes_from_crossref`. Peer-review relations and the open discussion of a preprint (a
  Copernicus discussion paper's `has-comment` lists its authors' answers to the referees) are not disputes.
Where both sources name the same work answering the same publication, Crossref's relation stands
(`merge_recorded_disputes`).

A comment is dispute evidence against the publication it comments on; a reply makes the pair *debated* (coherence
0.5); a correction is a refinement (0.7); a retraction stays the retraction rule. The status of a publication as of
a date takes only what was published up to that date, so a comment whose reply came out after `as_of` is still
*standing* at that `as_of` (DOMAIN.md label rule 1: a standing dispute is a recorded comment its authors have not
answered on record up to `as_of`; a debated one is a negative signal, DECLINING at most, never SUPERSEDED on its own).

Known limitation: a reply is credited to the disputed paper's authors without checking the authors (neither the KG nor
the cached records carry both author lists reliably); a comment whose title quotes another work's title is matched to
the publication only when the quoted title is close to its own (`quotes_title`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import pandas as pd

from recon_assets.enrichment.crossref_relations import (
    COMMENT_RELATIONS,
    REPLY_RELATIONS,
    REVIEW_RELATIONS,
    UPDATED_BY,
    open_discussion,
)
from recon_assets.judgement.dispute_status import COMMENTED, CORRECTED, DEBATED
from recon_assets.judgement.verdict_scale import CONTRADICTED_COHERENCE, DEBATED_COHERENCE, REFINED_COHERENCE

COMMENT, REPLY, CORRECTION = "comment", "reply", "correction"
RELATIONS = (COMMENT, REPLY, CORRECTION)
# Coherence of a recorded dispute or correction on DOMAIN.md's scale: "actively debated" 0.5, "foundational but
# refined" 0.7; an unanswered comment stands against the paper: "contradicted" 0.1 until its authors answer.
DISPUTE_COHERENCE = {COMMENTED: CONTRADICTED_COHERENCE, DEBATED: DEBATED_COHERENCE, CORRECTED: REFINED_COHERENCE}

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


CROSSREF_RELATION, CROSSREF_UPDATE = "crossref relation", "crossref update-to"
# Crossref update types that correct a work (Crossref deposit schema 5.3.1, `update` type: addendum, clarification,
# correction, corrigendum, erratum, expression_of_concern, new_edition, new_version, partial_retraction, removal,
# retraction, withdrawal; compared in lower case with '-' as '_', as deposits spell them both ways). A retraction stays
# the retraction rule's (crossref_retractions); the others do not say the work was corrected.
CORRECTION_UPDATE_TYPES = frozenset({"correction", "corrigendum", "erratum", "addendum"})
DISPUTE_COLUMNS = ("publication_id", "relation", "other_key", "other_doi", "other_title", "other_year", "source")
ENTRY_KEY = ["record_doi", "relation", "update_type", "other_id"]
# Prefix of other_key for a correction made in place (the notice is the publication's own record): the key is then
# not the publication's own id, so a reason does not name the publication as its own corrector.
IN_PLACE = "in-place:"


def crossref_reading(entry) -> tuple[str, str, str] | str:
    """How one crossref_relations entry reads: (relation, answering DOI, answered DOI) for a comment, reply or
    correction, else the reason it is not one.

    Args:
        entry: record_doi, record_type, relation, update_type, other_id, other_id_type, other_type (attributes).

    Returns:
        (COMMENT / REPLY / CORRECTION, the work that answers, the work it answers), or a reason (str).
    """
    if entry.relation == UPDATED_BY:
        update_type = str(entry.update_type).lower().replace("-", "_")
        if update_type in CORRECTION_UPDATE_TYPES:
            return CORRECTION, entry.other_id, entry.record_doi
        if update_type == "retraction":
            return "a retraction notice: the retraction rule (crossref_retractions), not a recorded dispute"
        return f"update type {entry.update_type!r} does not correct the work"
    if entry.relation in REVIEW_RELATIONS:
        return "a peer-review report, not a published comment"
    if entry.other_id_type != "doi":
        return f"the related work has no DOI ({entry.other_id_type})"
    relation = COMMENT if entry.relation in COMMENT_RELATIONS else REPLY if entry.relation in REPLY_RELATIONS else None
    if relation is None:
        return f"relation {entry.relation!r} is not a comment or reply"
    if open_discussion((entry.record_doi, entry.record_type), (entry.other_id, entry.other_type)):
        return "open peer-review discussion of a preprint (e.g. Copernicus author and referee comments), not a published comment"
    # is-comment-on / is-reply-to: the record answers the other; has-comment / has-reply: the other answers the record
    if entry.relation.startswith("is-"):
        return relation, entry.record_doi, entry.other_id
    return relation, entry.other_id, entry.record_doi


def disputes_from_crossref(entries: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The recorded disputes and corrections that Crossref's relations and update notices show.

    Each entry reads as at most one relation (`crossref_reading`). A comment answers the work it names; a reply
    answers the work it names and, when that work is a recorded comment on a publication, that publication too (a
    reply to "Comment on X" makes X debated). Only publications in the KG get rows. The same work answering the same
    publication, recorded from both sides (X has-comment C and C is-comment-on X), is one row.

    Args:
        entries: crossref_relations entries (recon_assets/judgement/sql/crossref_dispute_entries.sql): record_doi, record_type,
            record_title, record_year, relation, update_type, other_id, other_id_type, other_type, other_title,
            other_year, record_publication_id and other_publication_id (the KG publication id of each side, NA when
            not in the KG); one row per entry (ENTRY_KEY), as that query gives them: it picks among an entry's copies.

    Returns:
        (rows, set_aside): rows with DISPUTE_COLUMNS (source 'crossref relation' or 'crossref update-to'; other_key
        the answering work's KG publication id, else its DOI, or IN_PLACE + DOI for a correction made in place;
        other_year the answering work's publication year, for a correction the notice's year, NA when unknown);
        set_aside one row per entry that reads as none, or answers no KG publication, with ENTRY_KEY and a reason.
        Every distinct entry either made rows or is set aside, never both.
    """
    repeated = entries.duplicated(ENTRY_KEY)
    if repeated.any():
        raise ValueError(
            f"{int(repeated.sum())} Crossref entries repeat an entry key {ENTRY_KEY} (first: "
            f"{tuple(entries.loc[repeated, ENTRY_KEY].iloc[0])}): read them through crossref_dispute_entries.sql, which keeps one"
        )
    kg, works = _kg_ids(entries), _works(entries)
    readings, set_aside = [], []
    for entry in entries.itertuples(index=False):
        reading = crossref_reading(entry)
        if isinstance(reading, str):
            set_aside.append((*_key(entry), reading))
        else:
            readings.append((entry, *reading))
    commented: dict[str, set[str]] = {}
    for _, relation, answering, answered in readings:
        if relation == COMMENT:
            commented.setdefault(answering, set()).add(answered)
    rows = []
    for entry, relation, answering, answered in readings:
        targets = {answered} | (commented.get(answered, set()) if relation == REPLY else set())
        # a work answering itself is a correction made in place, never a comment or reply
        found = [target for target in sorted(targets) if target in kg and (target != answering or relation == CORRECTION)]
        if not found:
            set_aside.append((*_key(entry), "answers no publication of the KG"))
            continue
        if entry.relation == UPDATED_BY:
            title, year, source = entry.other_title, entry.other_year, CROSSREF_UPDATE
        else:
            (title, year), source = works.get(answering, (None, None)), CROSSREF_RELATION
        for target in found:
            key = IN_PLACE + answering if answering == target else kg.get(answering, answering)
            rows.append((kg[target], relation, key, answering, title, year, source))
    frame = pd.DataFrame(rows, columns=list(DISPUTE_COLUMNS))
    frame = frame.assign(other_year=frame["other_year"].astype("Int64"))
    # recorded from both sides: one row, with the year that either side gave
    frame = frame.sort_values("other_year", na_position="first").drop_duplicates(["publication_id", "relation", "other_key"], keep="last")
    return (
        frame.sort_values(["publication_id", "relation", "other_key"], ignore_index=True),
        pd.DataFrame(set_aside, columns=[*ENTRY_KEY, "reason"]),
    )


def merge_recorded_disputes(titles: pd.DataFrame, crossref: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """Title-read and Crossref-read disputes together, one reading per (publication, answering work).

    Where Crossref records a relation between a publication and a work whose title was also read (the same DOI,
    else the same key), Crossref's relation stands: the publisher deposited it, the title is a guess. A title
    reading that agrees is kept as a second source ('crossref relation + kg title'); one that disagrees is dropped.

    Args:
        titles, crossref: DISPUTE_COLUMNS frames (`disputes_from_titles`, `disputes_from_crossref`).

    Returns:
        (rows with DISPUTE_COLUMNS, how many title readings Crossref overrode).
    """
    pair = ["publication_id", "identity"]
    titles = titles.assign(identity=titles["other_doi"].fillna(titles["other_key"]))
    crossref = crossref.assign(identity=crossref["other_doi"].fillna(crossref["other_key"]))
    recorded = titles.set_index(pair).index.isin(crossref.set_index(pair).index)
    answered = titles[recorded]
    agreeing = answered.merge(crossref[[*pair, "relation"]], on=[*pair, "relation"])
    also = agreeing.groupby([*pair, "relation"])["source"].agg(lambda sources: " + ".join(sorted(set(sources))))
    crossref = crossref.join(also.rename("title_source"), on=[*pair, "relation"])
    crossref = crossref.assign(source=[
        source if not isinstance(title_source, str) else f"{source} + {title_source}"
        for source, title_source in zip(crossref["source"], crossref["title_source"])
    ])
    overridden = len(answered.drop_duplicates([*pair, "relation"])) - len(also)
    merged = pd.concat([titles[~recorded][list(DISPUTE_COLUMNS)], crossref[list(DISPUTE_COLUMNS)]], ignore_index=True)
    return merged.assign(other_year=merged["other_year"].astype("Int64")), overridden


def _key(entry) -> tuple:
    return tuple(getattr(entry, name) for name in ENTRY_KEY)


def _kg_ids(entries: pd.DataFrame) -> dict[str, str]:
    """{DOI: KG publication id} of the works of `entries` that are KG publications."""
    pairs = [*zip(entries["record_doi"], entries["record_publication_id"]), *zip(entries["other_id"], entries["other_publication_id"])]
    return {doi: publication_id for doi, publication_id in pairs if isinstance(publication_id, str)}


def _works(entries: pd.DataFrame) -> dict[str, tuple[str | None, int | None]]:
    """{DOI: (title, publication year)} of the works whose Crossref records `entries` carry, on either side (not
    an update notice's side: its year is the update's), a known value first."""
    works: dict[str, tuple[str | None, int | None]] = {}

    def add(doi: str, title: object, year: object) -> None:
        known_title, known_year = works.get(doi, (None, None))
        works[doi] = (
            known_title if known_title is not None else title if isinstance(title, str) else None,
            known_year if known_year is not None else int(year) if pd.notna(year) else None,
        )

    for entry in entries.itertuples(index=False):
        add(entry.record_doi, entry.record_title, entry.record_year)
        if entry.relation != UPDATED_BY and entry.other_id_type == "doi":
            add(entry.other_id, entry.other_title, entry.other_year)
    return works


def dispute_status(relations: Iterable[str]) -> str | None:
    """A publication's status from the relations recorded for it up to a date: commented (a comment, no reply: a
    standing dispute, STANDING), debated (a comment and a reply, or a reply alone: it answers something), corrected
    (a correction only), None. A reply published after the date is not among `relations`: the comment still stands."""
    found = set(relations)
    if REPLY in found:
        return DEBATED
    if COMMENT in found:
        return COMMENTED
    if CORRECTION in found:
        return CORRECTED
    return None
