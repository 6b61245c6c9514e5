"""How foundational a publication is in the network: PageRank, normalised to [0, 1]."""
