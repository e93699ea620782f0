"""The DESIGN.md model without pydantic: what `pinup build`, the gallery and the MkDocs plugin read.

Why: importing pydantic and building `pinup.designmd.model`'s classes is about a third of what a
fresh `pinup gallery` process spends rebuilding after a one-token edit (65 ms of about 170), yet
the page and board builders only read attributes. These classes have exactly the fields of the
pydantic models of the same name, in the same order, with the same defaults, the methods the
builders call (`Dimension.css`, `DesignSystem.mode_value`, `Finding.reference_dict`) and
pydantic's equality (same class, same fields); tests/designmd/test_light.py holds them to that,
and builds every page both ways. `lint_text(..., light=True)` and `lint_path(..., light=True)`
(`pinup.designmd.lint`) make them; what hands a report out (`pinup lint`, `export`, the MCP
server) still makes the pydantic models.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from pinup.designmd.jsnum import js_number
from pinup.designmd.report import reference_finding
from pinup.designmd.sections import TYPOGRAPHY_PROPERTIES

#: "no value given" for a field whose default is a new list or dict
_NEW = object()


class _Light:
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


_REQUIRED = None  # a required field: every caller gives it


class Color(_Light):
    FIELDS = (
        ("type", "color"),
        ("hex", _REQUIRED),
        ("r", _REQUIRED),
        ("g", _REQUIRED),
        ("b", _REQUIRED),
        ("a", None),
        ("luminance", _REQUIRED),
        ("raw", None),
    )
    __slots__ = tuple(name for name, _ in FIELDS)


class Dimension(_Light):
    FIELDS = (("type", "dimension"), ("value", _REQUIRED), ("unit", _REQUIRED), ("raw", None))
    __slots__ = tuple(name for name, _ in FIELDS)

    def css(self) -> str:
        """The value as CSS text, formatted as JavaScript would (`16px`, `0.5rem`)."""
        return f"{js_number(self.value)}{self.unit}"  # type: ignore[attr-defined]


class Typography(_Light):
    FIELDS = (("type", "typography"), *((name, None) for name in TYPOGRAPHY_PROPERTIES))
    __slots__ = tuple(name for name, _ in FIELDS)


class Component(_Light):
    FIELDS = (("properties", dict), ("raw", dict), ("unresolved_refs", list))
    __slots__ = tuple(name for name, _ in FIELDS)


class Section(_Light):
    FIELDS = (("heading", _REQUIRED), ("canonical", None), ("line", _REQUIRED), ("body", ""))
    __slots__ = tuple(name for name, _ in FIELDS)


class Omission(_Light):
    FIELDS = (("section", _REQUIRED), ("reason", None))
    __slots__ = tuple(name for name, _ in FIELDS)


class DesignSystem(_Light):
    FIELDS = (
        ("name", None),
        ("description", None),
        ("version", None),
        ("colors", dict),
        ("typography", dict),
        ("rounded", dict),
        ("spacing", dict),
        ("components", dict),
        ("omitted", list),
        ("unknown", dict),
        ("symbols", dict),
        ("raw_tokens", dict),
        ("lines", dict),
        ("sections", list),
        ("themes", list),
        ("default_theme", None),
        ("modes", dict),
        ("mode_siblings", dict),
        ("preamble", ""),
        ("source", ""),
    )
    __slots__ = tuple(name for name, _ in FIELDS)

    def mode_value(self, path: str, mode: str | None) -> Any:
        """`path`'s value in `mode` (None or the default mode: the token's own value)."""
        modes: dict[str, dict[str, Any]] = self.modes  # type: ignore[attr-defined]
        if mode and mode != self.default_theme and path in modes.get(mode, {}):  # type: ignore[attr-defined]
            return modes[mode][path]
        value = self.symbols.get(path)  # type: ignore[attr-defined]
        return value if getattr(value, "type", None) in ("color", "dimension") else None


class Finding(_Light):
    FIELDS = (("severity", _REQUIRED), ("path", None), ("message", _REQUIRED), ("rule", None), ("line", None))
    __slots__ = tuple(name for name, _ in FIELDS)

    def reference_dict(self) -> dict[str, Any]:
        """Keys in the reference's order, absent values omitted, no `line`."""
        return reference_finding(self.severity, self.path, self.message, self.rule)  # type: ignore[attr-defined]


class Summary(_Light):
    FIELDS = (("errors", 0), ("warnings", 0), ("infos", 0))
    __slots__ = tuple(name for name, _ in FIELDS)


class LintReport(_Light):
    FIELDS = (("design", _REQUIRED), ("findings", _REQUIRED), ("summary", _REQUIRED))
    __slots__ = tuple(name for name, _ in FIELDS)
