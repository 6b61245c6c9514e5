"""download_kg_export against a fake Hugging Face Hub.

The real `hf_hub_download` runs; only httpx2's transport (the `HTTPTransport.handle_request` that every
huggingface_hub client ends in) is replaced by `FakeHub`, which answers from the exchanges recorded in
fixtures/huggingface/hub_exchanges.json (sources in fixtures/huggingface/PROVENANCE.md). respx cannot be
used: it patches httpx, and huggingface_hub 2.4 sends through the separate package httpx2.
"""

from __future__ import annotations

import json
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx2
import huggingface_hub
import pytest
from huggingface_hub.errors import LocalEntryNotFoundError, RemoteEntryNotFoundError

from recon_assets.kg.hub_source import PINNED_REVISION, REPO_ID, KgDownloadError, download_kg_export
from recon_assets.shared.credentials import REDACTED, RedactedCause

FIXTURES = Path(__file__).parent / "fixtures" / "huggingface"
EXCHANGES = [
    exchange for key, exchange in json.loads((FIXTURES / "hub_exchanges.json").read_text()).items() if key != "_about"
]
BODY = (FIXTURES / "graph.json").read_bytes()
BODY_SHA256 = EXCHANGES[0]["response"]["headers"]["x-linked-etag"].strip('"')
FAKE_TOKEN = "hf_faketokenfortestsonly"
RESOLVE_URL = f"https://huggingface.co/datasets/{REPO_ID}/resolve"


class FakeHub:
    """Answers each request with its recorded response (or raises `fail_with`, or answers `answer_with(request)`, a
    hostile hub) and keeps every request it saw."""

    def __init__(self) -> None:
        self.requests: list[httpx2.Request] = []
        self.fail_with: Exception | None = None
        self.answer_with: Callable[[httpx2.Request], httpx2.Response] | None = None

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        if self.fail_with is not None:
            raise self.fail_with
        if self.answer_with is not None:
            return self.answer_with(request)
        for exchange in EXCHANGES:
            recorded = exchange["request"]
            if request.method == recorded["method"] and request.url == httpx2.URL(recorded["url"]):
                response = exchange["response"]
                body = (FIXTURES / response["body_file"]).read_bytes() if "body_file" in response else b""
                return httpx2.Response(response["status"], headers=response["headers"], content=body, request=request)
        raise AssertionError(f"no recorded exchange for {request.method} {request.url}")


@pytest.fixture
def hub(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> FakeHub:
    fake = FakeHub()
    monkeypatch.setattr(httpx2.HTTPTransport, "handle_request", lambda _transport, request: fake.handle_request(request))
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf_home"))
    # huggingface_hub computed its default cache folder from HF_HOME at import: without this, a call without
    # cache_dir wrote the fixture's 4.6 KB graph.json into the user's shared cache as the pinned commit's file
    # (issue 14: an offline run later took it for the real KG).
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "hf_home" / "hub"))
    monkeypatch.setenv("HF_TOKEN", FAKE_TOKEN)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    # huggingface_hub reads these once, at import; its checks consult the constants. Telemetry off also stops its
    # once-per-process fetch of /api/agent-harnesses, so the only traffic left is the download's.
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_DISABLE_TELEMETRY", True)
    # On a dead network the library backs off 1+2+4+8+8 s before giving up; the waiting is not under test.
    monkeypatch.setattr(time, "sleep", lambda _seconds: None)
    return fake


def go_offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)


@pytest.mark.parametrize("revision", [PINNED_REVISION, "main"], ids=["pinned-commit", "branch"])
def test_download_lands_in_cache_checksummed_at_resolved_commit(hub: FakeHub, tmp_path: Path, revision: str) -> None:
    cache = tmp_path / "cache"

    result = download_kg_export(revision=revision, cache_dir=cache)

    assert result.path.is_relative_to(cache)
    assert result.path.read_bytes() == BODY
    assert (result.repo_id, result.filename, result.revision) == (REPO_ID, "graph.json", revision)
    assert result.commit_sha == PINNED_REVISION  # the hub's X-Repo-Commit, also when a branch was asked for
    assert (result.sha256, result.size_bytes) == (BODY_SHA256, len(BODY))
    pointer, head, get = hub.requests  # the LFS pointer's size and SHA-256, then hf_hub_download's own requests
    for request in (pointer, head):
        assert (request.method, str(request.url)) == ("HEAD", f"{RESOLVE_URL}/{revision}/graph.json")
        assert request.headers["authorization"] == f"Bearer {FAKE_TOKEN}"
    assert get.method == "GET" and get.url.host == "us.aws.cdn.hf.co"
    assert "authorization" not in get.headers  # the token never leaves the Hub for the CDN


@pytest.mark.parametrize("offline", [False, True], ids=["online", "offline"])
def test_second_call_is_served_from_cache_without_http(
    hub: FakeHub, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, offline: bool
) -> None:
    first = download_kg_export(cache_dir=tmp_path)
    hub.requests.clear()
    hub.fail_with = httpx2.ConnectError("network is down")
    if offline:
        go_offline(monkeypatch)

    second = download_kg_export(cache_dir=tmp_path)

    assert second == first
    # Online the hub is asked for the LFS pointer (and does not answer); offline nothing is asked. Either way the
    # cached copy is checked against the pointer recorded by the first call.
    assert [request.method for request in hub.requests] == ([] if offline else ["HEAD"])


@pytest.mark.parametrize(
    ("filename", "network_error", "offline", "cause"),
    [
        pytest.param("graph.parquet", None, False, RemoteEntryNotFoundError, id="file-missing-404"),
        pytest.param(
            "graph.json", httpx2.ConnectError("[Errno 111] Connection refused"), False, LocalEntryNotFoundError,
            id="hub-unreachable",
        ),
        pytest.param("graph.json", None, True, LocalEntryNotFoundError, id="offline-nothing-cached"),
    ],
)
def test_failures_raise_kg_download_error_naming_repo_file_and_revision(
    hub: FakeHub,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    filename: str,
    network_error: Exception | None,
    offline: bool,
    cause: type[Exception],
) -> None:
    hub.fail_with = network_error
    if offline:
        go_offline(monkeypatch)

    with pytest.raises(KgDownloadError) as raised:
        download_kg_export(filename, cache_dir=tmp_path)

    message = str(raised.value)
    assert all(part in message for part in (REPO_ID, repr(filename), PINNED_REVISION))
    assert FAKE_TOKEN not in message
    # the library's exception stays in the chain as a redacted copy naming its type
    assert isinstance(raised.value.__cause__, RedactedCause)
    assert str(raised.value.__cause__).startswith(f"{cause.__module__}.{cause.__qualname__}: ")
    if offline:
        assert "HF_HUB_OFFLINE" in message and hub.requests == []


def chain(error: BaseException) -> Iterator[BaseException]:
    """`error` and every exception in its chain: causes and contexts, shown or suppressed."""
    seen: set[int] = set()
    pending: list[BaseException | None] = [error]
    while pending:
        current = pending.pop()
        if current is not None and id(current) not in seen:
            seen.add(id(current))
            yield current
            pending += [current.__cause__, current.__context__]


def chain_texts(error: BaseException) -> list[str]:
    """str and repr of every exception of `error`'s `chain`, and the traceback Python prints for it."""
    return [text for link in chain(error) for text in (str(link), repr(link))] + traceback.format_exception(error)


def _echoing_the_token(status: int, where: str) -> Callable[[httpx2.Request], httpx2.Response]:
    """A hostile hub (HTTPS, so the token is sent): every request answered `status`, its error echoing the token the
    request carried, in huggingface_hub's X-Error-Message header or in a JSON body's "error"."""

    def answer(request: httpx2.Request) -> httpx2.Response:
        echo = f"Invalid credentials in Authorization header: {request.headers['authorization']}"
        if where == "header":
            return httpx2.Response(status, headers={"x-error-message": echo}, request=request)
        return httpx2.Response(status, json={"error": echo}, request=request)

    return answer


@pytest.mark.parametrize(("status", "where"), [(401, "header"), (403, "body"), (500, "body")])
def test_a_hub_echoing_the_token_in_an_error_leaves_it_nowhere_in_the_exception_chain(hub, tmp_path, status, where):
    """Issue 24: Dagster stores a failed step's whole cause chain; the library's exception quoting the hub's answer
    stood in it unredacted."""
    hub.answer_with = _echoing_the_token(status, where)

    with pytest.raises(KgDownloadError) as raised:
        download_kg_export(cache_dir=tmp_path)

    assert {request.headers["authorization"] for request in hub.requests} == {f"Bearer {FAKE_TOKEN}"}
    texts = chain_texts(raised.value)
    assert not [text for text in texts if FAKE_TOKEN in text]
    assert any(f"Authorization header: Bearer {REDACTED}" in text for text in texts)  # the echo is there, redacted
    # the library's exceptions are kept, as redacted copies naming their types
    links = list(chain(raised.value))
    assert len(links) >= 2 and all(isinstance(link, RedactedCause) for link in links[1:])
    assert str(links[1]).startswith("huggingface_hub.errors.")


def test_a_failed_hub_download_stores_no_token_under_dagster_home(hub, tmp_path):
    """Issue 24 end to end through Dagster's storage: kg_snapshot fails on a hub echoing the token; no file under
    DAGSTER_HOME (run and event storage, the event index, compute logs) holds it, while the failure is stored."""
    import dagster as dg
    from recon_assets.storage.duckdb_store import TableStore

    from recon_assets.kg.assets import kg_snapshot
    from recon_assets.kg.resources import HuggingFaceKgExport

    hub.answer_with = _echoing_the_token(401, "body")
    home = tmp_path / "dagster_home"
    home.mkdir()
    with dg.DagsterInstance.local_temp(str(home)) as instance:
        result = dg.materialize(
            [kg_snapshot], instance=instance, raise_on_error=False,
            resources={"kg_export": HuggingFaceKgExport(), "store": TableStore(database=str(tmp_path / "recon.duckdb"))},
        )

    assert not result.success
    stored = {path: path.read_bytes() for path in home.rglob("*") if path.is_file()}
    assert [path for path, content in stored.items() if b"KgDownloadError" in content]
    assert not [path for path, content in stored.items() if FAKE_TOKEN.encode() in content]
    assert [path for path, content in stored.items() if f"Authorization header: Bearer {REDACTED}".encode() in content]


def test_kg_snapshot_ingests_the_hub_export_and_records_its_commit_and_checksum(hub: FakeHub, tmp_path: Path) -> None:
    import dagster as dg
    import duckdb
    from recon_assets.storage.duckdb_store import TableStore

    from recon_assets.kg.assets import kg_snapshot
    from recon_assets.kg.resources import HuggingFaceKgExport

    database = tmp_path / "recon.duckdb"
    result = dg.materialize(
        [kg_snapshot],
        resources={"kg_export": HuggingFaceKgExport(), "store": TableStore(database=str(database))},
    )

    assert result.success
    with duckdb.connect(str(database), read_only=True) as con:
        source, sha256, lines, nodes, relationships, rejected = con.execute(
            "SELECT source, sha256, lines_read, nodes_accepted, relationships_accepted, rejected FROM kg_snapshots"
        ).fetchone()
    commit = EXCHANGES[0]["response"]["headers"]["x-repo-commit"]
    assert source == f"hf://{REPO_ID}@{commit}/graph.json"
    assert sha256 == BODY_SHA256
    assert (lines, nodes, relationships, rejected) == (3, 2, 1, 0)


def _plant(cache: Path, content: bytes, *, as_blob: str | None = None) -> Path:
    """Put `content` in the cache as the pinned commit's graph.json, as a copy into the cache folder would (a
    regular file), or filed under `blobs/<as_blob>` and linked the way huggingface_hub links its downloads."""
    repo = cache / "datasets--nasa-gesdisc--nasa-eo-knowledge-graph"
    snapshot = repo / "snapshots" / PINNED_REVISION / "graph.json"
    snapshot.parent.mkdir(parents=True)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(PINNED_REVISION)
    if as_blob is None:
        snapshot.write_bytes(content)
    else:
        blob = repo / "blobs" / as_blob
        blob.parent.mkdir()
        blob.write_bytes(content)
        snapshot.symlink_to(Path("../../blobs") / as_blob)
    return snapshot


@pytest.mark.parametrize("linked", [False, True], ids=["copied-into-snapshots", "filed-as-a-blob"])
def test_offline_a_cached_file_never_checked_against_the_pointer_is_refused(hub, monkeypatch, tmp_path, linked):
    """Bug row: offline, the 4.6 KB fixture found in the shared cache under the pinned commit was taken for the KG."""
    _plant(tmp_path, BODY, as_blob=BODY_SHA256 if linked else None)
    go_offline(monkeypatch)

    with pytest.raises(KgDownloadError, match="was never checked against the revision's LFS pointer: run once online"):
        download_kg_export(cache_dir=tmp_path)
    assert hub.requests == []


# A pointer for a real-sized export, sent in the recorded shapes of hub_exchanges.json (X-Linked-Size /
# X-Linked-Etag): graph.json is about 1.56 GB (dataset card); the exact size is illustrative and the sha256 is
# that of b"real" (the real pointer's values could not be read from this machine).
REAL_SIZE, REAL_SHA256 = 1_561_234_567, "aa33996d60e89311b4d1a920dae03c6d7fa3ae1956c52662e273aad4683e577f"


def test_online_a_cached_stub_that_differs_from_the_pointer_is_refused(hub, monkeypatch, tmp_path):
    stub = _plant(tmp_path, BODY)
    for exchange in EXCHANGES:
        if exchange["request"]["method"] == "HEAD":
            headers = exchange["response"]["headers"]
            monkeypatch.setitem(headers, "x-linked-size", str(REAL_SIZE))
            monkeypatch.setitem(headers, "x-linked-etag", f'"{REAL_SHA256}"')

    with pytest.raises(KgDownloadError) as raised:
        download_kg_export(cache_dir=tmp_path)

    assert str(raised.value).startswith(
        f"the cached copy of 'graph.json' from Hugging Face dataset '{REPO_ID}' at revision '{PINNED_REVISION}' ({stub}, "
        f"4,651 bytes, sha256 {BODY_SHA256}) is not the file the revision's LFS pointer records "
        f"(1,561,234,567 bytes, sha256 {REAL_SHA256}): refused"
    )


def test_offline_a_checked_file_changed_since_is_refused(hub, monkeypatch, tmp_path):
    first = download_kg_export(cache_dir=tmp_path)
    first.path.resolve().write_bytes(BODY[:-100])  # cut short in place, e.g. by a copy that did not finish
    go_offline(monkeypatch)

    with pytest.raises(KgDownloadError, match="is not the file the revision's LFS pointer records"):
        download_kg_export(cache_dir=tmp_path)


def test_a_file_the_hub_keeps_in_plain_git_has_no_pointer_to_check_against(hub, monkeypatch, tmp_path):
    for exchange in EXCHANGES:
        if exchange["request"]["method"] == "HEAD":
            monkeypatch.setitem(exchange["response"]["headers"], "x-linked-etag", '"a661b1a138dac6dc5590367402d100765010ffd6"')
    with pytest.raises(KgDownloadError, match="reports no LFS SHA-256 and size"):
        download_kg_export(cache_dir=tmp_path)
