"""Assets of the `centrality` group."""

import dagster as dg
import pandas as pd

from recon_assets.centrality.citation_centrality import CITATION_SATURATION
from recon_assets.centrality.pagerank import publication_centrality as compute_publication_centrality
from recon_assets.declarations import ASSET_TABLES
from recon_assets.kg.assets import OWNERS
from recon_assets.kg.ingest import current_snapshot_id
from recon_assets.shared.metadata import table_metadata, written_version
from recon_assets.storage.duckdb_store import TableStore

REFERENCE_METHOD = (
    "PageRank read as citations: (pagerank - floor) / (0.85 * floor / mean_out_degree) citation equivalents, "
    "then min(1, log1p(n) / log1p(10000)) as for OpenAlex citations; floor and mean out-degree of this snapshot's "
    "Publication+Dataset projection, never its extremes"
)
PUBLICATION_CENTRALITY = ASSET_TABLES["publication_centrality"]


@dg.asset(**PUBLICATION_CENTRALITY.asset_arguments(), group_name="centrality", kinds={"duckdb", "networkx"}, owners=OWNERS, pool="duckdb")
def publication_centrality(context: dg.AssetExecutionContext, store: TableStore) -> dg.MaterializeResult:
    """Each publication's PageRank (the KG property, or computed with networkx where it is missing) and its
    centrality in [0, 1]: PageRank read as a number of citations against a reference recorded with the snapshot
    (table centrality_reference: the GDS floor and the projection's mean out-degree), on the citation scale
    min(1, log1p(n)/log1p(10000))."""
    with store.connect() as con:
        frame, reference = compute_publication_centrality(
            con.table("publications").df(), con.table("datasets").df(),
            con.table("dataset_publication_edges").df(), con.table("publication_citations").df(),
        )
        con.replace_table("publication_centrality", frame)
        recorded = {
            "snapshot_id": current_snapshot_id(con), "pagerank_floor": reference.floor,
            "mean_out_degree": reference.mean_out_degree, "pagerank_per_citation": reference.per_citation,
            "citation_saturation": CITATION_SATURATION, "method": REFERENCE_METHOD,
        }
        con.replace_table("centrality_reference", pd.DataFrame([recorded]))
        version = written_version(context, con, PUBLICATION_CENTRALITY.writes)
        sources = frame["pagerank_source"].value_counts().to_dict()
        context.log.info(
            f"centrality of {len(frame):,} publications; PageRank sources {sources}; one citation from a typical "
            f"publication = PageRank +{reference.per_citation:.4f} (mean out-degree {reference.mean_out_degree:.2f})"
        )
        metadata = table_metadata(
            con, "publication_centrality",
            lineage=PUBLICATION_CENTRALITY.column_lineage({
                "publication_id": [("publications", "publication_id")],
                "pagerank": [("publications", "pagerank"), ("dataset_publication_edges", "dataset_id"),
                             ("publication_citations", "cited_publication_id")],
                "pagerank_source": [("publications", "pagerank")],
                "centrality": [("publications", "pagerank"), ("dataset_publication_edges", "publication_id"),
                               ("publication_citations", "citing_publication_id")],
            }),
        )
    return dg.MaterializeResult(
        data_version=version,
        metadata={
            **metadata, "pagerank_sources": sources, "pagerank_floor": reference.floor,
            "mean_out_degree": reference.mean_out_degree, "pagerank_per_citation": reference.per_citation,
            "share_central": float((frame["centrality"] >= 0.6).mean()) if len(frame) else 0.0,
        }
    )
