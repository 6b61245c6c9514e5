-- The graph's citations (publication_citations): citing and cited publication.
SELECT citing_publication_id, cited_publication_id FROM publication_citations
