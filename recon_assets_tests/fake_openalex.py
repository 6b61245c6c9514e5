"""A fake OpenAlex `/works` API answering from real recorded works, for tests and the benchmark.

`FakeOpenAlex.answer` serves what OpenAlex serves for the requests the client makes: an OR filter
`/works?filter=doi:A|B&select=...&per-page=100` (an envelope {meta, results, group_by} of the works whose DOI
matches, case-insensitively as OpenAlex matches DOIs), a single lookup `/works/doi:<doi>` (the work, or
404) and the works citing any of several, `/works?filter=cites:W1|W2[,title.search:a OR b]&sort=<field>:<desc|asc>`
(by their referenced_works; a title search matches a title holding one of the words), works by id
(`filter=openalex:W1|W2`), one page of `per-page`
works, or cursor paging (`cursor=*`, then `meta.next_cursor` until it is null) as OpenAlex pages; and a search
`/works?search=<text>&per-page=n` (`search_page`: the works whose title or abstract holds a word of the text, ranked by
how many of its words they hold, then by citations: the fake's ranking, not OpenAlex's relevance score).
It is mounted either on `responses` (faking requests' transport) or on a loopback HTTP server
(`serve_on_loopback`, 127.0.0.1 only). Every request it sees is kept in `requests` (path, query string).
"""

from __future__ import annotations

import json
import re
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


def envelope(works: list[dict], *, per_page: int = 100, count: int | None = None, next_cursor: str | None = None, paged: bool = False) -> dict:
    """A list response as OpenAlex sends it (API reference, "Works" list: meta, results, group_by); a cursor-paged
    one has `page` null and `next_cursor` (null on the last page)."""
    meta = {"count": len(works) if count is None else count, "db_response_time_ms": 12, "page": None if paged else 1, "per_page": per_page}
    if paged:
        meta["next_cursor"] = next_cursor
    return {"meta": meta | {"groups_count": None}, "results": works, "group_by": []}


class FakeOpenAlex:
    """Answers /works requests from `works`; DOIs in `omit_from_batches` are left out of OR-filter results
    (OpenAlex's silent omissions) but still found by a single lookup."""

    def __init__(self, works: Iterable[dict], *, omit_from_batches: Iterable[str] = ()) -> None:
        self.works = {canonical_doi(work["doi"]): work for work in works}
        self.omit = set(omit_from_batches)
        self.cited_by: dict[str, list[dict]] = {}
        for work in self.works.values():
            for reference in dict.fromkeys(work.get("referenced_works") or ()):
                self.cited_by.setdefault(reference.rsplit("/", 1)[-1], []).append(work)
        self.requests: list[tuple[str, str]] = []
        self._lock = threading.Lock()

    def answer(self, url: str) -> tuple[int, dict]:
        """(HTTP status, JSON body) for a GET of `url`."""
        parts = urlsplit(url)
        with self._lock:
            self.requests.append((parts.path, parts.query))
        path = unquote(parts.path)
        if path.rstrip("/").endswith("/works"):
            query = parse_qs(parts.query)
            per_page = int(query.get("per-page", ["25"])[0])
            if "search" in query:
                return 200, self.search_page(query["search"][0], per_page)
            [expression] = query["filter"]
            if expression.startswith("openalex:"):  # works by OpenAlex id (`ids.openalex`), OR-joined
                wanted = set(expression.removeprefix("openalex:").split("|"))
                return 200, envelope([work for work in self.works.values() if work["id"].rsplit("/", 1)[-1] in wanted], per_page=per_page)
            if expression.startswith("cites:"):
                return 200, self._citing_page(expression, query, per_page)
            dois = {canonical_doi(value) for value in expression.removeprefix("doi:").split("|")}
            found = [work for doi, work in self.works.items() if doi in dois and doi not in self.omit]
            return 200, envelope(found, per_page=per_page)
        key = canonical_doi(path.split("/works/", 1)[1].removeprefix("doi:"))
        if key in self.works:
            return 200, self.works[key]
        return 404, {"error": "Not Found", "message": f"doi:{key} not found"}

    def search_page(self, text: str, per_page: int) -> dict:
        """A search answer: an envelope (`envelope`, meta.count the matches) of the first `per_page` works whose title
        or abstract (rebuilt from its inverted index) holds a word of `text` (3+ letters, case-insensitive), most
        words first, then most cited, then by id. The records are the recorded real works, unchanged."""
        words = {word for word in _words(text) if len(word) >= 3}
        scored = []
        for work in self.works.values():
            held = len(words & _words(f"{work.get('title') or ''} {' '.join(work.get('abstract_inverted_index') or {})}"))
            if held:
                scored.append((-held, -work["cited_by_count"], work["id"], work))
        found = [work for *_, work in sorted(scored, key=lambda item: item[:3])]
        return envelope(found[:per_page], per_page=per_page, count=len(found))

    def citing(self, work_ids: Iterable[str]) -> list[dict]:
        """The works whose referenced_works hold one of `work_ids` ('W123'), each once, most cited first."""
        found = {id(work): work for work_id in work_ids for work in self.cited_by.get(work_id, ())}
        return sorted(found.values(), key=lambda work: (-work["cited_by_count"], work["id"]))

    def _citing_page(self, expression: str, query: dict[str, list[str]], per_page: int) -> dict:
        filters = dict(part.split(":", 1) for part in expression.split(","))
        found = self.citing(filters["cites"].split("|"))
        if "title.search" in filters:
            words = {word.lower() for word in filters["title.search"].split(" OR ")}
            found = [work for work in found if words & set((work.get("title") or "").lower().replace(":", " ").split())]
        field, _, order = query.get("sort", ["cited_by_count:desc"])[0].partition(":")
        found = sorted(found, key=lambda work: (work.get(field) or 0, work["id"]), reverse=order == "desc")
        if "cursor" not in query:
            return envelope(found[:per_page], per_page=per_page, count=len(found))
        start = 0 if query["cursor"][0] == "*" else int(query["cursor"][0])
        more = start + per_page < len(found)
        return envelope(found[start : start + per_page], per_page=per_page, count=len(found),
                        next_cursor=str(start + per_page) if more else None, paged=True)

    def responses_callback(self, request) -> tuple[int, dict, str]:
        """A `responses` callback: (status, headers, body)."""
        status, body = self.answer(request.url)
        return status, {"Content-Type": "application/json"}, json.dumps(body)


def _words(text: str) -> set[str]:
    return set(re.findall(r"[^\W_]+", text.lower()))


class OneWorkForEveryLookup(FakeOpenAlex):
    """A faulty server answering every DOI lookup, batch or single, with the one work `work` (issue 14: a server
    answering so with a retracted work made every edge SUPERSEDED); citing works are served as `FakeOpenAlex` does."""

    def __init__(self, work: dict) -> None:
        super().__init__([work])
        self.only = work

    def answer(self, url: str) -> tuple[int, dict]:
        parts = urlsplit(url)
        if "cites:" in unquote(parts.query):
            return super().answer(url)
        with self._lock:
            self.requests.append((parts.path, parts.query))
        if unquote(parts.path).rstrip("/").endswith("/works"):
            return 200, envelope([self.only])
        return 200, self.only


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

    with serving(Handler) as base:
        yield base


@contextmanager
def serving(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """Serve `handler` over HTTP on 127.0.0.1 (a free port) in a thread; yields the base URL, stops on exit."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
