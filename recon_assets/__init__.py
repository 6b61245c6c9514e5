"""recon_assets: reliability of Dataset→Publication edges in the NASA Earth Observation Knowledge Graph."""
