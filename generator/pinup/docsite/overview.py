"""The overview page: name, description, the Overview prose and a summary of what the system holds."""

from __future__ import annotations

import re

from pinup.docsite.models import OverviewPage, Stat
from pinup.docsite.problems import fallback_name, find_problems
from pinup.docsite.sources import Sources
from pinup.theme import Theme

_H1 = re.compile(r"^\s*#\s+[^\n]*\n?")


def build_overview(src: Sources, theme: Theme) -> OverviewPage:
    design = src.design
    preamble = _H1.sub("", design.preamble, count=1) if design.preamble.lstrip().startswith("# ") else design.preamble
    summary = src.report.summary
    stats = [
        Stat("Colors", len(design.colors), "colors"),
        Stat("Type levels", len(design.typography), "typography"),
        Stat("Spacing steps", len(design.spacing), "layout"),
        Stat("Radii", len(design.rounded), "shapes"),
        Stat("Components", len(design.components), "components"),
    ]
    has_dark = theme.dark_from_tokens
    problems = find_problems(src.report)
    return OverviewPage(
        slug="index",
        title="Overview",
        template="index.html",
        prose_html=src.section_html("Overview"),
        name=fallback_name(src.report, src.source_name),
        description=design.description or "",
        version=str(design.version) if design.version is not None else "",
        preamble_html=src.markdown(preamble),
        stats=stats,
        errors=summary.errors,
        warnings=summary.warnings,
        infos=summary.infos,
        theme_notes=list(theme.fallbacks),
        has_dark=has_dark,
        yaml_message=problems.yaml_message,
        yaml_line=problems.yaml_line,
    )
