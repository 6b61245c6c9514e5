"""How Neo4j APOC writes a property value into GraphML, shared by the writers of test and benchmark KGs."""

import json


def graphml_value(value: object) -> tuple[str, str]:
    """(attr.type, text) as APOC's GraphML export writes a property: booleans as true/false, ints as long,
    floats as double, lists as JSON array text, anything else as a string."""
    if isinstance(value, bool):
        return "boolean", "true" if value else "false"
    if isinstance(value, int):
        return "long", str(value)
    if isinstance(value, float):
        return "double", repr(value)
    if isinstance(value, list):
        return "string", json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return "string", str(value)
