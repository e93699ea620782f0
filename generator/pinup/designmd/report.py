"""Serialise lint results: reference JSON, reference Markdown, and `text` for people."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


def reference_finding(severity: str, path: str | None, message: str, rule: str | None) -> dict[str, Any]:
    """A finding as the reference serialises it: its key order, absent values omitted, no `line`."""
    out: dict[str, Any] = {"severity": severity}
    if path is not None:
        out["path"] = path
    out["message"] = message
    if rule is not None:
        out["rule"] = rule
    return out


# patterns, not compiled ones: `re` compiles (and caches) them on first use, which only text with
# surrogates needs, so a plain `pinup lint` does not pay for compiling them
_PAIR = "[\ud800-\udbff][\udc00-\udfff]"
_LONE = "[\ud800-\udfff]"


def _has_surrogates(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # UTF-8 refuses exactly the surrogates
        return True
    return False


def _join_pairs(text: str) -> str:
    return re.sub(_PAIR, lambda m: m.group(0).encode("utf-16", "surrogatepass").decode("utf-16"), text)


def json_safe(text: str) -> str:
    """Surrogates as JavaScript's `JSON.stringify` writes them: pairs joined, lone ones as `\\udxxx`."""
    if not _has_surrogates(text):
        return text
    return re.sub(_LONE, lambda m: f"\\u{ord(m.group(0)):04x}", _join_pairs(text))


def text_safe(text: str) -> str:
    """Surrogates as Node writes them to UTF-8 output: pairs joined, lone ones as U+FFFD."""
    if not _has_surrogates(text):
        return text
    return re.sub(_LONE, "\ufffd", _join_pairs(text))


def dumps(data: Any) -> str:
    """`JSON.stringify(data, null, 2)` plus the newline `console.log` adds."""
    import json

    return json_safe(json.dumps(data, indent=2, ensure_ascii=False)) + "\n"


def to_json(findings: list[Any], summary: dict[str, int]) -> str:
    """`JSON.stringify(report, null, 2)` plus the newline `console.log` adds."""
    return dumps({"findings": [f.reference_dict() for f in findings], "summary": summary})


def to_markdown(findings: list[Any], summary: dict[str, int]) -> str:
    """The reference's Markdown report, byte for byte (it ends with a blank line)."""
    out = "# Lint Report\n\n"
    out += f"**{summary['errors']} errors**, **{summary['warnings']} warnings**, **{summary['infos']} infos**\n"
    if findings:
        out += "\n## Findings\n\n"
        for f in findings:
            location = f" `{f.path}`:" if f.path else ":"
            out += f"- **{f.severity}**{location} {f.message}\n"
    return text_safe(out + "\n")


def use_color(stream: Any) -> bool:
    """Colour only on a TTY, never when NO_COLOR is set (any value)."""
    if "NO_COLOR" in os.environ:
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


_COLORS = {"error": "\x1b[31m", "warning": "\x1b[33m", "info": "\x1b[36m"}
_DIM = "\x1b[2m"
_RESET = "\x1b[0m"


def to_text(
    findings: list[Any], summary: dict[str, int], *, source_name: str = "DESIGN.md", color: bool = False
) -> str:
    """A report for people: `file:line: severity [rule] path: message`, then the counts."""
    out: list[str] = []
    for f in findings:
        where = f"{source_name}:{f.line}" if f.line else source_name
        severity = f.severity
        if color:
            severity = f"{_COLORS[f.severity]}{severity}{_RESET}"
            where = f"{_DIM}{where}{_RESET}"
        rule = f" [{f.rule}]" if f.rule else ""
        path = f" {f.path}:" if f.path else ""
        message = f.message.rstrip("\n").replace("\n", "\n    ")
        out.append(f"{where}: {severity}{rule}{path} {message}")
    counts = (
        f"{summary['errors']} error{'s' if summary['errors'] != 1 else ''}, "
        f"{summary['warnings']} warning{'s' if summary['warnings'] != 1 else ''}, "
        f"{summary['infos']} info{'s' if summary['infos'] != 1 else ''}"
    )
    if out:
        out.append("")
    out.append(counts)
    return text_safe("\n".join(out) + "\n")
