"""Hypothesis strategies for the subset of JSON Schema the command schemas use."""

from __future__ import annotations

import math

from hypothesis import strategies as st


def from_schema(schema: dict) -> st.SearchStrategy:
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "const" in schema:
        return st.just(schema["const"])
    if "anyOf" in schema:
        return st.one_of([from_schema(option) for option in schema["anyOf"]])
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        required = set(schema.get("required", []))
        props = schema.get("properties", {})
        return st.fixed_dictionaries(
            {k: from_schema(v) for k, v in props.items() if k in required},
            optional={k: from_schema(v) for k, v in props.items() if k not in required},
        )
    if kind == "array":
        return st.lists(
            from_schema(schema.get("items", {})),
            min_size=schema.get("minItems", 0),
            max_size=schema.get("maxItems", 5),
        )
    if kind == "string":
        size = schema.get("minLength", 0)
        text = st.text(min_size=size, max_size=max(size, 20))
        pattern = schema.get("pattern")
        if pattern and pattern.startswith("^") and pattern.endswith("$"):  # a whole-value shape
            longest = schema.get("maxLength", 40)
            return st.from_regex(pattern, fullmatch=True).filter(lambda s: size <= len(s) <= longest)
        if pattern:
            text = text.filter(lambda s: any(not c.isspace() for c in s))
        return text
    if kind in ("number", "integer"):
        low, high = schema.get("minimum"), schema.get("maximum")
        if "exclusiveMinimum" in schema:
            low = schema["exclusiveMinimum"] + (1 if kind == "integer" else 1e-9)
        if kind == "integer":
            return st.integers(
                min_value=None if low is None else math.ceil(low),
                max_value=None if high is None else math.floor(high),
            )
        return st.floats(min_value=low, max_value=high, allow_nan=False, allow_infinity=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    return st.none() | st.booleans() | st.integers() | st.text(max_size=5)
