"""Turn the builder's light-weight model into the public pydantic `DesignSystem`.

The builder has already validated every value, so the models are made as
`model_construct` makes them (`construct`: no second validation, and no validator built:
the models are `defer_build`, so a build that only reads them never pays for pydantic's schemas).
Values are given exactly the types validation would give them (ints to float where
a field is a float), so the result is the same as validating.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pinup.designmd.builder import Typo
from pinup.designmd.colors import CssColor
from pinup.designmd.construct import construct
from pinup.designmd.dimensions import Dim

if TYPE_CHECKING:
    from pinup.designmd.model import DesignSystem
    from pinup.designmd.result import LintResult


def _make_light(cls: Any, **values: Any) -> Any:
    return cls(**values)


def models_for(light: bool) -> tuple[Any, Any]:
    """The module of model classes to make (`pinup.designmd.model`, or `.light` without pydantic)
    and how to make one from checked values (`construct`, or the light class itself)."""
    if light:
        from pinup.designmd import light as models

        return models, _make_light
    from pinup.designmd import model

    return model, construct


class _Converter:
    """Values of the builder's model as the public model's (or, `light`, `pinup.designmd.light`'s) classes."""

    def __init__(self, light: bool = False) -> None:
        self.m, self.make = models_for(light)
        self.memo: dict[int, Any] = {}

    def value(self, value: Any) -> Any:
        if isinstance(value, (CssColor, Dim, Typo)):
            key = id(value)
            if key not in self.memo:
                self.memo[key] = self._convert(value)
            return self.memo[key]
        return value

    def _convert(self, value: CssColor | Dim | Typo) -> Any:
        m, construct = self.m, self.make
        if isinstance(value, CssColor):
            return construct(
                m.Color,
                hex=value.hex,
                r=int(value.r),
                g=int(value.g),
                b=int(value.b),
                a=_float(value.a),
                luminance=float(value.luminance),
                raw=value.raw,
            )
        if isinstance(value, Dim):
            return construct(m.Dimension, value=float(value.value), unit=value.unit, raw=value.raw)
        props = {k: (self.value(v) if isinstance(v, Dim) else v) for k, v in value.props.items()}
        if "fontWeight" in props:
            props["fontWeight"] = _float(props["fontWeight"])
        return construct(m.Typography, **props)


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


def to_design_system(result: LintResult, *, light: bool = False) -> DesignSystem:
    """Build the public model (colours, typography, tokens, sections, lines) from a lint result.

    `light`: the same model made of `pinup.designmd.light`'s classes (no pydantic), for builders
    that only read it; typed as the public one, which it mirrors field for field.
    """
    from pinup.designmd.sections import canonical

    conv = _Converter(light)
    m, construct = conv.m, conv.make
    model = result.model
    preamble, bodies = section_bodies(result)
    components = {
        name: construct(
            m.Component,
            properties={k: conv.value(v) for k, v in comp.properties.items()},
            raw=dict(comp.raw),
            unresolved_refs=list(comp.unresolved),
        )
        for name, comp in model.components.items()
    }
    made: DesignSystem = construct(
        m.DesignSystem,
        name=model.name,
        description=model.description,
        version=model.version,
        colors={k: conv.value(v) for k, v in model.colors.items()},
        typography={k: conv.value(v) for k, v in model.typography.items()},
        rounded={k: conv.value(v) for k, v in model.rounded.items()},
        spacing={k: conv.value(v) for k, v in model.spacing.items()},
        components=components,
        omitted=[construct(m.Omission, **item) for item in model.omitted or []],
        unknown=dict(model.unknown_values),
        symbols={k: conv.value(v) for k, v in model.symbols.items()},
        raw_tokens=dict(model.raw_tokens),
        lines=dict(model.lines),
        sections=[
            construct(m.Section, heading=text, canonical=canonical(text), line=line, body=body)
            for text, line, body in bodies
        ],
        preamble=preamble,
        source=result.source,
        **_modes(model, conv),
    )
    return made


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
