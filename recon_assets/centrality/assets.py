"""Assets of the `centrality` group."""

import dagster as dg
from dagster_duckdb import DuckDBResource

from recon_assets.centrality.pagerank import publication_centrality as compute_publication_centrality
from recon_assets.kg.assets import OWNERS, dataset_publication_edges, datasets, publication_citations, publications
from recon_assets.metadata import table_metadata
from recon_assets.storage import replace_table


@dg.asset(
    deps=[publications, datasets, dataset_publication_edges, publication_citations],
    group_name="centrality", kinds={"duckdb", "networkx"}, owners=OWNERS, pool="duckdb",
)
def publication_centrality(context: dg.AssetExecutionContext, duckdb: DuckDBResource) -> dg.MaterializeResult:
    """Each publication's PageRank (the KG property, or computed with networkx where it is missing) and its
    centrality in [0, 1]: PageRank on a log scale between the floor (isolated publications, 0) and the 99.9th
    percentile (1)."""
    with duckdb.get_connection() as con:
        frame = compute_publication_centrality(
            con.table("publications").df(), con.table("datasets").df(),
            con.table("dataset_publication_edges").df(), con.table("publication_citations").df(),
        )
        replace_table(con, "publication_centrality", frame)
        sources = frame["pagerank_source"].value_counts().to_dict()
        context.log.info(f"centrality of {len(frame):,} publications; PageRank sources {sources}")
        metadata = table_metadata(
            con, "publication_centrality",
            lineage={
                "publication_id": [("publications", "publication_id")],
                "pagerank": [("publications", "pagerank"), ("dataset_publication_edges", "dataset_id"),
                             ("publication_citations", "cited_publication_id")],
                "pagerank_source": [("publications", "pagerank")],
                "centrality": [("publications", "pagerank")],
            },
        )
    return dg.MaterializeResult(metadata={**metadata, "pagerank_sources": sources})
