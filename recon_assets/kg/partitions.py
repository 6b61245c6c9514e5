"""Research-area partitions: the 21 applied research areas of the KG plus `unclassified`."""

import dagster as dg

from recon_assets.kg.research_areas import research_area_slugs

research_area_partitions = dg.StaticPartitionsDefinition(research_area_slugs())
