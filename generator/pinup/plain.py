"""Plain classes with declared fields: read-only models for builds that never need a validator.

Why: importing pydantic costs a fresh `pinup build` process about a third of a one-token rebuild,
yet the builders only read the validated values. A `Plain` class lists its fields once
(`FIELDS`: name and default, in declaration order) and gets a keyword `__init__` compiled from
them, pydantic's equality (same class, same fields), a repr, pickling and `model_copy`. What
validates (`pinup lint`, a board.yaml read for the first time) still uses pydantic; the plain
twins (`pinup.designmd.light`, `pinup.boards.spec`, `pinup.tweaks`) hold what it accepted.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

#: "no value given" for a field whose default is a new list or dict
_NEW = object()
#: the default of a required field: every caller gives it
REQUIRED = None

P = TypeVar("P", bound="Plain")


class Plain:
    """Fields set by keyword (defaults for the rest), compared as pydantic compares models."""

    __slots__ = ()
    #: (field, default) in declaration order; a default of `list`/`dict` means a new one per instance
    FIELDS: ClassVar[tuple[tuple[str, Any], ...]] = ()

    def __init_subclass__(cls) -> None:
        """Give the class an `__init__` taking its fields by keyword, as a dataclass's does (compiled
        once per class: a lint makes about a hundred of these objects, field by field would be slower)."""
        super().__init_subclass__()
        params, body = [], []
        for name, default in cls.FIELDS:
            if default is list or default is dict:
                params.append(f"{name}=_NEW")
                body.append(f"    self.{name} = {default.__name__}() if {name} is _NEW else {name}")
            else:
                params.append(f"{name}={default!r}")
                body.append(f"    self.{name} = {name}")
        source = f"def __init__(self, *, {', '.join(params)}):\n" + "\n".join(body or ["    pass"]) + "\n"
        namespace: dict[str, Any] = {"_NEW": _NEW}
        exec(source, namespace)  # the source is made above from the class's own field names
        setattr(cls, "__init__", namespace["__init__"])  # noqa: B010 - mypy forbids assigning a method

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
