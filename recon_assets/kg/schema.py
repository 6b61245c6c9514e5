"""The KG's node labels and relationship types, as built by nasa/edgraph and listed in the proto-okn schema
(v1: 7 classes; v2 adds Author, Institution and derived CO_USED_WITH / WORKS_WITH_DATASET)."""

from __future__ import annotations

# type -> (required start label, required end label). Endpoints are enforced only for the types the
# typed tables read; the others keep real-world quirks (the real KG has an OF_PROJECT edge ending on a
# Platform node) and are stored as found.
RELATIONSHIP_TYPES: dict[str, tuple[str | None, str | None]] = {
    "USES_DATASET": ("Publication", "Dataset"),
    "CITES": ("Publication", "Publication"),
    "HAS_APPLIEDRESEARCHAREA": ("Publication", "ScienceKeyword"),
    "HAS_DATASET": (None, None),
    "HAS_PLATFORM": (None, None),
    "HAS_INSTRUMENT": (None, None),
    "OF_PROJECT": (None, None),
    "HAS_SCIENCEKEYWORD": (None, None),
    "HAS_SUBCATEGORY": (None, None),
    "AUTHORED_BY": (None, None),
    "AFFILIATED_WITH": (None, None),
    "CO_USED_WITH": (None, None),
    "WORKS_WITH_DATASET": (None, None),
}
