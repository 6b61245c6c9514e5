-- The stored readings (judge_text_readings) of reader version $1 and reading $2 for the text keys $3 (a list of
-- text_sha256; a key not read before has no row). A join on the unnested keys: they may be the whole graph's texts.
SELECT r.text_sha256, r.kept, r.pattern_id, r.language, r.wording, r.cue_kind, r.cue_phrase, r.cue_sentence, r.cue_id
FROM judge_text_readings AS r
JOIN (SELECT unnest($3::VARCHAR[]) AS text_sha256) AS wanted USING (text_sha256)
WHERE r.reader_version = $1 AND r.reading = $2
