"""`diff`: compare the token models and lint summaries of two DESIGN.md files, as the reference does.

Tokens are compared by the JSON of their model values (JavaScript `JSON.stringify`
semantics: `a` only when defined, numbers formatted as JavaScript prints them),
so `#ffffff` -> `rgb(255 255 255)` counts as modified, exactly like the reference.
"""

from __future__ import annotations

from typing import Any

from pinup.designmd.builder import Comp, Model, Typo
from pinup.designmd.colors import CssColor
from pinup.designmd.dimensions import Dim
from pinup.designmd.exporters.jsjson import compact
from pinup.designmd.jsnum import js_number
from pinup.designmd.lint import run


def js_json(value: Any) -> str:
    """Compact `JSON.stringify` of a model value (the comparison key)."""
    return compact(value, default=_model_value)


def _model_value(value: Any) -> Any:
    """What JSON.stringify sees of a model object: its model dict (colours, dimensions, type styles)."""
    if isinstance(value, (CssColor, Dim, Typo)):
        return value.model_dict()
    return str(value)


def _component_values(comp: Comp) -> dict[str, Any]:
    return dict(comp.properties)


def diff_maps(before: dict[str, Any], after: dict[str, Any]) -> dict[str, list[str]]:
    """added (after's order), removed (before's order), modified (after's order)."""
    added: list[str] = []
    modified: list[str] = []
    for key, value in after.items():
        if key not in before:
            added.append(key)
        elif js_json(before[key]) != js_json(value):
            modified.append(key)
    removed = [key for key in before if key not in after]
    return {"added": added, "removed": removed, "modified": modified}


def diff_models(
    before: Model, after: Model, before_summary: dict[str, int], after_summary: dict[str, int]
) -> dict[str, Any]:
    """The reference's diff object."""
    tokens = {
        "colors": diff_maps(before.colors, after.colors),
        "typography": diff_maps(before.typography, after.typography),
        "rounded": diff_maps(before.rounded, after.rounded),
        "spacing": diff_maps(before.spacing, after.spacing),
        "components": diff_maps(
            {k: _component_values(v) for k, v in before.components.items()},
            {k: _component_values(v) for k, v in after.components.items()},
        ),
    }
    regression = (
        after_summary["errors"] > before_summary["errors"] or after_summary["warnings"] > before_summary["warnings"]
    )
    return {
        "tokens": tokens,
        "findings": {
            "before": before_summary,
            "after": after_summary,
            "delta": {
                "errors": after_summary["errors"] - before_summary["errors"],
                "warnings": after_summary["warnings"] - before_summary["warnings"],
            },
        },
        "regression": regression,
    }


def diff_texts(before: str, after: str) -> dict[str, Any]:
    """Lint both sources (default rules) and diff them."""
    a, b = run(before), run(after)
    return diff_models(a.model, b.model, a.summary, b.summary)


def to_json(result: dict[str, Any]) -> str:
    """`JSON.stringify(diff, null, 2)` plus a newline."""
    from pinup.designmd.report import dumps

    return dumps(result)


def _as_text(data: Any, indent: int = 0) -> str:
    """The reference's generic YAML-like rendering (`formatAsText`)."""
    if data is None:
        return "null"
    if isinstance(data, str):
        return data
    if isinstance(data, bool):
        return "true" if data else "false"
    if isinstance(data, (int, float)):
        return js_number(data)
    if isinstance(data, list):
        return "\n".join(f"{'  ' * indent}- {_as_text(item, indent + 1)}" for item in data)
    if isinstance(data, dict):
        parts = []
        for key, value in data.items():
            if isinstance(value, (dict, list)):
                text = "\n" + _as_text(value, indent + 1)
            else:
                text = " " + _as_text(value, indent + 1)
            parts.append(f"{'  ' * indent}{key}:{text}")
        return "\n".join(parts)
    return str(data)


def to_markdown(result: dict[str, Any]) -> str:
    """The reference's `--format md` output for diff (its generic text rendering)."""
    from pinup.designmd.report import text_safe

    return text_safe(_as_text(result) + "\n")
