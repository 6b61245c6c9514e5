"""Issue 24, security: a key echoed back in an error is redacted wherever it would go (console, Dagster event log and
compute logs, tables), whatever its shape; a key is never sent over plain HTTP to another machine unless
RECON_ALLOW_PLAIN_HTTP=1. Groq is a stand-in at the HTTP transport (respx in process, a loopback HTTP server for
`recon run`), answering with the recorded 429 tokens-per-day body plus the echoed key; OpenAlex is the loopback fake
serving the real recorded works (fake_openalex.py). Issue 24's case end to end, a `recon run` of the sample whose Groq
stand-in echoes the key, is in test_browser.py: that run is the one the UI test shows (issue 23, suite time: one
`recon run` of the sample fewer); `serve_answers` and `per_day_echo` here serve it."""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from email.message import Message
from http.server import BaseHTTPRequestHandler
from urllib.parse import urlencode

import httpx
import pytest
import requests
import respx

from recon_assets.cli.launch_checks import settings_problems
from recon_assets.cli.run import PreflightError, _preflight
from recon_assets.enrichment.citing_plan import ALL_CITING, CitingQuery
from recon_assets.enrichment.openalex_client import ERROR, BudgetSpent, OpenAlexClient
from recon_assets.enrichment.resources import OpenAlexResource
from recon_assets.enrichment.retries import RetryPolicy
from recon_assets.judgement.groq_client import JUDGED, NOT_SENT, GroqJudgeClient, GroqJudgeSettings
from recon_assets.judgement.resources import GroqJudgeResource
from recon_assets.kg.doi import canonical_doi
from recon_assets.kg.resources import HuggingFaceKgExport
from recon_assets.shared.credentials import REDACTED, RedactedCause, redact, redacted_causes
from recon_assets.shared.key_transport import PlainHttpRefused, check_key_transport, is_loopback

from recon_assets_tests.fake_openalex import real_works, serving
from recon_assets_tests.groq_fakes import (
    BASE_URL, COMPLETIONS, FakeClock, FakeGroq, fixture, make_pairs, newer_abstracts, reader_entry,
)
from recon_assets_tests.test_hub_source import chain_texts
from recon_assets_tests.test_rerun import recon_refusal

# The key, and one of an unusual shape (no known prefix, both quotes, a backslash, HTML's specials). Each holds
# a run of letters and digits no redaction marker has: any spelling of a leaked key still holds that run.
LIVE_KEY, LIVE_MARK = "sk-LIVE-Zq8mW3xR7tP2kV9nB4", "Zq8mW3xR7tP2kV9nB4"
ODD_KEY, ODD_MARK = "Ab\"Yh6Tq2Lw9Rz'Ks4\\x<&>Pm7", "Yh6Tq2Lw9Rz"
WORKS = real_works()
DOIS = [canonical_doi(work["doi"]) for work in WORKS]


def per_day_echo(key: str) -> dict:
    """The recorded 429 tokens-per-day body, its message echoing `key` as a proxy in front of Groq did (issue 24)."""
    body = fixture("error_rate_limit_tpd.json")
    body["error"]["message"] += f" (for api key {key})"
    return body


# How a server's or a library's error spells the key it was sent: as typed, in the SDK's text, in a JSON body, in a URL.
ECHOES = [
    pytest.param(lambda key: f"Rate limit reached ... for api key {key}", id="as-typed"),
    pytest.param(lambda key: f"Error code: 429 - {per_day_echo(key)}", id="sdk-error-text-dict-repr"),
    pytest.param(lambda key: json.dumps(per_day_echo(key)), id="json-body"),
    pytest.param(lambda key: requests.Request("GET", "https://api.openalex.org/works", params={"api_key": key, "x": 1}).prepare().url, id="url-query"),
]


@pytest.mark.parametrize(
    "spelled",
    [
        *ECHOES,
        pytest.param(lambda key: f"https://proxy.example/{requests.utils.quote(key, safe='')}/works", id="url-path"),
        pytest.param(lambda key: f"<p>key {html.escape(key)}</p>", id="html"),
        pytest.param(lambda key: repr(f"'\" {key}"), id="repr-escaping-both-quotes"),
    ],
)
@pytest.mark.parametrize(("variable", "key", "mark"), [("GROQ_API_KEY", LIVE_KEY, LIVE_MARK), ("OPENALEX_API_KEY", ODD_KEY, ODD_MARK), ("HF_TOKEN", ODD_KEY, ODD_MARK)])
def test_a_configured_key_is_redacted_whatever_its_shape_and_spelling(spelled, variable, key, mark):
    text = spelled(key)
    assert mark in text
    redacted = redact(text, {variable: key})
    assert mark not in redacted and REDACTED in redacted


@pytest.mark.parametrize(
    "spelled",
    [*ECHOES, pytest.param(lambda key: requests.Request("GET", "https://proxy.example/works", params={"k": key}).prepare().url, id="url-other-parameter")],
)
@pytest.mark.parametrize("key", ["Q7x9k2B", "Q7x9", "Q7x", "Q"], ids=["7-chars", "4-chars", "3-chars", "1-char"])
def test_a_short_configured_key_is_redacted_where_a_client_spells_it(spelled, key):
    """Left from the hostile pass: a configured value under 8 characters was never redacted. However short, the key a
    client sends is redacted where an echo puts it: after "api key", as a parameter's value."""
    text = spelled(key)
    redacted = redact(text, {"GROQ_API_KEY": key})
    assert REDACTED in redacted and redacted.replace(REDACTED, "") == text.replace(key, "", 1).replace(key, "")


def test_a_short_key_handed_to_a_client_is_remembered():
    key = "Zz4_q"
    assert redact(f"for api key {key}", {}) == f"for api key {key}"
    GroqJudgeClient(GroqJudgeSettings(), api_key=key, base_url=BASE_URL).close()
    assert redact(f"for api key {key}", {}) == f"for api key {REDACTED}"


def test_a_key_handed_to_a_client_is_redacted_whichever_variable_held_it():
    """Dagster's {env: NAME} may give a resource its key from a variable other than the three: the client remembers it."""
    key = "Vv5Gg8Jj2Oo0Uu3Ii7_unusual"
    assert redact(f"for api key {key}", {}) == f"for api key {key}"
    GroqJudgeClient(GroqJudgeSettings(), api_key=key, base_url=BASE_URL).close()
    assert redact(f"for api key {key}", {}) == f"for api key {REDACTED}"


@pytest.mark.parametrize(("key", "mark"), [(LIVE_KEY, LIVE_MARK), (ODD_KEY, ODD_MARK)], ids=["sk-live", "unusual-shape"])
def test_groq_echoing_the_key_in_a_per_day_429_leaves_it_in_no_reason_note_or_log_line(key, mark):
    """Issue 24: the echoed key was printed in the WARNING and stored. The key is handed to the client only (not in
    the environment), as Dagster's {env: NAME} may."""
    fake, lines, clock = FakeGroq(), [], FakeClock()
    fake.queue.append(lambda request: httpx.Response(429, json=per_day_echo(request.headers["authorization"].removeprefix("Bearer "))))
    with respx.mock() as router:
        router.post(COMPLETIONS).mock(side_effect=fake)
        client = GroqJudgeClient(GroqJudgeSettings(), api_key=key, base_url=BASE_URL, clock=clock, sleep=clock.sleep, log=lines.append)
        outcomes = client.judge(make_pairs(3)) + client.judge(make_pairs(2))
    assert len(fake.requests) == 1 and [o.status for o in outcomes] == [NOT_SENT] * 5
    texts = [o.reason for o in outcomes] + client.totals.notes + lines + [client.stopped]
    assert all(mark not in text for text in texts)
    assert outcomes[0].reason.startswith("Groq daily limit reached: Rate limit reached for model") and f"for api key {REDACTED}" in outcomes[0].reason


def test_an_answer_echoing_the_key_is_redacted_as_it_is_read():
    """A proxy writing the key into the answer itself: the rationale stored for each pair holds no key."""
    fake, clock = FakeGroq(), FakeClock()

    def echoing(request: httpx.Request) -> httpx.Response:
        entries = [reader_entry(index, abstract) | {"rationale": f"answered for api key {ODD_KEY}"} for index, abstract in newer_abstracts(request).items()]
        return fake.ok(request, content=json.dumps({"judgements": entries}))

    fake.queue.append(echoing)
    with respx.mock() as router:
        router.post(COMPLETIONS).mock(side_effect=fake)
        outcomes = GroqJudgeClient(GroqJudgeSettings(), api_key=ODD_KEY, base_url=BASE_URL, clock=clock, sleep=clock.sleep).judge(make_pairs(2))
    assert [o.status for o in outcomes] == [JUDGED] * 2
    assert [o.answer.rationale for o in outcomes] == [f"answered for api key {REDACTED}"] * 2


def test_an_openalex_error_whose_url_carries_the_key_is_redacted(monkeypatch):
    """OpenAlex documents the key as an `api_key` URL parameter too: a server redirecting to a URL that carries it,
    which requests then quotes whole in its error ("No connection adapters were found for '<url>'"), gets neither the
    parameter's value nor the key into an error row."""
    monkeypatch.setenv("OPENALEX_API_KEY", ODD_KEY)
    target = "gopher://openalex.invalid/works?" + urlencode({"filter": "doi:10.5067/x", "api_key": ODD_KEY})
    with serve_answers(lambda path, headers: (302, {"Location": target}, b"")) as base:
        client = OpenAlexClient(api_key=ODD_KEY, base_url=base, retry=RetryPolicy(retries=0, sleep=lambda _: None))
        report = client.fetch(DOIS[:2])
    errors = [result.error for result in report.results]
    assert [result.status for result in report.results] == [ERROR] * 2
    assert all(ODD_MARK not in error and "InvalidSchema: No connection adapters" in error and f"api_key={REDACTED}" in error for error in errors)


class _ProjectError(RuntimeError):
    """The project's own error in the rows below: its text written redacted, as every client writes it."""


@pytest.mark.parametrize("suppressed", [False, True], ids=["raise-from-error", "raise-from-none"])
def test_redacted_causes_copies_every_exception_of_the_chain_redacted(monkeypatch, suppressed):
    """`raise ... from None` hides the library's exception from a traceback but keeps it as `__context__`, where a
    reader of the chain still finds it: each link is a redacted copy, its type named, notes and traceback kept."""
    monkeypatch.setenv("HF_TOKEN", ODD_KEY)

    @redacted_causes()
    def client() -> None:
        try:
            try:
                raise ConnectionError(f"socket closed after sending Authorization: {ODD_KEY}")
            except ConnectionError as inner:
                raise ValueError(f"server answered {{'error': {ODD_KEY!r}}}") from inner
        except ValueError as error:
            error.add_note(f"while fetching with {ODD_KEY}")
            if suppressed:
                raise _ProjectError(f"cannot fetch: {redact(error)}") from None
            raise _ProjectError(f"cannot fetch: {redact(error)}") from error

    with pytest.raises(_ProjectError) as raised:
        client()

    assert not [text for text in chain_texts(raised.value) if ODD_MARK in text]
    copy = raised.value.__context__
    assert isinstance(copy, RedactedCause) and raised.value.__suppress_context__
    assert raised.value.__cause__ is (None if suppressed else copy)
    assert str(copy) == f"builtins.ValueError: server answered {{'error': '{REDACTED}'}}" and copy.__notes__ == [f"while fetching with {REDACTED}"]
    assert str(copy.__cause__) == f"builtins.ConnectionError: socket closed after sending Authorization: {REDACTED}"
    assert copy.__traceback__ is not None and copy.__traceback__.tb_frame.f_code.co_name == "client"


def test_openalex_budget_spent_keeps_a_url_echoing_the_key_out_of_its_cause():
    """BudgetSpent was raised `from` requests' HTTPError, whose text is the whole URL: a server redirecting to a URL
    that echoes the key (sent as a bearer token) and answering there that the budget is spent."""

    def echo_then_spent(path: str, headers: Message) -> tuple[int, dict[str, str], bytes]:
        if path.startswith("/works"):
            key = (headers.get("Authorization") or "").removeprefix("Bearer ")
            return 302, {"Location": "/spent?" + urlencode({"api_key": key})}, b""
        return 429, {"X-RateLimit-Remaining": "0", "X-RateLimit-Credits-Required": "1", "Content-Type": "application/json"}, b"{}"

    with serve_answers(echo_then_spent) as base:
        client = OpenAlexClient(api_key=ODD_KEY, base_url=base, retry=RetryPolicy(retries=0, sleep=lambda _: None))
        with pytest.raises(BudgetSpent) as raised:
            client.citing_works(CitingQuery(("W2741809807",), ALL_CITING, ("publication_date", "desc"), per_page=2, all_pages=False))
    texts = chain_texts(raised.value)
    assert not [text for text in texts if ODD_MARK in text]
    assert any(f"api_key={REDACTED}" in text for text in texts)  # requests' error, redacted, is still the cause


# ---- a key over plain HTTP -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("127.8.9.10", True), ("::1", True), ("localhost", True), ("LOCALHOST.", True),
     ("10.1.2.3", False), ("192.168.0.5", False), ("groq-proxy.internal", False), ("localhost.example.com", False),
     ("::ffff:10.0.0.1", False), (None, False), ("", False)],
)
def test_loopback_is_127_0_0_0_8_ipv6_1_and_localhost(host, loopback):
    assert is_loopback(host) is loopback


@pytest.mark.parametrize(
    ("url", "allow", "refused"),
    [
        ("http://10.1.2.3:8080", "", True),
        ("HTTP://groq-proxy.internal/openai", "", True),
        ("http://user:pass@192.168.0.5", "0", True),
        ("http://10.1.2.3:8080", "1", False),  # opted in
        ("https://10.1.2.3:8443", "", False),
        ("http://127.0.0.1:5000", "", False),
        ("http://[::1]:5000", "", False),
        ("http://localhost:5000", "", False),
        ("", "", False),  # the client's own default (https)
    ],
)
def test_a_plain_http_url_to_another_machine_is_refused_unless_opted_in(url, allow, refused):
    environ = {"RECON_ALLOW_PLAIN_HTTP": allow}
    if not refused:
        check_key_transport("GROQ_BASE_URL", url, "GROQ_API_KEY", environ)
        return
    with pytest.raises(PlainHttpRefused) as raised:
        check_key_transport("GROQ_BASE_URL", url, "GROQ_API_KEY", environ)
    message = str(raised.value)
    assert "\n" not in message and message.startswith("GROQ_BASE_URL is plain http:// to ")
    assert message.endswith("which would send GROQ_API_KEY unencrypted: use https://, or set RECON_ALLOW_PLAIN_HTTP=1 to send it anyway")
    assert "pass" not in message  # the URL's user information is never shown


@pytest.mark.parametrize(
    ("proxies", "refused_through"),
    [
        ({"HTTP_PROXY": "http://192.0.2.1:3128"}, "HTTP_PROXY sends it through the proxy 192.0.2.1"),  # hostile finding
        ({"all_proxy": "socks5://proxy.example:1080"}, "all_proxy sends it through the proxy proxy.example"),
        ({"HTTP_PROXY": "192.0.2.1:3128"}, "HTTP_PROXY sends it through the proxy 192.0.2.1"),  # no scheme, as curl takes it
        ({"HTTP_PROXY": "http://192.0.2.1:3128", "NO_PROXY": "127.0.0.1,localhost"}, None),  # bypassed
        ({"HTTP_PROXY": "http://127.0.0.1:3128"}, None),  # a proxy on this machine
        ({"HTTPS_PROXY": "http://192.0.2.1:3128"}, None),  # not used for http:// requests
        ({"HTTP_PROXY": "http://192.0.2.1:3128", "RECON_ALLOW_PLAIN_HTTP": "1"}, None),  # opted in
    ],
)
def test_a_plain_http_loopback_url_through_a_proxy_on_another_machine_is_refused(proxies, refused_through):
    if refused_through is None:
        check_key_transport("GROQ_BASE_URL", "http://127.0.0.1:5000", "GROQ_API_KEY", proxies)
        return
    with pytest.raises(PlainHttpRefused) as raised:
        check_key_transport("GROQ_BASE_URL", "http://127.0.0.1:5000", "GROQ_API_KEY", proxies)
    assert str(raised.value) == (
        f"GROQ_BASE_URL is plain http:// and {refused_through}, which would carry GROQ_API_KEY unencrypted: use https://, "
        "or set RECON_ALLOW_PLAIN_HTTP=1 to send it anyway, or add 127.0.0.1 to NO_PROXY"
    )


def test_recon_allow_plain_http_takes_1_0_or_unset():
    with pytest.raises(ValueError, match=r"^RECON_ALLOW_PLAIN_HTTP must be '0', '1' or unset, got 'yes'$"):
        check_key_transport("OPENALEX_URL", "https://api.openalex.org", "OPENALEX_API_KEY", {"RECON_ALLOW_PLAIN_HTTP": "yes"})


REFUSED_GROQ = ("GROQ_BASE_URL is plain http:// to 10.1.2.3, which would send GROQ_API_KEY unencrypted: use https://, "
                "or set RECON_ALLOW_PLAIN_HTTP=1 to send it anyway")


@pytest.mark.parametrize(
    ("resource", "environ", "refused"),
    [
        pytest.param(GroqJudgeResource(api_key=LIVE_KEY, base_url="http://10.1.2.3:8080"), {}, REFUSED_GROQ, id="groq"),
        pytest.param(GroqJudgeResource(api_key=LIVE_KEY), {"GROQ_BASE_URL": "http://10.1.2.3:8080"}, REFUSED_GROQ, id="groq-sdk-reads-the-variable"),
        pytest.param(GroqJudgeResource(api_key=LIVE_KEY, base_url="http://10.1.2.3"), {"RECON_ALLOW_PLAIN_HTTP": "1"}, None, id="groq-opted-in"),
        pytest.param(GroqJudgeResource(api_key=LIVE_KEY, base_url="http://10.1.2.3", offline=True), {}, None, id="groq-offline-sends-nothing"),
        pytest.param(GroqJudgeResource(base_url="http://10.1.2.3"), {}, None, id="groq-without-a-key"),
        pytest.param(GroqJudgeResource(api_key=LIVE_KEY, base_url="http://127.0.0.1:9"), {}, None, id="groq-loopback"),
        pytest.param(OpenAlexResource(api_key=ODD_KEY, base_url="http://oa-mirror.example"), {},
                     "OPENALEX_URL is plain http:// to oa-mirror.example, which would send OPENALEX_API_KEY unencrypted", id="openalex"),
        pytest.param(OpenAlexResource(api_key=ODD_KEY, base_url="http://oa-mirror.example", offline=True), {}, None, id="openalex-offline"),
        pytest.param(HuggingFaceKgExport(), {"HF_TOKEN": "hf_" + "k" * 34, "HF_ENDPOINT": "http://hf-mirror.example"},
                     "HF_ENDPOINT is plain http:// to hf-mirror.example, which would send HF_TOKEN unencrypted", id="hugging-face-endpoint"),
        pytest.param(HuggingFaceKgExport(), {"HF_TOKEN": "hf_" + "k" * 34, "HF_ENDPOINT": "http://hf-mirror.example", "HF_HUB_OFFLINE": "1"},
                     None, id="hugging-face-offline"),
    ],
)
def test_a_resource_that_sends_a_key_refuses_plain_http_when_it_starts(monkeypatch, resource, environ, refused):
    """Where Dagster starts a run's resources (a run from the UI or a schedule): the run fails with the one line."""
    for variable in ("GROQ_BASE_URL", "RECON_ALLOW_PLAIN_HTTP", "HF_TOKEN", "HF_HUB_OFFLINE"):
        monkeypatch.delenv(variable, raising=False)
    for variable, value in environ.items():
        monkeypatch.setenv(variable, value)
    # huggingface_hub reads HF_ENDPOINT and HF_HUB_OFFLINE once, at import
    monkeypatch.setattr("huggingface_hub.constants.ENDPOINT", environ.get("HF_ENDPOINT", "https://huggingface.co"))
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_OFFLINE", bool(environ.get("HF_HUB_OFFLINE")))
    if refused is None:
        resource.process_config_and_initialize()
        return
    with pytest.raises(PlainHttpRefused) as raised:
        resource.process_config_and_initialize()
    assert str(raised.value).startswith(refused)


def test_a_ui_launch_is_refused_with_the_same_line(monkeypatch):
    """The instance's run coordinator (launch_checks) refuses the run before any step, with the line the resource
    fails with."""
    monkeypatch.delenv("RECON_ALLOW_PLAIN_HTTP", raising=False)
    monkeypatch.setenv("GROQ_API_KEY", LIVE_KEY)
    monkeypatch.setenv("GROQ_BASE_URL", "http://10.1.2.3:8080")
    assert settings_problems(None) == [f"resource groq_judge: {REFUSED_GROQ}"]
    monkeypatch.setenv("RECON_ALLOW_PLAIN_HTTP", "1")
    assert settings_problems(None) == []


@pytest.mark.parametrize(
    ("environ", "refused"),
    [
        ({"GROQ_API_KEY": LIVE_KEY, "GROQ_BASE_URL": "http://10.1.2.3:8080"}, REFUSED_GROQ),
        ({"OPENALEX_API_KEY": ODD_KEY, "OPENALEX_URL": "http://oa-mirror.example"},
         "OPENALEX_URL is plain http:// to oa-mirror.example, which would send OPENALEX_API_KEY unencrypted"),
        ({"OPENALEX_API_KEY": ODD_KEY, "OPENALEX_URL": "http://oa-mirror.example", "RECON_OPENALEX": "offline"}, None),
        ({"GROQ_API_KEY": LIVE_KEY, "GROQ_BASE_URL": "http://10.1.2.3:8080", "RECON_ALLOW_PLAIN_HTTP": "1"}, None),
        ({"RECON_ALLOW_PLAIN_HTTP": "true"}, "RECON_ALLOW_PLAIN_HTTP must be '0', '1' or unset, got 'true'"),
        # Hostile pass: a base URL without a scheme passed and a full run went on with Groq unreachable
        ({"GROQ_API_KEY": LIVE_KEY, "GROQ_BASE_URL": "example.com:80"},
         "GROQ_BASE_URL must start with https:// (or http://), and this value does not (not shown: it may hold a key)"),
    ],
)
def test_recon_run_pre_checks_refuse_plain_http_before_any_run(monkeypatch, tmp_path, environ, refused):
    for variable in ("GROQ_API_KEY", "GROQ_BASE_URL", "OPENALEX_API_KEY", "OPENALEX_URL", "RECON_OPENALEX", "RECON_ALLOW_PLAIN_HTTP", "RECON_KG_PATH"):
        monkeypatch.delenv(variable, raising=False)
    for variable, value in environ.items():
        monkeypatch.setenv(variable, value)
    if refused is None:
        _preflight(tmp_path / "recon.duckdb")
        return
    with pytest.raises(PreflightError) as raised:
        _preflight(tmp_path / "recon.duckdb")
    assert str(raised.value).startswith(refused)


def test_recon_run_refuses_plain_http_in_one_line_exit_2(tmp_path, capsys, monkeypatch):
    """`recon run` called in this process (`test_rerun.recon_refusal`: no Python and Dagster start-up, issue 23)."""
    monkeypatch.delenv("RECON_ALLOW_PLAIN_HTTP", raising=False)
    variables = {"DAGSTER_HOME": str(tmp_path / "home"), "GROQ_API_KEY": LIVE_KEY, "GROQ_BASE_URL": "http://10.1.2.3:8080",
                 "RECON_OPENALEX": "offline"}
    code, out, err = recon_refusal(["--db", str(tmp_path / "r.duckdb")], variables, capsys, monkeypatch)
    assert code == 2 and err == f"error: {REFUSED_GROQ}\n"
    assert not (tmp_path / "r.duckdb").exists() and not (tmp_path / "home").exists()


# ---- the whole run (test_browser.py: the run the UI test shows) -----------------------------------------------------


@contextmanager
def serve_answers(answer: Callable[[str, Message], tuple[int, dict[str, str], bytes]]) -> Iterator[str]:
    """Serve on 127.0.0.1 (a free port), in a thread, every GET and POST with `answer(path, request headers)` ->
    (status, headers, body); yields the base URL, stops on exit."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's names
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            status, headers, body = answer(self.path, self.headers)
            self.send_response(status)
            for name, value in {**headers, "Content-Length": str(len(body))}.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        do_POST = do_GET

        def log_message(self, *args) -> None:
            pass

    with serving(Handler) as base:
        yield base
