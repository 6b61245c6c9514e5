"""The 21 applied research areas as partition slugs, plus `unclassified`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import dagster as dg
import pytest

from recon_assets.kg.research_areas import UNCLASSIFIED, research_area_labels, research_area_slug, research_area_slugs, slugify

REFERENCE = Path(__file__).resolve().parents[1] / "recon_assets" / "reference" / "applied_research_areas.json"


def test_22_unique_partition_keys_with_unclassified_last() -> None:
    slugs = research_area_slugs()

    assert len(slugs) == 22
    assert len(set(slugs)) == 22
    assert slugs[-1] == UNCLASSIFIED
    assert all(re.fullmatch(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*", slug) for slug in slugs)
    assert dg.StaticPartitionsDefinition(slugs).get_partition_keys() == slugs  # Dagster's own key validation


def test_labels_follow_the_classifier_id_order() -> None:
    label_to_id = json.loads(REFERENCE.read_text(encoding="utf-8"))["label_to_id"]

    assert list(research_area_labels().values()) == sorted(label_to_id, key=label_to_id.__getitem__)


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("AIR QUALITY", "air_quality"),
        ("Air Quality", "air_quality"),
        (" air quality ", "air_quality"),
        ("Atmospheric/Ocean Indicators", "atmospheric_ocean_indicators"),
        ("ATMOSPHERIC/OCEAN INDICATORS", "atmospheric_ocean_indicators"),
        ("SUN-EARTH INTERACTIONS", "sun_earth_interactions"),
        ("ENERGY PRODUCTION/USE", "energy_production_use"),
        ("HABITAT CONVERSION/FRAGMENTATION", "habitat_conversion_fragmentation"),
        ("LAND SURFACE/AGRICULTURE INDICATORS", "land_surface_agriculture_indicators"),
        ("WILDFIRES", "wildfires"),
        # Not one of the 21.
        ("AEROSOLS", None),
        ("unclassified", None),
        ("AIR", None),
        ("", None),
        (None, None),
        (17, None),
    ],
)
def test_research_area_slug(name: object, slug: str | None) -> None:
    assert research_area_slug(name) == slug


@pytest.mark.parametrize(
    ("label", "slug"),
    [("Atmospheric/Ocean Indicators", "atmospheric_ocean_indicators"), ("  Sun--Earth  ", "sun_earth"), ("Heat", "heat")],
)
def test_slugify(label: str, slug: str) -> None:
    assert slugify(label) == slug
