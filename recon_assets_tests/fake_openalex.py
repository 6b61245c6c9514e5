"""A fake OpenAlex `/works` API answering from real recorded works, for tests and the benchmark.

`FakeOpenAlex.answer` serves what OpenAlex serves for the requests the client makes: an OR filter
`/works?filter=doi:A|B&select=...&per-page=100` (an envelope {meta, results, group_by} of the works whose DOI
matches, case-insensitively as OpenAlex matches DOIs), a single lookup `/works/doi:<doi>` (the work, or
404) and the works citing one, `/works?filter=cites:W123&sort=cited_by_count:desc` (by their referenced_works). It is mounted either on `responses` (faking requests' transport) or on a loopback HTTP server
(`serve_on_loopback`, 127.0.0.1 only). Every request it sees is kept in `requests` (path, query string).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from recon_assets.kg.doi import canonical_doi

FIXTURES = Path(__file__).parent / "fixtures" / "openalex"
REAL_WORKS_FILE = FIXTURES / "openalex_works_geoscience_sample.json"


def real_works() -> list[dict]:
    """The 44 real OpenAlex works of the fixture (see fixtures/openalex/PROVENANCE.md)."""
    return json.loads(REAL_WORKS_FILE.read_text())["works"]


def envelope(works: list[dict], *, per_page: int = 100) -> dict:
    """A list response as OpenAlex sends it (API reference, "Works" list: meta, results, group_by)."""
    return {
        "meta": {"count": len(works), "db_response_time_ms": 12, "page": 1, "per_page": per_page, "groups_count": None},
        "results": works,
        "group_by": [],
    }


class FakeOpenAlex:
    """Answers /works requests from `works`; DOIs in `omit_from_batches` are left out of OR-filter results
    (OpenAlex's silent omissions) but still found by a single lookup."""

    def __init__(self, works: Iterable[dict], *, omit_from_batches: Iterable[str] = ()) -> None:
        self.works = {canonical_doi(work["doi"]): work for work in works}
        self.omit = set(omit_from_batches)
        self.requests: list[tuple[str, str]] = []
        self._lock = threading.Lock()

    def answer(self, url: str) -> tuple[int, dict]:
        """(HTTP status, JSON body) for a GET of `url`."""
        parts = urlsplit(url)
        with self._lock:
            self.requests.append((parts.path, parts.query))
        path = unquote(parts.path)
        if path.rstrip("/").endswith("/works"):
            [expression] = parse_qs(parts.query)["filter"]
            per_page = int(parse_qs(parts.query).get("per-page", ["25"])[0])
            if expression.startswith("cites:"):
                return 200, envelope(self.citing(expression.removeprefix("cites:"))[:per_page], per_page=per_page)
            dois = {canonical_doi(value) for value in expression.removeprefix("doi:").split("|")}
            found = [work for doi, work in self.works.items() if doi in dois and doi not in self.omit]
            return 200, envelope(found, per_page=per_page)
        key = canonical_doi(path.split("/works/", 1)[1].removeprefix("doi:"))
        if key in self.works:
            return 200, self.works[key]
        return 404, {"error": "Not Found", "message": f"doi:{key} not found"}

    def citing(self, work_id: str) -> list[dict]:
        """The works whose referenced_works hold `work_id` ('W123'), most cited first (`filter=cites:W123`,
        sorted by cited_by_count:desc as the client asks)."""
        cited = f"https://openalex.org/{work_id}"
        found = [work for work in self.works.values() if cited in (work.get("referenced_works") or ())]
        return sorted(found, key=lambda work: -work["cited_by_count"])

    def responses_callback(self, request) -> tuple[int, dict, str]:
        """A `responses` callback: (status, headers, body)."""
        status, body = self.answer(request.url)
        return status, {"Content-Type": "application/json"}, json.dumps(body)


@contextmanager
def serve_on_loopback(fake: FakeOpenAlex, *, delay: float = 0.0) -> Iterator[str]:
    """Serve `fake` over HTTP on 127.0.0.1 (a free port) in a thread, each answer `delay` seconds late;
    yields the base URL, stops on exit."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            time.sleep(delay)
            status, body = fake.answer(self.path)
            payload = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
