"""How many OpenAlex requests the enrichment makes, and how fast, against a local fake server.

    python -m benchmarks.openalex_requests [--dois 1000]        (from the repository root)

Prints: requests per 1,000 DOIs (target at most 12; a per-DOI client makes 1,000), requests on a second
run within the TTL (target 0), and DOIs per second, for the OpenAlex client alone and for the whole
`openalex_works` asset (DuckDB cache, Dagster run).

The server is `recon_assets_tests.fake_openalex` on 127.0.0.1, answering with the 44 real recorded works
re-keyed to synthetic DOIs (the real DOIs with a numbered suffix; every 50th one an old SICI DOI, which
percent-encoding makes longer). A fixed share is unknown to the fake, so each of those costs a single
lookup, as an unmatched DOI does against OpenAlex. Nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import warnings
from pathlib import Path

import dagster as dg
import duckdb

from recon_assets.enrichment.assets import openalex_works
from recon_assets.enrichment.openalex_client import OpenAlexClient
from recon_assets.enrichment.resources import OpenAlexResource
from recon_assets.kg.doi import canonical_doi
from recon_assets.shared.as_of import AsOfDate
from recon_assets.storage.duckdb_store import TableStore
from recon_assets_tests.fake_openalex import FakeOpenAlex, real_works, serve_on_loopback

AREA = "floods"
UNKNOWN_EVERY = 500  # 0.2% of the DOIs are not in the fake: a single lookup each


def synthetic_dois(count: int) -> list[str]:
    """`count` DOIs shaped like the real ones; every 50th an old SICI DOI."""
    real = [canonical_doi(work["doi"]) for work in real_works()]
    return [
        f"10.1002/(sici)1097-4636({1990 + index % 10}11){index}:2<272::aid-jbm17>3.0.co;2-f" if index % 50 == 0
        else f"{real[index % len(real)]}.b{index}"
        for index in range(count)
    ]


def fake_server(dois: list[str]) -> FakeOpenAlex:
    works = real_works()
    known = [doi for index, doi in enumerate(dois) if index % UNKNOWN_EVERY != UNKNOWN_EVERY - 1]
    return FakeOpenAlex({**works[index % len(works)], "doi": f"https://doi.org/{doi}"} for index, doi in enumerate(known))


def client_run(dois: list[str]) -> tuple[int, float]:
    """(requests, seconds) of one OpenAlexClient.fetch of `dois` against a fresh loopback fake."""
    fake = fake_server(dois)
    with serve_on_loopback(fake) as base:
        started = time.perf_counter()
        report = OpenAlexClient(api_key="benchmark", base_url=base, timeout=10).fetch(dois)
        elapsed = time.perf_counter() - started
    assert len(report.results) == len(dois) and report.requests == len(fake.requests)
    return report.requests, elapsed


def asset_runs(dois: list[str]) -> tuple[int, int, float]:
    """(requests of a first run, requests of a second run within the TTL, seconds of the first run) of the
    openalex_works asset over a DuckDB holding `dois` as publications of one research area."""
    fake = fake_server(dois)
    with tempfile.TemporaryDirectory() as workdir, serve_on_loopback(fake) as base, dg.instance_for_test() as instance:
        database = str(Path(workdir) / "benchmark.duckdb")
        with duckdb.connect(database) as con:
            con.execute("CREATE TABLE publications AS SELECT unnest(?) AS publication_id, unnest(?) AS doi", [dois, dois])
            con.execute("CREATE TABLE publication_research_areas AS SELECT publication_id, ? AS research_area FROM publications", [AREA])
        resources = {
            "store": TableStore(database=database), "as_of": AsOfDate(),
            "openalex": OpenAlexResource(api_key="benchmark", base_url=base, timeout_seconds=10),
        }
        started = time.perf_counter()
        assert dg.materialize([openalex_works], partition_key=AREA, resources=resources, instance=instance).success
        elapsed = time.perf_counter() - started
        first = len(fake.requests)
        assert dg.materialize([openalex_works], partition_key=AREA, resources=resources, instance=instance).success
        return first, len(fake.requests) - first, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dois", type=int, default=1_000)
    count = parser.parse_args().dois
    warnings.filterwarnings("ignore")
    dois = synthetic_dois(count)
    requests, seconds = client_run(dois)
    first, second, asset_seconds = asset_runs(dois)
    unknown = count // UNKNOWN_EVERY
    print(f"DOIs: {count:,} ({count // 50 + 1} SICI, {unknown} unknown to the server: one single lookup each)")
    print(f"requests per 1,000 DOIs: {requests * 1_000 / count:.1f} (client), {first * 1_000 / count:.1f} (asset); target <= 12, per-DOI client 1,000")
    print(f"requests on a second run within the TTL: {second} (target 0)")
    print(f"DOIs per second (loopback fake): {count / seconds:,.0f} (client), {count / asset_seconds:,.0f} (asset, incl. DuckDB and Dagster)")


if __name__ == "__main__":
    main()
