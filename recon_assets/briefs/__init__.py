"""Research briefs (issue 21): RECON's planner, retriever, critic and synthesizer over the edge scores, as pure
functions (no Dagster, no DuckDB): questions and their scope (`questions`), sub-questions (`planner`), candidate
scoring and de-duplication (`retrieval`), verdicts over a question's evidence (`critic`), the extractive brief, the
trust summary and the citation check (`synthesis`), the validated shapes of the LLM's answers (`answers`), and
the labelled questions (`question_cases`) with the grading of a brief against one (`grading`)."""
