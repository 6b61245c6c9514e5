"""The whole asset graph of recon_assets, in the order data flows: each asset with the assets it reads
(`<-`; a test compares this map with the graph Dagster builds). The run inputs each asset also reads (as_of, the
settings digests, the KG export: `automation.run_inputs`) are named in its declaration (`declarations.py`):

kg_snapshot
publications <- kg_snapshot
datasets <- kg_snapshot
dataset_lineage <- datasets
dataset_publication_edges <- datasets, kg_snapshot, publications
publication_citations <- kg_snapshot, publications
publication_research_areas <- kg_snapshot, publications
science_keywords <- kg_snapshot
openalex_works (per research area) <- publication_research_areas, publications
openalex_citing_works (per research area) <- dataset_publication_edges, datasets, openalex_works,
    publication_research_areas
crossref_retractions (per research area) <- publication_research_areas, publications
crossref_relations (per research area) <- crossref_retractions, publication_research_areas, publications
publication_centrality <- dataset_publication_edges, datasets, kg_snapshot, publication_citations, publications
steward_judgements <- dataset_publication_edges, datasets, publications
recorded_disputes (per research area) <- crossref_relations, openalex_citing_works, publication_citations,
    publication_research_areas, publications
coherence_judgements (per research area) <- dataset_lineage, dataset_publication_edges, datasets,
    openalex_citing_works, publication_centrality, publication_citations, publication_research_areas, publications,
    recorded_disputes, steward_judgements
edge_reliability (per research area) <- coherence_judgements, crossref_retractions, dataset_lineage,
    dataset_publication_edges, datasets, kg_snapshot, openalex_works, publication_centrality, publication_citations,
    publication_research_areas, publications, recorded_disputes, steward_judgements
dataset_verdicts (per research area) <- coherence_judgements, dataset_lineage, dataset_publication_edges,
    edge_reliability, kg_snapshot, openalex_citing_works, openalex_works, publications, recorded_disputes
reliability_evaluation <- coherence_judgements, crossref_retractions, dataset_lineage, dataset_publication_edges,
    dataset_verdicts, datasets, edge_reliability, openalex_works, publication_centrality, publication_citations,
    publication_research_areas, publications, recorded_disputes
dispute_evaluation <- coherence_judgements, dataset_publication_edges, publication_citations, publications,
    recorded_disputes
reliability_report <- coherence_judgements, dataset_verdicts, dispute_evaluation, edge_reliability, kg_snapshot,
    publications, reliability_evaluation
gnn_edge_weights <- dataset_publication_edges, datasets, edge_reliability, publication_research_areas, publications
neo4j_edge_reliability <- dataset_publication_edges, edge_reliability, kg_snapshot, publication_research_areas,
    publications
kg_snapshot_diff <- datasets, edge_reliability, kg_snapshot, openalex_works, publications
paper_documents (per paper) <- publication_citations, publications
paper_datasets (per paper) <- dataset_lineage, dataset_publication_edges, datasets, paper_documents, publications
paper_claims (per paper) <- paper_documents
paper_keywords (per paper) <- paper_documents, publications, science_keywords
paper_citation_gaps (per paper) <- dataset_lineage, dataset_publication_edges, openalex_works, paper_datasets,
    paper_documents, publication_citations, publications, recorded_disputes
claim_verdicts (per paper) <- edge_reliability, paper_claims, paper_datasets, paper_documents, publications,
    steward_judgements
paper_scores (per paper) <- claim_verdicts, paper_citation_gaps, paper_claims, paper_datasets
paper_reports (per paper) <- claim_verdicts, paper_citation_gaps, paper_claims, paper_datasets, paper_documents,
    paper_keywords, paper_scores
question_plans (per question) <- dataset_lineage, datasets, publication_research_areas
question_evidence (per question) <- coherence_judgements, datasets, edge_reliability, publication_citations, publications,
    question_plans, recorded_disputes
question_verdicts (per question) <- coherence_judgements, datasets, edge_reliability, publication_citations, publications,
    question_evidence, question_plans, recorded_disputes
research_briefs (per question) <- coherence_judgements, datasets, edge_reliability, publication_citations, publications,
    question_evidence, question_plans, question_verdicts, recorded_disputes
question_verdict_history (per question) <- question_verdicts, research_briefs

Loading the definitions (`defs`, a `@dg.definitions` function Dagster calls) reads the environment; importing this
module reads nothing and creates nothing. String settings are `dg.EnvVar`s, resolved when a run's resources start
(an empty variable counts as unset): RECON_KG_PATH (a local export; default the shipped sample),
RECON_KG_SOURCE=huggingface with RECON_HF_FILENAME / RECON_HF_REVISION (the real KG), RECON_DB_PATH (default
data/recon.duckdb; its folder is created when a run starts; md:<name> is a MotherDuck database, with its token in
MOTHERDUCK_TOKEN), RECON_DUCKDB_MEMORY_LIMIT (DuckDB's memory_limit,
default 3GB), RECON_AS_OF (YYYY-MM-DD; default the day a run was created), OpenAlex online whenever OPENALEX_API_KEY
is set (RECON_OPENALEX=offline opts out: the recorded OpenAlex cache, no request; RECON_OPENALEX=online without a key
warns and uses only the cache) with OPENALEX_MAILTO and OPENALEX_URL, and RECON_CROSSREF=online (default offline)
with CROSSREF_MAILTO and CROSSREF_URL, and the Groq LLM judge online whenever GROQ_API_KEY is set (RECON_GROQ=offline
opts out) with GROQ_BASE_URL. Research briefs (issue 21): RECON_QUESTIONS_FILE, the question file (default the packaged
briefs/questions.yaml). Papers (issue 22): RECON_PAPERS_DIR, the folder the paper sensor watches (default papers/
beside the database), RECON_PAPER_PAGE_LIMIT, the most pages a PDF may have (default 200), and RECON_PAPERS_ONLINE=online, the
papers' own opt-in to send a paper's text to Groq when the judge is online (default off: nothing of a paper is sent). RECON_ALLOW_PLAIN_HTTP=1 lets GROQ_BASE_URL, OPENALEX_URL or HF_ENDPOINT be http:// to
another machine while a key would be sent (unset or 0: refused where a run's resources start, `key_transport`).
"""

import os

import dagster as dg

from recon_assets.automation.jobs import (
    daily_rescoring_job,
    edge_reliability_job,
    kg_refresh_job,
    kg_tables_job,
    openalex_refresh_job,
    paper_analysis_job,
    question_briefs_job,
    reliability_evaluation_job,
    weekly_refresh_job,
)
from recon_assets.automation.paper_folder_sensor import paper_folder_sensor
from recon_assets.automation.question_file_sensor import question_file_sensor
from recon_assets.automation.kg_source_sensor import kg_source_sensor
from recon_assets.automation.run_inputs import RUN_INPUTS
from recon_assets.automation.schedules import edge_reliability_daily_schedule, openalex_weekly_schedule, research_briefs_weekly_schedule
from recon_assets.briefs.assets import question_evidence, question_plans, question_verdict_history, question_verdicts, research_briefs
from recon_assets.briefs.partitions import QuestionFileResource
from recon_assets.centrality.assets import publication_centrality
from recon_assets.enrichment import crossref, openalex_client
from recon_assets.enrichment.assets import crossref_relations, crossref_retractions, openalex_citing_works, openalex_works
from recon_assets.enrichment.checks import openalex_cache_one_row_per_doi, openalex_match_rate, openalex_retracted_share
from recon_assets.enrichment.resources import CrossrefResource, OpenAlexResource, crossref_offline, openalex_offline_from_env
from recon_assets.evaluation.assets import dispute_evaluation, reliability_evaluation
from recon_assets.exports.assets import gnn_edge_weights, neo4j_edge_reliability
from recon_assets.judgement.assets import coherence_judgements, recorded_disputes, steward_judgements
from recon_assets.judgement.resources import GroqJudgeResource, groq_offline
from recon_assets.kg.assets import (
    dataset_publication_edges,
    datasets,
    kg_snapshot,
    publication_citations,
    publication_research_areas,
    publications,
    science_keywords,
)
from recon_assets.kg.checks import kg_lines_conserved, publication_doi_coverage, publication_year_coverage
from recon_assets.kg.hub_source import PINNED_REVISION
from recon_assets.kg.resources import HUGGING_FACE, SAMPLE_KG_PATH, HuggingFaceKgExport, LocalKgExport, kg_source
from recon_assets.lifecycle.assets import dataset_lineage
from recon_assets.papers.assets import (
    claim_verdicts,
    paper_citation_gaps,
    paper_claims,
    paper_datasets,
    paper_documents,
    paper_keywords,
    paper_reports,
    paper_scores,
)
from recon_assets.papers.intake import default_papers_folder
from recon_assets.papers.parse import DEFAULT_PAGE_LIMIT
from recon_assets.papers.resources import PaperIntake, papers_online
from recon_assets.reliability.assets import edge_reliability
from recon_assets.reliability.checks import edge_reliability_values_valid
from recon_assets.report.assets import reliability_report
from recon_assets.shared.as_of import AsOfDate
from recon_assets.shared.console_log import console_logger
from recon_assets.shared.credentials import secret_is_set, usable_secrets
from recon_assets.shared.paths import database_path
from recon_assets.snapshots.diff import kg_snapshot_diff
from recon_assets.storage.duckdb_settings import duckdb_connection_config, output_anchor
from recon_assets.storage.duckdb_settings import MOTHERDUCK_TOKEN_VARIABLE
from recon_assets.storage.duckdb_store import TableStore
from recon_assets.storage.outputs import OutputFiles
from recon_assets.verdicts.assets import dataset_verdicts
from recon_assets.verdicts.checks import dataset_verdicts_one_valid_per_dataset

ASSETS = [
    kg_snapshot,
    publications,
    datasets,
    dataset_lineage,
    dataset_publication_edges,
    publication_citations,
    publication_research_areas,
    science_keywords,
    openalex_works,
    openalex_citing_works,
    crossref_retractions,
    crossref_relations,
    publication_centrality,
    steward_judgements,
    coherence_judgements,
    recorded_disputes,
    edge_reliability,
    dataset_verdicts,
    reliability_evaluation,
    dispute_evaluation,
    reliability_report,
    gnn_edge_weights,
    neo4j_edge_reliability,
    kg_snapshot_diff,
    paper_documents,
    paper_datasets,
    paper_claims,
    paper_keywords,
    paper_citation_gaps,
    claim_verdicts,
    paper_scores,
    paper_reports,
    question_plans,
    question_evidence,
    question_verdicts,
    research_briefs,
    question_verdict_history,
]
ASSET_CHECKS = [
    kg_lines_conserved,
    publication_year_coverage,
    publication_doi_coverage,
    openalex_cache_one_row_per_doi,
    openalex_match_rate,
    openalex_retracted_share,
    edge_reliability_values_valid,
    dataset_verdicts_one_valid_per_dataset,
]


def build_defs(resources: dict[str, dg.ConfigurableResource]) -> dg.Definitions:
    """The Definitions with the given resources (tests pass their own; `defs` below reads the environment)."""
    return dg.Definitions(
        # the run's inputs that are not assets (as_of, settings, the KG export) as observable sources their readers depend on
        assets=[*RUN_INPUTS, *ASSETS],
        asset_checks=ASSET_CHECKS,
        jobs=[
            kg_tables_job, openalex_refresh_job, edge_reliability_job, reliability_evaluation_job, daily_rescoring_job,
            weekly_refresh_job, kg_refresh_job, paper_analysis_job, question_briefs_job,
        ],
        schedules=[edge_reliability_daily_schedule, openalex_weekly_schedule, research_briefs_weekly_schedule],
        sensors=[kg_source_sensor, paper_folder_sensor, question_file_sensor],
        # the question file: the packaged one unless the caller (or RECON_QUESTIONS_FILE) gives another
        resources={"questions": QuestionFileResource(), **resources},
        # Every step writes the one DuckDB file, which allows one writer: steps run in one process, in order,
        # instead of a subprocess each that would only wait for the pool.
        executor=dg.in_process_executor,
        # Dagster's console logger, which `recon run` without --verbose tells to leave failures' stack traces out
        loggers={"console": console_logger},
    )


def resources_from_environment() -> dict[str, dg.ConfigurableResource]:
    """The resources, configured from RECON_* environment variables (see module docstring): a setting passed through
    as it is becomes a `dg.EnvVar` when its variable is set, read again when a run's resources start.

    Raises:
        credentials.UnusableSecretError: OPENALEX_API_KEY, GROQ_API_KEY, HF_TOKEN or MOTHERDUCK_TOKEN holds a space or a control
            character inside it (the code location does not load, with that one message).
        ValueError: RECON_OPENALEX, RECON_CROSSREF, RECON_GROQ or RECON_PAPERS_ONLINE is neither 'online', 'offline' nor unset,
            RECON_KG_SOURCE neither 'local', 'huggingface' nor unset, or RECON_DUCKDB_MEMORY_LIMIT is unusable
            (`duckdb_settings.check_memory_limit`).
    """
    usable_secrets()
    if kg_source(os.environ.get("RECON_KG_SOURCE") or "") == HUGGING_FACE:
        kg_export = HuggingFaceKgExport(
            filename=_env_var("RECON_HF_FILENAME", "graph.json"), revision=_env_var("RECON_HF_REVISION", PINNED_REVISION)
        )
    else:
        kg_export = LocalKgExport(path=_env_var("RECON_KG_PATH", str(SAMPLE_KG_PATH)))
    database = database_path()
    return {
        "kg_export": kg_export,
        "store": TableStore(
            database=str(database), connection_config=duckdb_connection_config(database),
            motherduck_token=_env_var(MOTHERDUCK_TOKEN_VARIABLE, None),
        ),
        "outputs": OutputFiles(database=str(database)),
        "as_of": AsOfDate(as_of=_env_var("RECON_AS_OF", "")),
        "openalex": OpenAlexResource(
            offline=openalex_offline_from_env(),
            # An EnvVar keeps the key's value out of the Dagster UI and the run config.
            api_key=_env_var("OPENALEX_API_KEY", None),
            mailto=_env_var("OPENALEX_MAILTO", None),
            base_url=_env_var("OPENALEX_URL", openalex_client.DEFAULT_BASE_URL),
        ),
        "crossref": CrossrefResource(
            offline=crossref_offline(os.environ.get("RECON_CROSSREF") or ""),
            mailto=_env_var("CROSSREF_MAILTO", None) or _env_var("OPENALEX_MAILTO", None),
            base_url=_env_var("CROSSREF_URL", crossref.DEFAULT_BASE_URL),
        ),
        "groq_judge": GroqJudgeResource(
            offline=groq_offline(os.environ.get("RECON_GROQ") or ""),
            api_key=_env_var("GROQ_API_KEY", None),
            base_url=_env_var("GROQ_BASE_URL", None),
        ),
        "papers": PaperIntake(
            folder=_env_var("RECON_PAPERS_DIR", str(default_papers_folder(output_anchor(database)))),
            page_limit=dg.EnvVar.int("RECON_PAPER_PAGE_LIMIT") if os.environ.get("RECON_PAPER_PAGE_LIMIT") else DEFAULT_PAGE_LIMIT,
            send_text_online=papers_online(os.environ.get("RECON_PAPERS_ONLINE") or ""),
        ),
        "questions": QuestionFileResource(path=_env_var("RECON_QUESTIONS_FILE", "")),
    }


def _env_var(name: str, default: str | None) -> str | None:
    """`dg.EnvVar(name)` when the variable is set to more than whitespace (Dagster reads it when a run's resources start
    and the UI shows where the value comes from, never a secret's value), else `default`: a blank key is no key."""
    return dg.EnvVar(name) if secret_is_set(name) else default


@dg.definitions
def defs() -> dg.Definitions:
    """What `dagster dev`, `dg` and `recon run` load: the definitions with resources from the environment."""
    return build_defs(resources_from_environment())
