"""Read an OpenAlex Work into the columns of `openalex_works`: the fields the score uses, the abstract
rebuilt from its inverted index, whether the work is a retraction notice, and its field-and-year citation
percentile. Nothing here depends on `as_of`: what a citation record says as of a date is worked out when scoring
(`reliability.citations`).

Work fields: OpenAlex API reference, "Work object" (`cited_by_count`, `counts_by_year` (last ten years,
years with zero citations left out), `is_retracted`, `publication_year`, `referenced_works`,
`abstract_inverted_index`, `primary_topic`, `type`, `citation_normalized_percentile` ({value in [0, 1],
is_in_top_1_percent, is_in_top_10_percent}: the citation count's percentile among works of the same type, year
and subfield), `cited_by_percentile_year` ({min, max} in 0-100: the percentile range among works of the same year)).

Every record is checked against a schema of exactly the fields used before it is cached or used (`OpenAlexWork` for
`SELECT_FIELDS`, `OpenAlexCitingWork` for `CITING_FIELDS`; `invalid_reason` says what is wrong): a string where
OpenAlex sends a number, a count below zero or a percentile out of range makes the record unusable, not the run.

A recording may also hold records composed from a public page (`ComposedWork`: a citation count a publisher,
Semantic Scholar or a research portal shows, recon_assets/reference/evaluation/citation_records.csv), shaped like an
OpenAlex work but not an OpenAlex answer: no OpenAlex id, `counts_by_year` as the page shows it (null: no years),
and `_composed_from` naming the page, its date and whose count it is. `composed_seen_at` is the day its count was seen,
from which alone it is evidence (`reliability.citations.count_visible`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import date, datetime, time, timezone
from typing import Annotated, Any

import pandas as pd
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, ValidationError, field_validator, model_validator

from recon_assets.kg.doi import canonical_doi
from recon_assets.shared.table_docs import declared_columns
from recon_assets.shared.validation import problem_line

# The fields requested with `select` (OpenAlex bills by request, not by field, but smaller pages are faster).
SELECT_FIELDS = (
    "id", "doi", "title", "type", "publication_year", "cited_by_count", "counts_by_year",
    "is_retracted", "referenced_works", "primary_topic", "abstract_inverted_index", "citation_normalized_percentile",
    "cited_by_percentile_year",
)
# The fields requested for a work citing another (`openalex_client.OpenAlexClient.citing_works`): what the judges
# read (title, abstract, year, type) and weigh (cited_by_count), what scores it when evidence expansion adds it to a
# dataset's evidence (citation counts by year, percentile), the citation tag (authorships) and which of the asked-for
# works it cites (referenced_works).
CITING_FIELDS = (
    "id", "doi", "title", "type", "publication_year", "publication_date", "cited_by_count", "counts_by_year",
    "citation_normalized_percentile", "cited_by_percentile_year", "is_retracted", "referenced_works",
    "abstract_inverted_index", "authorships",
)
# The start of the error text of a record that fails its schema (`invalid_reason`).
INVALID_RECORD = "invalid OpenAlex record"
# The key of a composed record's provenance (`ComposedWork`); OpenAlex sends no key starting with '_'.
COMPOSED_FROM = "_composed_from"


def _a_doi(value: str) -> str:
    if canonical_doi(value) is None:
        raise ValueError("not a DOI")
    return value


def _an_iso_date(value: str) -> str:
    date.fromisoformat(value)  # ValueError names what is wrong
    return value


# The schema of the fields used, with the types and ranges of OpenAlex's API reference, "Work object", and of its own
# serializer (ourresearch/openalex-elastic-api `works/schemas.py`: cited_by_count, publication_year, counts_by_year
# and cited_by_percentile_year min / max are integers). Strict: a string is never read as a number, nor 0 as false.
# Nullable exactly where OpenAlex sends null (no DOI, title, year, date, topic, abstract or percentile); lists and
# counts are never null (empty, or 0). Other fields are ignored: a single lookup returns them all.
NonNegativeInt = Annotated[int, Field(ge=0)]
WorkId = Annotated[str, StringConstraints(pattern=r"^(?:https://openalex\.org/)?W\d+$")]
Doi = Annotated[str, AfterValidator(_a_doi)]


class _OpenAlexObject(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class YearCitations(_OpenAlexObject):
    """One entry of `counts_by_year`: the citations a work received in one year."""

    year: int
    cited_by_count: NonNegativeInt


class NormalizedPercentile(_OpenAlexObject):
    """`citation_normalized_percentile`: the percentile among works of the same type, year and subfield, in [0, 1]."""

    value: Annotated[float, Field(ge=0, le=1)] | None
    is_in_top_1_percent: bool | None = None
    is_in_top_10_percent: bool | None = None


class YearPercentile(_OpenAlexObject):
    """`cited_by_percentile_year`: the percentile range among works of the same year, 0-100, min <= max."""

    min: Annotated[int, Field(ge=0, le=100)]
    max: Annotated[int, Field(ge=0, le=100)]

    @model_validator(mode="after")
    def _ordered(self) -> YearPercentile:
        if self.min > self.max:
            raise ValueError(f"min {self.min} is above max {self.max}")
        return self


class Topic(_OpenAlexObject):
    """`primary_topic`, stored whole as JSON: an OpenAlex topic (id, name, score in [0, 1])."""

    id: str
    display_name: str
    score: Annotated[float, Field(ge=0, le=1)] | None = None


class Author(_OpenAlexObject):
    display_name: str | None = None


class Authorship(_OpenAlexObject):
    """One entry of `authorships`: the author's display name, else the name as printed, tags the citation."""

    author: Author | None = None
    raw_author_name: str | None = None


class _Work(_OpenAlexObject):
    """The fields both schemas share."""

    id: WorkId
    doi: Doi | None = None
    title: str | None = None
    type: str | None = None
    publication_year: int | None = None
    cited_by_count: NonNegativeInt
    counts_by_year: list[YearCitations]
    is_retracted: bool
    referenced_works: list[WorkId]
    abstract_inverted_index: dict[str, list[NonNegativeInt]] | None = None
    citation_normalized_percentile: NormalizedPercentile | None = None
    cited_by_percentile_year: YearPercentile | None = None

    @field_validator("counts_by_year")
    @classmethod
    def _one_count_per_year(cls, counts: list[YearCitations]) -> list[YearCitations]:
        # OpenAlex bins the citations by year: a year given twice would be counted twice (reliability.citations).
        seen: set[int] = set()
        for entry in counts:
            if entry.year in seen:
                raise ValueError(f"year {entry.year} given more than once")
            seen.add(entry.year)
        return counts


class OpenAlexWork(_Work):
    """A publication's or dataset's work, as `openalex_works` and the openalex_cache keep it (`SELECT_FIELDS`)."""

    primary_topic: Topic | None = None


class ComposedFrom(_OpenAlexObject):
    """Where a composed record's count was seen: the page (URL), the date the page shows (None when it shows none),
    the day the page was read, and whose count it is (e.g. 'Scopus (as the page says)')."""

    page: Annotated[str, StringConstraints(pattern=r"^https?://\S+$")]
    page_date: Annotated[str, AfterValidator(_an_iso_date)] | None
    read_on: Annotated[str, AfterValidator(_an_iso_date)]
    count_source: Annotated[str, StringConstraints(min_length=1)]


class ComposedWork(_OpenAlexObject):
    """A work record composed from a public page that shows its citation count, in the shape of `OpenAlexWork` but no
    OpenAlex answer: `id` is null (no OpenAlex id is invented), `counts_by_year` is the page's year breakdown or null
    when it shows none, `is_retracted` and `referenced_works` are null unless the page shows them."""

    id: None = None
    doi: Doi
    title: str | None = None
    type: str | None = None
    publication_year: int | None = None
    cited_by_count: NonNegativeInt
    counts_by_year: list[YearCitations] | None = None
    is_retracted: bool | None = None
    referenced_works: list[WorkId] | None = None
    composed_from: ComposedFrom = Field(alias=COMPOSED_FROM)


def is_composed(work: object) -> bool:
    """Whether `work` is a record composed from a public page (it carries `_composed_from`), not an OpenAlex answer."""
    return isinstance(work, Mapping) and COMPOSED_FROM in work


def composed_seen_at(work: Mapping[str, Any]) -> datetime | None:
    """The day (UTC midnight) a composed record's count was seen: the page's date, else the day the page was read;
    None for an OpenAlex work. Before it the count is no evidence (`reliability.citations.count_visible`).

    Raises:
        ValueError: a date not in ISO form (a record that passed `ComposedWork` has none).
    """
    if not is_composed(work):
        return None
    seen = work[COMPOSED_FROM].get("page_date") or work[COMPOSED_FROM]["read_on"]
    return datetime.combine(date.fromisoformat(seen), time(), tzinfo=timezone.utc)


def cached_fields(work: Mapping[str, Any]) -> dict[str, Any]:
    """What the openalex_cache keeps of a work: the `select`ed fields (a single lookup returns all), and a composed
    record's `_composed_from`."""
    return {key: work.get(key) for key in SELECT_FIELDS} | ({COMPOSED_FROM: work[COMPOSED_FROM]} if is_composed(work) else {})


class OpenAlexCitingWork(_Work):
    """A work citing another, as `openalex_citing_works` keeps it (`CITING_FIELDS`)."""

    publication_date: Annotated[str, AfterValidator(_an_iso_date)] | None = None
    authorships: list[Authorship]


def invalid_reason(work: object, schema: type[_Work] = OpenAlexWork) -> str | None:
    """Why `work` does not meet `schema` (`OpenAlexWork` or `OpenAlexCitingWork`), or None when it does. A composed
    record (`is_composed`) in place of an `OpenAlexWork` is checked against `ComposedWork`.

    Returns:
        'invalid OpenAlex record: counts_by_year.0.year: Input should be a valid integer (got 'x')': each failing
        field by its path, at most three (then how many more), each value cut to 40 characters.
    """
    if schema is OpenAlexWork and is_composed(work):
        schema = ComposedWork
    try:
        schema.model_validate(work)
    except ValidationError as error:
        problems = [
            problem_line(problem, "the record")
            + (f" (got {_cut(repr(problem['input']))})" if problem["type"] != "missing" else "")
            for problem in error.errors(include_url=False)
        ]
        more = f"; and {len(problems) - 3} more" if len(problems) > 3 else ""
        return f"{INVALID_RECORD}: {'; '.join(problems[:3])}{more}"
    return None


def _cut(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


OPENALEX_WORK_COLUMNS = declared_columns("openalex_works")
# Titles of retraction notices ("Retraction Note: ...", "Retraction—...", "Notice of Retraction ..."): the
# notice is a current document about another paper, though OpenAlex sets is_retracted on some of them
# (seen on the real records: W4381149761 "Retraction Note: Data-driven EUR ...", type article).
# "RETRACTED ARTICLE: ..." is the retracted paper itself and does not match.
_NOTICE_TITLE = re.compile(r"^\W*(?:retraction(?:\s+(?:note|notice))?\b|notice\s+of\s+retraction\b)", re.IGNORECASE)


def rebuild_abstract(inverted_index: Mapping[str, list[int]] | None) -> str | None:
    """The abstract text from OpenAlex's `abstract_inverted_index` ({word: [positions]}).

    Every word is placed at each of its positions, so repeated words come back where they were:
    {"Data": [0], "is": [1, 5], "complex": [2], "and": [3], "it": [4], "multi-step": [6]} gives
    "Data is complex and it is multi-step". A null or empty index gives None (OpenAlex has no abstract).
    """
    if not inverted_index:
        return None
    placed = sorted((position, word) for word, positions in inverted_index.items() for position in positions)
    return " ".join(word for _, word in placed)


def is_retraction_notice(work: Mapping[str, Any]) -> bool:
    """True when the work is a retraction notice (OpenAlex type 'retraction', or a notice's title), not a finding."""
    return work.get("type") == "retraction" or bool(_NOTICE_TITLE.match(work.get("title") or ""))


def citation_percentile(work: Mapping[str, Any]) -> tuple[float | None, float | None]:
    """(low, high) bounds of the work's field-and-year citation percentile in [0, 1], or (None, None).

    `citation_normalized_percentile.value` (same type, year and subfield) gives both bounds; without it the
    year-only `cited_by_percentile_year` {min, max} (0-100) gives a range, read conservatively by each use (the
    FOUNDATIONAL gate needs the low bound over its bar, "bottom half" the high bound under 0.5).
    """
    normalized = work.get("citation_normalized_percentile")
    if isinstance(normalized, Mapping) and isinstance(normalized.get("value"), (int, float)):
        return float(normalized["value"]), float(normalized["value"])
    by_year = work.get("cited_by_percentile_year")
    if isinstance(by_year, Mapping) and all(isinstance(by_year.get(bound), (int, float)) for bound in ("min", "max")):
        return by_year["min"] / 100.0, by_year["max"] / 100.0
    return None, None


def work_columns(work: Mapping[str, Any]) -> dict[str, Any]:
    """The `openalex_works` columns of a found work (see TABLE_DOCS["openalex_works"]).

    JSON-valued columns (counts_by_year, primary_topic) are JSON text; referenced_works is a list of ids. A composed
    record (`ComposedWork`) keeps its nulls: no openalex_id, counts_by_year NULL when the page shows no years,
    is_retracted and referenced_works NULL when it does not show them.
    """
    composed = is_composed(work)
    low, high = citation_percentile(work)
    return {
        "openalex_id": work.get("id"),
        "openalex_doi": canonical_doi(work.get("doi")),
        "title": work.get("title"),
        "type": work.get("type"),
        "publication_year": work.get("publication_year"),
        "cited_by_count": work.get("cited_by_count"),
        "counts_by_year": None if composed and work.get("counts_by_year") is None else json.dumps(work.get("counts_by_year") or []),
        "citation_percentile_low": low,
        "citation_percentile_high": high,
        "is_retracted": None if composed and work.get("is_retracted") is None else bool(work.get("is_retracted")),
        "is_retraction_notice": is_retraction_notice(work),
        "referenced_works": None if composed and work.get("referenced_works") is None else list(work.get("referenced_works") or []),
        "primary_topic": json.dumps(work["primary_topic"]) if work.get("primary_topic") else None,
        "abstract": rebuild_abstract(work.get("abstract_inverted_index")),
    }


def unusable_cache_rows(cache: pd.DataFrame) -> dict[str, str]:
    """The openalex_cache rows that cannot be used, with why: a found row whose work is not JSON or fails
    `OpenAlexWork` (cached by an older version, or by hand), or a status other than found / not_found.

    Args:
        cache: openalex_cache rows (doi, status, work as JSON text or NULL).

    Returns:
        {doi: 'the cached record was dropped: <reason>'}; the others are usable.
    """
    unusable = {}
    for row in cache.itertuples(index=False):
        if row.status == "not_found":
            continue
        if row.status != "found":
            unusable[row.doi] = f"the cached record was dropped: unknown status {_cut(repr(row.status))}"
            continue
        try:
            work = json.loads(row.work) if isinstance(row.work, str) else row.work if isinstance(row.work, Mapping) else None
        except ValueError as error:
            unusable[row.doi] = f"the cached record was dropped: not JSON ({error})"
            continue
        problem = invalid_reason(work)
        if problem:
            unusable[row.doi] = f"the cached record was dropped: {problem}"
    return unusable


def openalex_rows(requested: pd.DataFrame) -> pd.DataFrame:
    """The `openalex_works` rows of the requested DOIs as recon_assets/enrichment/sql/openalex_work_rows.sql pairs them with the
    cache: a found work's columns read from its JSON (`work_columns`), the other rows as the query gives them.

    Args:
        requested: columns research_area, doi, status (found / not_found from the cache, else mismatch or error), error,
            work (JSON text of a found work, every one valid: `unusable_cache_rows` finds those that are not), fetched_at.

    Returns:
        DataFrame with the columns of `OPENALEX_WORK_COLUMNS`, in `requested` order.
    """
    rows = []
    for row in requested.itertuples(index=False):
        stored = {"research_area": row.research_area, "doi": row.doi, "status": row.status, "error": row.error, "fetched_at": row.fetched_at}
        work = work_columns(json.loads(row.work)) if row.status == "found" else {}
        rows.append(dict.fromkeys(OPENALEX_WORK_COLUMNS) | stored | work)
    return pd.DataFrame(rows, columns=list(OPENALEX_WORK_COLUMNS))
