"""Layout (spacing drawn to scale), Shapes (the rounded scale) and Elevation & Depth pages."""

from __future__ import annotations

import re
from typing import Any

from pinup.docsite.anchors import token_anchor
from pinup.docsite.css import safe_value
from pinup.docsite.models import ElevationPage, ScalePage, ScaleStep, ShadowSample
from pinup.docsite.sources import Sources

_TO_PX = {"px": 1.0, "rem": 16.0, "em": 16.0}


def _steps(group: str, tokens: dict[str, Any], lines: dict[str, int], cap: float) -> list[ScaleStep]:
    pxs = {name: (d.value * _TO_PX[d.unit] if d.unit in _TO_PX else None) for name, d in tokens.items()}
    finite = [min(p, cap) for p in pxs.values() if p is not None]
    largest = max(finite) if finite else 0
    steps = []
    for name, dim in tokens.items():
        px = pxs[name]
        pct = (min(px, cap) / largest * 100) if px is not None and largest else 0
        steps.append(
            ScaleStep(
                name=name,
                anchor=token_anchor(group, name),
                css=dim.css(),
                px=px,
                percent=round(max(0.0, pct), 2),
                ref=f"{{{group}.{name}}}",
                css_var=f"var(--{group}-{name})",
                line=lines.get(f"{group}.{name}"),
            )
        )
    return steps


def build_layout(src: Sources) -> ScalePage:
    return ScalePage(
        slug="layout",
        title="Layout",
        template="layout.html",
        prose_html=src.section_html("Layout"),
        steps=_steps("spacing", src.design.spacing, src.design.lines, 512),
        kind="spacing",
    )


def build_shapes(src: Sources) -> ScalePage:
    return ScalePage(
        slug="shapes",
        title="Shapes",
        template="shapes.html",
        prose_html=src.section_html("Shapes"),
        steps=_steps("rounded", src.design.rounded, src.design.lines, 9999),
        kind="rounded",
    )


# A shadow starts where a run of digits starts: a start inside the run could only find what the
# run's own start found, after rescanning the rest of it (quadratic on a long run of digits).
_SHADOW_IN_PROSE = re.compile(r"`?(-?(?<!\d)\d+(?:px)?\s+-?\d+px\s+-?\d+px(?:\s+-?\d+px)?)`?")


def _shadow_samples(unknown: dict[str, Any]) -> list[ShadowSample]:
    samples: list[ShadowSample] = []
    for group, values in unknown.items():
        if not any(h in group.lower() for h in ("elevation", "shadow", "depth")) or not isinstance(values, dict):
            continue
        for name, value in values.items():
            raw = value.get("boxShadow") or value.get("shadow") if isinstance(value, dict) else value
            safe = safe_value(raw)
            if safe:
                samples.append(ShadowSample(f"{group}.{name}", safe))
    return samples


def build_elevation(src: Sources) -> ElevationPage:
    prose = src.section_markdown("Elevation & Depth")
    samples = _shadow_samples(src.design.unknown)
    if not samples:  # shadows described only in the prose, e.g. "0 4px 12px at 12% opacity"
        for i, match in enumerate(_SHADOW_IN_PROSE.finditer(prose), start=1):
            pct = re.search(r"(?<!\d)(\d+)%", prose[match.end() : match.end() + 40])
            alpha = int(pct.group(1)) / 100 if pct else 0.15
            safe = safe_value(f"{match.group(1)} rgba(0,0,0,{alpha:g})")
            if safe:
                samples.append(ShadowSample(f"Level {i}: {match.group(1)}", safe))
            if i >= 6:
                break
    return ElevationPage(
        slug="elevation",
        title="Elevation & Depth",
        template="elevation.html",
        prose_html=src.markdown(prose),
        samples=samples,
    )
