"""Issue 14, secrets and output hygiene: keys are checked at start-up and never reach an error text; `--kg` on a
kernel pseudo-file and `--db` on a non-DuckDB file are refused before anything runs; text from the KG or OpenAlex
cannot drive the terminal nor make markup. OpenAlex is the loopback fake serving the real recorded works
(fake_openalex.py), so the real pyalex, requests and http.client code runs, header checks included."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import dagster as dg
import duckdb
import pytest

from recon_assets.cli.main import explain_doi
from recon_assets.cli.run import PreflightError, _preflight
from recon_assets.enrichment.openalex_client import ERROR, FOUND, OpenAlexClient
from recon_assets.enrichment.resources import OpenAlexResource
from recon_assets.enrichment.retries import RetryPolicy
from recon_assets.kg.doi import canonical_doi
from recon_assets.shared.credentials import REDACTED, UnusableSecretError, redact, shown_setting, usable_secrets
from recon_assets.shared.display import markdown_text, terminal_text
from recon_assets.shared.metadata import table_metadata
from recon_assets.shared.paths import is_pseudo_file

from recon_assets_tests.fake_openalex import FakeOpenAlex, real_works, serve_on_loopback
from recon_assets_tests.test_rerun import recon_refusal

WORKS = real_works()
DOIS = [canonical_doi(work["doi"]) for work in WORKS]
SECRET = "oa-test-key-7f3a9c41d2"
NO_RETRY = RetryPolicy(retries=0, sleep=lambda _: None)


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        pytest.param({"OPENALEX_API_KEY": f"{SECRET}\n"}, {"OPENALEX_API_KEY": SECRET}, id="trailing-newline-stripped"),
        pytest.param({"OPENALEX_API_KEY": f"  {SECRET}\r\n"}, {"OPENALEX_API_KEY": SECRET}, id="crlf-and-spaces-stripped"),
        pytest.param({"HF_TOKEN": "hf_abc\t", "GROQ_API_KEY": "gsk_x"}, {"HF_TOKEN": "hf_abc", "GROQ_API_KEY": "gsk_x"}, id="all-three"),
        pytest.param({"OPENALEX_API_KEY": "   ", "HF_TOKEN": ""}, {}, id="blank-is-unset"),
    ],
)
def test_usable_secrets_strips_surrounding_whitespace(environ, expected):
    assert usable_secrets(environ) == expected


@pytest.mark.parametrize(
    ("variable", "value", "position"),
    [
        ("OPENALEX_API_KEY", f"{SECRET}\nX-Injected: 1", 23),
        ("GROQ_API_KEY", "gsk_abc def", 8),
        ("HF_TOKEN", "hf_\x1b[2Jtoken", 4),
        ("OPENALEX_API_KEY", "clé-non-ascii", 3),
    ],
)
def test_an_unusable_secret_is_one_clear_error_that_never_holds_the_value(variable, value, position):
    with pytest.raises(UnusableSecretError) as raised:
        usable_secrets({variable: value})
    message = str(raised.value)
    assert message.startswith(f"{variable} is not usable: character {position} of its")
    assert value.strip() not in message and value.split()[0] not in message


@pytest.mark.parametrize(
    ("text", "environ", "expected"),
    [
        pytest.param(f"Invalid header value b'Bearer {SECRET}\\n'", {}, f"Invalid header value b'Bearer {REDACTED}'", id="bearer"),
        pytest.param(f"refused {SECRET}!", {"OPENALEX_API_KEY": f"{SECRET}\n"}, f"refused {REDACTED}!", id="env-value-stripped"),
        pytest.param(f"GET /works?api_key={SECRET}&x=1", {}, f"GET /works?api_key={REDACTED}&x=1", id="query-parameter"),
        pytest.param("token hf_" + "a1B2" * 9 + " expired", {}, f"token {REDACTED} expired", id="hf-token-shape"),
        pytest.param("key gsk_" + "Z9" * 15, {}, f"key {REDACTED}", id="groq-key-shape"),
        pytest.param("x%2Fy%0A in url", {"HF_TOKEN": "secret-x/y\n"}, "x%2Fy%0A in url", id="short-tail-kept"),
        pytest.param("https://h/?k=secret-token%2F1", {"HF_TOKEN": "secret-token/1"}, f"https://h/?k={REDACTED}", id="percent-encoded"),
        pytest.param("HTTP 503 Service Unavailable from /works", {"OPENALEX_API_KEY": SECRET}, "HTTP 503 Service Unavailable from /works", id="nothing-to-redact"),
        # Left from the hostile pass: a configured value under 8 characters was never redacted. 4-7 characters: wherever
        # it stands alone; 1-3: only after a credential's name or as a parameter's value (credentials.redact).
        pytest.param("Invalid API key k3y55 for /works", {"GROQ_API_KEY": "k3y55"}, f"Invalid API key {REDACTED} for /works", id="5-chars"),
        pytest.param("https://h/p/abc1234/x", {"OPENALEX_API_KEY": "abc1234"}, f"https://h/p/{REDACTED}/x", id="7-chars-in-a-path"),
        pytest.param("k3y55x, xk3y55 and k3y555", {"GROQ_API_KEY": "k3y55"}, "k3y55x, xk3y55 and k3y555", id="5-chars-inside-words-kept"),
        pytest.param("Incorrect API key provided: ab. See docs", {"GROQ_API_KEY": "ab"}, f"Incorrect API key provided: {REDACTED}. See docs", id="2-chars-after-key"),
        pytest.param("GET /works?mailto=x&k=ab&page=2", {"OPENALEX_API_KEY": "ab"}, f"GET /works?mailto=x&k={REDACTED}&page=2", id="2-chars-parameter"),
        pytest.param('{"token": "ab"}', {"HF_TOKEN": "ab"}, f'{{"token": "{REDACTED}"}}', id="2-chars-json-token"),
        pytest.param("'Authorization': 'Bearer x'", {"GROQ_API_KEY": "x"}, f"'Authorization': 'Bearer {REDACTED}'", id="1-char-bearer"),
        pytest.param("ab initio, a table of absorbance in lab", {"GROQ_API_KEY": "ab"}, "ab initio, a table of absorbance in lab", id="2-chars-in-text-kept"),
        pytest.param("a key is a value, the key, a word", {"HF_TOKEN": "a"}, "a key is a value, the key, a word", id="1-char-article-kept"),
        pytest.param("for api key a (HTTP 401)", {"HF_TOKEN": "a"}, f"for api key {REDACTED} (HTTP 401)", id="1-char-after-key"),
        # Left from the hostile pass: a KG source's path or URL became the recon/kg_source tag in clear.
        pytest.param("https://reader:s3cret@kg.example/graph.json", {}, f"https://{REDACTED}@kg.example/graph.json", id="url-user-information"),
        pytest.param("/work/https:/reader:s3cret@kg.example/graph.json", {}, f"/work/https:/{REDACTED}@kg.example/graph.json", id="url-made-a-path"),
        pytest.param("https://b.example/graph.json?X-Amz-Credential=AKIA1/x&X-Amz-Signature=9f8e&v=2", {},
                     f"https://b.example/graph.json?X-Amz-Credential={REDACTED}&X-Amz-Signature={REDACTED}&v=2", id="presigned-url"),
        pytest.param("md:recon?motherduck_token=ey.J9", {}, f"md:recon?motherduck_token={REDACTED}", id="prefixed-token-parameter"),
        pytest.param("hf://nasa-gesdisc/nasa-eo-knowledge-graph@v1.2.0/graph.json?keyword=ozone&page=2", {},
                     "hf://nasa-gesdisc/nasa-eo-knowledge-graph@v1.2.0/graph.json?keyword=ozone&page=2", id="hub-source-and-plain-parameters-kept"),
    ],
)
def test_redact_removes_every_secret_whatever_its_source(text, environ, expected):
    assert redact(text, environ) == expected


@pytest.mark.parametrize(
    ("value", "environ", "shown"),
    [
        ("yes", {}, "'yes'"),
        ("", {}, "''"),
        ("2026-13-01", {}, "'2026-13-01'"),
        # Hostile findings: an OpenAlex key (no recognisable shape) typed into RECON_OPENALEX was quoted in full ...
        ("oa_9f8e7d6c5b4a3210fedcba9876543210", {}, "a value of 35 characters (not shown: it may be a key)"),
        # ... and so was a key holding a quote: repr escaped it before redact could find it.
        ("\"ab'cdefgh12345", {"OPENALEX_API_KEY": "ab'cdefgh12345"}, "'\"[redacted]'"),
        ("x" * 120_000, {}, "a value of 120,000 characters (not shown: it may be a key)"),
    ],
)
def test_a_setting_quoted_in_an_error_is_short_and_never_a_key(monkeypatch, value, environ, shown):
    for variable in ("OPENALEX_API_KEY", "GROQ_API_KEY", "HF_TOKEN"):
        monkeypatch.delenv(variable, raising=False)
    for variable, secret in environ.items():
        monkeypatch.setenv(variable, secret)
    assert shown_setting(value) == shown


def test_a_key_pasted_with_its_line_end_is_sent_as_issued():
    """Bug row: OPENALEX_API_KEY ending in '\\n' made the HTTP library refuse the header; its error text held the key.
    Over a loopback server, so http.client's own header check runs."""
    fake = FakeOpenAlex(WORKS)
    with serve_on_loopback(fake) as base:
        report = OpenAlexResource(api_key=f"{SECRET}\r\n", base_url=base, retries=0).fetch(DOIS[:3], dg.get_dagster_logger())
    assert [result.status for result in report.results] == [FOUND] * 3


@pytest.mark.parametrize("key", [f"{SECRET}\n", f"{SECRET}\r", f"{SECRET}\nX-Injected: 1"])
def test_a_header_the_http_library_refuses_leaves_no_key_in_error_rows(key):
    """Whatever key reaches the client (start-up strips and checks the environment's; this one is passed in
    directly), the library's error text, which quotes the refused header, is redacted before it becomes a row."""
    with serve_on_loopback(FakeOpenAlex(WORKS)) as base:
        report = OpenAlexClient(api_key=key, base_url=base, retry=NO_RETRY).fetch(DOIS[:2])
    assert [result.status for result in report.results] == [ERROR] * 2
    assert all(SECRET not in result.error for result in report.results)
    assert "Invalid header value" in report.results[0].error and REDACTED in report.results[0].error


def _recon(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "recon_assets.cli.main", *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=120
    )


@pytest.mark.parametrize(("path", "pseudo"), [
    ("/proc/self/environ", True), ("/sys/kernel/mm/transparent_hugepage/enabled", True), ("/dev/zero", True),
    ("/dev/shm/graph.json", False), ("/tmp/graph.json", False),
])
def test_pseudo_files_are_under_proc_sys_and_dev_but_not_shared_memory(path, pseudo):
    """Bug row: an export kept in /dev/shm (a tmpfs of ordinary files) was refused as a kernel pseudo-file."""
    assert is_pseudo_file(Path(path)) is pseudo


def test_recon_run_refuses_proc_self_environ_without_echoing_it(tmp_path):
    """Bug row: `--kg /proc/self/environ` printed the first 40 bytes of the environment, key prefix included. In a
    process of its own: /proc/self/environ holds the environment a process started with, the key included; the other
    refusals below run in this process (`test_rerun.recon_refusal`: no Python and Dagster start-up, issue 23)."""
    env = {**os.environ, "DAGSTER_HOME": str(tmp_path / "home"), "OPENALEX_API_KEY": SECRET, "RECON_OPENALEX": "offline"}
    run = _recon("run", "--kg", "/proc/self/environ", "--db", str(tmp_path / "r.duckdb"), env=env, cwd=tmp_path)
    assert run.returncode == 2
    assert re.fullmatch(
        r"error: KG export /proc/\S+/environ is a kernel pseudo-file \(/proc, /sys or /dev\), not a KG export file\n", run.stderr
    )
    assert SECRET not in run.stdout + run.stderr and "PATH=" not in run.stderr


def test_an_export_that_is_not_one_is_refused_without_echoing_its_bytes(tmp_path, capsys, monkeypatch):
    keyfile = tmp_path / "openalex.key"
    keyfile.write_text(f"{SECRET}\n")
    code, out, err = recon_refusal(
        ["--kg", str(keyfile), "--db", str(tmp_path / "r.duckdb")], {"DAGSTER_HOME": str(tmp_path / "home")}, capsys, monkeypatch,
    )
    assert code == 2 and "is neither APOC JSON-lines, GraphML nor a Cypher export" in err
    assert SECRET[:6] not in err


def test_recon_run_stops_at_start_on_an_unusable_key_with_one_line(tmp_path, capsys, monkeypatch):
    variables = {"DAGSTER_HOME": str(tmp_path / "home"), "OPENALEX_API_KEY": f"{SECRET}\r\nBearer x"}
    code, out, err = recon_refusal(["--db", str(tmp_path / "r.duckdb")], variables, capsys, monkeypatch)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("error: OPENALEX_API_KEY is not usable: character")
    assert SECRET not in err and not (tmp_path / "r.duckdb").exists()


def test_preflight_strips_the_keys_for_the_whole_run(monkeypatch, tmp_path):
    monkeypatch.delenv("RECON_KG_PATH", raising=False)
    monkeypatch.setenv("OPENALEX_API_KEY", f"{SECRET}\n")
    monkeypatch.setenv("HF_TOKEN", "hf_token_value\r\n")
    _preflight(tmp_path / "recon.duckdb")
    assert os.environ["OPENALEX_API_KEY"] == SECRET and os.environ["HF_TOKEN"] == "hf_token_value"


@pytest.mark.parametrize(
    ("content", "refused"),
    [
        pytest.param(b'{"run": "settings"}\n', True, id="json-file"),
        pytest.param(b"SQLite format 3\x00" + bytes(84), True, id="sqlite-file"),
        pytest.param(b"", False, id="empty-file-becomes-a-database"),
        pytest.param(None, False, id="absent-file-is-created"),
    ],
)
def test_preflight_refuses_an_existing_file_that_is_not_duckdb(monkeypatch, tmp_path, content, refused):
    """Bug row: `--db settings.json` passed the preflight and failed later with "kg_snapshots does not exist"."""
    monkeypatch.delenv("RECON_KG_PATH", raising=False)
    database = tmp_path / "settings.json"
    if content is not None:
        database.write_bytes(content)
    if refused:
        with pytest.raises(PreflightError, match=r"exists and is not a DuckDB database file \(no DuckDB header\)"):
            _preflight(database)
        assert database.read_bytes() == content  # untouched
    else:
        _preflight(database)
        with duckdb.connect(str(database)) as con:
            assert con.execute("SELECT 42").fetchone() == (42,)


def test_preflight_refuses_a_database_path_that_is_a_symbolic_link_loop(monkeypatch, tmp_path):
    """Hostile pass: RECON_DB_PATH (or --db) at a symbolic-link loop ended `recon run` in a traceback."""
    monkeypatch.delenv("RECON_KG_PATH", raising=False)
    database = tmp_path / "loop.duckdb"
    database.symlink_to(tmp_path / "back.duckdb")
    (tmp_path / "back.duckdb").symlink_to(database)
    with pytest.raises(PreflightError, match=r"^--db / RECON_DB_PATH .*loop.duckdb is a symbolic-link loop: point it at a file$"):
        _preflight(database)


def test_preflight_refuses_a_database_path_that_is_a_named_pipe_instead_of_blocking_on_it(monkeypatch, tmp_path):
    """Hostile pass: `recon run --db <a FIFO>` hung with no output (reading its header blocks until a writer comes)."""
    import os

    monkeypatch.delenv("RECON_KG_PATH", raising=False)
    database = tmp_path / "fifo"
    os.mkfifo(database)
    with pytest.raises(PreflightError, match=r"^--db .*fifo is not a regular file \(a pipe, socket or device\): give the path of a DuckDB file$"):
        _preflight(database)


def test_a_key_of_whitespace_only_is_no_key(monkeypatch):
    """Hostile pass: OPENALEX_API_KEY set to a tab passed the pre-check and turned OpenAlex online, every request then
    sent without a usable key; a blank key is now unset everywhere the resources and the run inputs read it."""
    from recon_assets.definitions import resources_from_environment
    from recon_assets.shared.credentials import secret_is_set

    for variable in ("OPENALEX_API_KEY", "GROQ_API_KEY", "RECON_OPENALEX", "RECON_GROQ"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("OPENALEX_API_KEY", "\t")
    monkeypatch.setenv("GROQ_API_KEY", "  ")
    assert not secret_is_set("OPENALEX_API_KEY") and not secret_is_set("GROQ_API_KEY")
    resources = resources_from_environment()
    assert resources["openalex"].offline and resources["openalex"].api_key is None
    assert resources["groq_judge"].offline_reason() is not None


def test_preflight_accepts_an_existing_duckdb_file(monkeypatch, tmp_path):
    monkeypatch.delenv("RECON_KG_PATH", raising=False)
    database = tmp_path / "recon.duckdb"
    with duckdb.connect(str(database)) as con:
        con.execute("CREATE TABLE t AS SELECT 1 AS x")
    _preflight(database)


HOSTILE = "\x1b]0;owned\x07\x1b[2J\x1b[31mRed\x1b[0m title\r\nFAKE: line\u202eevil\x9b1m"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param(HOSTILE, "Red title  FAKE: line evil", id="osc-csi-cr-newline-bidi-c1"),
        pytest.param("Plain title (2021): AOD", "Plain title (2021): AOD", id="plain-unchanged"),
        pytest.param("tab\there\x00nul\x7fdel\x08bs", "tab here nul del bs", id="c0-and-del"),
        pytest.param("\x1bPqpayload\x1b\\after", "after", id="dcs-string"),
        pytest.param("Ångström – München", "Ångström – München", id="unicode-text-kept"),
    ],
)
def test_terminal_text_shows_data_only(value, expected):
    assert terminal_text(value) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("[click](https://evil.example)", r"\[click\]\(https\://evil\.example\)", id="link"),
        pytest.param("# *Bold* _it_ | cell", r"\# \*Bold\* \_it\_ \| cell", id="heading-emphasis-pipe"),
        pytest.param("<img src=x onerror=alert(1)>", r"\<img src\=x onerror\=alert\(1\)\>", id="html"),
        pytest.param("line\nbreak", "line break", id="newline"),
        pytest.param("AOD over East Asia", "AOD over East Asia", id="plain"),
    ],
)
def test_markdown_text_escapes_every_markup_character(value, expected):
    assert markdown_text(value) == expected


def test_table_previews_show_kg_text_as_text(tmp_path):
    with duckdb.connect(str(tmp_path / "t.duckdb")) as con:
        con.execute("CREATE TABLE publications (doi VARCHAR, title VARCHAR, year INTEGER)")
        con.execute("INSERT INTO publications VALUES ('10.1/x', ?, 2020)", ["[Win](http://evil.example) | **big** \x1b[31m"])
        preview = table_metadata(con, "publications")["preview"].value
    row = preview.splitlines()[2]
    assert r"\[Win\]\(http\://evil\.example\) \| \*\*big\*\*" in row and "\x1b" not in preview
    assert row.count("|") - row.count(r"\|") == 4  # three cells: the title's '|' is escaped


def test_explain_prints_kg_text_as_data(sample_run, tmp_path, capsys):
    """Bug row: a title holding escape sequences and a line break was printed raw by `recon explain`."""
    database = sample_run.copy_database(tmp_path / "recon.duckdb")
    with duckdb.connect(str(database)) as con:
        con.execute("UPDATE publications SET title = ? WHERE doi = '10.3390/rs12081239'", [HOSTILE])
        con.execute(
            "UPDATE openalex_works SET status = 'error', error = ? WHERE doi = '10.3390/rs12081239'",
            [f"InvalidHeader: Invalid header value b'Bearer {SECRET}\\r\\n'"],
        )
        con.execute("UPDATE edge_reliability SET openalex_status = 'error' WHERE publication_doi = '10.3390/rs12081239'")
    assert explain_doi("10.3390/rs12081239", database) == 0
    out = capsys.readouterr().out
    assert "'Red title  FAKE: line evil'" in out
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]", out)
    assert SECRET not in out and f"Bearer {REDACTED}" in out


def test_recon_run_output_goes_through_terminal_text_keeping_line_breaks():
    import io

    from recon_assets.shared.display import TerminalSafeStream

    underlying = io.StringIO()
    stream = TerminalSafeStream(underlying)
    assert stream.write(f"INFO - title {HOSTILE}\n") == len(f"INFO - title {HOSTILE}\n")
    assert underlying.getvalue() == "INFO - title Red title \nFAKE: line evil\n"
    assert stream.getvalue() == underlying.getvalue()  # everything else is the wrapped stream's


def test_the_code_location_does_not_load_with_an_unusable_key(monkeypatch):
    from recon_assets.definitions import resources_from_environment

    monkeypatch.setenv("GROQ_API_KEY", "gsk_abc\x1bdef")
    with pytest.raises(UnusableSecretError, match=r"^GROQ_API_KEY is not usable: character 8 of its 11"):
        resources_from_environment()


@pytest.mark.parametrize("folder", ["https:/reader:s3cret@kg.example", "graph?token=s3cret", "gsk_tagsecret1234567890abcdef"])
def test_the_kg_source_tag_and_snapshot_metadata_hold_no_credential(tmp_path, monkeypatch, folder):
    """Left from the hostile pass (issue 24): the KG source's path or URL became the recon/kg_source run tag, the
    kg_snapshot metadata and kg_snapshots.source in clear. Here the credential is in the path: a URL's user
    information, a token parameter, a configured key."""
    monkeypatch.setenv("GROQ_API_KEY", "gsk_tagsecret1234567890abcdef")
    kg = tmp_path / folder / "graph.json"
    kg.parent.mkdir(parents=True)
    kg.write_bytes((Path(__file__).parents[1] / "recon_assets" / "sample" / "graph.json").read_bytes())
    monkeypatch.setenv("RECON_KG_PATH", str(kg))
    monkeypatch.setenv("RECON_DB_PATH", str(tmp_path / "recon.duckdb"))
    from recon_assets.definitions import resources_from_environment
    from recon_assets.kg.assets import kg_snapshot

    with dg.instance_for_test() as instance:
        result = dg.materialize([kg_snapshot], resources=resources_from_environment(), instance=instance)
        tag = instance.get_run_by_id(result.run_id).tags["recon/kg_source"]
    metadata = result.asset_materializations_for_node("kg_snapshot")[0].metadata["source"].value
    with duckdb.connect(str(tmp_path / "recon.duckdb"), read_only=True) as con:
        (stored,) = con.execute("SELECT source FROM kg_snapshots").fetchone()
    assert "s3cret" not in tag + metadata + stored and "tagsecret" not in tag + metadata + stored
    assert tag == redact(str(kg)) and REDACTED in tag and metadata == stored == redact(str(kg.resolve()))
