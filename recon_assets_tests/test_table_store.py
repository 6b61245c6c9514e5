"""The table store's connection target: a local DuckDB file (locked, spilling beside it) or a MotherDuck database
(`md:<name>`, token from MOTHERDUCK_TOKEN). MotherDuck cannot be reached from the test machine: these tests stop
before any connection is attempted, or at DuckDB's own refusal."""

import logging
from pathlib import Path

import dagster as dg
import pandas as pd
import pytest

from recon_assets.cli.main import main
from recon_assets.definitions import resources_from_environment
from recon_assets.storage.duckdb_files import NO_EXTENSIONS
from recon_assets.storage.duckdb_settings import duckdb_connection_config, output_anchor
from recon_assets.storage.duckdb_settings import MissingTokenError, MotherDuckUnreachable
from recon_assets.storage.duckdb_store import TableStore, connection_target
from recon_assets.storage.outputs import OutputFiles

TOKEN = "md_token_0123456789abcdef"


@pytest.mark.parametrize(
    ("database", "local_file", "anchor"),
    [
        ("data/recon.duckdb", Path("data/recon.duckdb"), Path("data/recon.duckdb")),
        ("md:recon", None, Path("data/md_recon")),
        ("md:", None, Path("data/md_default")),
        ("motherduck:recon", None, Path("data/md_recon")),
        ("md:recon?attach_mode=single", None, Path("data/md_recon")),
    ],
)
def test_the_database_setting_gives_the_connection_target(database, local_file, anchor):
    target = connection_target(database, duckdb_connection_config(database))
    assert (target.database, target.local_file, output_anchor(database)) == (database, local_file, anchor)
    # a MotherDuck database spills on the client to DuckDB's default temp directory, a local file beside itself
    assert target.config == (
        {"memory_limit": "3GB", "temp_directory": f"{database}.tmp"} if local_file else {"memory_limit": "3GB"}
    )


def test_a_motherduck_database_without_a_token_is_refused_in_one_line(monkeypatch):
    monkeypatch.delenv("MOTHERDUCK_TOKEN", raising=False)
    store = TableStore(database="md:recon")
    with pytest.raises(MissingTokenError) as refused:
        with store.connect():
            pass
    message = str(refused.value)
    assert "\n" not in message and message.startswith("md:recon is a MotherDuck database but MOTHERDUCK_TOKEN is not set")
    # a blank token is no token
    with pytest.raises(MissingTokenError, match="MOTHERDUCK_TOKEN is not set"):
        with TableStore(database="md:recon", motherduck_token="  ").connect():
            pass


def test_a_motherduck_database_whose_extension_cannot_be_downloaded_is_said_in_one_line(tmp_path):
    """Hostile pass, 2026-12-04: offline, MotherDuck's failure was DuckDB's three-line 'Failed to download extension'
    with its URL. The extension is looked for in an empty folder and fetched from a port nothing listens on, so the
    download fails here whatever network the machine has."""
    store = TableStore(database="md:recon", motherduck_token="a-token", connection_config={
        "extension_directory": str(tmp_path / "extensions"), "custom_extension_repository": "http://127.0.0.1:9",
    })
    with pytest.raises(MotherDuckUnreachable) as refused:
        with store.connect():
            pass
    message = str(refused.value)
    assert "\n" not in message and "a-token" not in message and "127.0.0.1" not in message
    assert message.startswith("md:recon is a MotherDuck database, reached through DuckDB's motherduck extension, which could "
                              "not be downloaded or loaded (")
    assert message.endswith("connect this machine to the internet (the extension is downloaded once), or set RECON_DB_PATH to a local file")


def test_a_run_on_motherduck_without_a_token_fails_when_its_resources_start(tmp_path, monkeypatch):
    monkeypatch.setenv("RECON_DB_PATH", "md:recon")
    monkeypatch.delenv("MOTHERDUCK_TOKEN", raising=False)

    @dg.asset
    def reads_a_table(store: TableStore) -> None:
        raise AssertionError("the step must not start without a token")

    with dg.instance_for_test(temp_dir=str(tmp_path)) as instance:
        result = dg.materialize([reads_a_table], resources={"store": resources_from_environment()["store"]}, instance=instance, raise_on_error=False)
        assert not result.success
        errors = [event for event in result.all_events if event.is_failure]
        assert any("md:recon is a MotherDuck database but MOTHERDUCK_TOKEN is not set" in str(event.event_specific_data) for event in errors)


def test_the_token_comes_from_the_environment_and_is_never_shown(tmp_path, monkeypatch, caplog):
    """The code location passes MOTHERDUCK_TOKEN as an EnvVar (the UI shows the variable's name, never its value); the
    run is tagged with the database, not the token; DuckDB's refusal to reach MotherDuck does not echo it."""
    monkeypatch.setenv("RECON_DB_PATH", "md:recon")
    monkeypatch.setenv("MOTHERDUCK_TOKEN", TOKEN)
    assert resources_from_environment()["store"].motherduck_token == dg.EnvVar("MOTHERDUCK_TOKEN")
    # no extension is fetched: DuckDB refuses md: at once, without the network
    store = TableStore(database="md:recon", connection_config=NO_EXTENSIONS, motherduck_token=dg.EnvVar("MOTHERDUCK_TOKEN"))
    assert TOKEN not in repr(store)

    @dg.asset
    def writes_a_table(store: TableStore) -> None:
        with store.connect() as con:
            con.replace_table("centrality_reference", pd.DataFrame())

    caplog.set_level(logging.DEBUG)
    with dg.instance_for_test(temp_dir=str(tmp_path)) as instance:
        result = dg.materialize([writes_a_table], resources={"store": store}, instance=instance, raise_on_error=False)
        logs = "\n".join(str(entry.dagster_event or entry.user_message) for entry in instance.all_logs(result.run_id))
        tags = instance.get_run_by_id(result.run_id).tags
    assert not result.success  # the motherduck extension is not loaded
    assert tags["recon/database"] == "md:recon"
    assert TOKEN not in logs and TOKEN not in caplog.text and TOKEN not in str(tags)


@pytest.mark.parametrize("database", ["md:recon?motherduck_token=abc", "md:recon?token=abc"])
def test_a_token_written_into_the_database_setting_is_refused(database):
    with pytest.raises(MissingTokenError, match="^the database setting holds a MotherDuck token: give the database as md:<name>"):
        connection_target(database)


def test_outputs_of_a_motherduck_database_go_under_data(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert OutputFiles(database="md:recon").folder("reports") == tmp_path / "data" / "reports" / "md_recon"
    assert OutputFiles(database=str(tmp_path / "a.duckdb")).folder("exports") == tmp_path / "exports" / "a.duckdb"


def test_recon_run_on_motherduck_without_a_token_stops_in_one_line_before_any_run(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path))
    monkeypatch.delenv("MOTHERDUCK_TOKEN", raising=False)
    assert main(["run", "--db", "md:recon"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("error: md:recon is a MotherDuck database but MOTHERDUCK_TOKEN is not set") and error.count("\n") == 1
    assert not (tmp_path / "history").exists()  # no run was launched: Dagster keeps its runs there


def test_recon_run_on_motherduck_whose_extension_cannot_be_downloaded_is_unusable_input_in_one_line(tmp_path, monkeypatch, capsys):
    """Hostile pass, 2026-12-04: `recon run --db md:x` offline exited 1 with 'error: MotherDuckUnreachable: ...
    (`recon run --verbose` prints its stack trace)'. DuckDB is made to fail as it did on this machine offline (its
    message recorded here), since a networked machine would download the extension."""
    import duckdb

    from recon_assets.storage import duckdb_settings
    from recon_assets_tests.test_rerun import recon_refusal

    offline = ('IO Error: Failed to download extension "motherduck" at URL "http://extensions.duckdb.org/v2.0.1/linux_amd64/'
               'motherduck.duckdb_extension.gz"\nExtension "motherduck" is an existing extension.\n\nFor more info, visit '
               'https://duckdb.org/docs/current/extensions/troubleshooting (ERROR Could not establish connection)')

    connect_duckdb = duckdb.connect

    def connect(database=":memory:", **options):
        if str(database).startswith("md:"):
            raise duckdb.IOException(offline)
        return connect_duckdb(database, **options)

    monkeypatch.setattr(duckdb_settings.duckdb, "connect", connect)
    variables = {"DAGSTER_HOME": str(tmp_path / "home"), "RECON_KG_PATH": "", "RECON_AS_OF": "", "MOTHERDUCK_TOKEN": "a-token"}
    code, out, err = recon_refusal(["--db", "md:recon"], variables, capsys, monkeypatch)
    assert code == 2 and err.count("\n") == 1 and "a-token" not in out + err
    assert err.startswith("error: md:recon is a MotherDuck database, reached through DuckDB's motherduck extension, which could not "
                          "be downloaded or loaded (Could not establish connection)")
    assert not (tmp_path / "home" / "history").exists()  # no run was launched


@pytest.mark.parametrize("token", [None, "fake-token-123"])
def test_recon_run_refuses_a_token_written_into_db_without_repeating_it(token, tmp_path, capsys, monkeypatch):
    """Hostile pass (2026-12-04): `recon run --db 'md:recon?motherduck_token=xyz'` went on to connect with it (and to
    tag every run and name the database on a command line with it) when MOTHERDUCK_TOKEN was set, and without it was
    refused for the wrong reason, the setting with its token echoed in the message."""
    from recon_assets_tests.test_rerun import recon_refusal

    variables = {"DAGSTER_HOME": str(tmp_path / "home"), "RECON_KG_PATH": "", "RECON_AS_OF": ""}
    if token is None:
        monkeypatch.delenv("MOTHERDUCK_TOKEN", raising=False)
    else:
        variables["MOTHERDUCK_TOKEN"] = token
    code, out, err = recon_refusal(["--db", "md:recon?motherduck_token=xyz-written-in"], variables, capsys, monkeypatch)
    assert code == 2
    assert err == ("error: the database setting holds a MotherDuck token: give the database as md:<name> and the token "
                   "in MOTHERDUCK_TOKEN, which is read from the environment and never shown\n")
    assert "xyz-written-in" not in out + err
