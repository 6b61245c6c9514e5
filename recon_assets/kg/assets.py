"""Assets of the `kg` group: the ingested snapshot and the typed tables built from it."""

import dagster as dg
import duckdb
import pandas as pd

from recon_assets.declarations import ASSET_TABLES
from recon_assets.kg.ingest import current_snapshot_id, ingest_export
from recon_assets.kg.typed_tables import (
    build_publications,
    build_research_areas,
    dataset_node_keys,
    node_index,
)
from recon_assets.kg.resources import KgExportSource
from recon_assets.shared.credentials import redact
from recon_assets.shared.data_versions import TABLE_DIGESTS, table_digest
from recon_assets.shared.metadata import column_schema, table_metadata, written_version
from recon_assets.shared.sql_files import load_sql
from recon_assets.shared.table_docs import declared_columns
from recon_assets.storage.duckdb_store import TableStore
from recon_assets.storage.tables import Tables, drop_temp_table, replace_table_from_query, temp_table

OWNERS = ["team:recon"]
KG = dict(group_name="kg", kinds={"duckdb"}, owners=OWNERS, pool="duckdb")

@dg.asset(**ASSET_TABLES["kg_snapshot"].asset_arguments(), **KG)
def kg_snapshot(context: dg.AssetExecutionContext, kg_export: KgExportSource, store: TableStore) -> dg.MaterializeResult:
    """One ingested KG export: nodes and relationships of the current snapshot (kg_nodes, kg_relationships),
    every rejected line with its reason (kg_rejects) and a row per snapshot in kg_snapshots.

    The snapshot id is the file's SHA-256; an unchanged file is not ingested again (its data version stays
    the same, so nothing downstream is stale).
    """
    export = kg_export.fetch(context.log)
    with store.connect() as con:
        summary = ingest_export(con, export.path, redact(export.source), progress=context.log.info)  # kept in tables and metadata
        rejects = table_metadata(con, "kg_rejects", match={"snapshot_id": summary.snapshot_id})
        # what `recon run` compares with the database being run (automation.staleness): the snapshots it holds
        context.add_asset_metadata({TABLE_DIGESTS: {"kg_snapshots": table_digest(con, "kg_snapshots")}})
        schemas = {
            "dagster/column_schema": column_schema(con, "kg_snapshots"),
            **{f"columns of {table}": column_schema(con, table) for table in ("kg_nodes", "kg_relationships")},
            "columns of kg_rejects": rejects["dagster/column_schema"],
        }
    return dg.MaterializeResult(
        metadata={
            "snapshot_id": summary.snapshot_id,
            "sha256": summary.sha256,
            "source": summary.source,
            "format": summary.format,
            "size_bytes": summary.size_bytes,
            "lines_read": summary.lines_read,
            "nodes_accepted": summary.nodes_accepted,
            "relationships_accepted": summary.relationships_accepted,
            "rejected": summary.rejected,
            "node_counts": summary.node_counts,
            "relationship_counts": summary.relationship_counts,
            "reused_unchanged_snapshot": summary.reused,
            "dagster/row_count": summary.nodes_accepted + summary.relationships_accepted,
            "rejects_preview": rejects["preview"],
            **schemas,
        },
        data_version=dg.DataVersion(summary.snapshot_id),
    )


@dg.asset(**ASSET_TABLES["publications"].asset_arguments(), **KG)
def publications(context: dg.AssetExecutionContext, store: TableStore) -> dg.MaterializeResult:
    """One row per publication (per canonical DOI, or per node without one), with DOI and year normalised
    and the raw values and reasons kept beside them. A year after the one following the snapshot's ingest is
    implausible (NULL, with year_issue): the bound belongs to the snapshot, not to any as_of."""
    preview = dict(preview_columns=["publication_id", "doi_raw", "year", "year_issue", "title"])
    with store.connect() as con:
        nodes = con.query("publication_nodes")
        (ingested_year,) = con.query_row("kg_ingested_year", [current_snapshot_id(con)])
        written = store_publications(con, nodes, latest_year=ingested_year + 1)
        context.log.info(f"{len(nodes):,} Publication nodes -> {written:,} publications")
        version = _written(context, con)
        lineage = ASSET_TABLES["publications"].column_lineage({column: [("kg_nodes", "properties")] for column in declared_columns("publications")})
        metadata = table_metadata(con, "publications", **preview, lineage=lineage)
    return dg.MaterializeResult(
        metadata={**metadata, "publication_nodes": len(nodes), "merged_nodes": len(nodes) - written},
        data_version=version,
    )


@dg.asset(**ASSET_TABLES["datasets"].asset_arguments(), **KG)
def datasets(context: dg.AssetExecutionContext, store: TableStore) -> dg.MaterializeResult:
    """One row per Dataset (keyed by its globalId), with its canonical DOI, short and long name."""
    preview = dict(preview_columns=["dataset_id", "doi", "short_name", "long_name"])
    with store.connect() as con:
        nodes = con.query("dataset_nodes")
        written = store_datasets(con, nodes)
        context.log.info(f"{len(nodes):,} Dataset nodes -> {written:,} datasets")
        version = _written(context, con)
        lineage = ASSET_TABLES["datasets"].column_lineage({column: [("kg_nodes", "properties")] for column in declared_columns("datasets")})
        metadata = table_metadata(con, "datasets", **preview, lineage=lineage)
    return dg.MaterializeResult(metadata=metadata, data_version=version)


@dg.asset(**ASSET_TABLES["dataset_publication_edges"].asset_arguments(), **KG)
def dataset_publication_edges(context: dg.AssetExecutionContext, store: TableStore) -> dg.MaterializeResult:
    """One row per Dataset→Publication edge (the KG's Publication-[:USES_DATASET]->Dataset, merged publications
    merged)."""
    with store.connect() as con:
        con.replace_table_from_query("dataset_publication_edges", "dataset_publication_edges_rows")
        version = _written(context, con)
        (uses,) = con.query_row("uses_dataset_relationship_count")
        metadata = table_metadata(
            con, "dataset_publication_edges",
            lineage=ASSET_TABLES["dataset_publication_edges"].column_lineage({
                "dataset_id": [("datasets", "dataset_id")],
                "publication_id": [("publications", "publication_id")],
                "relationship_ids": [("kg_relationships", "relationship_id")],
            }),
        )
    return dg.MaterializeResult(metadata={**metadata, "uses_dataset_relationships": uses}, data_version=version)


@dg.asset(**ASSET_TABLES["publication_citations"].asset_arguments(), **KG)
def publication_citations(context: dg.AssetExecutionContext, store: TableStore) -> dg.MaterializeResult:
    """Distinct citing → cited publication pairs from the KG's CITES relationships."""
    with store.connect() as con:
        con.run_sql("kg_citation_pairs")
        con.replace_table_from_query("publication_citations", "publication_citations_rows")
        version = _written(context, con)
        cites, self_citations = con.query_row("kg_citation_pair_counts")
        metadata = table_metadata(
            con, "publication_citations",
            lineage=ASSET_TABLES["publication_citations"].column_lineage({
                "citing_publication_id": [("publications", "publication_id"), ("kg_relationships", "start_id")],
                "cited_publication_id": [("publications", "publication_id"), ("kg_relationships", "end_id")],
                "relationship_ids": [("kg_relationships", "relationship_id")],
            }),
        )
    return dg.MaterializeResult(
        metadata={**metadata, "cites_relationships": cites, "dropped_self_citations_after_merge": self_citations},
        data_version=version,
    )


@dg.asset(**ASSET_TABLES["publication_research_areas"].asset_arguments(), **KG)
def publication_research_areas(context: dg.AssetExecutionContext, store: TableStore) -> dg.MaterializeResult:
    """Each publication's applied research areas as partition slugs; publications without one are `unclassified`."""
    with store.connect() as con:
        frame = research_areas_from_kg(con, con.query("publication_node_ids"))
        con.replace_table("publication_research_areas", frame)
        version = _written(context, con)
        metadata = table_metadata(
            con, "publication_research_areas",
            lineage=ASSET_TABLES["publication_research_areas"].column_lineage({
                "publication_id": [("publications", "publication_id")],
                "research_area": [("kg_nodes", "properties")],
                "research_area_name": [("kg_nodes", "properties")],
                "issue": [("kg_nodes", "properties")],
            }),
        )
        per_area = _publications_per_area(con)
    return dg.MaterializeResult(
        metadata={**metadata, "publications_per_research_area": per_area}, data_version=version
    )


@dg.asset(**ASSET_TABLES["science_keywords"].asset_arguments(), **KG)
def science_keywords(context: dg.AssetExecutionContext, store: TableStore) -> dg.MaterializeResult:
    """One row per GCMD ScienceKeyword of the graph (keyed by its globalId), with its broader keywords and how many
    datasets and publications link to it: what a paper's TF-IDF terms are matched to (`paper_keywords`)."""
    preview = dict(preview_columns=["keyword_id", "name", "parent_names", "datasets", "publications"])
    with store.connect() as con:
        con.replace_table_from_query("science_keywords", "science_keyword_rows")
        version = _written(context, con)
        metadata = table_metadata(
            con, "science_keywords", **preview,
            lineage=ASSET_TABLES["science_keywords"].column_lineage({
                "keyword_id": [("kg_nodes", "properties")], "name": [("kg_nodes", "properties")],
                "parent_names": [("kg_relationships", "start_id"), ("kg_nodes", "properties")],
                "datasets": [("kg_relationships", "rel_type")], "publications": [("kg_relationships", "rel_type")],
                "node_ids": [("kg_nodes", "node_id")],
            }),
        )
    return dg.MaterializeResult(metadata=metadata, data_version=version)


def _publications_per_area(con: Tables) -> dict[str, int]:
    return dict(con.query_rows("publications_per_research_area"))


def _written(context: dg.AssetExecutionContext, con: duckdb.DuckDBPyConnection) -> dg.DataVersion:
    """The data version of the tables a typed-table asset just wrote (its declaration, `recon_assets.declarations`)."""
    return written_version(context, con, ASSET_TABLES[context.asset_key.to_user_string()].writes)


def store_publications(con: duckdb.DuckDBPyConnection, nodes: pd.DataFrame, *, latest_year: int) -> int:
    """Recreate `publications` from Publication nodes (`build_publications`, same arguments): the merged rows, each
    with the node ids merged into it gathered in DuckDB (recon_assets/kg/sql/publication_rows.sql). Returns the
    number of publications written.

    Raises:
        duckdb.Error: a row breaks the table's types or keys; the table is left as it was.
    """
    rows, members = build_publications(nodes, latest_year=latest_year)
    temp_table(con, "merged_publications", rows)
    temp_table(con, "publication_members", members)
    try:
        replace_table_from_query(con, "publications", "publication_rows")
    finally:
        drop_temp_table(con, "merged_publications")
        drop_temp_table(con, "publication_members")
    return len(rows)


def store_datasets(con: duckdb.DuckDBPyConnection, nodes: pd.DataFrame) -> int:
    """Recreate `datasets` from Dataset nodes (`dataset_node_keys`, same argument), one row per dataset gathered in
    DuckDB (recon_assets/kg/sql/dataset_rows.sql). Returns the number of datasets written.

    Raises:
        duckdb.Error: a row breaks the table's types or keys; the table is left as it was.
    """
    keyed = dataset_node_keys(nodes)
    temp_table(con, "dataset_node_keys", keyed)
    try:
        replace_table_from_query(con, "datasets", "dataset_rows")
    finally:
        drop_temp_table(con, "dataset_node_keys")
    return keyed["dataset_id"].nunique()


def research_areas_from_kg(con: duckdb.DuckDBPyConnection, publications: pd.DataFrame) -> pd.DataFrame:
    """publication_research_areas rows (`build_research_areas`) for `publications` (columns publication_id and
    node_ids), from the KG's HAS_APPLIEDRESEARCHAREA relationships: the asset's rows, and what the publication
    checks group by (they run before the asset exists)."""
    links = con.execute(load_sql("relationships_of_type"), ["HAS_APPLIEDRESEARCHAREA"]).df()
    return build_research_areas(
        links.rename(columns={"end_name": "area_name"}), node_index(publications, "publication_id"), publications["publication_id"]
    )

