"""The 21 applied research areas of the KG as stable partition slugs.

Source: `recon_assets/reference/applied_research_areas.json`, copied from nasa/edgraph
(ingest_edge_publication_applied_research_area.py); the KG stores each as a ScienceKeyword whose
`name` is the label upper-cased, linked by Publication-[:HAS_APPLIEDRESEARCHAREA]->ScienceKeyword.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources

UNCLASSIFIED = "unclassified"


def slugify(label: str) -> str:
    """'Atmospheric/Ocean Indicators' -> 'atmospheric_ocean_indicators' (lower case, runs of non-alphanumerics -> '_')."""
    return re.sub(r"[^a-z0-9]+", "_", label.strip().lower()).strip("_")


@cache
def research_area_labels() -> dict[str, str]:
    """Map slug -> label for the 21 applied research areas, in the classifier's id order."""
    text = resources.files("recon_assets.reference").joinpath("applied_research_areas.json").read_text()
    label_to_id: dict[str, int] = json.loads(text)["label_to_id"]
    return {slugify(label): label for label in sorted(label_to_id, key=label_to_id.__getitem__)}


def research_area_slugs() -> list[str]:
    """The 22 partition keys: the 21 research-area slugs, then `unclassified`."""
    return [*research_area_labels(), UNCLASSIFIED]


def research_area_slug(name: object) -> str | None:
    """Slug for a KG research-area name ('AIR QUALITY' -> 'air_quality'); None when it is not one of the 21."""
    if not isinstance(name, str):
        return None
    slug = slugify(name)
    return slug if slug in research_area_labels() else None
