"""Assemble every page model of a design system, in navigation order."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pinup.docsite.colors import build_colors
from pinup.docsite.components import build_components
from pinup.docsite.downloads import build_downloads
from pinup.docsite.extras import build_extras
from pinup.docsite.guidance import build_guidance
from pinup.docsite.lintpage import build_lint
from pinup.docsite.models import SiteModel
from pinup.docsite.overview import build_overview
from pinup.docsite.pagekeys import model_keys
from pinup.docsite.problems import fallback_name, find_problems
from pinup.docsite.scales import build_elevation, build_layout, build_shapes
from pinup.docsite.search import build_search
from pinup.docsite.sources import Sources
from pinup.docsite.typography import build_typography
from pinup.theme import build_theme

if TYPE_CHECKING:  # pragma: no cover
    from pinup.designmd.model import LintReport
    from pinup.docsite.fonts import FontPlan


def build_site_model(
    report: LintReport, *, allow_html: bool = False, fonts: str = "system", font_plan: FontPlan | None = None
) -> SiteModel:
    """Every page of the site for one linted DESIGN.md (pure: no files are touched).

    Lint with `extended=True` (as `pinup build` does) so the lint page and the
    banner include pinup's own findings. `font_plan` says which named fonts are
    embedded from the workspace's `fonts/` (`pinup.docsite.fonts.plan_fonts`).
    """
    src = Sources(report, allow_html=allow_html)
    theme = build_theme(report.design, fonts=fonts)
    pages = [
        build_overview(src, theme),
        build_colors(src),
        build_typography(src, font_plan),
        build_layout(src),
        build_elevation(src),
        build_shapes(src),
        build_components(src, theme),
        build_guidance(src),
    ]
    extras = build_extras(src)
    if extras.sections or extras.groups:
        pages.append(extras)
    pages.append(build_downloads(src))
    pages.append(build_lint(src))
    site = SiteModel(
        name=fallback_name(report, src.source_name),
        pages=pages,
        search=build_search(src, pages),
        errors=report.summary.errors,
        warnings=report.summary.warnings,
        has_dark=theme.dark_from_tokens,
        dark_default=theme.dark_default,
        extra={"theme": theme},
        problems=find_problems(report),
    )
    site.page_keys = model_keys(site)  # kept with the cached model: a warm build need not hash pages
    return site
