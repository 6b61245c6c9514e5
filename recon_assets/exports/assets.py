"""Assets of the `exports` group: files beside the DuckDB file (`export_folder`) for the graph neural network the KG
feeds and for the KG's own Neo4j database, written from whatever edge_reliability holds. Each run writes its own
folder, `<export>_<as_of>_<run>/`, copied to `<export>/` (the latest, at a path that never changes); the folders of
runs beyond the newest and RECON_KEEP_OUTPUTS earlier ones are removed (`storage.output_files`)."""

from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import dagster as dg
import pandas as pd
import pyarrow as pa

from recon_assets.declarations import ASSET_TABLES
from recon_assets.exports import gnn, neo4j
from recon_assets.exports.files import write_lines, write_parquet
from recon_assets.kg.assets import OWNERS
from recon_assets.reliability.labels import LABELS
from recon_assets.storage import output_files
from recon_assets.shared.as_of import AsOfDate
from recon_assets.shared.metadata import database_file, distribution, plottable
from recon_assets.storage.duckdb_store import TableStore
from recon_assets.storage.outputs import OutputFiles

EXPORTS = dict(group_name="exports", owners=OWNERS, pool="duckdb")
NODES_SCHEMA = pa.schema([
    ("node_index", pa.int64()), ("label_index", pa.int64()), ("node_label", pa.string()), ("node_id", pa.string()),
    ("doi", pa.string()), ("name", pa.string()), ("kg_node_ids", pa.list_(pa.string())),
])
EDGES_SCHEMA = pa.schema([("source", pa.int64()), ("target", pa.int64()), ("weight", pa.float64()), ("label", pa.string())])
GNN_SET_ASIDE_SCHEMA = pa.schema([(name, pa.string()) for name in gnn.SET_ASIDE_COLUMNS])
NEO4J_SET_ASIDE_SCHEMA = pa.schema([(name, pa.string()) for name in neo4j.SET_ASIDE_COLUMNS])


@dg.asset(**ASSET_TABLES["gnn_edge_weights"].asset_arguments(), kinds={"duckdb", "parquet"}, **EXPORTS)
def gnn_edge_weights(
    context: dg.AssetExecutionContext, store: TableStore, outputs: OutputFiles, as_of: AsOfDate
) -> dg.MaterializeResult:
    """The reliability-weighted Dataset–Publication edges for PyTorch Geometric, as Parquet in
    `<db folder>/exports/<db file name>/gnn_edge_weights/` (the latest run's; each run's own in
    `gnn_edge_weights_<as_of>_<run>/` beside it): edges.parquet (source, target: node indices in the direction of
    the KG's Publication-[:USES_DATASET]->Dataset; weight: the edge's reliability; label), nodes.parquet (node_index ->
    node label, dataset_id / publication_id, DOI, name, KG node ids; indices ordered by label then id, so stable for a
    snapshot) and set_aside.parquet (edges without a reliability, with the reason: never weighted 0). Edges in =
    written + set aside. An edge scored in several research areas takes its latest as_of's lowest reliability."""
    run = _ExportRun.start(context, outputs, as_of, "gnn_edge_weights")
    folder = run.folder  # the run's own; `published` copies it to the latest
    with store.connect() as con:
        scores = con.query("export_edge_scores")
        nodes = gnn.node_table(con.query("export_graph_nodes"))
        database = database_file(con)
    written, set_aside = gnn.weighted_edges(scores, nodes)
    paths = {
        "edges_path": write_parquet(written, folder / "edges.parquet", EDGES_SCHEMA),
        "nodes_path": write_parquet(nodes, folder / "nodes.parquet", NODES_SCHEMA),
        "set_aside_path": write_parquet(set_aside, folder / "set_aside.parquet", GNN_SET_ASIDE_SCHEMA),
    }
    context.log.info(f"{len(written):,} weighted edges and {len(nodes):,} nodes written to {folder}; {len(set_aside):,} edges set aside (not scored)")
    published = run.published(context)
    return dg.MaterializeResult(metadata={
        **published,
        "database": database, "dagster/row_count": len(written),
        "edges_in": len(scores), "edges_written": len(written), "edges_set_aside": len(set_aside),
        "nodes": len(nodes), "dataset_nodes": int((nodes["node_label"] == gnn.DATASET).sum()),
        "publication_nodes": int((nodes["node_label"] == gnn.PUBLICATION).sum()),
        "edges_scored_differently_across_areas": int(scores["differing_scores"].sum()),
        **plottable({"label_distribution": distribution(written["label"], LABELS)}),
        **_weight_figures(written["weight"]),
        **{name: dg.MetadataValue.path(str(path)) for name, path in paths.items()},
    })


@dg.asset(**ASSET_TABLES["neo4j_edge_reliability"].asset_arguments(), kinds={"duckdb", "neo4j"}, **EXPORTS)
def neo4j_edge_reliability(
    context: dg.AssetExecutionContext, store: TableStore, outputs: OutputFiles, as_of: AsOfDate
) -> dg.MaterializeResult:
    """Reliability, label and reason for the KG's existing USES_DATASET relationships in Neo4j, in
    `<db folder>/exports/<db file name>/neo4j/` (the latest run's; each run's own in `neo4j_<as_of>_<run>/` beside
    it): uses_dataset_reliability.jsonl (one JSON object per globalId pair:
    publication_global_id, dataset_global_id, reliability, label, reason, as_of, scored_by), the Cypher that applies it
    (uses_dataset_reliability.cypher: apoc.load.json then MATCH ... SET in apoc.periodic.iterate batches) and
    set_aside.parquet (relationships not written, with the reason: a node without globalId, a globalId pair shared by
    several edges, or no score). KG relationships in = covered by a written line + set aside."""
    run = _ExportRun.start(context, outputs, as_of, "neo4j")
    folder = run.folder  # the run's own; `published` copies it to the latest
    with store.connect() as con:
        scores = con.query("export_edge_scores")
        relationships = con.query("export_uses_dataset_relationships")
        database = database_file(con)
    rows, set_aside, covered = neo4j.write_back_rows(relationships, scores, scored_by=f"recon_assets {version('recon_assets')}")
    paths = {
        "json_lines_path": write_lines(neo4j.json_lines(rows), folder / "uses_dataset_reliability.jsonl"),
        "cypher_path": write_lines(neo4j.CYPHER_FILE.read_text(encoding="utf-8").splitlines(), folder / neo4j.CYPHER_FILE.name),
        "set_aside_path": write_parquet(set_aside, folder / "set_aside.parquet", NEO4J_SET_ASIDE_SCHEMA),
    }
    context.log.info(
        f"{len(rows):,} lines for {covered:,} USES_DATASET relationships written to {folder}; {len(set_aside):,} relationships set aside"
    )
    published = run.published(context)
    return dg.MaterializeResult(metadata={
        **published,
        "database": database, "dagster/row_count": len(rows),
        "relationships_in": len(relationships), "relationships_written": covered, "relationships_set_aside": len(set_aside),
        "lines_written": len(rows),
        **{f"relationships_set_aside_{key}": int((set_aside["reason"] == reason).sum()) for key, reason in neo4j.SET_ASIDE_REASONS.items()},
        **plottable({"label_distribution": distribution(rows["label"], LABELS)}),
        **{name: dg.MetadataValue.path(str(path)) for name, path in paths.items()},
    })


@dataclass(frozen=True)
class _ExportRun:
    """One run's export `name` of one database: its own folder (`folder`), published to the latest folder."""

    files: OutputFiles
    exports: Path  # the database's exports folder (`export_folder`)
    name: str
    folder: Path
    keep: int

    @classmethod
    def start(cls, context: dg.AssetExecutionContext, outputs: OutputFiles, as_of: AsOfDate, name: str) -> "_ExportRun":
        """Check RECON_KEEP_OUTPUTS (a ValueError stops the step before anything is written) and name the run's folder.

        Raises:
            ValueError: RECON_KEEP_OUTPUTS is not a whole number >= 0, or the exports folder's name is a file's.
        """
        keep = outputs.earlier_runs_kept()
        folder = outputs.folder(output_files.EXPORTS)
        return cls(outputs, folder, name, folder / output_files.run_stem(name, as_of.for_run(context), context.run.run_id), keep)

    def published(self, context: dg.AssetExecutionContext) -> dict[str, object]:
        """Copy the run's files to the latest folder `<name>/` (each written whole), remove the folders of runs beyond
        the newest and `keep` earlier ones, and log it; the figures for the materialization's metadata."""
        latest = self.exports / self.name
        for file in sorted(self.folder.iterdir()):
            output_files.copy_whole(file, latest / file.name)
        pruned = self.files.prune(context, self.exports, self.name, self.keep, current=self.folder.name)
        return {
            "latest_folder": dg.MetadataValue.path(str(latest)), "earlier_runs_kept": self.keep,
            "earlier_runs_removed": len(pruned.runs),
        }


def _weight_figures(weights: pd.Series) -> dict[str, float]:
    """min, mean and max of the weights written (none when no edge is)."""
    if weights.empty:
        return {}
    return {"weight_min": float(weights.min()), "weight_mean": float(weights.mean()), "weight_max": float(weights.max())}
