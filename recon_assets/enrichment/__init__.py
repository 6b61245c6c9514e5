"""Enrichment: each publication's OpenAlex work (citations, retraction, citation trajectory), its Crossref update
notices (retractions, corrections) and its Crossref relations (comments, replies), fetched once and cached; pure
modules plus a thin `assets.py`."""
