"""Plain classes with declared fields: read-only models for builds that never need a validator.

Why: importing pydantic costs a fresh `pinup build` process about a third of a one-token rebuild,
yet the builders only read the validated values. A `Plain` class lists its fields once
(`FIELDS`: name and default, in declaration order) and gets a keyword `__init__` (one shared
by every class, until a class is used often enough to get its own compiled, as
`pinup.records` does: importing compiles nothing), pydantic's equality (same class, same
fields), a repr, pickling and `model_copy`. What
validates (`pinup lint`, a board.yaml read for the first time) still uses pydantic; the plain
twins (`pinup.designmd.light`, `pinup.boards.spec`, `pinup.tweaks`) hold what it accepted.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from pinup.records import compile_init, used

#: the default of a required field: every caller gives it
REQUIRED = None

P = TypeVar("P", bound="Plain")


class Plain:
    """Fields set by keyword (defaults for the rest), compared as pydantic compares models."""

    __slots__ = ()
    #: (field, default) in declaration order; a default of `list`/`dict` means a new one per instance
    FIELDS: ClassVar[tuple[tuple[str, Any], ...]] = ()

    def __init_subclass__(cls) -> None:
        """Give the class the shared keyword `__init__` (its own entry: a compiled one replaces it
        for this class alone)."""
        super().__init_subclass__()
        setattr(cls, "__init__", _shared_init)  # noqa: B010 - mypy forbids assigning a method

    if TYPE_CHECKING:

        def __init__(self, **values: Any) -> None: ...

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name, _ in self.FIELDS)

    __hash__ = None  # type: ignore[assignment]  # mutable, like pydantic's models

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name, _ in self.FIELDS)
        return f"{type(self).__name__}({fields})"

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name, _ in self.FIELDS}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def model_copy(self: P, *, deep: bool = False) -> P:
        """A copy, as pydantic's `model_copy`: the same field values, or (deep) copies of them."""
        if deep:
            return copy.deepcopy(self)
        return type(self)(**self.__getstate__())


def _shared_init(self: Plain, **values: Any) -> None:
    """Fields by keyword, defaults for the rest (`list`/`dict`: a new one); what every class uses
    until `pinup.records.used` says it is made often enough for one compiled for it."""
    cls = type(self)
    if used(cls):
        factories = {name: default for name, default in cls.FIELDS if default is list or default is dict}
        compiled = compile_init(
            cls.__qualname__,
            [name for name, _ in cls.FIELDS],
            required=(),
            defaults=dict(cls.FIELDS),
            factories=factories,
            keyword_only=True,
        )
        setattr(cls, "__init__", compiled)  # noqa: B010 - as above
    for name, default in cls.FIELDS:
        if name in values:
            value = values.pop(name)
        elif default is list or default is dict:
            value = default()
        else:
            value = default
        setattr(self, name, value)
    if values:
        raise TypeError(f"{cls.__qualname__}.__init__() got an unexpected keyword argument {next(iter(values))!r}")
