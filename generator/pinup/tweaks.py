"""Design-token tweaks: which tokens a board offers, and how a tweak patches DESIGN.md.

A board offers at most eight key tokens (primary colour, surface, text, accent, radius, base
font size, spacing unit, heading font) as typed controls. Reviewers' chosen values come back in
the feedback as `tweaks` {"colors.primary": "#1a73e8", ...}; `pinup tweaks apply` writes them
into a copy of DESIGN.md by editing only the value's characters on its line, so the file's
comments, quoting and layout stay exactly as the author wrote them. A control is the feedback
app's `Tweakable` (the manifest entry the endpoint checks tweaks against, with its
`tweak_problem`), so the board offers exactly what the endpoint accepts.
"""

from __future__ import annotations

from typing import Any

from pinup_feedback.schema import Tweakable

MAX_TWEAKABLES = 8


def _first(names: list[str], available: dict[str, Any]) -> str | None:
    return next((n for n in names if n in available), None)


def _color(design: Any, names: list[str], label: str) -> Tweakable | None:
    name = _first(names, design.colors)
    if name is None:
        return None
    value = design.colors[name].hex[:7]
    return Tweakable(token=f"colors.{name}", kind="color", label=label, value=value)


def _dimension(token: str, dim: Any, label: str, lo: float, hi: float, step: float) -> Tweakable | None:
    if dim is None or dim.unit not in ("px", "rem", "em"):
        return None
    if dim.unit != "px":
        lo, hi, step = lo / 16, hi / 16, 0.0625
    value = dim.css()
    return Tweakable(
        token=token,
        kind="dimension",
        label=label,
        value=value,
        min=float(lo),
        max=float(max(hi, dim.value)),
        step=float(step),
        unit=dim.unit,
    )


def tweakables(design: Any) -> list[Tweakable]:
    """The key tokens this DESIGN.md has, in a fixed order, at most eight; [] without tokens."""
    if design is None:
        return []
    out: list[Tweakable | None] = [
        _color(design, ["primary"], "Primary colour"),
        _color(design, ["surface", "background", "neutral"], "Surface"),
        _color(design, ["on-surface", "on-background", "text"], "Text"),
        _color(design, ["secondary", "tertiary", "accent"], "Accent colour"),
    ]
    radius = _first(["md", "DEFAULT", "base", "sm"], design.rounded) or next(iter(design.rounded), None)
    if radius is not None:
        out.append(_dimension(f"rounded.{radius}", design.rounded[radius], "Corner radius", 0, 32, 1))
    body = _first(["body-md", "body", "body-lg", "body-sm"], design.typography)
    if body is not None and design.typography[body].fontSize is not None:
        out.append(
            _dimension(f"typography.{body}.fontSize", design.typography[body].fontSize, "Base font size", 12, 24, 1)
        )
    unit = _first(["unit", "base", "md", "sm"], design.spacing) or next(iter(design.spacing), None)
    if unit is not None:
        out.append(_dimension(f"spacing.{unit}", design.spacing[unit], "Spacing unit", 2, 48, 1))
    heading = _first(["headline-lg", "headline-md", "display", "heading", "title"], design.typography)
    families = list(dict.fromkeys(t.fontFamily for t in design.typography.values() if t.fontFamily))
    if heading is not None and design.typography[heading].fontFamily and len(families) > 1:
        out.append(
            Tweakable(
                token=f"typography.{heading}.fontFamily",
                kind="choice",
                label="Heading font",
                value=design.typography[heading].fontFamily,
                options=families,
            )
        )
    return [t for t in out if t is not None][:MAX_TWEAKABLES]


class TweakError(ValueError):
    """A tweak that cannot be written into DESIGN.md (unknown token, bad value)."""


def _front_matter(text: str) -> tuple[int, str]:
    """(line index where the YAML starts, the YAML text) of a DESIGN.md."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != "---":
        raise TweakError("DESIGN.md has no YAML front matter")
    for i in range(1, len(lines)):
        if lines[i].strip() in ("---", "..."):
            return 1, "".join(lines[1:i])
    raise TweakError("DESIGN.md's front matter is not closed with ---")


def _scalar_end(line: str, col: int) -> int:
    """Where the scalar starting at `col` ends (exclusive), quoted or plain, before any comment."""
    quote = line[col] if col < len(line) else ""
    if quote in ("'", '"'):
        i = col + 1
        while i < len(line):
            if line[i] == "\\" and quote == '"':
                i += 2
                continue
            if line[i] == quote:
                if quote == "'" and line[i + 1 : i + 2] == "'":
                    i += 2
                    continue
                return i + 1
            i += 1
        raise TweakError("a quoted value spans several lines; edit it by hand")
    end = len(line.rstrip("\r\n"))
    comment = line.find(" #", col)
    if comment != -1:
        end = comment
    return len(line[:end].rstrip())


def _render(value: str, original: str) -> str:
    if original[:1] == '"':
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if original[:1] == "'":
        return "'" + value.replace("'", "''") + "'"
    if value.startswith("#") or ":" in value or value.strip() != value:
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return value


def apply_tweaks(text: str, tweaks: dict[str, str]) -> str:
    """DESIGN.md text with each `group.name[.prop]` token set to its tweak value (only those characters change)."""
    from ruamel.yaml import YAML

    offset, yaml_text = _front_matter(text)
    tree = YAML(typ="rt").load(yaml_text)
    lines = text.splitlines(keepends=True)
    for token, value in tweaks.items():
        node: Any = tree
        parts = token.split(".")
        for part in parts[:-1]:
            if not isinstance(node, dict) or part not in node:
                raise TweakError(f"{token}: DESIGN.md has no such token")
            node = node[part]
        key = parts[-1]
        if not isinstance(node, dict) or key not in node or isinstance(node[key], dict | list):
            raise TweakError(f"{token}: DESIGN.md has no such token")
        mapping: Any = node  # a ruamel CommentedMap: it knows where each value starts
        row, col = mapping.lc.value(key)
        index = offset + row
        line = lines[index]
        end = _scalar_end(line, col)
        lines[index] = line[:col] + _render(value, line[col:end]) + line[end:]
    return "".join(lines)
