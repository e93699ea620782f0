"""Turn the builder's light-weight model into the public `DesignSystem` (`pinup.designmd.model`).

The builder has already validated every value, so the model's classes are made directly.
Values are given the types the model declares (ints to float where a field is a float).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pinup.designmd.builder import Typo
from pinup.designmd.colors import CssColor
from pinup.designmd.dimensions import Dim
from pinup.designmd.model import Color, Component, DesignSystem, Dimension, Omission, Section, Typography

if TYPE_CHECKING:
    from pinup.designmd.result import LintResult


class _Converter:
    """Values of the builder's model as the public model's classes (one object per builder value)."""

    def __init__(self) -> None:
        self.memo: dict[int, Any] = {}

    def value(self, value: Any) -> Any:
        if isinstance(value, (CssColor, Dim, Typo)):
            key = id(value)
            if key not in self.memo:
                self.memo[key] = self._convert(value)
            return self.memo[key]
        return value

    def _convert(self, value: CssColor | Dim | Typo) -> Color | Dimension | Typography:
        if isinstance(value, CssColor):
            return Color(
                hex=value.hex,
                r=int(value.r),
                g=int(value.g),
                b=int(value.b),
                a=_float(value.a),
                luminance=float(value.luminance),
                raw=value.raw,
            )
        if isinstance(value, Dim):
            return Dimension(value=float(value.value), unit=value.unit, raw=value.raw)
        props = {k: (self.value(v) if isinstance(v, Dim) else v) for k, v in value.props.items()}
        if "fontWeight" in props:
            props["fontWeight"] = _float(props["fontWeight"])
        return Typography(**props)


def _float(value: Any) -> Any:
    """What a `float | None` field makes of a value: ints become floats (bools are not numbers here)."""
    return float(value) if isinstance(value, int) and not isinstance(value, bool) else value


def section_bodies(result: LintResult) -> tuple[str, list[tuple[str, int, str]]]:
    """The preamble and (heading, line, body) for each `##` section, by source lines."""
    doc = result.doc
    lines = doc.lines
    headings = doc.headings
    first = headings[0].line - 1 if headings else len(lines)
    preamble = "\n".join(lines[doc.body_start : first]).strip("\n")
    out: list[tuple[str, int, str]] = []
    for index, heading in enumerate(headings):
        start = heading.end - 1
        stop = headings[index + 1].line - 1 if index + 1 < len(headings) else len(lines)
        body = "\n".join(lines[start:stop]).strip("\n")
        out.append((heading.text, heading.line, body))
    return preamble, out


def to_design_system(result: LintResult) -> DesignSystem:
    """Build the public model (colours, typography, tokens, sections, lines) from a lint result."""
    from pinup.designmd.sections import canonical

    conv = _Converter()
    model = result.model
    preamble, bodies = section_bodies(result)
    components = {
        name: Component(
            properties={k: conv.value(v) for k, v in comp.properties.items()},
            raw=dict(comp.raw),
            unresolved_refs=list(comp.unresolved),
        )
        for name, comp in model.components.items()
    }
    return DesignSystem(
        name=model.name,
        description=model.description,
        version=model.version,
        colors={k: conv.value(v) for k, v in model.colors.items()},
        typography={k: conv.value(v) for k, v in model.typography.items()},
        rounded={k: conv.value(v) for k, v in model.rounded.items()},
        spacing={k: conv.value(v) for k, v in model.spacing.items()},
        components=components,
        omitted=[Omission(**item) for item in model.omitted or []],
        unknown=dict(model.unknown_values),
        symbols={k: conv.value(v) for k, v in model.symbols.items()},
        raw_tokens=dict(model.raw_tokens),
        lines=dict(model.lines),
        sections=[
            Section(heading=text, canonical=canonical(text), line=line, body=body) for text, line, body in bodies
        ],
        preamble=preamble,
        source=result.source,
        **_modes(model, conv),
    )


def _modes(model: Any, conv: _Converter) -> dict[str, Any]:
    """The mode fields of `DesignSystem` (empty unless the model was built with modes)."""
    state = model.modes
    if state.spec is None:
        return {}
    themes = [state.spec.default, *(t for t in state.spec.themes if t != state.spec.default)]
    return {
        "themes": themes,
        "default_theme": state.spec.default,
        "modes": {mode: {p: conv.value(v) for p, v in values.items()} for mode, values in state.values.items()},
        "mode_siblings": dict(state.siblings),
    }
