"""A stand-in for Crossref's `/works` list route, served at httpx's transport by respx: it answers
`filter=updates:A,updates:B` (the works whose `update-to` names A or B) and `filter=doi:A,doi:B` (the works A and B)
from a set of work records, keeps only the `select`ed fields as Crossref does, and wraps the items in the
documented work-list envelope. The records are the fixtures of fixtures/crossref (PROVENANCE.md says which are
real and which constructed)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from recon_assets.kg.doi import canonical_doi

FIXTURES = Path(__file__).parent / "fixtures" / "crossref"


def fixture_works(name: str) -> list[dict]:
    """The work records of a fixture: a `records/` file (one work), a work-list response, or {"works": [...]}."""
    body = json.loads((FIXTURES / name).read_text())
    if "message" in body:
        return body["message"]["items"]
    return body["works"] if "works" in body else [body]


def work_list(items: list[dict]) -> dict:
    """The Crossref REST API list envelope (as the real response in crossref_test_accounts_work_list.json has it)."""
    return {
        "status": "ok", "message-type": "work-list", "message-version": "1.0.0",
        "message": {"facets": {}, "total-results": len(items), "items": items, "items-per-page": 1000,
                    "query": {"start-index": 0, "search-terms": None}},
    }


class FakeCrossref:
    """respx side effect answering /works from `records`; `asked[name]` lists the DOIs each request filtered on."""

    def __init__(self, records: list[dict]) -> None:
        self.records = records
        self.asked: dict[str, list[list[str]]] = {"updates": [], "doi": []}

    def __call__(self, request: httpx.Request) -> httpx.Response:
        params = request.url.params
        filters = [part.split(":", 1) for part in params["filter"].split(",")]
        names = {name for name, _ in filters}
        if len(names) != 1 or not names <= {"updates", "doi"}:
            return httpx.Response(400, json={"status": "failed", "message-type": "validation-failure"})
        [name] = names
        wanted = {canonical_doi(value) for _, value in filters}
        self.asked[name].append(sorted(wanted))
        if name == "updates":
            items = [r for r in self.records if any(canonical_doi(u.get("DOI")) in wanted for u in r.get("update-to", []))]
        else:
            items = [r for r in self.records if canonical_doi(r.get("DOI")) in wanted]
        if "select" in params:
            fields = params["select"].split(",")
            items = [{key: value for key, value in item.items() if key in fields} for item in items]
        return httpx.Response(200, json=work_list(items))
