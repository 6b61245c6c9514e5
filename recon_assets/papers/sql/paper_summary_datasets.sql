-- `recon paper`'s summary: the datasets of paper $1 in the order found, matched first or not, with the version the
-- paper states (else the node's), how each was found, its page, lifecycle and why it is unmatched.
SELECT matched, name, coalesce(stated_version, version, '') AS version, found_by, page, lifecycle, reason
FROM paper_datasets WHERE paper_key = $1 ORDER BY position
