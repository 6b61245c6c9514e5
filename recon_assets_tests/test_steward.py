"""Steward judgements: the file's rules (every bad row kept as rejected with its reason), matching to the KG, and
precedence over every machine judge through the pipeline on the shipped sample (a pair's verdict, an edge's
coherence and reason), surviving a re-run, and not applying to an as_of before the day it was recorded."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import dagster as dg
import duckdb
import pandas as pd
import pytest

from recon_assets.judgement import steward
from recon_assets.judgement.assets import coherence_judgements, steward_judgements
from recon_assets.judgement.resources import GroqJudgeResource
from recon_assets.reliability.assets import edge_reliability
from recon_assets.shared.as_of import AsOfDate

from recon_assets.storage.duckdb_store import TableStore
from recon_assets_tests.pipeline_runs import AS_OF

HEADER = ",".join(steward.STEWARD_COLUMNS)


def _file(tmp_path: Path, *rows: str) -> Path:
    path = tmp_path / "steward_judgements.csv"
    path.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    return path


def test_the_shipped_file_is_well_formed_and_every_row_applies_or_says_why():
    read = steward.read_steward_file()
    assert list(read.columns)[: len(steward.STEWARD_COLUMNS)] == list(steward.STEWARD_COLUMNS)
    assert (read["status"] != steward.REJECTED).all()


@pytest.mark.parametrize(
    ("row", "reason"),
    [
        ("pair,kg:d,10.1000/a,,CONTRADICTED,0.1,r,ann,2026-01-02", "a pair judgement needs newer_doi"),
        ("edge,kg:d,10.1000/a,10.1000/b,CONTRADICTED,0.1,r,ann,2026-01-02", "an edge judgement has no newer_doi"),
        ("pair,kg:d,10.1000/a,10.1000/a,CONTRADICTED,0.1,r,ann,2026-01-02", "newer_doi is the publication itself"),
        ("edge,kg:d,10.1000/a,,UNVERIFIED,0.5,r,ann,2026-01-02", "verdict: Input should be 'SUPPORTED', 'CONTRADICTED' or 'SUPERSEDED'"),
        ("edge,kg:d,10.1000/a,,SUPPORTED,1.5,r,ann,2026-01-02", "coherence: Input should be less than or equal to 1"),
        ("edge,kg:d,10.1000/a,,SUPPORTED,nan,r,ann,2026-01-02", "coherence: Input should be a finite number"),
        ("edge,kg:d,not-a-doi,,SUPPORTED,0.7,r,ann,2026-01-02", "publication_doi: 'not-a-doi' is not a DOI"),
        ("edge,kg:d,10.1000/a,,SUPPORTED,0.7,r,ann,02/01/2026", "judged_on: Input should be a valid date"),
        ("edge,kg:d,10.1000/a,,SUPPORTED,0.7,,ann,2026-01-02", "rationale: Input should be a valid string"),
        ("lemma,kg:d,10.1000/a,,SUPPORTED,0.7,r,ann,2026-01-02", "scope: Input should be 'pair' or 'edge'"),
    ],
    ids=["pair-without-newer", "edge-with-newer", "pair-with-itself", "unverified", "coherence-above-1", "coherence-nan",
         "not-a-doi", "date-not-iso", "no-rationale", "unknown-scope"],
)
def test_a_broken_row_is_kept_as_rejected_with_its_reason(tmp_path, row, reason):
    read = steward.read_steward_file(_file(tmp_path, "edge,kg:d,10.1000/ok,,SUPPORTED,0.7,fine,ann,2026-01-02", row))
    assert len(read) == 2 and read["status"].tolist() == ["", steward.REJECTED]
    assert reason in read["reason"].iloc[1] and read["line"].tolist() == [2, 3]


def test_a_file_with_another_header_is_refused_naming_the_columns(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("scope,dataset,doi\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"the first line must be the header scope,dataset,publication_doi,.*; it has 3 fields, 1 of them not steward columns"):
        steward.read_steward_file(path)


def test_a_missing_file_is_an_error_not_silence(tmp_path):
    """Hostile pass: a typo in the path (valid.cvs) silently dropped every judgement."""
    with pytest.raises(FileNotFoundError, match="no steward file at .*absent.csv"):
        steward.read_steward_file(tmp_path / "absent.csv")
    (tmp_path / "empty.csv").write_text("", encoding="utf-8")
    assert steward.read_steward_file(tmp_path / "empty.csv").empty  # an empty file is no judgement


@pytest.mark.parametrize("name", ["a-directory", "/proc/self/environ"])
def test_what_is_not_a_steward_file_is_refused_without_quoting_it(tmp_path, name):
    path = Path(name) if name.startswith("/") else tmp_path
    with pytest.raises(ValueError, match="is not a regular file"):
        steward.read_steward_file(path)


def test_a_file_with_a_secret_for_a_header_is_refused_without_echoing_it(tmp_path):
    """Hostile pass: `path: .env` printed and stored the first line of the file, an API key in it."""
    path = tmp_path / ".env"
    path.write_text("OPENALEX_API_KEY=oakey-LIVE-7c1d9e2f44aa\nGROQ_API_KEY=gsk-live-1\n", encoding="utf-8")
    with pytest.raises(ValueError) as refused:
        steward.read_steward_file(path)
    assert "oakey-LIVE" not in str(refused.value) and "the first line must be the header" in str(refused.value)


@pytest.mark.parametrize(
    ("body", "reason", "line"),
    [
        ('edge,kg:d,10.1000/a,,SUPPORTED,0.7,refutes the trend, clearly,ann,2026-01-15', "10 fields, 9 expected", 3),
        ("edge,kg:d,10.1000/a,,SUPPORTED,0.7,caf\xe9,ann,2026-01-15", "not UTF-8 text", 3),
        ('\n\nedge,kg:d,10.1000/a,,SUPPORTED,0.7,x,ann,2026-01-15,extra', "10 fields, 9 expected", 5),
        ("edge,kg:d,10.1000/a,,SUPPORTED,0.1,contradicts itself,ann,2026-01-15", "a SUPPORTED verdict has a coherence from 0.5 to 1.0", 3),
        ("edge,kg:d,10.1000/a,,SUPPORTED,0.7," + "x" * 1001 + ",ann,2026-01-15", "rationale: String should have at most 1000 characters", 3),
    ],
    ids=["unquoted-comma", "latin-1-byte", "blank-lines-then-extra-column", "verdict-against-its-coherence", "a-rationale-of-a-document"],
)
def test_a_row_the_csv_reader_cannot_make_a_judgement_of_is_rejected_on_its_own_line(tmp_path, body, reason, line):
    """Hostile pass: one unquoted comma shifted every row, or failed kg_tables_job with a ParserError."""
    path = tmp_path / "steward.csv"
    good = "edge,kg:d,10.1000/b,,SUPPORTED,0.7,fine,ann,2026-01-15"
    path.write_bytes(("\n".join([HEADER, good, ""]) ).encode() + body.encode("latin-1" if "\xe9" in body else "utf-8") + b"\n" + good.replace("/b", "/c").encode() + b"\n")
    read = steward.read_steward_file(path)
    assert read["status"].tolist() == ["", "rejected", ""]
    assert reason in read["reason"].iloc[1] and read["line"].iloc[1] == line


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        (
            ['pair,kg:d,10.1000/a,10.1000/b,SUPPORTED,0.7,"Fig. 3 supports the trend,ann,2026-01-15',
             "edge,kg:d,10.1000/c,,CONTRADICTED,0.1,the retrieval was revised,bob,2026-01-16",
             "edge,kg:d,10.1000/d,,SUPPORTED,0.9,fine,bob,2026-01-16"],
            [(2, 2, "rejected", "line 2: a quote opened here is not closed before the next line, which starts another judgement"), (3, 3, "", None), (4, 4, "", None)],
        ),
        (
            ['edge,kg:d,10.1000/a,,SUPPORTED,0.7,"a rationale on', "two lines, the quote left open,ann,2026-01-15", "",
             "edge,kg:d,10.1000/c,,CONTRADICTED,0.1,\"quoted, and closed\",bob,2026-01-16"],
            [(2, 3, "rejected", "lines 2-3: a quote opened here is not closed before the next line"), (5, 5, "", None)],
        ),
        (
            ['edge,kg:d,10.1000/a,,SUPPORTED,0.7,"a rationale on', 'two lines, closed",ann,2026-01-15',
             'edge,kg:d,10.1000/c,,CONTRADICTED,0.1,"never closed,bob,2026-01-16', "and more text"],
            [(2, 3, "", None), (4, 5, "rejected", "lines 4-5: a quote opened here is not closed before the end of the file")],
        ),
        (
            ["edge,kg:d,10.1000/c,,SUPPORTED,0.9,fine,bob,2026-01-16", 'edge,kg:d,10.1000/a,,CONTRADICTED,0.1,"never closed,ann,2026-01-15', "", ""],
            [(2, 2, "", None), (3, 3, "rejected", "line 3: a quote opened here is not closed before the end of the file")],
        ),
        (
            ['edge,kg:d,10.1000/a,,SUPPORTED,0.7,"the trend holds at the swath', 'edge, where the 2014 paper saw it",ann,2026-01-15',
             'pair,kg:d,10.1000/a,10.1000/b,SUPPORTED,0.7,"Fig. 3,', 'pair, as the newer paper says",ann,2026-01-15',
             "edge,kg:d,10.1000/c,,CONTRADICTED,0.1,the retrieval was revised,bob,2026-01-16"],
            [(2, 3, "", None), (4, 5, "", None), (6, 6, "", None)],
        ),
        (
            ['edge,kg:d,10.1000/a,,SUPPORTED,0.7,"never closed,ann,2026-01-15',
             'edge,kg:d,10.1000/c,,CONTRADICTED,0.1,"quoted, and closed",bob,2026-01-16'],
            [(2, 2, "rejected", "line 2: a quote opened here is not closed before the next line, which starts another judgement"), (3, 3, "", None)],
        ),
    ],
    ids=["unclosed-then-rows", "unclosed-over-two-lines-then-a-blank", "a-multi-line-rationale-then-unclosed-at-the-end",
         "unclosed-on-the-last-row-then-blank-lines", "a-closed-rationale-holding-lines-that-start-with-edge-and-pair",
         "unclosed-then-a-row-whose-quote-would-close-it"],
)
def test_an_unclosed_quote_is_rejected_with_its_lines_and_the_rows_after_it_are_read(tmp_path, rows, expected):
    """Hostile pass: an unclosed quote made one record of the rest of the file, rejected as '7 fields, 9 expected';
    the steward's CONTRADICTED below it was neither applied nor listed. Every line but blank ones is in one row."""
    path = _file(tmp_path, *rows)
    read = steward.read_steward_file(path)
    got = list(zip(read["line"], read["last_line"], read["status"], read["reason"]))
    assert [(line, last, status) for line, last, status, _ in got] == [(line, last, status) for line, last, status, _ in expected]
    for (*_, reason), (*_, want) in zip(got, expected):
        assert pd.isna(reason) if want is None else reason.startswith(want)
    physical = path.read_text(encoding="utf-8").splitlines()
    blank = sum(1 for line in physical[1:] if not line.strip())
    assert int((read["last_line"] - read["line"] + 1).sum()) + blank == len(physical) - 1  # lines in = lines of rows + blank


def test_an_unclosed_quote_does_not_hide_a_stewards_contradiction_from_the_edge(tmp_path):
    """The hostile pass's case end to end: the CONTRADICTED after the bad row applies to its edge."""
    read = steward.read_steward_file(_file(
        tmp_path,
        'edge,kg:d1,10.1000/a,,SUPPORTED,0.7,"the quote is never closed,ann,2026-01-02',
        "edge,kg:d1,10.1000/b,,CONTRADICTED,0.1,Fig. 2 of the newer paper refutes it,bob,2026-01-03",
    ))
    resolved = steward.resolve(
        read, pd.DataFrame({"dataset_id": ["kg:d1"], "doi": [None]}),
        pd.DataFrame({"publication_id": ["p-a", "p-b"], "doi": ["10.1000/a", "10.1000/b"]}),
        pd.DataFrame({"dataset_id": ["kg:d1", "kg:d1"], "publication_id": ["p-a", "p-b"]}),
    )
    assert resolved["status"].tolist() == ["rejected", "applies"]
    edges = steward.applicable(resolved, "edge", date(2026, 2, 1))
    assert edges[["publication_id", "verdict", "steward"]].values.tolist() == [["p-b", "CONTRADICTED", "bob"]]


def test_rows_are_matched_to_kg_edges_and_every_row_is_accounted_for(tmp_path):
    read = steward.read_steward_file(_file(
        tmp_path,
        "edge,kg:d1,10.1000/a,,SUPPORTED,0.7,by id,ann,2026-01-02",
        "pair,10.5067/D2,10.1000/a,10.1000/zzz,CONTRADICTED,0.1,by DOI; newer not in the KG,ann,2026-01-02",
        "edge,kg:d9,10.1000/a,,SUPPORTED,0.7,no such dataset,ann,2026-01-02",
        "edge,kg:d2,10.1000/b,,SUPPORTED,0.7,no such edge,ann,2026-01-02",
        "edge,kg:d1,10.1000/a,,CONTRADICTED,0.1,same edge again,bob,2026-02-01",
        "edge,kg:d1,10.1000/a,,SUPPORTED,bad,broken,ann,2026-01-02",
    ))
    resolved = steward.resolve(
        read,
        pd.DataFrame({"dataset_id": ["kg:d1", "kg:d2"], "doi": [None, "10.5067/d2"]}),
        pd.DataFrame({"publication_id": ["p-a", "p-b"], "doi": ["10.1000/a", "10.1000/b"]}),
        pd.DataFrame({"dataset_id": ["kg:d1", "kg:d2"], "publication_id": ["p-a", "p-a"]}),
    )
    assert resolved["status"].tolist() == ["applies", "applies", "no_such_edge", "no_such_edge", "applies", "rejected"]
    assert resolved["reason"].iloc[0] == "line 6 (judged on 2026-02-01) replaces it from that day"
    assert resolved["newer_publication_id"].iloc[1] == "doi:10.1000/zzz" and resolved["dataset_id"].iloc[1] == "kg:d2"
    assert resolved["reason"].iloc[2] == "no KG dataset has the id or DOI 'kg:d9'"
    assert resolved["reason"].iloc[3] == "the KG has no edge between kg:d2 and p-b"
    assert len(resolved) == len(read)  # rows in = applies + no_such_edge + rejected
    # hostile pass: a later line dated after as_of no longer cancels the earlier one that holds then
    assert steward.applicable(resolved, "edge", date(2026, 1, 31))["steward"].tolist() == ["ann"]
    assert steward.applicable(resolved, "edge", date(2026, 2, 1))["steward"].tolist() == ["bob"]
    assert steward.applicable(resolved, "edge", date(2026, 1, 1)).empty


# --- through the pipeline -----------------------------------------------------------------------------------


def _materialize(database: Path, path: Path, area: str, as_of: str = AS_OF) -> None:
    with dg.instance_for_test() as instance:
        dg.materialize(
            [steward_judgements, coherence_judgements, edge_reliability], instance=instance, partition_key=area,
            resources={"store": TableStore(database=str(database)), "as_of": AsOfDate(as_of=as_of), "groq_judge": GroqJudgeResource(offline=True)},
            run_config={"ops": {"steward_judgements": {"config": {"path": str(path)}}}},
        )


def _query(database: Path, sql: str, params=()):
    with duckdb.connect(str(database), read_only=True) as con:
        return con.execute(sql, list(params)).fetchall()


@pytest.fixture
def judged(sample_run, tmp_path):
    """A copy of the sample run and one machine-judged pair of it whose publications both have a DOI."""
    database = sample_run.copy_database(tmp_path / "steward.duckdb")
    [(area, dataset_id, older_doi, newer_doi, older_id, newer_id, machine_verdict)] = _query(
        database,
        "SELECT j.research_area, j.dataset_id, o.doi, n.doi, o.publication_id, n.publication_id, j.verdict "
        "FROM coherence_judgements AS j JOIN publications AS o ON o.publication_id = j.older_publication_id "
        "JOIN publications AS n ON n.publication_id = j.newer_publication_id "
        "WHERE o.doi IS NOT NULL AND n.doi IS NOT NULL AND j.verdict = 'SUPPORTED' ORDER BY ALL LIMIT 1",
    )
    return database, area, dataset_id, older_doi, newer_doi, older_id, newer_id, machine_verdict


def test_a_stewards_pair_and_edge_judgements_take_precedence_and_survive_a_rerun(judged, tmp_path):
    database, area, dataset_id, older_doi, newer_doi, older_id, newer_id, machine_verdict = judged
    path = _file(
        tmp_path,
        f"pair,{dataset_id},{older_doi},{newer_doi},CONTRADICTED,0.1,the newer paper's Fig. 3 refutes the trend,ann,2026-01-15",
        f"edge,{dataset_id},{older_doi},,SUPERSEDED,0.3,the product was reprocessed after an error,bob,2026-02-01",
        f"pair,{dataset_id},{older_doi},10.5555/comment-not-in-the-kg,CONTRADICTED,0.1,a published comment no machine read,ann,2026-01-15",
    )
    for _ in range(2):  # the second run finds the same: the file is the record
        _materialize(database, path, area)
        [(verdict, judge, replaced, rationale)] = _query(
            database,
            "SELECT verdict, judge, offline_verdict, rationale FROM coherence_judgements "
            "WHERE research_area = ? AND dataset_id = ? AND older_publication_id = ? AND newer_publication_id = ?",
            [area, dataset_id, older_id, newer_id],
        )
        assert (verdict, judge, replaced) == ("CONTRADICTED", "steward/ann", machine_verdict)
        assert rationale.startswith("by steward ann on 2026-01-15 (precedes the machine judges): the newer paper's Fig. 3")
        assert _query(
            database,
            "SELECT evidence_kind, judge, similarity, newer_centrality, newer_citation FROM coherence_judgements "
            "WHERE research_area = ? AND newer_publication_id = 'doi:10.5555/comment-not-in-the-kg'", [area],
        ) == [("steward", "steward/ann", None, 1.0, "[10.5555/comment-not-in-the-kg]")]
        [(coherence, status, judges, reason)] = _query(
            database,
            "SELECT coherence, coherence_status, coherence_judges, reason FROM edge_reliability "
            "WHERE research_area = ? AND dataset_id = ? AND publication_id = ?",
            [area, dataset_id, older_id],
        )
        assert (coherence, status, judges) == (0.3, "SUPERSEDED", "steward/bob")
        assert "coherence 0.30 SUPERSEDED by steward bob on 2026-02-01 (precedes the machine judges): the product was reprocessed" in reason


def test_a_judgement_recorded_after_as_of_does_not_apply_to_it(judged, tmp_path):
    database, area, dataset_id, older_doi, newer_doi, older_id, _, _ = judged
    path = _file(tmp_path, f"edge,{dataset_id},{older_doi},,CONTRADICTED,0.1,later finding,ann,2026-11-30")
    _materialize(database, path, area, as_of="2026-11-29")
    [(judges,)] = _query(
        database, "SELECT coherence_judges FROM edge_reliability WHERE research_area = ? AND dataset_id = ? AND publication_id = ?",
        [area, dataset_id, older_id],
    )
    assert judges is None or "steward" not in judges
