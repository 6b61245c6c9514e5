"""Running the whole pipeline in tests, exactly as `recon run` does: the three jobs on a real Dagster instance,
OpenAlex and Crossref offline (the shipped recording) unless a test gives its own resource (a stand-in server)."""

import shutil
from dataclasses import dataclass
from pathlib import Path

import dagster as dg
import duckdb

from recon_assets.definitions import build_defs
from recon_assets.enrichment.resources import CrossrefResource, OpenAlexResource
from recon_assets.judgement.resources import GroqJudgeResource
from recon_assets.kg.partitions import every_research_area_tags, research_area_partitions
from recon_assets.kg.resources import LocalKgExport
from recon_assets.papers.resources import PaperIntake
from recon_assets.shared.as_of import AsOfDate
from recon_assets.shared.paths import SAMPLE_DIR
from recon_assets.storage.duckdb_store import TableStore
from recon_assets.storage.outputs import OutputFiles

# The checkout the tests run from (benchmarks, README, CI script).
REPO_ROOT = Path(__file__).resolve().parents[1]
SAMPLE_JSONL = SAMPLE_DIR / "graph.json"
SAMPLE_GRAPHML = SAMPLE_DIR / "graph.graphml"
SAMPLE_CYPHER = SAMPLE_DIR / "graph.cypher"
AS_OF = "2026-11-29"
AREAS = research_area_partitions.get_partition_keys()
RANGE_TAGS = every_research_area_tags()


@dataclass
class PipelineRun:
    """A finished run of both jobs: the instance, the definitions, the DuckDB path and the job results."""

    instance: dg.DagsterInstance
    defs: dg.Definitions
    database: Path
    results: list

    def query(self, sql: str, params=()) -> list[tuple]:
        with duckdb.connect(str(self.database), read_only=True) as con:
            return con.execute(sql, list(params)).fetchall()

    def copy_database(self, path: Path, sql: str | None = None) -> Path:
        """A writable copy of the run's DuckDB file at `path` (the shared run stays as it is), after running `sql` on it."""
        shutil.copy(self.database, path)
        if sql:
            with duckdb.connect(str(path)) as con:
                con.execute(sql)
        return path


def pipeline_defs(
    kg_path: Path, database: Path, crossref: CrossrefResource | None = None, openalex: OpenAlexResource | None = None
) -> dg.Definitions:
    """The definitions `recon run` uses, on `kg_path` and the DuckDB file `database`, as of AS_OF: offline, or with
    the `crossref` and `openalex` resources given (e.g. pointed at stand-in servers)."""
    return build_defs(
        {
            "kg_export": LocalKgExport(path=str(kg_path)),
            "store": TableStore(database=str(database)),
            "outputs": OutputFiles(database=str(database)),
            "as_of": AsOfDate(as_of=AS_OF),
            "openalex": openalex or OpenAlexResource(offline=True),
            "crossref": crossref or CrossrefResource(offline=True),
            "groq_judge": GroqJudgeResource(offline=True),
            "papers": PaperIntake(folder=str(database.parent / "papers")),
        }
    )


def run_pipeline(
    kg_path: Path, workdir: Path, instance: dg.DagsterInstance, crossref: CrossrefResource | None = None,
    openalex: OpenAlexResource | None = None,
) -> PipelineRun:
    """The three jobs, as `recon run` launches them, against the DuckDB file `workdir`/recon.duckdb (created by the
    first run; a second run in the same `workdir` finds the first one's tables and caches), Crossref and OpenAlex as
    in `pipeline_defs`."""
    database = workdir / "recon.duckdb"
    defs = pipeline_defs(kg_path, database, crossref, openalex)
    results = [
        defs.resolve_job_def("kg_tables_job").execute_in_process(instance=instance),
        defs.resolve_job_def("openalex_refresh_job").execute_in_process(instance=instance, tags=RANGE_TAGS),
        defs.resolve_job_def("reliability_evaluation_job").execute_in_process(instance=instance),
    ]
    return PipelineRun(instance, defs, database, results)


def run_figures(materialization: dg.AssetMaterialization) -> dict:
    """The figures a partitioned asset gives for its whole run (`run/` names), regrouped as the asset computed
    them: `run/statuses/found` -> {"statuses": {"found": ...}}."""
    figures: dict = {}
    for key, value in materialization.metadata.items():
        if not key.startswith("run/"):
            continue
        name, _, part = key.removeprefix("run/").partition("/")
        if part:
            figures.setdefault(name, {})[part] = value.value
        else:
            figures[name] = value.value
    return figures
