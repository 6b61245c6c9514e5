-- The graph's publications the labelled pairs are found among (`evaluation.disputes.pipeline_outcomes`): id, DOI, title.
SELECT publication_id, doi, title FROM publications
