"""`pinup.plain.Plain`: the shared keyword `__init__`, then the one compiled for a class used often,
make the same instances (the light model's and board specs' classes; `tests/designmd/test_light.py`
compares those with pydantic's)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pinup.plain import REQUIRED, Plain
from pinup.records import COMPILE_AFTER


def _kinds() -> tuple[type[Plain], type[Plain]]:
    """Two new classes (each test gets its own use counts)."""

    class Swatch(Plain):
        FIELDS = (("name", REQUIRED), ("hex", "#000000"), ("tags", list), ("extra", dict))
        __slots__ = tuple(name for name, _ in FIELDS)

    class Empty(Plain):
        FIELDS = ()
        __slots__ = ()

    return Swatch, Empty


def _state(obj: Any) -> dict[str, Any]:
    return obj.__getstate__()  # type: ignore[no-any-return]


def test_the_compiled_init_makes_what_the_shared_one_made() -> None:
    swatch, empty = _kinds()
    shared = swatch.__init__
    before = [swatch(name="a"), swatch(name="b", hex="#111111", tags=["t"]), swatch()]
    for _ in range(COMPILE_AFTER):
        swatch(name="x")
        empty()
    assert swatch.__init__ is not shared and empty.__init__ is not shared
    after = [swatch(name="a"), swatch(name="b", hex="#111111", tags=["t"]), swatch()]
    for old, new in zip(before, after, strict=True):
        assert _state(old) == _state(new) and old == new and repr(old) == repr(new)
    assert _state(after[2]) == {"name": None, "hex": "#000000", "tags": [], "extra": {}}  # REQUIRED: callers give it
    assert after[0].tags is not swatch(name="z").tags and after[0].extra is not swatch(name="z").extra  # type: ignore[attr-defined]
    assert empty() == empty() and _state(empty()) == {}


@pytest.mark.parametrize("compiled", [False, True])
def test_fields_are_keywords_only_and_unknown_ones_refused(compiled: bool) -> None:
    swatch, _ = _kinds()
    if compiled:
        for _ in range(COMPILE_AFTER):
            swatch(name="x")
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        swatch(name="a", colour="red")
    with pytest.raises(TypeError):
        swatch("a")  # type: ignore[misc]
    made = swatch(name="a", tags=["t"])
    twin = copy.copy(made)  # through `__getstate__` and `__setstate__`, as pickling goes
    assert twin == made and twin is not made
    deep = made.model_copy(deep=True)
    assert deep == made and deep.tags is not made.tags  # type: ignore[attr-defined]
