"""Exports of the scored edges for their uses downstream, as files beside the DuckDB file (`export_folder`):
`gnn` (reliability-weighted edges in PyTorch Geometric's edge_index / edge_weight shape) and `neo4j` (the scores as
JSON lines plus the Cypher that writes them onto the KG's USES_DATASET relationships)."""

from pathlib import Path

from recon_assets.storage.output_files import EXPORTS, output_folder


def export_folder(database: Path) -> Path:
    """Where the exports of the DuckDB file `database` go: `<its folder>/exports/<its file name>/`
    (data/recon.duckdb -> data/exports/recon.duckdb/; `storage.output_files.output_folder`), links resolved."""
    return output_folder(database, EXPORTS)
