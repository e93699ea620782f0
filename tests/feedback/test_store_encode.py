"""The store's record encoder is byte-identical to json's indented dump, for any JSON value."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pinup_feedback.store.base import encode

LEAVES = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
VALUES = st.recursive(
    LEAVES, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
)


def reference(record: Any) -> bytes:
    return (json.dumps(record, ensure_ascii=False, indent=2, sort_keys=False) + "\n").encode("utf-8")


@settings(max_examples=120, deadline=None)
@given(st.dictionaries(st.text(max_size=12), VALUES, max_size=8))
def test_encode_matches_json_indented_dump(record: dict[str, Any]) -> None:
    assert encode(record) == reference(record)


def test_what_json_spells_its_own_way_goes_to_json() -> None:
    record: dict[str, Any] = {
        "nan": float("nan"),
        "inf": [float("inf"), -float("inf")],
        "tuple": (1, "a"),
        "keys": {1: "one", None: "none", 2.5: True},
        "subclass": type("S", (str,), {})("text"),
        "unicode": 'é \u2028 \x00 "quoted" \\',
    }
    assert encode(record) == reference(record)
    assert encode({"a": {"b": [1, {"c": []}, {}]}}) == reference({"a": {"b": [1, {"c": []}, {}]}})
