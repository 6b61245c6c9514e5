"""What each asset reads, writes and runs, in the order data flows (`shared.table_assets`): the one place it is said.
Each asset's `deps`, code version and column lineage are derived from its declaration here;
recon_assets_tests/test_table_assets.py holds every declaration to the asset's code and SQL.

Module names are under recon_assets ("reliability.signals"); SQL files by name (`sql_files.load_sql`); the DDL of
the tables an asset writes is part of its SQL whether or not it is listed; reference files are package-relative.
"""

from recon_assets.shared.table_assets import TableAsset, TableGraph

_KG_TABLES = ("kg_snapshots", "kg_nodes", "kg_relationships", "kg_rejects")
_CUES = "judgement/cues.yaml"
_SCORING_MODULES = (
    "centrality.centrality_rule", "centrality.citation_centrality", "judgement.cues", "judgement.dispute_status",
    "judgement.disputes", "judgement.offline_judge", "judgement.text_embedding", "judgement.verdict_scale", "lifecycle.cmr", "lifecycle.lineage",
    "reliability.citations", "reliability.labels", "reliability.reasons", "reliability.settings", "reliability.signals",
)

# The research briefs (issue 21): the modules a question's retrieval, judging and brief reach (`briefs.answering`), and
# the tables and SQL its retrieval pool is read from.
_QUESTION_POOL_MODULES = (
    "briefs.answering", "briefs.critic", "briefs.planner", "briefs.retrieval", "briefs.searching", "centrality.citation_centrality",
    "judgement.judge_address", "judgement.verdict_scale", "kg.authors", "kg.doi", "reliability.labels", "reliability.settings",
    "reliability.signals",
    # the works OpenAlex search added to the pool (question_evidence searches, and question_verdicts' rewrite rounds;
    # research_briefs reads their cache)
    "enrichment.citing_plan", "enrichment.openalex_records", "enrichment.openalex_search", "reliability.citations",
)
# The tables a question's pool is read from; openalex_search_cache is question_evidence's and question_verdicts' (research_briefs reads it).
_QUESTION_POOL = ("publications", "publication_citations", "edge_reliability", "coherence_judgements", "recorded_disputes")
# The plan's scope terms (dataset_short_names) and the graph's publications of the DOIs OpenAlex search found
# (publications_of_dois) come with it.
_QUESTION_POOL_SQL = ("question_pool_papers", "question_pool_edges", "question_pool_debates", "dataset_short_names", "publications_of_dois")
# The dataset detector (papers.datasets, over papers.dataset_catalogue.DatasetCatalogue) that reads dataset names in
# a paper and in a research question: its modules and the reference files it reads (the lifecycle of a stated version
# the graph lacks runs on them).
_DATASET_NAME_MODULES = (
    "kg.doi", "lifecycle.cmr", "lifecycle.lineage", "lifecycle.versions", "papers.dataset_catalogue", "papers.dataset_names",
    "papers.datasets", "papers.name_readings", "papers.phrases", "papers.stated_lifecycle", "papers.version_association",
    "papers.version_grammar",
)
_DATASET_NAME_FILES = (
    "reference/dataset_aliases.csv", "reference/dataset_successors.csv", "reference/cmr/cmr_collections_version_families.csv",
    "reference/cmr/umm_json_*", "reference/cmr/retired_collection_records.csv",
)
# OpenAlex search (online; `enrichment.openalex_search`), cached and on the shared daily budget.
_OPENALEX_SEARCH_MODULES = ("enrichment.openalex_client", "enrichment.openalex_usage", "enrichment.retries")

ASSET_TABLES = TableGraph(
    [
        TableAsset(
            "kg_snapshot", writes=_KG_TABLES, run_inputs=("kg_export",),
            modules=("kg.cypher_export", "kg.export_reader", "kg.ingest", "kg.schema"),
            sql=(
                "kg_elements", "kg_snapshot", "kg_snapshot_tables_drop", "kg_accepted_nodes", "kg_accepted_relationships", "kg_element_counts",
                "kg_reject_offsets", "kg_elements_reject_heads", "kg_rejected_lines", "kg_snapshot_record", "kg_stored_snapshot", "kg_loaded_counts",
            ),
        ),
        TableAsset(
            "publications", reads=("kg_snapshots", "kg_nodes"), writes=("publications",),
            modules=("kg.authors", "kg.doi", "kg.ingest", "kg.typed_tables", "kg.years"), sql=("publication_nodes", "kg_ingested_year", "publication_rows"),
        ),
        TableAsset(
            "datasets", reads=("kg_nodes",), writes=("datasets",),
            modules=("kg.doi", "kg.typed_tables"), sql=("dataset_nodes", "dataset_rows"),
        ),
        TableAsset(
            "dataset_lineage", reads=("datasets",), writes=("dataset_lineage",),
            modules=("kg.doi", "lifecycle.cmr", "lifecycle.lineage", "lifecycle.versions"), sql=("dataset_lineage_datasets",),
            files=("reference/dataset_successors.csv", "reference/cmr/cmr_collections_version_families.csv", "reference/cmr/umm_json_*"),
        ),
        TableAsset(
            "dataset_publication_edges", reads=("kg_relationships", "publications", "datasets"),
            writes=("dataset_publication_edges",), sql=("dataset_publication_edges_rows", "uses_dataset_relationship_count"),
        ),
        TableAsset(
            "publication_citations", reads=("kg_relationships", "publications"), writes=("publication_citations",),
            sql=("kg_citation_pairs", "publication_citations_rows", "kg_citation_pair_counts"),
        ),
        TableAsset(
            "publication_research_areas", reads=("kg_nodes", "kg_relationships", "publications"),
            writes=("publication_research_areas",), modules=("kg.research_areas", "kg.typed_tables"),
            sql=("publication_node_ids", "relationships_of_type", "publications_per_research_area"), files=("reference/applied_research_areas.json",),
        ),
        TableAsset(
            "science_keywords", reads=("kg_nodes", "kg_relationships"), writes=("science_keywords",),
            sql=("science_keyword_rows",),
        ),
        TableAsset(
            "openalex_works", reads=("publications", "publication_research_areas", "openalex_cache"), writes=("openalex_works",), run_inputs=("enrichment_settings",),
            keeps=("openalex_cache", "openalex_usage"),
            modules=("enrichment.openalex_client", "enrichment.openalex_records", "enrichment.openalex_usage", "enrichment.retries", "kg.doi"),
            sql=(
                "openalex_cache", "openalex_cache_records", "openalex_cache_delete", "openalex_fetched_at", "openalex_usage", "openalex_work_rows",
                "publication_dois_in_research_areas", "openalex_usage_spent_on", "openalex_usage_record",
            ),
        ),
        TableAsset(
            "openalex_citing_works",
            reads=(
                "datasets", "dataset_publication_edges", "publication_research_areas", "openalex_works", "openalex_cache",
                "openalex_citing_cache",
            ),
            writes=("openalex_citing_works",), run_inputs=("enrichment_settings",), keeps=("openalex_cache", "openalex_citing_cache", "openalex_usage"),
            modules=(
                "enrichment.citing_plan", "enrichment.citing_works", "enrichment.openalex_client", "enrichment.openalex_records",
                "enrichment.openalex_usage", "enrichment.retries", "kg.authors", "kg.doi",
            ),
            sql=(
                "citing_works_targets", "openalex_cache", "openalex_cache_records", "openalex_cache_delete", "openalex_fetched_at",
                "openalex_citing_cache", "openalex_citing_fetched_at", "openalex_citing_cache_rows", "openalex_usage", "openalex_usage_spent_on", "openalex_usage_record",
            ),
        ),
        TableAsset(
            "crossref_retractions", reads=("publications", "publication_research_areas", "crossref_cache"),
            writes=("crossref_retractions",), run_inputs=("enrichment_settings",), keeps=("crossref_cache",), modules=("enrichment.crossref",),
            sql=("crossref_cache", "crossref_retraction_rows", "publication_dois_in_research_areas"),
        ),
        TableAsset(
            "crossref_relations", reads=("publications", "publication_research_areas", "crossref_cache", "crossref_record_cache"),
            writes=("crossref_relations",), run_inputs=("enrichment_settings",), keeps=("crossref_record_cache",),
            modules=("enrichment.crossref", "enrichment.crossref_relations", "kg.doi"),
            sql=(
                "crossref_cache", "crossref_record_cache", "crossref_found_records", "crossref_checked_at", "crossref_updates",
                "publication_dois_in_research_areas",
            ),
        ),
        TableAsset(
            "publication_centrality",
            reads=("kg_snapshots", "publications", "datasets", "dataset_publication_edges", "publication_citations"),
            writes=("publication_centrality", "centrality_reference"),
            modules=("centrality.citation_centrality", "centrality.pagerank", "kg.ingest"),
        ),
        TableAsset(
            "steward_judgements", reads=("publications", "datasets", "dataset_publication_edges"), writes=("steward_judgements",), run_inputs=("judge_settings",),
            modules=("judgement.steward", "judgement.verdict_scale", "kg.doi"), sql=("steward_kg_datasets", "steward_kg_publications", "dataset_publication_pairs"),
            files=("reference/steward_judgements.csv",),
        ),
        TableAsset(
            "recorded_disputes",
            reads=("publications", "publication_citations", "publication_research_areas", "openalex_citing_works", "crossref_relations"),
            writes=("recorded_disputes",), modules=("enrichment.crossref_relations", "judgement.disputes"),
            sql=("citing_titles", "crossref_dispute_entries", "crossref_relations", "openalex_citing_works", "recorded_dispute_rows"),
        ),
        TableAsset(
            "coherence_judgements",
            reads=(
                "publications", "datasets", "dataset_publication_edges", "publication_citations", "dataset_lineage",
                "publication_research_areas", "publication_centrality", "openalex_citing_works", "recorded_disputes",
                "steward_judgements",
            ),
            writes=("coherence_judgements",), run_inputs=("as_of", "judge_settings"),
            keeps=("text_embeddings", "judge_text_readings", "llm_judgements", "llm_answers"),
            modules=(
                "centrality.citation_centrality", "judgement.citing_pairs", "judgement.cues", "judgement.disputes", "judgement.embedding_store",
                "judgement.judge_address", "judgement.llm_judge", "judgement.llm_prompt", "judgement.model_input",
                "judgement.newer_neighbours", "judgement.offline_judge", "judgement.steward", "judgement.text_embedding",
                "judgement.text_readings", "judgement.verdict_scale",
            ),
            sql=(
                "judge_inputs", "judge_citing_works", "judged_publications", "judge_citing_texts", "judge_pairs",
                "judge_pairs_with_stored_answers", "judged_dataset_names", "recorded_dispute_pairs", "coherence_judgement_rows",
                "coherence_verdicts", "stored_steward_judgements", "dataset_evidence_edges", "text_embeddings", "text_embedding_vectors",
                "judge_text_readings", "judge_text_readings_cached", "llm_judgements", "openalex_citing_works", "recorded_disputes",
            ),
            files=(_CUES,),
        ),
        TableAsset(
            "edge_reliability",
            reads=(
                "kg_snapshots", "publications", "datasets", "dataset_lineage", "dataset_publication_edges", "publication_research_areas",
                "publication_centrality", "publication_citations", "openalex_works", "crossref_retractions", "coherence_judgements",
                "recorded_disputes", "steward_judgements",
            ),
            writes=("edge_reliability",), run_inputs=("as_of", "scoring_settings"),
            modules=(*_SCORING_MODULES, "judgement.steward", "kg.ingest", "reliability.edge_scores", "reliability.scoring"),
            sql=("edges_in_research_areas", "area_judgements", "stored_steward_judgements"), files=(_CUES,),
        ),
        TableAsset(
            "dataset_verdicts",
            reads=(
                "kg_snapshots", "publications", "dataset_publication_edges", "dataset_lineage", "edge_reliability", "coherence_judgements",
                "recorded_disputes", "openalex_cache", "openalex_citing_works",
            ),
            writes=("dataset_verdicts",), run_inputs=("as_of", "scoring_settings"), keeps=("dataset_verdict_history",),
            modules=(
                "centrality.centrality_rule", "centrality.citation_centrality", "enrichment.citing_works", "enrichment.openalex_client",
                "enrichment.openalex_records", "judgement.dispute_status", "judgement.verdict_scale", "kg.authors", "kg.doi",
                "kg.ingest", "kg.years", "lifecycle.cmr", "lifecycle.lineage", "reliability.citations", "reliability.labels",
                "reliability.reasons", "reliability.scoring", "reliability.settings", "reliability.signals", "verdicts.critic",
                "verdicts.dataset_judgements", "verdicts.expansion",
            ),
            sql=(
                "verdict_evidence", "contradicting_pairs", "dataset_disputes", "latest_dataset_verdicts", "dataset_verdict_history",
                "openalex_cache", "openalex_citing_works", "expansion_cached_targets", "expansion_cached_citing", "expansion_enriched_citing",
            ),
        ),
        TableAsset(
            "reliability_evaluation",
            reads=(
                "publications", "datasets", "dataset_lineage", "dataset_publication_edges", "publication_research_areas",
                "publication_centrality", "publication_citations", "openalex_works", "crossref_retractions", "coherence_judgements",
                "recorded_disputes", "edge_reliability", "dataset_verdicts",
            ),
            writes=("reliability_evaluation", "reliability_evaluation_baselines", "reliability_evaluation_cases"), run_inputs=("as_of",),
            modules=(
                *_SCORING_MODULES, "evaluation.baselines", "evaluation.cases", "evaluation.measure", "evaluation.metrics",
                "judgement.steward", "kg.doi", "kg.partitions", "kg.research_areas", "lifecycle.versions", "reliability.edge_scores",
                "verdicts.critic", "verdicts.dataset_judgements",
            ),
            sql=("edges_in_research_areas", "area_judgements", "contradicting_pairs", "dataset_disputes"),
            files=("reference/evaluation/labelled_edges.csv", "reference/applied_research_areas.json", _CUES),
        ),
        TableAsset(
            "dispute_evaluation",
            reads=("publications", "dataset_publication_edges", "publication_citations", "coherence_judgements", "recorded_disputes"),
            writes=("dispute_evaluation", "dispute_evaluation_pairs"), run_inputs=("as_of",),
            modules=(
                "evaluation.metrics", "evaluation.pairs", "judgement.citing_pairs", "judgement.cues", "judgement.disputes",
                "judgement.judge_address", "judgement.offline_judge", "judgement.text_embedding", "judgement.verdict_scale", "kg.doi",
            ),
            sql=(
                "dispute_evaluation_publications", "dataset_publication_pairs", "dispute_evaluation_judgements", "dispute_evaluation_recorded",
                "dispute_evaluation_citations",
            ),
            files=("reference/evaluation/labelled_pairs.csv", "reference/evaluation/publications.json", _CUES),
        ),
        TableAsset(
            "reliability_report",
            reads=(
                "kg_snapshots", "publications", "coherence_judgements", "edge_reliability", "dataset_verdicts", "reliability_evaluation",
                "reliability_evaluation_baselines", "dispute_evaluation",
            ),
            run_inputs=("as_of",),
            modules=(
                "centrality.centrality_rule", "evaluation.baselines", "evaluation.measure", "evaluation.metrics", "kg.research_areas",
                "reliability.labels", "reliability.settings", "report.data", "report.figures", "report.render", "verdicts.critic",
            ),
            sql=(
                "report_central_superseded", "report_dispute_evaluation", "report_evaluation", "report_evaluation_baselines",
                "report_flagged_verdicts", "report_judges", "report_label_distribution", "report_lineage", "report_reliabilities",
                "report_verdict_counts", "report_verdict_rules",
            ),
            files=("report/templates/*", "reference/applied_research_areas.json"),
        ),
        TableAsset(
            "gnn_edge_weights",
            reads=("publications", "datasets", "dataset_publication_edges", "publication_research_areas", "edge_reliability"),
            modules=("exports.files", "exports.gnn", "reliability.labels"), sql=("export_edge_scores", "export_graph_nodes"),
        ),
        TableAsset(
            "neo4j_edge_reliability",
            reads=("kg_nodes", "kg_relationships", "publications", "dataset_publication_edges", "publication_research_areas", "edge_reliability"),
            modules=("exports.files", "exports.gnn", "exports.neo4j", "reliability.labels"),
            sql=("export_edge_scores", "export_uses_dataset_relationships"), files=("exports/uses_dataset_reliability.cypher",),
        ),
        TableAsset(
            "kg_snapshot_diff",
            reads=("kg_snapshots", "kg_nodes", "kg_relationships", "publications", "datasets", "edge_reliability", "openalex_works"),
            writes=("kg_snapshot_diff", "kg_snapshot_history", "kg_snapshot_history_elements", "kg_snapshot_history_edges"),
            modules=("kg.ingest",),
            sql=(
                "kg_snapshot_history_record", "kg_snapshot_history_previous", "kg_snapshot_diff_rows", "kg_snapshot_diff_changes",
                "kg_snapshot_diff_named", "kg_snapshot_diff_causes", "kg_snapshot_history_sizes",
            ),
        ),
        # One paper per partition (issue 22): read, its datasets matched, its claims, scores and report.
        TableAsset(
            "paper_documents", reads=("publications", "publication_citations"), writes=("paper_documents", "paper_texts"),
            # a DOI the graph lacks: OpenAlex (online, on the shared daily budget) and its paper_llm_use row
            keeps=("openalex_usage", "paper_llm_use"),
            modules=(
                "enrichment.openalex_batches", "enrichment.openalex_records", "kg.doi", "papers.doi_lookup",
                "papers.intake", "papers.parse", "papers.partitions", "papers.stored", "papers.title", *_OPENALEX_SEARCH_MODULES,
            ),
            sql=("openalex_usage", "paper_llm_use", "paper_graph_publication", "paper_graph_references", "paper_llm_use_delete", "openalex_usage_spent_on", "openalex_usage_record"),
        ),
        TableAsset(
            "paper_datasets",
            reads=("paper_documents", "paper_texts", "datasets", "dataset_lineage", "publications", "dataset_publication_edges"),
            writes=("paper_datasets",),
            # online, with the papers' opt-in: the LLM's reading of the data statements (cached, on the shared daily
            # budget), checked by the rules, and its paper_llm_use row
            keeps=("paper_llm_use", "llm_answers", "llm_judgements"), run_inputs=("paper_settings",),
            modules=(
                *_DATASET_NAME_MODULES, "enrichment.retries", "judgement.cached_ask", "judgement.cues", "judgement.groq_client",
                "judgement.judge_address", "judgement.llm_cache", "judgement.llm_prompt", "judgement.text_embedding", "judgement.verdict_scale",
                "papers.dataset_evidence", "papers.intake", "papers.lifecycle_lines", "papers.llm_claims", "papers.llm_datasets",
                "papers.online", "papers.parse", "papers.stored", "papers.version_association",
            ),
            sql=(
                "paper_pages", "paper_dataset_catalogue", "paper_graph_dataset_links", "paper_dataset_lineage", "paper_llm_use",
                "paper_llm_use_delete", "llm_answers", "llm_judgements", "llm_usage_on_day", "llm_answer_cached",
            ),
            files=(*_DATASET_NAME_FILES, _CUES),
        ),
        TableAsset(
            "paper_claims", reads=("paper_documents", "paper_texts"), writes=("paper_claims", "paper_llm_use"),
            keeps=("paper_stage_failures", "llm_answers", "llm_judgements"), run_inputs=("paper_settings",),
            modules=(
                "enrichment.retries", "judgement.cached_ask", "judgement.cues", "judgement.groq_client", "judgement.judge_address", "judgement.llm_cache",
                "judgement.llm_prompt", "judgement.text_embedding", "judgement.verdict_scale", "papers.claims", "papers.llm_claims",
                "papers.online", "papers.parse", "papers.scores", "papers.stored",
            ),
            sql=(
                "paper_stage_failures", "paper_stage_failure_delete", "paper_llm_use", "paper_llm_use_delete", "paper_pages", "paper_title",
                "llm_answers", "llm_judgements", "llm_usage_on_day", "llm_answer_cached",
            ),
            files=(_CUES,),
        ),
        TableAsset(
            "paper_keywords", reads=("paper_documents", "paper_texts", "publications", "science_keywords"), writes=("paper_keywords",),
            # online, with the papers' opt-in: the LLM's refinement (cached, on the shared daily budget) and its paper_llm_use row
            keeps=("paper_stage_failures", "paper_llm_use", "llm_answers", "llm_judgements"), run_inputs=("paper_settings",),
            modules=(
                "enrichment.retries", "judgement.cached_ask", "judgement.cues", "judgement.groq_client", "judgement.judge_address",
                "judgement.llm_cache", "judgement.llm_prompt", "judgement.text_embedding", "judgement.verdict_scale", "papers.intake",
                "papers.keywords", "papers.llm_claims", "papers.llm_keywords", "papers.online", "papers.parse", "papers.stored",
            ),
            sql=(
                "paper_stage_failures", "paper_stage_failure_delete", "paper_llm_use", "paper_llm_use_delete", "paper_pages", "paper_title",
                "paper_literature", "paper_science_keywords", "llm_answers", "llm_judgements", "llm_usage_on_day", "llm_answer_cached",
            ),
            files=(_CUES,),
        ),
        TableAsset(
            "paper_citation_gaps",
            reads=(
                "paper_documents", "paper_texts", "paper_datasets", "dataset_lineage", "publications", "publication_citations",
                "dataset_publication_edges", "openalex_works", "recorded_disputes",
            ),
            writes=("paper_citation_gaps",),
            # online, with the papers' opt-in: OpenAlex search (cached in the papers' own table, on the shared daily budget) and
            # its paper_llm_use row
            keeps=("paper_stage_failures", "paper_llm_use", "paper_search_cache", "openalex_usage"),
            modules=(
                "enrichment.citing_plan", "enrichment.openalex_records", "enrichment.openalex_search", "kg.doi", "papers.gaps",
                "papers.intake", "papers.keywords", "papers.parse", "papers.search_cache", "papers.stored", *_OPENALEX_SEARCH_MODULES,
            ),
            sql=(
                "paper_gap_works", "paper_stage_failures", "paper_stage_failure_delete", "paper_pages", "paper_title",
                "paper_matched_dataset_names", "paper_used_datasets", "recorded_comments", "openalex_works", "recorded_disputes",
                "paper_llm_use", "paper_llm_use_delete", "paper_search_cache", "openalex_usage", "openalex_usage_spent_on", "openalex_usage_record",
                "paper_search_cache_answers",
            ),
        ),
        TableAsset(
            "claim_verdicts",
            reads=("paper_documents", "paper_texts", "paper_claims", "paper_datasets", "publications", "edge_reliability", "steward_judgements"),
            writes=("claim_verdicts",),
            # online, with the papers' opt-in: Groq's pair judge on each claim's works (cached, on the shared daily budget)
            # and its paper_llm_use row
            keeps=("paper_stage_failures", "text_embeddings", "paper_llm_use", "llm_answers", "llm_judgements"), run_inputs=("paper_settings",),
            modules=(
                "enrichment.retries", "judgement.cached_ask", "judgement.cues", "judgement.embedding_store", "judgement.groq_client",
                "judgement.judge_address", "judgement.llm_cache", "judgement.llm_judge", "judgement.llm_prompt", "judgement.model_input",
                "judgement.offline_judge", "judgement.steward", "judgement.text_embedding", "judgement.verdict_scale", "papers.claim_judge",
                "papers.intake", "papers.online", "papers.stored", "papers.verdicts",
            ),
            sql=(
                "paper_stage_failures", "paper_stage_failure", "paper_stage_failure_delete", "paper_claims", "paper_claim_texts",
                "paper_literature", "paper_replaced_datasets", "paper_superseded_references", "paper_cited_publications",
                "publication_ids_of_doi", "paper_work_texts", "paper_title", "paper_dataset_text", "stored_steward_judgements",
                "edge_reliability", "text_embeddings", "text_embedding_vectors", "paper_llm_use", "paper_llm_use_delete", "llm_answers",
                "llm_judgements", "llm_usage_on_day", "llm_answer_cached",
            ),
            files=(_CUES,),
        ),
        TableAsset(
            "paper_scores", reads=("paper_datasets", "paper_claims", "paper_citation_gaps", "claim_verdicts", "paper_llm_use"),
            writes=("paper_scores",), modules=("papers.scores", "papers.stored"),
            sql=("paper_datasets", "paper_claims", "paper_citation_gaps", "claim_verdicts", "paper_llm_use", "paper_argumentation", "paper_score_inputs"),
        ),
        TableAsset(
            "paper_reports",
            reads=(
                "paper_documents", "paper_datasets", "paper_claims", "paper_keywords", "paper_citation_gaps", "claim_verdicts",
                "paper_scores", "paper_stage_failures", "paper_llm_use",
            ),
            keeps=("paper_stage_failures",),
            modules=(
                "papers.dataset_evidence", "papers.gaps", "papers.parse", "papers.report", "papers.stored", "papers.title", "report.figures",
                "report.render", "reliability.labels", "verdicts.critic",
            ),
            sql=(
                "paper_claims", "paper_keywords", "paper_citation_gaps", "claim_verdicts", "paper_stage_failures", "paper_stage_failure_delete",
                "paper_earlier_failures", "paper_llm_use",
            ),
            files=("report/templates/*",),
        ),
        # One research question per partition (issue 21): planned, answered, judged, written up, tracked.
        TableAsset(
            "question_plans", reads=("datasets", "dataset_lineage", "publication_research_areas"),
            writes=("question_plans", "asked_questions"), keeps=("question_sessions", "llm_judgements", "llm_answers"),
            run_inputs=("judge_settings",),
            modules=(
                "briefs.answers", "briefs.online", "briefs.planner", "briefs.questions", "judgement.cached_ask", "judgement.cues", "judgement.groq_client",
                "judgement.judge_address", "judgement.llm_cache", "judgement.llm_prompt", "judgement.verdict_scale", *_DATASET_NAME_MODULES,
            ),
            sql=(
                "question_datasets", "question_research_areas", "question_session_asked", "asked_question", "asked_question_record",
                "question_sessions", "llm_judgements", "llm_answers", "llm_usage_on_day", "llm_answer_cached",
            ),
            files=_DATASET_NAME_FILES,  # a question's datasets are read by the papers' detector (questions.datasets_named_in)
        ),
        TableAsset(
            "question_evidence", reads=("question_plans", "datasets", *_QUESTION_POOL), writes=("question_evidence",),
            keeps=("text_embeddings", "openalex_search_cache", "openalex_usage"),
            modules=(*_QUESTION_POOL_MODULES, *_OPENALEX_SEARCH_MODULES, "judgement.embedding_store", "judgement.model_input", "judgement.text_embedding"),
            sql=(
                *_QUESTION_POOL_SQL, "question_plans", "text_embeddings", "text_embedding_vectors", "openalex_search_cache", "openalex_usage",
                "openalex_usage_spent_on", "openalex_usage_record", "openalex_search_cache_answers",
            ),
        ),
        TableAsset(
            "question_verdicts", reads=("question_plans", "question_evidence", "datasets", *_QUESTION_POOL),
            writes=("question_verdicts", "question_verdict_log"), keeps=("text_embeddings", "openalex_search_cache", "openalex_usage"),
            modules=(
                *_QUESTION_POOL_MODULES, *_OPENALEX_SEARCH_MODULES, "briefs.answers", "judgement.embedding_store", "judgement.llm_prompt",
                "judgement.model_input", "judgement.text_embedding", "reliability.reasons", "verdicts.critic",
            ),
            sql=(
                *_QUESTION_POOL_SQL, "question_plans", "question_stored_evidence", "text_embeddings", "text_embedding_vectors",
                "openalex_search_cache", "openalex_usage", "openalex_usage_spent_on", "openalex_usage_record", "openalex_search_cache_answers",
            ),
        ),
        TableAsset(
            "research_briefs", reads=(
                "question_plans", "question_verdicts", "question_verdict_log", "datasets", "openalex_search_cache", *_QUESTION_POOL,
            ),
            writes=("research_briefs",), keeps=("llm_judgements", "llm_answers"), run_inputs=("judge_settings",),
            modules=(
                *_QUESTION_POOL_MODULES, "briefs.answers", "briefs.online", "briefs.synthesis", "judgement.cached_ask", "judgement.cues", "judgement.groq_client",
                "judgement.llm_cache", "judgement.llm_prompt", "reliability.reasons", "report.figures", "report.render", "verdicts.critic",
            ),
            sql=(
                *_QUESTION_POOL_SQL, "question_plans", "question_verdict_state", "question_verdict_rounds", "llm_judgements", "llm_answers",
                "llm_usage_on_day", "llm_answer_cached", "openalex_search_cache_answers",
            ),
            files=("report/templates/*",),
        ),
        TableAsset(
            "question_verdict_history", reads=("question_verdicts", "research_briefs"), writes=("question_verdict_history",),
            sql=("question_verdict_reason", "question_trust_summary", "question_last_refresh"),
        ),
    ]
)
