"""Tests for planning OpenAlex requests: OR-filter batches within 100 values and ~4,000 URL characters."""

import math
from urllib.parse import quote_plus

import pytest

from recon_assets.enrichment.openalex_batches import (
    MAX_FILTER_VALUES,
    MAX_URL_CHARS,
    OR_SEPARATOR_CHARS,
    encoded_length,
    needs_single_lookup,
    plan_requests,
)

FIXED = 200  # a realistic fixed part: base URL, /works, filter=doi:, select=..., per-page=100
# A real SICI DOI (cited in a recorded Crossref work, 10.1016/j.apsusc.2007.01.131): 64 characters, 86 encoded.
SICI = "10.1002/(sici)1521-396x(199910)175:2<637::aid-pssa637>3.0.co;2-7"


def _url_chars(batch: list[str]) -> int:
    return FIXED + sum(encoded_length(doi) for doi in batch) + OR_SEPARATOR_CHARS * (len(batch) - 1)


def _check(plan, dois):
    """Every DOI planned exactly once, each batch within both limits and in input order."""
    planned = [doi for batch in plan.batches for doi in batch] + plan.singles
    assert sorted(planned) == sorted(set(dois))
    for batch in plan.batches:
        assert len(batch) <= MAX_FILTER_VALUES and _url_chars(batch) <= MAX_URL_CHARS
        assert batch == sorted(batch, key=dois.index)


@pytest.mark.parametrize(("count", "batches"), [(1, 1), (99, 1), (100, 1), (101, 2), (250, 3), (1_000, 10)])
def test_plain_dois_take_one_request_per_100(count, batches):
    dois = [f"10.3390/rs{index:08d}" for index in range(count)]
    plan = plan_requests(dois, fixed_url_chars=FIXED)
    _check(plan, dois)
    assert plan.singles == [] and plan.requests == len(plan.batches) == batches


def test_sici_dois_are_cut_by_url_length_before_100_values():
    dois = [SICI.replace("175:2", f"{volume}:2") for volume in range(100, 200)]
    assert encoded_length(dois[0]) == len(dois[0]) + 2 * 11  # 11 characters percent-encoded: 100 of them pass 4,000
    plan = plan_requests(dois, fixed_url_chars=FIXED)
    _check(plan, dois)
    # as few batches as the length allows: 100 x (86 + 3) characters in 3,800 per URL
    assert len(plan.batches) == math.ceil(100 * (86 + OR_SEPARATOR_CHARS) / (MAX_URL_CHARS - FIXED + OR_SEPARATOR_CHARS)) == 3
    assert plan.singles == []


@pytest.mark.parametrize("order", ["sorted", "interleaved"])
def test_long_dois_are_spread_so_1000_dois_still_take_10_requests(order):
    """A run of SICI DOIs (as sorting by DOI gives: same publisher prefix) must not fill one batch early."""
    sici = [SICI.replace("175:2", f"{volume}:2") for volume in range(20)]
    plain = [f"10.3390/rs{index:08d}" for index in range(980)]
    dois = sorted(sici + plain)
    if order == "interleaved":
        dois = list(plain)
        for index, doi in enumerate(sici):
            dois.insert(index * 50, doi)
    plan = plan_requests(dois, fixed_url_chars=FIXED)
    _check(plan, dois)
    assert plan.requests == 10


@pytest.mark.parametrize(
    ("doi", "single"),
    [
        ("10.1001/jama.251.19.2504,2509", True),  # ',' separates filters
        ("10.1000/a|b", True),  # '|' separates OR values
        ("10.1207/s15327809jls0703&4_2", False),  # '&' is only URL-special: encoded once, fine in a filter
        (SICI, False),
        ("10.3390/rs12081239", False),
    ],
)
def test_reserved_filter_characters_force_a_single_lookup(doi, single):
    assert needs_single_lookup(doi) is single
    plan = plan_requests(["10.3390/rs12081239", doi], fixed_url_chars=FIXED)
    assert (doi in plan.singles) is single
    assert (doi in [d for batch in plan.batches for d in batch]) is not single


@pytest.mark.parametrize(
    ("doi", "encoded"),
    [
        ("10.1207/s15327809jls0703&4_2", "10.1207%2Fs15327809jls0703%264_2"),
        ("10.1001/jama.251.19.2504,2509", "10.1001%2Fjama.251.19.2504%2C2509"),
        ("10.1175/1520-0442(2001)014<0203:abcd>2.0.co;2", "10.1175%2F1520-0442%282001%29014%3C0203%3Aabcd%3E2.0.co%3B2"),
    ],
)
def test_encoded_length_counts_one_percent_encoding(doi, encoded):
    assert quote_plus(doi) == encoded
    assert encoded_length(doi) == len(encoded)


def test_duplicates_are_planned_once_and_a_doi_too_long_for_any_batch_is_a_single():
    huge = "10.1000/" + "x" * MAX_URL_CHARS
    plan = plan_requests(["10.1/a", "10.1/b", "10.1/a", huge, "10.1/b"], fixed_url_chars=FIXED)
    assert plan.batches == [["10.1/a", "10.1/b"]]
    assert plan.singles == [huge]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"fixed_url_chars": FIXED, "max_values": 0}, "max_values must be at least 1"),
        ({"fixed_url_chars": MAX_URL_CHARS}, "leaves no room"),
    ],
)
def test_plan_rejects_impossible_limits(kwargs, message):
    with pytest.raises(ValueError, match=message):
        plan_requests(["10.1/a"], **kwargs)


def test_empty_input_plans_nothing():
    assert plan_requests([], fixed_url_chars=FIXED).requests == 0
