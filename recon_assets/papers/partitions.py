"""The papers' dynamic partitions: one per paper, keyed by the SHA-256 of its PDF's bytes or `doi:<canonical DOI>`
(`papers.intake`); the sensor and `recon paper` add keys, each run analyses one."""

import dagster as dg

from recon_assets.shared.run_tags import PAPER_SOURCE_TAG  # noqa: F401 (the papers' modules import it from here)

PAPERS_PARTITIONS = "papers"
paper_partitions = dg.DynamicPartitionsDefinition(name=PAPERS_PARTITIONS)
# PAPER_SOURCE_TAG (shared.run_tags): the file (or DOI) a paper's run was asked for; `paper_documents` reads it when it
# still holds the key's bytes, else looks in the papers folder.
