"""The `pinup` MkDocs plugin: adds a DESIGN.md's design-system pages to any MkDocs site.

```yaml
plugins:
  - search
  - pinup:
      design_md: DESIGN.md        # relative to mkdocs.yml
      section: Design system      # nav section title
```

It builds the same page models as `pinup build` and renders each page's
`content` block with the same Jinja2 templates (`render_fragment`), so the
standalone site and the MkDocs pages cannot drift apart. Pages are added as
generated files (`<path>/index.md`, `<path>/colors.md`, ...) whose body is
replaced in `on_page_content`; assets and downloads are generated files too.

The pages keep the site's own order (Overview, Colors, Typography, ...) in the
navigation, also when MkDocs builds the navigation itself (no `nav:`), which
would otherwise sort them alphabetically. Under mkdocs-material the notes and
banners become Material admonitions and Material's palette takes the brand's
colours (light and dark: `slate`), so the embedded pages look like the rest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, get_plugin_logger
from mkdocs.structure.files import File, Files

from pinup.buildcache import BuildCache, using

if TYPE_CHECKING:  # pragma: no cover
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.livereload import LiveReloadServer
    from mkdocs.structure.nav import Navigation
    from mkdocs.structure.pages import Page as MkDocsPage

    from pinup.docsite.models import Page, SiteModel

log = get_plugin_logger(__name__)

#: assets the embedded pages need (no site chrome: the MkDocs theme provides it)
EMBED_ASSETS = ("pinup.css", "site.js")

#: Material's palette variables, taken from the brand (pinup's variables follow light/dark).
MATERIAL_CSS = """/* pinup: mkdocs-material in the brand's colours (light and slate) */
:root, [data-md-color-scheme], [data-md-color-primary], [data-md-color-accent] {
  --md-primary-fg-color: var(--pinup-primary);
  --md-primary-fg-color--light: var(--pinup-primary);
  --md-primary-fg-color--dark: var(--pinup-primary);
  --md-primary-bg-color: var(--pinup-on-primary);
  --md-primary-bg-color--light: var(--pinup-on-primary);
  --md-accent-fg-color: var(--pinup-link);
  --md-typeset-a-color: var(--pinup-link);
}
.md-typeset .pinup-embed .admonition { font-size: inherit; }
"""

# pinup's own notes -> Material's admonitions (the pinup classes stay, for pinup.css and scripts)
_MATERIAL_CLASSES = (
    (
        re.compile(r'<div class="pinup-banner pinup-banner-error"'),
        '<div class="admonition danger pinup-banner pinup-banner-error"',
    ),
    (re.compile(r'<div class="pinup-banner"'), '<div class="admonition info pinup-banner"'),
    # an unclosed note takes the rest of the page and is left as it is (each one was scanned to the end)
    (re.compile(r'<p class="pinup-note">(.*?)(</p>|\Z)', re.S), lambda m: _note(m) if m.group(2) else m.group(0)),
    (re.compile(r'<div class="pinup-guidance"'), '<div class="admonition tip pinup-guidance"'),
    (re.compile(r'<details class="pinup-props-box"'), '<details class="info pinup-props-box"'),
    (re.compile(r'<details class="pinup-prose-box"'), '<details class="abstract pinup-prose-box"'),
)


def _note(match: re.Match[str]) -> str:
    return f'<div class="admonition note pinup-note"><p>{match.group(1)}</p></div>'


def materialize(body: str) -> str:
    """The embedded fragment with Material's admonition and details classes added."""
    for pattern, replacement in _MATERIAL_CLASSES:
        body = pattern.sub(replacement, body)
    return body


def _is_material(config: Any) -> bool:
    theme = getattr(config, "theme", None)
    return getattr(theme, "name", None) == "material"


class PinupConfig(base.Config):  # type: ignore[no-untyped-call]  # MkDocs' __init_subclass__
    design_md = c.Type(str, default="DESIGN.md")
    section = c.Type(str, default="Design system")
    path = c.Type(str, default="design-system")
    allow_html = c.Type(bool, default=False)
    templates = c.Optional(c.Type(str))
    gallery = c.Optional(c.Type(str))  # e.g. "gallery": every bundled brand's site under gallery/


@dataclass
class MkDocsLinks:
    """Relative links from one generated page to the others, honouring use_directory_urls."""

    page_url: str
    folder: str
    directory_urls: bool

    def _rel(self, target: str) -> str:
        from mkdocs.utils import get_relative_url

        return get_relative_url(target, self.page_url or ".")

    def page(self, slug: str, anchor: str = "") -> str:
        if slug == "index":
            target = f"{self.folder}/"
        else:
            target = f"{self.folder}/{slug}/" if self.directory_urls else f"{self.folder}/{slug}.html"
        url = self._rel(target)
        if target.endswith("/") and not url.endswith("/"):
            url += "/"
        return f"{url}#{anchor}" if anchor else url

    def asset(self, name: str) -> str:
        return self._rel(f"{self.folder}/assets/{name}")

    def download(self, filename: str) -> str:
        return self._rel(f"{self.folder}/downloads/{filename}")


class PinupPlugin(BasePlugin[PinupConfig]):  # type: ignore[no-untyped-call]  # MkDocs' __init_subclass__
    """Design-system pages from a DESIGN.md, inside an existing MkDocs site."""

    def __init__(self) -> None:
        #: what one build keeps for the next: `mkdocs serve` rebuilds with the same plugin
        self.cache = BuildCache()
        self.site: SiteModel | None = None
        self.design_path: Path | None = None
        self._pages: dict[str, Page] = {}

    @property
    def folder(self) -> str:
        return self.config.path.strip("/") or "design-system"

    def _site(self) -> SiteModel:
        """The page models `on_config` made (MkDocs calls every other hook after it)."""
        if self.site is None:
            raise PluginError("pinup: the plugin's on_config did not run")
        return self.site

    def _uri(self, slug: str) -> str:
        return f"{self.folder}/{slug}.md"

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        root = Path(config.config_file_path or ".").resolve().parent
        path = Path(self.config.design_md)
        self.design_path = path if path.is_absolute() else root / path
        if not self.design_path.is_file():
            raise PluginError(f"pinup: design_md not found: {self.design_path}")
        self.site = site = self._site_model(self.design_path)
        if site.errors:
            log.info("%s has %d lint errors (see the lint report page)", self.design_path, site.errors)
        self._pages = {self._uri(p.slug): p for p in site.pages}
        assets = ("theme.css", "pinup.css", "material.css") if _is_material(config) else ("theme.css", "pinup.css")
        for asset in assets:
            uri = f"{self.folder}/assets/{asset}"
            if uri not in config.extra_css:
                config.extra_css.append(uri)
        js = f"{self.folder}/assets/site.js"
        if js not in [str(x) for x in config.extra_javascript]:
            config.extra_javascript.append(js)
        if config.nav is not None:
            config.nav.append({self.config.section: [{p.title: self._uri(p.slug)} for p in site.pages]})
        return config

    def _site_model(self, design_path: Path) -> SiteModel:
        """The page models, from pinup's build cache when this DESIGN.md was built before.

        `mkdocs serve` calls `on_config` again after every edit of any page of the docs: an
        unchanged DESIGN.md is then neither linted nor modelled again, and a new `mkdocs build`
        after a token edit reads none of its unchanged prose (`pinup.sitecache.cached`).
        """
        from pinup.build import lint_design
        from pinup.docsite.pages import build_site_model
        from pinup.sitecache import cached

        try:
            data = design_path.read_bytes()
        except OSError as exc:
            raise PluginError(f"pinup: cannot read {design_path}: {exc.strerror or exc}") from None
        allow_html = bool(self.config.allow_html)

        def make() -> SiteModel:
            # the lint page lists extended findings too
            return build_site_model(lint_design(design_path, data), allow_html=allow_html)

        with using(self.cache):
            return cached(data, f"mkdocs|{allow_html}", make, design_path)

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        from pinup.docsite.render import static_asset
        from pinup.theme import css_for_theme

        tpl = self.config.templates
        site = self._site()
        for uri, page in self._pages.items():
            files.append(File.generated(config, uri, content=f"# {page.title}\n"))
        theme = css_for_theme(
            site.extra["theme"],
            auto_dark=False,
            dark_selectors=("[data-theme=dark]", "[data-md-color-scheme=slate]"),
        )
        files.append(File.generated(config, f"{self.folder}/assets/theme.css", content=theme))
        for name in EMBED_ASSETS:
            files.append(File.generated(config, f"{self.folder}/assets/{name}", content=static_asset(name, tpl)))
        if _is_material(config):
            files.append(File.generated(config, f"{self.folder}/assets/material.css", content=MATERIAL_CSS))
        downloads = site.page("downloads")
        for item in getattr(downloads, "files", []):
            if item.content is None:
                continue
            dest = f"{self.folder}/downloads/{item.filename}"
            # a generated `.md` would become a page: give it another source name, same destination
            src = dest + ".download" if dest.endswith(".md") else dest
            f = File.generated(config, src, content=item.content)
            f.dest_uri = dest
            files.append(f)
        if self.config.gallery:
            self._add_gallery(files, config, self.config.gallery.strip("/"))
        return files

    def _add_gallery(self, files: Files, config: MkDocsConfig, folder: str) -> None:
        """`pinup gallery` into memory, each file added as-is (static HTML, linkable from Markdown)."""
        from pinup.gallery import list_brands, write_gallery
        from pinup.output import MemoryWriter

        memory = MemoryWriter()
        with using(self.cache):
            write_gallery(memory, list_brands())
        for rel, data in memory.files.items():
            uri = f"{folder}/{rel}"
            src = uri + ".download" if uri.endswith(".md") else uri
            f = File.generated(config, src, content=data)
            f.dest_uri = uri
            files.append(f)

    def on_page_content(self, html: str, page: MkDocsPage, config: MkDocsConfig, files: Files) -> str | None:
        model = self._pages.get(page.file.src_uri)
        if model is None:
            return html
        from pinup.docsite.render import render_fragment

        links = MkDocsLinks(page.url, self.folder, bool(config.use_directory_urls))
        with using(self.cache):  # its Jinja environment, made for the first page, serves every other
            body = render_fragment(self._site(), model, links, templates=self.config.templates)
        if _is_material(config):
            body = materialize(body)
        return f'<div class="pinup-embed">{body}</div>'

    def on_nav(self, nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
        """Put the design-system pages in the site's order wherever MkDocs placed them."""
        order = {uri: i for i, uri in enumerate(self._pages)}

        def key(item: Any) -> int:
            uri = getattr(getattr(item, "file", None), "src_uri", None)
            return order.get(uri, -1) if isinstance(uri, str) else -1

        def visit(items: list[Any]) -> None:
            ours = [i for i, item in enumerate(items) if key(item) >= 0]
            for slot, item in zip(ours, sorted((items[i] for i in ours), key=key), strict=True):
                items[slot] = item
            for item in items:
                if getattr(item, "children", None):
                    visit(item.children)
                    if any(key(child) >= 0 for child in item.children) and item.title.lower() == self.folder.replace(
                        "-", " "
                    ):
                        item.title = self.config.section

        visit(nav.items)
        pages = [p for p in _flatten(nav.items) if getattr(p, "is_page", False)]
        for previous, current in zip([None, *pages], pages, strict=False):
            current.previous_page = previous
            if previous is not None:
                previous.next_page = current
        if pages:
            pages[-1].next_page = None
        nav.pages = pages
        return nav

    def on_serve(self, server: LiveReloadServer, config: MkDocsConfig, builder: Any) -> LiveReloadServer:
        if self.design_path is not None:
            server.watch(str(self.design_path))
        return server


def _flatten(items: list[Any]) -> list[Any]:
    out: list[Any] = []
    for item in items:
        out.append(item)
        out += _flatten(getattr(item, "children", None) or [])
    return out


__all__ = ["PinupPlugin", "MkDocsLinks", "materialize"]
