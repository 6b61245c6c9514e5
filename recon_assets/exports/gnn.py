"""Reliability-weighted Dataset–Publication edges in PyTorch Geometric's shape: pure pandas, no database.

PyTorch Geometric takes a graph's edges as `edge_index`, a [2, num_edges] tensor of node indices (row 0 the source,
row 1 the target; messages flow source -> target, `MessagePassing(flow="source_to_target")`), and per-edge scalars as
`edge_weight` [num_edges] (PyG docs, "Introduction by Example" and `GraphConv.forward`). Here:

- nodes: every Dataset and every Publication of the snapshot, in one index space, ordered by node label
  ('Dataset' before 'Publication') then node id (`dataset_id` / `publication_id`, code-point order): node_index is
  the position in that order, label_index the position among the nodes of its label (for `HeteroData`). The order
  depends only on the ids, so the same snapshot gives the same indices on every run.
- edges: the direction of the KG's `(:Publication)-[:USES_DATASET]->(:Dataset)`: source = the publication's
  node_index, target = the dataset's; weight = the edge's reliability; one row per (dataset, publication) edge,
  ordered by (source, target).
- An edge with no reliability (no edge_reliability row: its research area not scored, or a publication dated after
  as_of; or a reliability that is NaN or infinite) is not given a weight of its own making: it is set aside with its
  reason, never written with 0 or NaN.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

DATASET, PUBLICATION = "Dataset", "Publication"
NOT_SCORED = "not scored"
NODE_COLUMNS = ["node_index", "label_index", "node_label", "node_id", "doi", "name", "kg_node_ids"]
EDGE_COLUMNS = ["source", "target", "weight", "label"]
SET_ASIDE_COLUMNS = ["dataset_id", "publication_id", "reason", "detail"]


def node_table(nodes: pd.DataFrame) -> pd.DataFrame:
    """The node index map.

    Args:
        nodes: columns node_label ('Dataset' / 'Publication'), node_id, doi, name, kg_node_ids (list[str]).

    Returns:
        NODE_COLUMNS: node_index (int64, 0..n-1), label_index (int64, 0..n_label-1), then the input columns, in
        index order (see the module docstring).

    Raises:
        ValueError: a node label other than Dataset / Publication, or a node id given twice for one label.
    """
    unknown = sorted(set(nodes["node_label"]) - {DATASET, PUBLICATION})
    if unknown:
        raise ValueError(f"node labels {unknown} are neither {DATASET} nor {PUBLICATION}")
    repeated = nodes.duplicated(["node_label", "node_id"])
    if repeated.any():
        raise ValueError(f"node ids given twice: {nodes.loc[repeated, 'node_id'].head(5).tolist()}")
    ordered = nodes.sort_values(["node_label", "node_id"], kind="stable").reset_index(drop=True)
    ordered.insert(0, "node_index", np.arange(len(ordered), dtype=np.int64))
    ordered.insert(1, "label_index", ordered.groupby("node_label").cumcount().astype(np.int64))
    return ordered[NODE_COLUMNS]


def weighted_edges(edges: pd.DataFrame, nodes: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The weighted edges and the edges set aside; every input row is in exactly one of them.

    Args:
        edges: one row per (dataset_id, publication_id), with reliability (float, NaN when not scored), label and
            unscored_detail (why it has no score).
        nodes: `node_table`'s output.

    Returns:
        (EDGE_COLUMNS: source / target int64 node indices of the publication / dataset, weight float64 = the
        reliability unchanged, label; SET_ASIDE_COLUMNS: the ids, reason NOT_SCORED and its detail).

    Raises:
        ValueError: an edge names a dataset or publication missing from `nodes` (the tables of another snapshot).
    """
    index = {label: group.set_index("node_id")["node_index"] for label, group in nodes.groupby("node_label")}
    source = edges["publication_id"].map(index.get(PUBLICATION, pd.Series(dtype=np.int64)))
    target = edges["dataset_id"].map(index.get(DATASET, pd.Series(dtype=np.int64)))
    missing = source.isna() | target.isna()
    if missing.any():
        raise ValueError(f"{int(missing.sum())} edge(s) name nodes missing from the node table, e.g. "
                         f"{edges.loc[missing, ['dataset_id', 'publication_id']].head(3).to_dict('records')}")
    scored = edges["reliability"].notna()
    written = pd.DataFrame({
        "source": source[scored].astype(np.int64), "target": target[scored].astype(np.int64),
        "weight": edges.loc[scored, "reliability"].astype(np.float64), "label": edges.loc[scored, "label"],
    }).sort_values(["source", "target"], kind="stable").reset_index(drop=True)
    set_aside = edges.loc[~scored, ["dataset_id", "publication_id"]].assign(
        reason=NOT_SCORED, detail=edges.loc[~scored, "unscored_detail"]
    ).reset_index(drop=True)
    return written, set_aside[SET_ASIDE_COLUMNS]
