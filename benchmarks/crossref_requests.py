"""How many Crossref requests the retraction, correction and relation enrichment makes per 1,000 DOIs.

    python -m benchmarks.crossref_requests [--dois 1000]        (from the repository root)

Runs `crossref_retractions` then `crossref_relations` over a DuckDB holding `--dois` synthetic DOIs as publications of
one research area, with Crossref answered in-process at httpx's transport (respx, `recon_assets_tests.fake_crossref`,
nothing leaves the machine) from the fixture records re-keyed to the synthetic DOIs: every DOI has a record; 1 in 50
has a comment recorded on it (the constructed comment-and-reply chain of fixtures/crossref, re-keyed), 1 in 100 is a
Copernicus discussion preprint (the real 10.5194/acp-2021-781 record re-keyed: its discussion comments must cost no
request), 1 in 40 has a correction notice (the real PLOS notice, re-keyed). Prints requests per 1,000 DOIs by kind
(updates:, doi: records of the KG DOIs, doi: records of the works their comments and replies name) and of an offline
run (0). No timing: the count is the figure.
"""

from __future__ import annotations

import argparse
import copy
import tempfile
import warnings
from pathlib import Path

import dagster as dg
import duckdb
import respx

from recon_assets.enrichment.assets import crossref_relations, crossref_retractions
from recon_assets.enrichment.resources import CrossrefResource
from recon_assets.storage.duckdb_store import TableStore
from recon_assets_tests.fake_crossref import FakeCrossref, fixture_works

AREA = "floods"
URL = "https://crossref.benchmark"
COMMENT_EVERY, PREPRINT_EVERY, CORRECTION_EVERY = 50, 100, 40


def _rekeyed(work: dict, mapping: dict[str, str]) -> dict:
    """A deep copy of `work` with every DOI of `mapping` (its own, its relations', its update-to's) replaced."""
    work = copy.deepcopy(work)
    work["DOI"] = mapping.get(work["DOI"].lower(), work["DOI"])
    for related in (work.get("relation") or {}).values():
        for entry in related:
            entry["id"] = mapping.get(entry["id"].lower(), entry["id"])
    for update in work.get("update-to") or []:
        update["DOI"] = mapping.get(update["DOI"].lower(), update["DOI"])
    return work


def synthetic_records(count: int) -> tuple[list[str], list[dict]]:
    """(`count` DOIs, the Crossref works answering for them and for the works they relate to)."""
    paper, comment, reply = (work for work in fixture_works("constructed_comment_relations.json")[:3])
    [preprint] = fixture_works("records/10.5194_acp-2021-781.json")
    [notice] = fixture_works("records/10.1371_journal.pone.0203153.json")
    dois, records = [], []
    for index in range(count):
        doi = f"10.5555/benchmark.{index}"
        dois.append(doi)
        if index % COMMENT_EVERY == 0:
            mapping = {paper["DOI"].lower(): doi, comment["DOI"]: f"{doi}.comment", reply["DOI"]: f"{doi}.reply"}
            records += [_rekeyed(work, mapping) for work in (paper, comment, reply)]
        elif index % PREPRINT_EVERY == 1:
            records.append(_rekeyed(preprint, {preprint["DOI"].lower(): doi}))
        else:
            records.append({"DOI": doi, "type": "journal-article", "title": [f"Benchmark work {index}"], "published": {"date-parts": [[2015]]}})
        if index % CORRECTION_EVERY == 2:
            records.append(_rekeyed(notice, {"10.1371/journal.pone.0200549": doi, notice["DOI"].lower(): f"{doi}.correction"}))
    return dois, records


def asset_runs(dois: list[str], records: list[dict]) -> dict[str, object]:
    """Requests of an online run of both assets, by kind, and of an offline run after it; rows written."""
    fake = FakeCrossref(records)
    with tempfile.TemporaryDirectory() as workdir, dg.instance_for_test() as instance, respx.mock(base_url=URL) as mock:
        route = mock.get("/works").mock(side_effect=fake)
        database = str(Path(workdir) / "benchmark.duckdb")
        with duckdb.connect(database) as con:
            con.execute("CREATE TABLE publications AS SELECT unnest(?) AS publication_id, unnest(?) AS doi", [dois, dois])
            con.execute("CREATE TABLE publication_research_areas AS SELECT publication_id, ? AS research_area FROM publications", [AREA])
        for resource in (CrossrefResource(base_url=URL), CrossrefResource(offline=True)):
            resources = {"store": TableStore(database=database), "crossref": resource}
            assert dg.materialize([crossref_retractions, crossref_relations], partition_key=AREA, resources=resources, instance=instance).success
            if not resource.offline:
                online = route.call_count
        with duckdb.connect(database, read_only=True) as con:
            entries = con.execute("SELECT relation, count(*) FROM crossref_relations GROUP BY ALL ORDER BY ALL").fetchall()
    kg = set(dois)
    return {
        "updates": len(fake.asked["updates"]),
        "kg records": sum(1 for batch in fake.asked["doi"] if set(batch) <= kg),
        "related records": sum(1 for batch in fake.asked["doi"] if not set(batch) <= kg),
        "online": online, "offline": route.call_count - online, "entries": dict(entries),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dois", type=int, default=1_000)
    count = parser.parse_args().dois
    warnings.filterwarnings("ignore")
    dois, records = synthetic_records(count)
    runs = asset_runs(dois, records)
    per = 1_000 / count
    print(f"DOIs: {count:,} (1 in {COMMENT_EVERY} commented and replied to, 1 in {PREPRINT_EVERY} a discussion preprint, "
          f"1 in {CORRECTION_EVERY} corrected)")
    print(f"requests per 1,000 DOIs, online: {runs['online'] * per:.1f} = updates: {runs['updates'] * per:.1f} (retractions and "
          f"corrections, one answer) + KG records: {runs['kg records'] * per:.1f} + related works' records: "
          f"{runs['related records'] * per:.1f} (per-DOI clients: 1,000 + 1,000 + one per related work)")
    print(f"requests of an offline run after it: {runs['offline']} (target 0); crossref_relations entries: {runs['entries']}")


if __name__ == "__main__":
    main()
