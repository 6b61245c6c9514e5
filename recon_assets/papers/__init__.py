"""Paper analysis (issue 22): a PDF becomes its sections, references and captions, the NASA datasets it uses with
their versions, its claims, and CitationEdge's scores. Pure functions over plain values; the assets wire them up."""
