-- The paper's ($1) page count in paper_documents (0 when unknown: a paper given by DOI).
SELECT coalesce(pages, 0) FROM paper_documents WHERE paper_key = $1
