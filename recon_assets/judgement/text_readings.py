"""The offline judge's readings of texts kept between runs (table `judge_text_readings`): what
`judge_address.without_judge_address` removes from a title or an abstract, and the cue `cues.find_cue` reads in a work's
text. A reading depends on the text and on the reading code alone, not on as_of (which only decides which pairs are in
the evidence window), so a run reads only the texts no run with the same code read before: a re-run at a moved as_of
reads none (issue 23: reading every text again was most of such a re-run's judging time). Keyed by the SHA-256 of the
text and `reader_version()`, as `text_embeddings` keeps the vectors by the text and the model."""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from importlib.metadata import version
from pathlib import Path

import pandas as pd

from recon_assets.judgement import cues, judge_address, text_embedding, verdict_scale
from recon_assets.judgement.cues import CUES_FILE, Cue, CueKind
from recon_assets.judgement.judge_address import JudgeAddress
from recon_assets.judgement.text_embedding import is_missing_text
from recon_assets.shared import excerpt
from recon_assets.shared.sql_files import code_version
from recon_assets.storage.tables import Tables

ADDRESS, CUE = "judge_address", "cue"
# What decides a reading: the patterns and the sentence rule (judge_address, with the verdict words of verdict_scale
# its patterns are built from), the cue reading and its rules (cues, cues.yaml, the sentence cut of shared.excerpt),
# what counts as a missing text (text_embedding.is_missing_text), the Snowball stemmer and the Unicode database NFKC
# normalisation uses. Another version reads every text again. Every project module judge_address and cues import is
# here (hostile pass, 2026-12-04: a verdict added to verdict_scale changed readings under the same version;
# recon_assets_tests/test_rerun_as_of.py holds the list to their imports).
READING_MODULES = (judge_address, cues, text_embedding, verdict_scale, excerpt)
READING_CODE = (
    f"{code_version(*READING_MODULES, files=[Path(str(CUES_FILE))])}"
    f"-snowball{version('snowballstemmer')}-unicode{unicodedata.unidata_version}"
)
STRIPPED = tuple[str | None, JudgeAddress | None]


def reader_version() -> str:
    """READING_CODE and the names of the reading functions in use (`judge_address.without_judge_address`,
    `cues.find_cue` and the sentence test it applies, `judge_address.find_cue_sentence_address`): a reading made by
    another function (a test switching a defence off) is neither taken nor given."""
    functions = (judge_address.without_judge_address, cues.find_cue, cues.find_cue_sentence_address)
    names = ",".join(f"{function.__module__}.{function.__qualname__}" for function in functions)
    return f"{READING_CODE}-{hashlib.sha256(names.encode()).hexdigest()[:8]}"


def text_key(text: str) -> str:
    """Hex SHA-256 of the whole text in UTF-8 (not cut as `text_embedding.text_sha256` cuts it for the model)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cached_readings(
    texts: Iterable[object],
    read: Callable[[str], object],
    lookup: Callable[[list[str]], dict[str, object]],
) -> tuple[dict[str, object], dict[str, object]]:
    """`read` applied to each distinct present text, taking the readings stored before from a cache.

    Args:
        texts: any values; None, NA and blank strings are left out (callers handle them before reading).
        read: the reading of one text (`without_judge_address`, `find_cue`).
        lookup: given the distinct `text_key`s, the readings the cache holds for them ({key: reading}).

    Returns:
        (readings, fresh): {text: its reading} for every present text, and {key: reading} of the texts read by this
        call, for the caller to store.
    """
    present = {text: text_key(text) for text in {str(text) for text in texts if not pd.isna(text)} if text.strip()}
    known = lookup(sorted(set(present.values())))
    fresh = {key: read(text) for text, key in present.items() if key not in known}
    known |= fresh
    return {text: known[key] for text, key in present.items()}, fresh


def _stored(con: Tables, reading: str, keys: list[str]) -> pd.DataFrame:
    return con.query("judge_text_readings_cached", [reader_version(), reading, keys]).set_index("text_sha256")


def _store(con: Tables, reading: str, rows: list[dict[str, object]]) -> None:
    if rows:
        columns = ["text_sha256", "kept", "pattern_id", "language", "wording", "cue_kind", "cue_phrase", "cue_sentence", "cue_id"]
        con.upsert("judge_text_readings", pd.DataFrame(rows, columns=columns).assign(reader_version=reader_version(), reading=reading))


def _readable_cue(row) -> bool:
    """Whether a stored cue row holds a cue: a kind `CueKind` knows and every other field (hostile pass, 2026-12-04:
    one row with cue_kind 'bogus' failed every later run with "'bogus' is not a valid CueKind")."""
    known = {kind.value for kind in CueKind}
    return row.cue_kind in known and not any(pd.isna(value) for value in (row.cue_phrase, row.cue_sentence, row.cue_id))


def stripped_texts(con: Tables, texts: Iterable[object]) -> Callable[[str], STRIPPED]:
    """`without_judge_address` of every present text of `texts`, through the cache (the texts it lacks are read and
    stored), as a function of one text: the `read` argument of `judge_address.strip_judge_address`. A blank text is
    read then (it is quick: returned unchanged)."""

    def lookup(keys: list[str]) -> dict[str, object]:
        rows = _stored(con, ADDRESS, keys)
        return {
            key: None if pd.isna(row.pattern_id) else (None if pd.isna(row.kept) else row.kept, JudgeAddress(row.pattern_id, row.language, row.wording))
            for key, row in zip(rows.index, rows.itertuples())
            if pd.isna(row.pattern_id) or not (pd.isna(row.language) or pd.isna(row.wording))  # else damaged: read again
        }

    readings, fresh = cached_readings(texts, judge_address.without_judge_address, lookup)
    _store(con, ADDRESS, [
        {"text_sha256": key, "kept": rest if found else None, "pattern_id": found and found.pattern_id,
         "language": found and found.language, "wording": found and found.wording}
        for key, (rest, found) in fresh.items()
    ])

    def stripped(text: str) -> STRIPPED:
        reading = readings.get(text)
        # a text stored as unchanged has the reading None: it is returned as it is, as without_judge_address does
        return reading if reading is not None else (text, None) if text.strip() else judge_address.without_judge_address(text)

    return stripped


def read_cues(con: Tables) -> Callable[[Sequence[str | None]], list[Cue | None]]:
    """A batch reader of cues through the cache: given texts, `find_cue` of each (None for a missing text), the texts
    not read before read and stored; the `read_cues` argument of `offline_judge.judge_edges` and
    `citing_pairs.judge_citing_pairs`."""

    def lookup(keys: list[str]) -> dict[str, object]:
        rows = _stored(con, CUE, keys)
        return {
            key: None if pd.isna(row.cue_kind) else Cue(CueKind(row.cue_kind), row.cue_phrase, row.cue_sentence, row.cue_id)
            for key, row in zip(rows.index, rows.itertuples())
            if pd.isna(row.cue_kind) or _readable_cue(row)  # a damaged row is read again, never the run's failure
        }

    def read(texts: Sequence[str | None]) -> list[Cue | None]:
        readings, fresh = cached_readings(texts, cues.find_cue, lookup)
        _store(con, CUE, [
            {"text_sha256": key, "cue_kind": cue and str(cue.kind), "cue_phrase": cue and cue.phrase,
             "cue_sentence": cue and cue.sentence, "cue_id": cue and cue.cue_id}
            for key, cue in fresh.items()
        ])
        # a missing or blank text has no cue (find_cue)
        return [None if is_missing_text(text) else readings.get(str(text)) for text in texts]

    return read
