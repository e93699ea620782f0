"""mode-value (pinup, with modes): light/dark values that cannot be used.

A mode object's value that is not a colour (or, under rounded and spacing, not a
dimension or reference), a mode that is not declared in `themes`, a mode object
without the default mode, or a nested value. The reference reads a mode object as a
group of tokens and never looks at it; `-dark` siblings are ordinary tokens, which
the reference rules already check.
"""

from __future__ import annotations

from pinup.designmd.builder import Model, RawFinding
from pinup.designmd.colors import parse_css_color
from pinup.designmd.dimensions import is_reference, parse_dimension
from pinup.designmd.yamlload import js_string


def check(model: Model) -> list[RawFinding]:
    """Every unusable mode value, with the line it is on."""
    state = model.modes
    findings = [RawFinding("error", path, message, None, line) for path, message, line in state.problems]
    for path, entries in state.raw.items():
        group = path.split(".", 1)[0]
        for mode, entry in entries.items():
            if entry.source != "object":
                continue
            raw = entry.raw
            if isinstance(raw, str) and is_reference(raw):
                continue
            where = f"{path}.{mode}"
            if group == "colors" and parse_css_color(raw) is None:
                message = (
                    f"'{js_string(raw)}' is not a valid color for the {mode} mode. Expected a CSS color value "
                    "(e.g., #ffffff, rgb(0 0 0), oklch(0.5 0.2 240))."
                )
                findings.append(RawFinding("error", where, message, None, entry.line))
            elif group != "colors" and (not isinstance(raw, str) or parse_dimension(raw) is None):
                message = f"'{js_string(raw)}' is not a valid dimension for the {mode} mode."
                findings.append(RawFinding("error", where, message, None, entry.line))
    return findings
