"""Render page models with Jinja2: whole pages for the standalone site, fragments for MkDocs.

Templates and static assets ship in the package (`pinup/templates/docsite`,
`pinup/static/docsite`); a `--templates DIR` is searched first, so any template
(by name, e.g. `colors.html` or `_header.html`) or asset (`assets/site.css`) can
be overridden. Autoescape is on: user text is always escaped; fields ending
in `_html` are produced by markdown-it (raw HTML escaped unless allowed).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pinup.docsite.pagekeys import chrome_of

if TYPE_CHECKING:  # pragma: no cover
    from typing import Protocol

    from jinja2 import Environment

    from pinup.docsite.models import Page, SiteModel

    class PageLinks(Protocol):
        """URLs as the templates ask for them: `Links` for the standalone site, `MkDocsLinks` inside MkDocs."""

        def page(self, slug: str, anchor: str = "") -> str: ...
        def asset(self, name: str) -> str: ...
        def download(self, filename: str) -> str: ...


PACKAGE_DIR = Path(__file__).resolve().parent.parent
TEMPLATE_DIR = PACKAGE_DIR / "templates" / "docsite"
STATIC_DIR = PACKAGE_DIR / "static" / "docsite"
#: static files every site gets under assets/
STATIC_ASSETS = ("site.css", "pinup.css", "site.js", "print.css")


@dataclass(slots=True)
class Links:
    """Relative URLs for the standalone site; every page lives at the output root."""

    root: str = ""

    def page(self, slug: str, anchor: str = "") -> str:
        url = f"{self.root}{slug}.html"
        return f"{url}#{anchor}" if anchor else url

    def asset(self, name: str) -> str:
        return f"{self.root}assets/{name}"

    def download(self, filename: str) -> str:
        return f"{self.root}downloads/{filename}"


def environment(templates: str | None = None) -> Environment:
    """The site's cached Jinja2 environment (`pinup.templating`: user templates first, then the packaged ones)."""
    from pinup.templating import SITE
    from pinup.templating import environment as shared

    return shared(SITE, str(TEMPLATE_DIR), templates)


def _context(
    site: SiteModel, page: Page, links: PageLinks, extra: dict[str, Any] | None, templates: str | None
) -> dict[str, Any]:
    """What a page's template gets: as `site`, pinup's templates get only the chrome every page shows
    (what a page's key covers: `pinup.docsite.pagekeys`); user templates get the whole site model."""
    chrome = chrome_of(site)
    nav = [(slug, title, links.page(slug), slug == page.slug) for slug, title in chrome.nav]
    shown = site if templates else chrome
    ctx = {"site": shown, "page": page, "nav": nav, "links": links, "standalone": True, "google_fonts_url": None}
    ctx.update(extra or {})
    return ctx


def render_page(
    site: SiteModel,
    page: Page,
    links: PageLinks | None = None,
    *,
    templates: str | None = None,
    extra: dict[str, Any] | None = None,
) -> str:
    """A whole HTML document for `page`."""
    links = links or Links()
    template = environment(templates).get_template(page.template)
    return template.render(_context(site, page, links, extra, templates))


def render_fragment(
    site: SiteModel, page: Page, links: PageLinks, *, templates: str | None = None, extra: dict[str, Any] | None = None
) -> str:
    """Only the page's `content` block: the same markup, for embedding (the MkDocs plugin)."""
    from pinup.templating_template import new_build

    new_build()  # no writer around it: each fragment checks its templates' files, as Jinja does
    template = environment(templates).get_template(page.template)
    ctx = template.new_context({**_context(site, page, links, extra, templates), "standalone": False})
    return "".join(template.blocks["content"](ctx))


def static_asset(name: str, templates: str | None = None) -> bytes:
    """A packaged asset, or the user's override from `<templates>/assets/<name>`."""
    from pinup.templating import SITE, asset_override, packaged_file

    override = asset_override(SITE, name, templates)
    if override is not None:
        return override
    return packaged_file(STATIC_DIR / name)
