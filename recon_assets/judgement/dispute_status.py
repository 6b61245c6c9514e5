"""The dispute status of a publication (`edge_reliability.dispute_status`): what its recorded comments, replies and
corrections amount to as of a date (`disputes.dispute_status` decides it), and the statuses the labels read.

Apart from `disputes`, which reads Crossref's relations, so that the labels and `recon explain` use the vocabulary
without the Crossref client.
"""

# Strongest first.
COMMENTED, DEBATED, CORRECTED = "commented", "debated", "corrected"
# The status of a *standing* dispute (DOMAIN.md label rule 1): commented, no reply on record up to as_of. Only a
# standing dispute is judged evidence for SUPERSEDED; a debated one is a negative signal, DECLINING at most.
STANDING = COMMENTED
# Statuses that are a negative signal (DOMAIN.md "Negative signals"); a correction is a refinement, not one.
NEGATIVE_STATUSES = (COMMENTED, DEBATED)
