-- The recorded disputes (recorded_disputes): the publication, the relation and the work answering it (key, DOI).
SELECT publication_id, relation, other_key, other_doi FROM recorded_disputes
