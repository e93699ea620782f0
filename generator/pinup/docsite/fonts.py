"""Brand fonts from the workspace's `fonts/` folder, embedded in the site (never fetched from a CDN).

A family the DESIGN.md names is embedded when `fonts/` holds a WOFF2 file for it
(`fonts/Inter.woff2`, `fonts/Inter-Bold.woff2`, `fonts/InterVariable.woff2`, ...).
Files are checked before use: a file that is not WOFF2, too large, or a path that
leads out of the workspace (a symlink) becomes a lint finding with the line of the
typography level that names the family, never a traceback. Everything else falls
back to the metric-compatible stack `pinup.theme.font_stack` writes, and the
typography page says which.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from pinup.designmd.model import DesignSystem, Finding, LintReport

WOFF2_MAGIC = b"wOF2"
MAX_FONT_BYTES = 4 * 1024 * 1024
RULE = "font-file"
_WEIGHTS = {
    "thin": 100,
    "hairline": 100,
    "extralight": 200,
    "ultralight": 200,
    "light": 300,
    "regular": 400,
    "normal": 400,
    "book": 400,
    "roman": 400,
    "medium": 500,
    "semibold": 600,
    "demibold": 600,
    "bold": 700,
    "extrabold": 800,
    "ultrabold": 800,
    "heavy": 900,
    "black": 900,
}
_STYLE_WORDS = ("variable", "vf", "italic", "oblique", "webfont", "web", "latin", "subset")
_ALNUM = re.compile(r"[^a-z0-9]+")


def family_key(name: str) -> str:
    return _ALNUM.sub("", name.lower())


@dataclass(slots=True)
class FontFace:
    """One embedded file: `@font-face` for `family`, written to `assets/fonts/<filename>`."""

    family: str
    filename: str
    data: bytes
    weight: str  # "400" or "100 900" for a variable font
    style: str = "normal"

    def css(self) -> str:
        return (
            f'@font-face{{font-family:"{self.family}";src:url("fonts/{self.filename}") format("woff2");'
            f"font-weight:{self.weight};font-style:{self.style};font-display:swap}}"
        )


@dataclass(slots=True)
class FontPlan:
    """What the site does with each named family, and what went wrong on the way."""

    faces: list[FontFace] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    embedded: dict[str, str] = field(default_factory=dict)  # family -> "fonts/Inter.woff2, ..."

    def css(self) -> str:
        return "\n".join(face.css() for face in self.faces)


def _describe(stem: str) -> tuple[str, str, str]:
    """File stem -> (family key, weight, style): `Inter-SemiBoldItalic` -> ("inter", "600", "italic")."""
    low = stem.lower()
    style = "italic" if "italic" in low or "oblique" in low else "normal"
    variable = "variable" in low or re.search(r"(^|[^a-z])vf($|[^a-z])", low) or "[wght" in low
    words = [w for w in re.split(r"[^a-z0-9]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", stem).lower()) if w]
    weight = "100 900" if variable else "400"
    merged: list[str] = []
    for word in words:  # "semi" + "bold" -> "semibold"
        if merged and (merged[-1] + word).replace("italic", "") in _WEIGHTS:
            merged[-1] += word
        else:
            merged.append(word)
    kept = []
    for word in merged:
        bare = word.replace("italic", "").replace("oblique", "")
        if bare in _WEIGHTS:
            weight = weight if variable else str(_WEIGHTS[bare])
        elif bare.isdigit() and len(bare) == 3 and not variable:
            weight = bare
        elif bare and bare not in _STYLE_WORDS and not bare.startswith("wght"):
            kept.append(bare)
    return "".join(kept), weight, style


def _named_families(design: DesignSystem) -> dict[str, tuple[str, int | None, str]]:
    """Family key -> (family as written, line and path of the first typography level that names it)."""
    from pinup.theme import GENERIC_FAMILIES, _family_names

    found: dict[str, tuple[str, int | None, str]] = {}
    for level, typo in design.typography.items():
        line = design.lines.get(f"typography.{level}.fontFamily") or design.lines.get(f"typography.{level}")
        for name in _family_names(typo.fontFamily):
            if name.lower() not in GENERIC_FAMILIES and not name.startswith("-"):
                found.setdefault(family_key(name), (name, line, f"typography.{level}"))
    return found


def plan_fonts(workspace: Path | None, design: DesignSystem) -> FontPlan:
    """Match `workspace/fonts/*.woff2` to the families the typography names; check every candidate."""
    plan = FontPlan()
    if workspace is None:
        return plan
    folder = workspace / "fonts"
    if not folder.exists():
        return plan
    families = _named_families(design)
    first_line = next((line for _, line, _ in families.values() if line), None)
    root = workspace.resolve()

    from pinup.designmd.model import Finding

    def finding(message: str, line: int | None, path: str | None = None) -> None:
        plan.findings.append(
            Finding(severity="warning", path=path, message=message, rule=RULE, line=line or first_line)
        )

    resolved = folder.resolve()
    if not resolved.is_relative_to(root):
        finding(f"fonts/ leads outside the workspace (to {resolved}); its files are not read.", first_line)
        return plan
    if not resolved.is_dir():
        return plan
    used: set[str] = set()
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() not in (".woff2", ".woff", ".ttf", ".otf"):
            continue
        key, weight, style = _describe(path.stem)
        if key not in families:
            continue
        family, line, level_path = families[key]
        rel = f"fonts/{path.name}"
        real = path.resolve()
        if not real.is_relative_to(root):
            finding(f"{rel} leads outside the workspace (to {real}); it is not read.", line, level_path)
            continue
        if path.suffix.lower() != ".woff2":
            finding(
                f"{rel} is not WOFF2: convert it to .woff2 to embed {family} (the site uses the fallback).",
                line,
                level_path,
            )
            continue
        try:
            size = real.stat().st_size
            if size > MAX_FONT_BYTES:
                finding(
                    f"{rel} is {size // 1024} KB, more than {MAX_FONT_BYTES // 1024 // 1024} MB: not embedded.",
                    line,
                    level_path,
                )
                continue
            data = real.read_bytes()
        except OSError as exc:
            finding(f"{rel} cannot be read ({exc.strerror or exc}); {family} uses the fallback.", line, level_path)
            continue
        if not data.startswith(WOFF2_MAGIC):
            finding(
                f"{rel} is not a WOFF2 font (it does not start with 'wOF2'); {family} uses the fallback.",
                line,
                level_path,
            )
            continue
        filename = f"{key}-{weight.replace(' ', '-')}-{style}.woff2"
        if filename in used:
            continue
        used.add(filename)
        plan.faces.append(FontFace(family, filename, data, weight, style))
        plan.embedded[family] = ", ".join(filter(None, [plan.embedded.get(family), rel]))
    return plan


def add_findings(report: LintReport, plan: FontPlan) -> FontPlan:
    """Put the plan's findings in the report, so the lint page, the banner and `--strict` see them."""
    report.findings.extend(plan.findings)
    report.summary.warnings += len(plan.findings)
    return plan


def fonts_fingerprint(workspace: Path | None) -> str:
    """Names, sizes and mtimes of `fonts/`: a changed font must rebuild the site."""
    if workspace is None or not (workspace / "fonts").is_dir():
        return ""
    parts = []
    for path in sorted((workspace / "fonts").iterdir()):
        try:
            st = path.stat()
        except OSError:
            continue
        parts.append(f"{path.name}:{st.st_size}:{st.st_mtime_ns}")
    return "|fonts:" + ",".join(parts)
