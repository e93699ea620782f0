"""`pinup_feedback.records`: a stored record's shape and its one reader."""

from __future__ import annotations

from typing import Any

import pytest

from pinup_feedback.records import StoredRecord, new_record


def test_a_new_record_is_the_body_plus_what_the_endpoint_adds() -> None:
    at = "2026-12-05T00:00:00.000000Z"
    record = new_record({"board": "hero", "round": 1, "preferred": "A"}, "final", "h" * 16, "abc", at)
    assert record == {
        "board": "hero",
        "round": 1,
        "preferred": "A",
        "id": "abc",
        "receivedAt": at,
        "kind": "final",
        "clientHash": "h" * 16,
    }


def test_the_reader_types_the_known_fields_and_leaves_the_rest() -> None:
    read = StoredRecord.from_dict(
        {"id": "a1", "board": "hero", "round": 2, "kind": "regenerate", "ratings": {"A": 4}, "future": [1]}
    )
    assert (read.id, read.round, read.ratings, read.is_regenerate) == ("a1", 2, {"A": 4}, True)
    assert StoredRecord.from_dict({}) == StoredRecord()


@pytest.mark.parametrize(
    "raw",
    [[], {"round": "two"}, {"round": True}, {"ratings": None}, {"id": 7}, {"regenerated": "yes"}, {"remixSpec": []}],
)
def test_a_field_of_the_wrong_type_is_refused_with_its_name(raw: Any) -> None:
    with pytest.raises(ValueError) as caught:
        StoredRecord.from_dict(raw)
    assert isinstance(raw, list) or next(iter(raw)) in str(caught.value)
