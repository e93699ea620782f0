"""pydantic's `model_construct`, without its walk over every field on every call.

`model_construct` looks up each field's aliases and default each time it is called, and a lint
makes about a hundred models that way (a quarter of the time it spends building its report).
`construct(cls, **values)` does that walk once per class and then makes the same instance: the
same `__dict__` (fields in declaration order, defaults for the ones not given), the same
`__pydantic_fields_set__`, no extra and no private values. A class whose instances it could not
make exactly that way (aliases, extra fields allowed, private attributes, a post-init hook, a root
model, or a pydantic without `__pydantic_fields__`) is made by `model_construct` itself.
tests/designmd/test_construct.py compares both on every model of every corpus document.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from pydantic import BaseModel

_M = TypeVar("_M", bound="BaseModel")
#: defaults `model_construct` hands out as they are (it copies the others on each call)
_PLAIN = (type(None), bool, int, float, str)
_object_setattr = object.__setattr__


class _Maker:
    """What `model_construct` works out for one class, worked out once."""

    __slots__ = ("cls", "fields", "plain", "names")

    def __init__(self, cls: Any, fields: dict[str, Any]) -> None:
        self.cls = cls
        self.fields = fields
        self.names = frozenset(fields)
        #: per field in order: (name, default given as is, or a sentinel: ask the field, or required)
        self.plain: list[tuple[str, Any]] = []
        for name, field in fields.items():
            if field.is_required():
                self.plain.append((name, _REQUIRED))
            elif field.default_factory is None and type(field.default) in _PLAIN:
                self.plain.append((name, field.default))
            else:
                self.plain.append((name, _ASK))

    def __call__(self, values: dict[str, Any]) -> Any:
        made: dict[str, Any] = {}
        for name, default in self.plain:
            if name in values:
                made[name] = values[name]
            elif default is _ASK:
                made[name] = self.fields[name].get_default(call_default_factory=True, validated_data=made)
            elif default is not _REQUIRED:
                made[name] = default
        instance = self.cls.__new__(self.cls)
        _object_setattr(instance, "__dict__", made)
        _object_setattr(instance, "__pydantic_fields_set__", set(values).intersection(self.names))
        _object_setattr(instance, "__pydantic_extra__", None)
        _object_setattr(instance, "__pydantic_private__", None)
        return instance


_REQUIRED = object()
_ASK = object()
_MAKERS: dict[type, Any] = {}


def _maker(cls: Any) -> Any:
    fields = getattr(cls, "__pydantic_fields__", None)
    plain = (
        isinstance(fields, dict)
        and not cls.__pydantic_root_model__
        and not cls.__pydantic_post_init__
        and not cls.__private_attributes__
        and cls.model_config.get("extra") != "allow"
        and all(f.alias is None and f.validation_alias is None for f in fields.values())
    )
    if not plain or not isinstance(fields, dict):
        return lambda values: cls.model_construct(**values)
    return _Maker(cls, dict(fields))


def construct(cls: type[_M], **values: Any) -> _M:
    """`cls.model_construct(**values)`, the same instance, made faster (see the module's docstring)."""
    maker = _MAKERS.get(cls)
    if maker is None:
        maker = _MAKERS[cls] = _maker(cls)
    made: _M = maker(values)
    return made
