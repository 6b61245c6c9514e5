-- Every judged pair's verdict (coherence_judgements): the older and newer publication and the verdict.
SELECT older_publication_id, newer_publication_id, verdict FROM coherence_judgements
