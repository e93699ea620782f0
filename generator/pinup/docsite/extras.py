"""Unknown `##` sections and unknown token groups, rendered generically so nothing is dropped."""

from __future__ import annotations

import json
from typing import Any

from pinup.docsite.anchors import slugify
from pinup.docsite.models import ExtrasPage, GenericGroup, GenericRow, GenericSection
from pinup.docsite.sources import Sources


def _flatten(value: Any, prefix: str = "") -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        out: list[tuple[str, Any]] = []
        for key, sub in value.items():
            out.extend(_flatten(sub, f"{prefix}.{key}" if prefix else str(key)))
        return out
    return [(prefix or "(value)", value)]


def _swatch_for(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    from pinup.designmd.colors import parse_css_color

    try:
        color = parse_css_color(value)
    except (ValueError, TypeError):
        return None
    return color.hex if color is not None else None


def build_extras(src: Sources) -> ExtrasPage:
    sections = [
        GenericSection(s.heading, "section-" + slugify(s.heading), src.markdown(s.body), s.line)
        for s in src.unknown_sections
    ]
    groups = []
    for name, value in src.design.unknown.items():
        rows = [
            GenericRow(k, v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, default=str), _swatch_for(v))
            for k, v in _flatten(value)
        ]
        groups.append(GenericGroup(str(name), "group-" + slugify(str(name)), rows))
    return ExtrasPage(slug="extras", title="More", template="extras.html", sections=sections, groups=groups)
