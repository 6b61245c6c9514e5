"""Synthetic full-scale KG exports and the pipeline benchmark (see benchmarks/README.md)."""
