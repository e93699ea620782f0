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
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, get_plugin_logger
from mkdocs.structure.files import File, Files

log = get_plugin_logger(__name__)

#: assets the embedded pages need (no site chrome: the MkDocs theme provides it)
EMBED_ASSETS = ("pinup.css", "site.js")


class PinupConfig(base.Config):
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


class PinupPlugin(BasePlugin[PinupConfig]):
    """Design-system pages from a DESIGN.md, inside an existing MkDocs site."""

    def __init__(self) -> None:
        self.site: Any = None
        self.design_path: Path | None = None
        self._pages: dict[str, Any] = {}

    @property
    def folder(self) -> str:
        return self.config.path.strip("/") or "design-system"

    def _uri(self, slug: str) -> str:
        return f"{self.folder}/{slug}.md"

    def on_config(self, config: Any) -> Any:
        from pinup.designmd.lint import lint_path
        from pinup.docsite.pages import build_site_model

        root = Path(config.config_file_path or ".").resolve().parent
        path = Path(self.config.design_md)
        self.design_path = path if path.is_absolute() else root / path
        if not self.design_path.is_file():
            raise PluginError(f"pinup: design_md not found: {self.design_path}")
        report = lint_path(self.design_path, extended=True)  # the lint page lists extended findings too
        if report.summary.errors:
            log.info("%s has %d lint errors (see the lint report page)", self.design_path, report.summary.errors)
        self.site = build_site_model(report, allow_html=self.config.allow_html)
        self._pages = {self._uri(p.slug): p for p in self.site.pages}
        for asset in ("theme.css", "pinup.css"):
            uri = f"{self.folder}/assets/{asset}"
            if uri not in config.extra_css:
                config.extra_css.append(uri)
        js = f"{self.folder}/assets/site.js"
        if js not in [str(x) for x in config.extra_javascript]:
            config.extra_javascript.append(js)
        if config.nav is not None:
            config.nav.append({self.config.section: [{p.title: self._uri(p.slug)} for p in self.site.pages]})
        return config

    def on_files(self, files: Files, config: Any) -> Files:
        from pinup.docsite.render import static_asset
        from pinup.theme import css_for_theme

        tpl = self.config.templates
        for uri, page in self._pages.items():
            files.append(File.generated(config, uri, content=f"# {page.title}\n"))
        theme = css_for_theme(
            self.site.extra["theme"], auto_dark=False,
            dark_selectors=("[data-theme=dark]", "[data-md-color-scheme=slate]"),
        )
        files.append(File.generated(config, f"{self.folder}/assets/theme.css", content=theme))
        for name in EMBED_ASSETS:
            files.append(File.generated(config, f"{self.folder}/assets/{name}", content=static_asset(name, tpl)))
        downloads = self.site.page("downloads")
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
            self._add_gallery(files, config)
        return files

    def _add_gallery(self, files: Files, config: Any) -> None:
        """`pinup gallery` into memory, each file added as-is (static HTML, linkable from Markdown)."""
        from pinup.gallery import list_brands, write_gallery
        from pinup.output import MemoryWriter

        folder = self.config.gallery.strip("/")
        memory = MemoryWriter()
        write_gallery(memory, list_brands())
        for rel, data in memory.files.items():
            uri = f"{folder}/{rel}"
            src = uri + ".download" if uri.endswith(".md") else uri
            f = File.generated(config, src, content=data)
            f.dest_uri = uri
            files.append(f)

    def on_page_content(self, html: str, page: Any, config: Any, files: Files) -> str | None:
        model = self._pages.get(page.file.src_uri)
        if model is None:
            return html
        from pinup.docsite.render import render_fragment

        links = MkDocsLinks(page.url, self.folder, bool(config.use_directory_urls))
        body = render_fragment(self.site, model, links, templates=self.config.templates)
        return f'<div class="pinup-embed">{body}</div>'

    def on_serve(self, server: Any, config: Any, builder: Any) -> Any:
        if self.design_path is not None:
            server.watch(str(self.design_path))
        return server


__all__ = ["PinupPlugin", "MkDocsLinks"]
