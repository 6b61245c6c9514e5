-- `recon brief`: the stored brief of question $1 (its Markdown, its HTML report's path and its as_of).
SELECT markdown, html_path, as_of FROM research_briefs WHERE question_id = $1
