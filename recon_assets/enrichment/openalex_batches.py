"""Plan the OpenAlex requests for a set of DOIs: few OR-filter batches, and the DOIs that must be looked up singly.

OpenAlex takes up to 100 values in one OR filter (`filter=doi:A|B|...`, "Filter entity lists", OR
syntax); URLs much longer than about 4,000 characters are refused by proxies on the way, and old SICI DOIs
(`10.1175/1520-0442(2001)014<0203:abcd>2.0.co;2`) nearly double when percent-encoded, so batches are cut
by both limits. `,` separates filters and `|` separates OR values in the filter syntax, so a DOI holding
either cannot be a filter value: it is looked up singly (`/works/doi:<doi>`), as is any DOI a batch did
not return (see `openalex_client`).

Values are percent-encoded with `urllib.parse.quote_plus`, exactly once: that is what pyalex 0.21 does to
every filter value and path id (`pyalex.api._quote_oa_value`); requests then leaves those escapes alone and
encodes only the `|` between values. The lengths counted here are the lengths sent.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import quote_plus

MAX_FILTER_VALUES = 100
MAX_URL_CHARS = 4_000
# Characters the OpenAlex filter syntax reserves: ',' between filters, '|' between OR values.
RESERVED_FILTER_CHARS = frozenset(",|")
# pyalex joins OR values with '|'; requests percent-encodes it when it prepares the URL, so it is sent as %7C.
OR_SEPARATOR_CHARS = len("%7C")


@dataclass(frozen=True)
class RequestPlan:
    """`batches`: lists of DOIs, one OR-filter request each; `singles`: DOIs to look up one by one."""

    batches: list[list[str]]
    singles: list[str]

    @property
    def requests(self) -> int:
        """Requests the plan makes when every batch returns all its DOIs."""
        return len(self.batches) + len(self.singles)


def encoded_length(doi: str) -> int:
    """Characters `doi` takes in a URL once percent-encoded (quote_plus, as pyalex encodes it)."""
    return len(quote_plus(doi))


def needs_single_lookup(doi: str) -> bool:
    """True when `doi` holds a character the filter syntax reserves (`,` or `|`)."""
    return not RESERVED_FILTER_CHARS.isdisjoint(doi)


def plan_requests(
    dois: Iterable[str],
    *,
    fixed_url_chars: int,
    max_values: int = MAX_FILTER_VALUES,
    max_url_chars: int = MAX_URL_CHARS,
) -> RequestPlan:
    """Pack `dois` into as few OR-filter batches as fit `max_values` DOIs and `max_url_chars` URL characters
    each (worst fit decreasing; each batch lists its DOIs in input order, batches by their first DOI).

    Args:
        dois: canonical DOIs (duplicates are planned once, first-seen order kept).
        fixed_url_chars: length of the request URL without any DOI value (base URL, path, `select`,
            `per-page`, `filter=doi:`), as the client builds it.
        max_values: values per OR filter (OpenAlex: 100).
        max_url_chars: longest URL allowed.

    Returns:
        The plan. A DOI with a reserved character, or too long to fit any batch on its own, is a single.

    Raises:
        ValueError: `max_values` < 1, or `fixed_url_chars` leaves no room for a value.
    """
    if max_values < 1:
        raise ValueError(f"max_values must be at least 1, got {max_values}")
    room = max_url_chars - fixed_url_chars
    if room < 1:
        raise ValueError(f"a URL of {fixed_url_chars} fixed characters leaves no room under {max_url_chars}")
    unique = list(dict.fromkeys(dois))
    position = {doi: index for index, doi in enumerate(unique)}
    size = {doi: encoded_length(doi) for doi in unique}
    alone = {doi for doi in unique if needs_single_lookup(doi) or size[doi] > room}
    singles = [doi for doi in unique if doi in alone]
    packed = sorted((doi for doi in unique if doi not in alone), key=lambda doi: (-size[doi], position[doi]))
    # Worst fit decreasing: longest DOIs first, each into the batch with the most room left, starting from
    # the fewest batches both limits allow, so long SICI DOIs are spread over the batches instead of filling
    # one early. A DOI that fits in no batch (then in none) opens a new one.
    need = sum(size[doi] + OR_SEPARATOR_CHARS for doi in packed)
    count = max(math.ceil(len(packed) / max_values), math.ceil(need / (room + OR_SEPARATOR_CHARS)))
    batches: list[list[str]] = [[] for _ in range(count)]
    left = [room] * count
    roomiest = [(-room, index) for index in range(count)]  # a heap of (-room left, batch) with values to spare
    for doi in packed:
        index = roomiest[0][1] if roomiest else None
        # every value after a batch's first is preceded by the OR separator
        if index is not None and size[doi] + (OR_SEPARATOR_CHARS if batches[index] else 0) <= left[index]:
            heapq.heappop(roomiest)
        else:
            batches.append([])
            left.append(room)
            index = len(batches) - 1
        left[index] -= size[doi] + (OR_SEPARATOR_CHARS if batches[index] else 0)
        batches[index].append(doi)
        if len(batches[index]) < max_values:
            heapq.heappush(roomiest, (-left[index], index))
    batches = sorted((sorted(batch, key=position.__getitem__) for batch in batches if batch), key=lambda batch: position[batch[0]])
    return RequestPlan(batches, singles)

