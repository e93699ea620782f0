"""Token exports of a DESIGN.md model: one module per format.

`render` returns exactly what the reference CLI (`@google/design.md` 0.4.0)
prints on stdout for the Tailwind and CSS-variable formats; `dtcg` is pinup's
own, valid DTCG 2025.10 output (see docs/exports.md). Format modules are
imported lazily so `pinup lint` never pays for them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING

from pinup.designmd.formats import FORMATS, JSON_FORMATS, MODE_FORMATS
from pinup.designmd.formats import MODULES as _MODULES

if TYPE_CHECKING:
    from pinup.designmd.model import DesignSystem


class ExportError(Exception):
    """An export that cannot be produced; `code` and `message` as the reference prints them."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> str:
        """The one-line JSON the reference writes to stderr: `{"error":CODE,"message":...}`."""
        return json.dumps({"error": self.code, "message": self.message}, ensure_ascii=False, separators=(",", ":"))


@dataclass(slots=True)
class ExportResult:
    """The exported text plus notes about values that were converted, filled in or left out."""

    text: str
    warnings: list[str] = field(default_factory=list)


def check_format(fmt: str) -> None:
    """Raise INVALID_FORMAT for an unknown format (the reference checks before reading the file)."""
    if fmt not in _MODULES:
        raise ExportError(
            "INVALID_FORMAT",
            f'Invalid format "{fmt}". Valid formats: {", ".join(FORMATS)}',
        )


def render_result(fmt: str, design: DesignSystem, *, prefix: str | None = None, modes: bool = False) -> ExportResult:
    """Export `design` as `fmt`, returning the text and any warnings (only dtcg has warnings).

    `modes` adds the other modes' values (a design built with modes; see docs/exports.md).
    Without it every format prints what the reference prints.
    """
    check_format(fmt)
    module = import_module(f"{__name__}.{_MODULES[fmt]}")
    if fmt == "css-vars":
        return ExportResult(module.render(design, prefix=prefix, modes=modes))
    if fmt == "dtcg":
        result: ExportResult = module.render_result(design, modes=modes)
        return result
    if fmt == "css-tailwind":
        return ExportResult(module.render(design, modes=modes))
    return ExportResult(module.render(design))


def render(fmt: str, design: DesignSystem, *, prefix: str | None = None, modes: bool = False) -> str:
    """Export `design` as `fmt`: the exact text the reference prints on stdout (trailing newlines included)."""
    return render_result(fmt, design, prefix=prefix, modes=modes).text


__all__ = [
    "FORMATS",
    "JSON_FORMATS",
    "MODE_FORMATS",
    "ExportError",
    "ExportResult",
    "check_format",
    "render",
    "render_result",
]
