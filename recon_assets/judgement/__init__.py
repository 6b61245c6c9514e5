"""Coherence: does an older publication's claim about a dataset still stand against newer work."""
