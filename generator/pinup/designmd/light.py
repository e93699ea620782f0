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

from typing import Any

from pinup.designmd.jsnum import js_number
from pinup.designmd.report import reference_finding
from pinup.designmd.sections import TYPOGRAPHY_PROPERTIES
from pinup.plain import REQUIRED, Plain


class Color(Plain):
    FIELDS = (
        ("type", "color"),
        ("hex", REQUIRED),
        ("r", REQUIRED),
        ("g", REQUIRED),
        ("b", REQUIRED),
        ("a", None),
        ("luminance", REQUIRED),
        ("raw", None),
    )
    __slots__ = tuple(name for name, _ in FIELDS)


class Dimension(Plain):
    FIELDS = (("type", "dimension"), ("value", REQUIRED), ("unit", REQUIRED), ("raw", None))
    __slots__ = tuple(name for name, _ in FIELDS)

    def css(self) -> str:
        """The value as CSS text, formatted as JavaScript would (`16px`, `0.5rem`)."""
        return f"{js_number(self.value)}{self.unit}"  # type: ignore[attr-defined]  # FIELDS slots (pinup.plain)


class Typography(Plain):
    FIELDS = (("type", "typography"), *((name, None) for name in TYPOGRAPHY_PROPERTIES))
    __slots__ = tuple(name for name, _ in FIELDS)


class Component(Plain):
    FIELDS = (("properties", dict), ("raw", dict), ("unresolved_refs", list))
    __slots__ = tuple(name for name, _ in FIELDS)


class Section(Plain):
    FIELDS = (("heading", REQUIRED), ("canonical", None), ("line", REQUIRED), ("body", ""))
    __slots__ = tuple(name for name, _ in FIELDS)


class Omission(Plain):
    FIELDS = (("section", REQUIRED), ("reason", None))
    __slots__ = tuple(name for name, _ in FIELDS)


class DesignSystem(Plain):
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
        modes: dict[str, dict[str, Any]] = self.modes  # type: ignore[attr-defined]  # FIELDS slots (pinup.plain)
        if mode and mode != self.default_theme and path in modes.get(mode, {}):  # type: ignore[attr-defined]  # FIELDS slots (pinup.plain)
            return modes[mode][path]
        value = self.symbols.get(path)  # type: ignore[attr-defined]  # FIELDS slots (pinup.plain)
        return value if getattr(value, "type", None) in ("color", "dimension") else None


class Finding(Plain):
    FIELDS = (("severity", REQUIRED), ("path", None), ("message", REQUIRED), ("rule", None), ("line", None))
    __slots__ = tuple(name for name, _ in FIELDS)

    def reference_dict(self) -> dict[str, Any]:
        """Keys in the reference's order, absent values omitted, no `line`."""
        return reference_finding(self.severity, self.path, self.message, self.rule)  # type: ignore[attr-defined]  # FIELDS slots (pinup.plain)


class Summary(Plain):
    FIELDS = (("errors", 0), ("warnings", 0), ("infos", 0))
    __slots__ = tuple(name for name, _ in FIELDS)


class LintReport(Plain):
    FIELDS = (("design", REQUIRED), ("findings", REQUIRED), ("summary", REQUIRED))
    __slots__ = tuple(name for name, _ in FIELDS)
