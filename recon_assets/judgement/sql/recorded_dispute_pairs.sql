-- The (publication, work answering it) pairs recorded_disputes holds: the LLM judge's candidates among them are
-- disputed on the record.
SELECT publication_id, other_key FROM recorded_disputes
