-- The offline judge's readings of texts, kept across runs (`judgement.text_readings`): what is removed from a title or
-- an abstract as wording addressing the judge, and the cue read in a work's text. Both depend on the text and the
-- reading code alone, not on as_of, so a re-run at a moved as_of reads no text a run with the same code read before.
CREATE TABLE IF NOT EXISTS judge_text_readings (
    reader_version VARCHAR NOT NULL,
    reading        VARCHAR NOT NULL,
    text_sha256    VARCHAR NOT NULL,
    kept           VARCHAR,
    pattern_id     VARCHAR,
    language       VARCHAR,
    wording        VARCHAR,
    cue_kind       VARCHAR,
    cue_phrase     VARCHAR,
    cue_sentence   VARCHAR,
    cue_id         VARCHAR,
    PRIMARY KEY (reader_version, reading, text_sha256)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN judge_text_readings.reader_version IS 'Digest of the code and rules that decide a reading (text_readings.reader_version(): judge_address, verdict_scale, cues and cues.yaml, shared.excerpt, the stemmer and Unicode versions, the reading functions in use); another version finds none of these rows.';
COMMENT ON COLUMN judge_text_readings.reading IS 'judge_address (what judge_address.without_judge_address removes from a title or an abstract) or cue (the cue cues.find_cue reads in a work''s title and abstract).';
COMMENT ON COLUMN judge_text_readings.text_sha256 IS 'SHA-256 of the text read, in UTF-8.';
COMMENT ON COLUMN judge_text_readings.kept IS 'judge_address: the text without the wording addressing the judge (NULL when nothing is left, or when nothing addressed the judge: pattern_id NULL).';
COMMENT ON COLUMN judge_text_readings.pattern_id IS 'judge_address: the pattern of the first wording addressing the judge; NULL when none did.';
COMMENT ON COLUMN judge_text_readings.language IS 'judge_address: that pattern''s language.';
COMMENT ON COLUMN judge_text_readings.wording IS 'judge_address: the wording matched (cut to judge_address.WORDING_CHARS characters).';
COMMENT ON COLUMN judge_text_readings.cue_kind IS 'cue: the kind of the cue found (contradiction, supersession, refinement, support); NULL when the text has none.';
COMMENT ON COLUMN judge_text_readings.cue_phrase IS 'cue: the matched phrase.';
COMMENT ON COLUMN judge_text_readings.cue_sentence IS 'cue: the sentence holding it (white space normalised).';
COMMENT ON COLUMN judge_text_readings.cue_id IS 'cue: the row of cues.yaml that matched.';
