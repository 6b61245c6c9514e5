"""Dataset lifecycle: dataset versions, their families and successors (issue 4, "Dataset lineage")."""
