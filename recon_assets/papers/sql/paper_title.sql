-- The title paper_documents holds for the paper $1 (NULL when none was found).
SELECT title FROM paper_documents WHERE paper_key = $1
