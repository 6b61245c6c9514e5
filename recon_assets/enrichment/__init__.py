"""Enrichment: each publication's OpenAlex work (citations, retraction, citation trajectory) and Crossref
retraction notices, fetched once and cached; pure modules plus a thin `assets.py`."""
