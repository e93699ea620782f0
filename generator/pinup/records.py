"""`Record`: classes that hold data, declared like dataclasses, with no code generated at import.

Why: `@dataclass` writes each class's `__init__` (and `__eq__`, `__repr__`, and for a frozen
class `__setattr__`, `__delattr__` and `__hash__`) as source text and compiles it, 0.2-1 ms a
class. The classes every build imports (page models, build options, theme, fonts, boards) cost
10-20 ms of each `pinup build`, `pinup gallery` and `mkdocs build` process that way. A
Record's fields are read once from its annotations, and one `__init__`, `__eq__`, `__repr__`
and `__hash__` serve every class. Type checkers see a dataclass (`dataclass_transform`). The
shared `__init__` takes about three times as long as a generated one, so a class gets its own,
compiled, once `COMPILE_AFTER` instances of it were made (a few classes in a build, not fifty).

What a Record does as a dataclass does: fields in declaration order, a parent's first; an
instance's `__dict__` holds every field in that order (pickles are byte for byte the same);
`field(default_factory=...)` for mutable defaults; `__post_init__` when defined; equality
field by field between instances of the same class; `frozen=True` as a class keyword gives
immutable, hashable instances. Modules off the build's path keep `@dataclass`; the read-only
twins of pydantic models (keyword-only, with slots and `model_copy`) are `pinup.plain.Plain`.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping, Sequence
from typing import Any, ClassVar, TypeVar, cast, dataclass_transform

_T = TypeVar("_T")
_UNSET: Any = object()


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
    #: every field -> its default, or `_UNSET` (required, or made by a factory), in field order
    __record_template__: ClassVar[dict[str, Any]] = {}
    __record_required__: ClassVar[frozenset[str]] = frozenset()
    __record_factories__: ClassVar[dict[str, Callable[[], Any]]] = {}
    __record_post_init__: ClassVar[bool] = False
    __record_frozen__: ClassVar[bool] = False

    def __init_subclass__(cls, *, frozen: bool | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        template = dict(cls.__record_template__)
        factories = dict(cls.__record_factories__)
        for name, annotation in cls.__dict__.get("__annotations__", {}).items():
            if _is_class_var(annotation):
                continue
            value = cls.__dict__.get(name, _UNSET)
            factories.pop(name, None)
            if isinstance(value, _Factory):
                factories[name] = value.make
                value = _UNSET
                delattr(cls, name)
            elif isinstance(value, (list, dict, set)):
                raise ValueError(f"{cls.__qualname__}.{name}: a mutable default needs field(default_factory=...)")
            template[name] = value  # a parent's field keeps its place
        required = [name for name, value in template.items() if value is _UNSET and name not in factories]
        defaulted = [name for name in template if name not in required]
        if required and defaulted and list(template).index(defaulted[0]) < list(template).index(required[-1]):
            raise TypeError(f"{cls.__qualname__}: field {required[-1]!r} without a default follows {defaulted[0]!r}")
        if frozen is not None and frozen != cls.__record_frozen__:
            if cls.__record_fields__:  # the parent's
                raise TypeError(f"{cls.__qualname__}: frozen and mutable records cannot inherit from each other")
            cls.__record_frozen__ = frozen
        cls.__record_fields__ = tuple(template)
        cls.__record_template__ = template
        cls.__record_required__ = frozenset(required)
        cls.__record_factories__ = factories
        cls.__record_post_init__ = hasattr(cls, "__post_init__")
        if "__init__" not in cls.__dict__:  # its own: a parent's compiled one would set the parent's fields
            setattr(cls, "__init__", Record.__dict__["__init__"])  # noqa: B010 - mypy forbids assigning a method
        if cls.__record_frozen__:
            for name, method in _FROZEN.items():
                if name != "__hash__" or "__hash__" not in cls.__dict__:
                    setattr(cls, name, method)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        cls = type(self)
        if used(cls):  # from now on, the class's own
            setattr(cls, "__init__", _compiled_init(cls))  # noqa: B010 - as above
        if args:
            kwargs = _by_name(cls, args, kwargs)
        state = {**cls.__record_template__, **kwargs}  # the fields' order, the values given
        if len(state) != len(cls.__record_template__):
            unknown = next(name for name in kwargs if name not in cls.__record_template__)
            raise TypeError(f"{cls.__qualname__}() got an unexpected keyword argument {unknown!r}")
        if not kwargs.keys() >= cls.__record_required__:
            missing = next(name for name in cls.__record_fields__ if name in cls.__record_required__ - kwargs.keys())
            raise TypeError(f"{cls.__qualname__}() missing required argument: {missing!r}")
        for name, make in cls.__record_factories__.items():
            if name not in kwargs:
                state[name] = make()
        self.__dict__.update(state)
        if cls.__record_post_init__:
            self.__post_init__()  # type: ignore[attr-defined]  # the class defines it (__record_post_init__)

    def __eq__(self, other: object) -> bool:
        """Field by field, stopping at the first that differs (a value is equal to itself, as in tuples)."""
        if other.__class__ is not self.__class__:
            return NotImplemented
        for name in self.__record_fields__:
            mine, theirs = getattr(self, name), getattr(other, name)
            if mine is not theirs and not mine == theirs:
                return False
        return True

    __hash__ = None  # type: ignore[assignment]  # mutable, as a dataclass with eq; frozen records hash

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__record_fields__)
        return f"{type(self).__qualname__}({shown})"


#: instances of a class made with the shared `__init__` before the class gets one compiled for it
COMPILE_AFTER = 32
_USES: dict[type, int] = {}


def used(cls: type) -> bool:
    """Count one more instance of `cls` made by a shared `__init__`; True when the class should
    get its own compiled one (a class used often: a rebuild in one process makes hundreds of
    search entries and property rows; most classes, few instances, never need one)."""
    uses = _USES[cls] = _USES.get(cls, 0) + 1
    return uses == COMPILE_AFTER


def compile_init(
    qualname: str,
    names: Sequence[str],
    *,
    required: Container[str],
    defaults: Mapping[str, Any],
    factories: Mapping[str, Callable[[], Any]],
    keyword_only: bool = False,
    frozen: bool = False,
    post_init: bool = False,
) -> Callable[..., None]:
    """An `__init__` for one class, as `@dataclass` writes one: the arguments parsed by Python
    itself, each field stored by name (straight into the instance's dict when `frozen`: its own
    `__setattr__` refuses). A field is made by its factory, else required, else defaulted."""
    target = "_record_state[{!r}]" if frozen else "_record_self.{}"
    params, lines = ["*"] if keyword_only else [], ["    _record_state = _record_self.__dict__"] if frozen else []
    for name in names:
        value = name
        if name in factories:
            params.append(f"{name}=_record_unset")
            value = f"_record_factories[{name!r}]() if {name} is _record_unset else {name}"
        elif name in required:
            params.append(name)
        else:
            params.append(f"{name}=_record_defaults[{name!r}]")
        lines.append(f"    {target.format(name)} = {value}")
    if post_init:
        lines.append("    _record_self.__post_init__()")
    signature = ", ".join(["_record_self", *params]) if names else "_record_self"
    source = f"def __init__({signature}):\n" + "\n".join(lines or ["    pass"]) + "\n"
    namespace: dict[str, Any] = {"_record_unset": _UNSET, "_record_factories": factories, "_record_defaults": defaults}
    exec(source, namespace)  # made above from the class's own field names, which are identifiers
    init: Callable[..., None] = namespace["__init__"]
    init.__qualname__ = f"{qualname}.__init__"
    return init


def _compiled_init(cls: type[Record]) -> Callable[..., None]:
    return compile_init(
        cls.__qualname__,
        cls.__record_fields__,
        required=cls.__record_required__,
        defaults=cls.__record_template__,
        factories=cls.__record_factories__,
        frozen=cls.__record_frozen__,
        post_init=cls.__record_post_init__,
    )


def _by_name(cls: type[Record], args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """Positional arguments as keywords, in field order."""
    names = cls.__record_fields__
    if len(args) > len(names):
        raise TypeError(f"{cls.__qualname__}() takes {len(names)} positional arguments but {len(args)} were given")
    given = dict(zip(names, args, strict=False))  # fewer arguments than fields: the rest by keyword
    twice = given.keys() & kwargs.keys()
    if twice:
        raise TypeError(f"{cls.__qualname__}() got multiple values for argument {min(twice)!r}")
    given.update(kwargs)
    return given


def _frozen_setattr(self: Record, name: str, value: Any) -> None:
    raise FrozenRecordError(f"cannot assign to {name!r} of a frozen {type(self).__qualname__}")


def _frozen_delattr(self: Record, name: str) -> None:
    raise FrozenRecordError(f"cannot delete {name!r} of a frozen {type(self).__qualname__}")


def _frozen_hash(self: Record) -> int:
    return hash(tuple(getattr(self, name) for name in self.__record_fields__))


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
