"""Reliability, label and reason for the KG's own USES_DATASET relationships in Neo4j: pure pandas, no database.

The KG identifies its nodes by `globalId` (uuid5 of the DOI or short name: dataset card of DOI 10.57967/hf/3463), a
property every Publication and Dataset node of the APOC export carries; Neo4j's internal ids change with every import
and the DOI property is spelled `doi` or `DOI`. So a relationship is found by
`(:Publication {globalId})-[:USES_DATASET]->(:Dataset {globalId})`, and the JSON lines hold exactly what
`uses_dataset_reliability.cypher` reads (WRITE_BACK_KEYS). Values reach Neo4j only as data read from the JSON
lines (`apoc.load.json`), never as Cypher text.

One line per (publication globalId, dataset globalId) pair: a MATCH on the pair sets every relationship between
those two nodes. Set aside, each KG relationship with its reason (checked in this order):
- NO_GLOBAL_ID: an end node without a globalId cannot be MATCHed;
- AMBIGUOUS_PAIR: the pair names the relationships of several edges (DOI-less publication nodes sharing one
  globalId, `kg.typed_tables.publication_keys`): one MATCH would give them all one edge's score;
- gnn.NOT_SCORED: the edge has no edge_reliability row, or its reliability is NaN or infinite, which JSON cannot hold
  (nothing to write; a value written before stays as it was, dated by its `reliability_as_of`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path

import pandas as pd

from recon_assets.exports.gnn import NOT_SCORED

CYPHER_FILE = Path(__file__).with_name("uses_dataset_reliability.cypher")
WRITE_BACK_KEYS = ["publication_global_id", "dataset_global_id", "reliability", "label", "reason", "as_of", "scored_by"]
NO_GLOBAL_ID = "no globalId"
AMBIGUOUS_PAIR = "ambiguous globalId pair"
# Each reason by the key its count has in the asset's metadata.
SET_ASIDE_REASONS = {"no_global_id": NO_GLOBAL_ID, "ambiguous_pair": AMBIGUOUS_PAIR, "not_scored": NOT_SCORED}
SET_ASIDE_COLUMNS = ["dataset_id", "publication_id", "relationship_id", "reason", "detail"]
PAIR = ["publication_global_id", "dataset_global_id"]
EDGE = ["dataset_id", "publication_id"]


def write_back_rows(relationships: pd.DataFrame, edges: pd.DataFrame, scored_by: str) -> tuple[pd.DataFrame, pd.DataFrame, int]:
    """The rows to write onto Neo4j and the relationships set aside.

    Args:
        relationships: one row per KG USES_DATASET relationship: dataset_id, publication_id, relationship_id,
            publication_global_id, dataset_global_id (None / NaN when the node has none).
        edges: one row per (dataset_id, publication_id) with reliability (NaN when not scored), label, reason,
            as_of (date or timestamp) and unscored_detail.
        scored_by: who scored, written as is on every relationship (e.g. 'recon_assets 0.1.0').

    Returns:
        (WRITE_BACK_KEYS rows, one per globalId pair, as_of as an ISO date string, sorted by the pair;
        SET_ASIDE_COLUMNS rows, one per relationship set aside; the number of relationships the written rows cover).
        Relationships in = covered + set aside.
    """
    frame = relationships.merge(edges, on=EDGE, how="left", validate="many_to_one")
    has_ids = frame[PAIR].apply(lambda column: column.map(lambda value: isinstance(value, str) and value != "")).all(axis=1)
    without_ids = frame[~has_ids].assign(
        reason=NO_GLOBAL_ID,
        detail=[_missing_ids(p, d) for p, d in zip(frame.loc[~has_ids, "publication_global_id"], frame.loc[~has_ids, "dataset_global_id"])],
    )
    edges_in_pair = frame[has_ids].drop_duplicates([*PAIR, *EDGE]).groupby(PAIR).size().rename("edges_in_pair")
    identified = frame[has_ids].merge(edges_in_pair, left_on=PAIR, right_index=True)
    ambiguous = identified[identified["edges_in_pair"] > 1]
    ambiguous = ambiguous.assign(
        reason=AMBIGUOUS_PAIR,
        detail=[f"{count} edges (dataset, publication) share the globalId pair ({p}, {d})" for count, p, d in
                zip(ambiguous["edges_in_pair"], ambiguous["publication_global_id"], ambiguous["dataset_global_id"])],
    )
    unique = identified[identified["edges_in_pair"] == 1]
    unscored = unique[unique["reliability"].isna()].assign(reason=NOT_SCORED, detail=lambda rows: rows["unscored_detail"])
    covered = unique[unique["reliability"].notna()]
    rows = covered.drop_duplicates(PAIR).assign(
        as_of=lambda rows: pd.to_datetime(rows["as_of"]).dt.date.map(lambda day: day.isoformat()), scored_by=scored_by,
    ).sort_values(PAIR, kind="stable")
    set_aside = pd.concat([without_ids, ambiguous, unscored], ignore_index=True)[SET_ASIDE_COLUMNS]
    return rows[WRITE_BACK_KEYS].reset_index(drop=True), set_aside, len(covered)


def json_lines(rows: pd.DataFrame) -> Iterator[str]:
    """One JSON object per row (WRITE_BACK_KEYS), by the json module: titles and reasons are data, escaped as JSON
    escapes them, never Cypher. JSON has no NaN or infinity: such a value is never written (`write_back_rows` sets
    an edge whose reliability is one aside, export_edge_scores.sql).

    Raises:
        ValueError: a value JSON cannot hold (NaN or infinity: allow_nan=False), naming its key and globalId pair.
    """
    for record in rows[WRITE_BACK_KEYS].to_dict("records"):
        try:
            yield json.dumps(record, ensure_ascii=False, allow_nan=False)
        except ValueError:
            keys = [key for key, value in record.items() if isinstance(value, float) and not math.isfinite(value)]
            raise ValueError(
                f"{', '.join(keys)} of the globalId pair ({record['publication_global_id']}, {record['dataset_global_id']}) "
                "is NaN or infinite, which JSON cannot hold: not written"
            ) from None


def _missing_ids(publication_global_id: object, dataset_global_id: object) -> str:
    missing = [name for name, value in (("Publication", publication_global_id), ("Dataset", dataset_global_id))
               if not (isinstance(value, str) and value)]
    return f"{' and '.join(missing)} node without a globalId: Neo4j cannot MATCH it"
