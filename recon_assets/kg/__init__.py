"""Knowledge-graph snapshots: reading APOC exports, normalising identifiers, building typed tables."""
