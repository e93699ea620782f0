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


def test_new_ids_are_random_uuid4_hex_and_a_forked_child_never_repeats_them() -> None:
    """Ids come from a pool of os.urandom bytes (no syscall per request); a fork empties it."""
    import os
    import uuid

    from pinup_feedback.store.base import new_id

    ids = [new_id() for _ in range(5000)]  # more than one 4 KiB draw
    assert len(set(ids)) == len(ids)
    for value in ids[:300]:
        parsed = uuid.UUID(value)
        assert parsed.hex == value and parsed.version == 4 and parsed.variant == uuid.RFC_4122
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: the parent's unused bytes must not come out here
        os.write(write, "".join(new_id() for _ in range(4)).encode())
        os._exit(0)
    os.waitpid(pid, 0)
    os.close(write)
    child = os.read(read, 4096).decode()
    os.close(read)
    parent = "".join(new_id() for _ in range(4))
    assert len(child) == 128 and child != parent


def test_client_hashes_are_remembered_per_address_and_the_memory_is_bounded() -> None:
    from pinup_feedback.logs import ClientHasher

    hasher = ClientHasher("salt")
    first = hasher("127.0.0.1")
    assert hasher("127.0.0.1") == first and hasher("10.0.0.1") != first and len(first) == 16
    assert ClientHasher("other salt")("127.0.0.1") != first
    for i in range(5000):
        hasher(f"10.1.{i // 256}.{i % 256}")
    assert len(hasher._known) <= 4096
    assert hasher("127.0.0.1") == first  # forgotten and computed again: the same hash
