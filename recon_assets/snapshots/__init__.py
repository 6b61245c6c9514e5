"""Snapshot history: the keys and compared values of each KG snapshot as last scored (kg_snapshot_history*) and
what changed from the previous snapshot to the current one (kg_snapshot_diff). Reads the scored edges, so it comes
after scoring in the flow."""
