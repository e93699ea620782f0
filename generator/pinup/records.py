"""`Record`: classes that hold data, declared like dataclasses, with no code generated at import.

Why: `@dataclass` writes each class's `__init__` (and `__eq__`, `__repr__`, and for a frozen
class `__setattr__`, `__delattr__` and `__hash__`) as source text and compiles it, 0.2-1 ms a
class. The classes every build imports (page models, build options, theme, fonts, boards) cost
10-20 ms of each `pinup build`, `pinup gallery` and `mkdocs build` process that way. A
Record's fields are read once from its annotations, and one `__init__`, `__eq__`, `__repr__`
and `__hash__` serve every class. Type checkers see a dataclass (`dataclass_transform`).

What a Record does as a dataclass does: fields in declaration order, a parent's first; an
instance's `__dict__` holds every field in that order (pickles are byte for byte the same);
`field(default_factory=...)` for mutable defaults; `__post_init__` when defined; equality
field by field between instances of the same class; `frozen=True` as a class keyword gives
immutable, hashable instances. Modules off the build's path keep `@dataclass`; the read-only
twins of pydantic models (keyword-only, with slots and `model_copy`) are `pinup.plain.Plain`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar, cast, dataclass_transform

_T = TypeVar("_T")
_MISSING: Any = object()


class FrozenRecordError(AttributeError):
    """Assigning to or deleting a field of a frozen record."""


class _Factory:
    """What `field()` leaves in a class body until `Record.__init_subclass__` takes it."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


def field(*, default_factory: Callable[[], _T]) -> _T:
    """A field whose default is made anew for every instance (a list, a dict, another record)."""
    return cast(_T, _Factory(default_factory))


def _is_class_var(annotation: object) -> bool:
    if isinstance(annotation, str):  # `from __future__ import annotations`
        return annotation.startswith(("ClassVar", "typing.ClassVar"))
    return getattr(annotation, "__origin__", None) is ClassVar or annotation is ClassVar


@dataclass_transform(field_specifiers=(field,))
class Record:
    """Base of a record class: annotate the fields, give defaults, subclass with `frozen=True`."""

    __slots__ = ()
    __record_fields__: ClassVar[tuple[str, ...]] = ()
    __record_defaults__: ClassVar[dict[str, Any]] = {}
    __record_factories__: ClassVar[dict[str, Callable[[], Any]]] = {}
    __record_frozen__: ClassVar[bool] = False

    def __init_subclass__(cls, *, frozen: bool | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names = list(cls.__record_fields__)
        defaults = dict(cls.__record_defaults__)
        factories = dict(cls.__record_factories__)
        for name, annotation in cls.__dict__.get("__annotations__", {}).items():
            if _is_class_var(annotation):
                continue
            value = cls.__dict__.get(name, _MISSING)
            defaults.pop(name, None)
            factories.pop(name, None)
            if isinstance(value, _Factory):
                factories[name] = value.make
                delattr(cls, name)
            elif value is not _MISSING:
                if isinstance(value, (list, dict, set)):
                    raise ValueError(f"{cls.__qualname__}.{name}: a mutable default needs field(default_factory=...)")
                defaults[name] = value
            if name not in names:
                names.append(name)
        seen_default = ""
        for name in names:
            if name in defaults or name in factories:
                seen_default = name
            elif seen_default:
                raise TypeError(f"{cls.__qualname__}: field {name!r} without a default follows {seen_default!r}")
        cls.__record_defaults__ = defaults
        cls.__record_factories__ = factories
        if frozen is not None and frozen != cls.__record_frozen__:
            if cls.__record_fields__:  # the parent's
                raise TypeError(f"{cls.__qualname__}: frozen and mutable records cannot inherit from each other")
            cls.__record_frozen__ = frozen
        cls.__record_fields__ = tuple(names)
        if cls.__record_frozen__:
            for name, method in _FROZEN.items():
                if name != "__hash__" or "__hash__" not in cls.__dict__:
                    setattr(cls, name, method)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        cls = type(self)
        names = cls.__record_fields__
        if len(args) > len(names):
            raise TypeError(f"{cls.__qualname__}() takes {len(names)} positional arguments but {len(args)} were given")
        given = dict(zip(names, args, strict=False))  # fewer args than fields: the rest by keyword
        if kwargs:
            twice = given.keys() & kwargs.keys()
            if twice:
                raise TypeError(f"{cls.__qualname__}() got multiple values for argument {min(twice)!r}")
            given.update(kwargs)
        state = self.__dict__
        for name in names:
            if name in given:
                state[name] = given.pop(name)
            elif name in cls.__record_defaults__:
                state[name] = cls.__record_defaults__[name]
            elif name in cls.__record_factories__:
                state[name] = cls.__record_factories__[name]()
            else:
                raise TypeError(f"{cls.__qualname__}() missing required argument: {name!r}")
        if given:
            raise TypeError(f"{cls.__qualname__}() got an unexpected keyword argument {next(iter(given))!r}")
        post = getattr(self, "__post_init__", None)
        if post is not None:
            post()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__record_fields__)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    __hash__ = None  # type: ignore[assignment]  # mutable, as a dataclass with eq; frozen records hash

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__record_fields__)
        return f"{type(self).__qualname__}({shown})"


def _frozen_setattr(self: Record, name: str, value: Any) -> None:
    raise FrozenRecordError(f"cannot assign to {name!r} of a frozen {type(self).__qualname__}")


def _frozen_delattr(self: Record, name: str) -> None:
    raise FrozenRecordError(f"cannot delete {name!r} of a frozen {type(self).__qualname__}")


def _frozen_hash(self: Record) -> int:
    return hash(self._values())


#: what a frozen record's class gets (a `__hash__` of its own is kept)
_FROZEN: dict[str, Callable[..., Any]] = {
    "__setattr__": _frozen_setattr,
    "__delattr__": _frozen_delattr,
    "__hash__": _frozen_hash,
}


def fields(record: Record | type[Record]) -> tuple[str, ...]:
    """The names of a record's fields, in order."""
    return record.__record_fields__


def as_dict(record: Record) -> dict[str, Any]:
    """A record as a dict, records inside it (and in lists, tuples and dicts) as dicts too."""

    def plain(value: Any) -> Any:
        if isinstance(value, Record):
            return {name: plain(getattr(value, name)) for name in value.__record_fields__}
        if isinstance(value, (list, tuple)):
            return type(value)(plain(v) for v in value)
        if isinstance(value, dict):
            return {plain(k): plain(v) for k, v in value.items()}
        return value

    return cast(dict[str, Any], plain(record))
