"""`pinup build`: lint the workspace's DESIGN.md, write the design-system site, then boards and results.

One orchestrator so the CLI, `pinup serve` and the gallery build the same way:
1. `lint_path(src/DESIGN.md)` (a malformed file still builds; its findings show on the lint page),
2. the site pages and assets -> out/,
3. `pinup.boards.build.build_boards(...)` -> out/boards/ (a board whose inputs did not change is kept
   unrendered: `pinup.boards.reuse`),
4. only when asked (`--results`, or a `--store` to read): `pinup.hosted.results.build_results_pages(...)`
   -> out/boards/<slug>/results.html. A plain build never reads the feedback store.
All files go through one `OutputWriter`, so unchanged outputs are skipped by hash. The build
manifest records the workspace (`src`) and the endpoint the boards post to (`apiUrl`), so
`pinup serve` and a later `pinup build` know what the folder holds without reading its pages.
"""

from __future__ import annotations

import gc
import hashlib
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pinup.buildcache import BuildCache, using
from pinup.buildoptions import BuildError, BuildOptions
from pinup.codeprint import code_fingerprint

if TYPE_CHECKING:  # pragma: no cover
    from pinup.designmd.model import LintReport
    from pinup.docsite.fonts import FontPlan
    from pinup.docsite.models import SiteModel
    from pinup.output import FileSink

Progress = Callable[[str, int, int], None]


@dataclass(slots=True)
class BuildResult:
    """What a build produced; `ok` is False only when --strict and the DESIGN.md has errors or warnings."""

    report: LintReport
    out: Path
    pages: list[str] = field(default_factory=list)
    boards: list[Path] | None = None
    results: list[Path] | None = None
    written: int = 0
    skipped: int = 0
    removed: int = 0
    seconds: float = 0.0
    strict: bool = False
    changed: list[str] = field(default_factory=list)
    build_id: str = ""

    @property
    def errors(self) -> int:
        return self.report.summary.errors

    @property
    def warnings(self) -> int:
        return self.report.summary.warnings

    @property
    def ok(self) -> bool:
        return not (self.strict and (self.errors or self.warnings))  # extended findings included


def design_path(src: Path) -> Path:
    """SRC may be a workspace folder or a DESIGN.md file."""
    return src if src.is_file() else src / "DESIGN.md"


def read_design(path: Path) -> bytes:
    """The DESIGN.md's bytes; a missing or unreadable file is a BuildError (one clear line, no traceback)."""
    if not path.is_file():
        raise BuildError(f"no DESIGN.md at {path}")
    try:
        return path.read_bytes()
    except OSError as exc:
        raise BuildError(f"cannot read {path}: {exc}") from exc


def lint_design(path: Path, data: bytes | None = None) -> LintReport:
    """Lint the DESIGN.md (`data`: its bytes, when the caller already read them, e.g. to hash them).

    Linting the bytes that were hashed means a cache entry always matches its key, even
    when the file changes during the build.
    """
    from pinup.designmd.lint import lint_text

    if data is None:
        data = read_design(path)
    # the site lists pinup's findings too
    return lint_text(data.decode("utf-8", errors="replace"), extended=True)


def site_fingerprint(design_bytes: bytes, *, allow_html: bool, fonts: str, templates: Path | None) -> str:
    """Same fingerprint -> same site: the build can keep the previous pages without rendering."""
    h = hashlib.sha256(design_bytes)
    h.update(f"|{allow_html}|{fonts}|{code_fingerprint(str(templates) if templates else None)}".encode())
    return h.hexdigest()


def write_pages(
    site: SiteModel,
    writer: FileSink,
    *,
    templates: Path | None = None,
    progress: Progress | None = None,
    has_boards: bool = False,
    font_plan: FontPlan | None = None,
) -> None:
    """Write a built site model: its pages, assets, search index, downloads (and embedded fonts).

    Pages the previous build into the same folder rendered from the same inputs are kept
    (`pinup.docsite.pagekeys`; `FileSink.keep`), so a one-token edit renders a few pages.
    """
    from pinup.docsite.favicon import favicon_svg
    from pinup.docsite.pagekeys import render_key
    from pinup.docsite.render import STATIC_ASSETS, Links, render_page, static_asset
    from pinup.docsite.search import search_index_js
    from pinup.theme import css_for_theme

    tpl = str(templates) if templates else None
    links = Links()
    total = len(site.pages)
    extra = {"boards_href": "boards/index.html"} if has_boards else None
    code = code_fingerprint()
    for i, page in enumerate(site.pages, start=1):
        # a page whose model, chrome and templates did not change is kept, not rendered
        key = None if tpl else render_key(site, page.slug, code=code, options=repr(extra))
        if key is None or not writer.keep(page.filename, key):
            writer.write_text(page.filename, render_page(site, page, links, templates=tpl, extra=extra), key)
        if progress:
            progress(page.filename, i, total)
    faces = font_plan.faces if font_plan is not None else []  # brand fonts from the workspace's fonts/
    for face in faces:
        writer.write_bytes(f"assets/fonts/{face.filename}", face.data)
    writer.write_text("assets/theme.css", "".join(f.css() + "\n" for f in faces) + css_for_theme(site.extra["theme"]))
    writer.write_text("assets/favicon.svg", favicon_svg(site.extra["theme"], site.name))
    for name in STATIC_ASSETS:
        writer.write_bytes(f"assets/{name}", static_asset(name, tpl))
    hrefs = {p.slug: links.page(p.slug) for p in site.pages}
    writer.write_text("assets/search-index.js", search_index_js(site.search, hrefs))
    downloads = site.page("downloads")
    for item in getattr(downloads, "files", []):
        if item.content is not None:
            writer.write_bytes(f"downloads/{item.filename}", item.content)


def _fonts_key(workspace: Path, font_plan: FontPlan) -> str:
    """The fonts the pages depend on: the `fonts/` listing and the bytes of every embedded face."""
    from pinup.docsite.fonts import fonts_fingerprint

    h = hashlib.sha256(fonts_fingerprint(workspace).encode())
    for face in getattr(font_plan, "faces", []):
        h.update(f"{face.filename}:{len(face.data)}:".encode())
        h.update(face.data)
    return h.hexdigest()


@contextmanager
def paused_gc() -> Iterator[None]:
    """Run a build without the cyclic garbage collector (re-enabled after it, if it was on).

    A build makes about a million short-lived objects (page strings, template frames, page
    models) that reference counting frees; the collector's passes over them found nothing to
    free and cost a few per cent of a warm build. Cycles made meanwhile are collected later.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def build_all(
    options: BuildOptions, *, progress: Progress | None = None, cache: BuildCache | None = None
) -> BuildResult:
    """Build the whole site for one workspace: pages, boards, results.

    `cache`: what earlier builds kept (`pinup serve` holds one for all its rebuilds); None: the one
    of the build under way, else a new one (a plain `pinup build`)."""
    with using(cache), paused_gc():
        return _build_all(options, progress)


def _build_all(options: BuildOptions, progress: Progress | None) -> BuildResult:
    from pinup.output import OutputPathError, OutputWriter

    started = time.perf_counter()
    src = options.src
    if not src.exists():
        raise BuildError(f"workspace not found: {src}")
    workspace = src.parent if src.is_file() else src
    design_bytes = read_design(design_path(src))
    report = lint_design(design_path(src), design_bytes)
    from pinup.docsite.fonts import add_findings, fonts_fingerprint, plan_fonts

    font_plan = add_findings(report, plan_fonts(workspace, report.design))
    try:
        writer = OutputWriter(options.out, clean=options.clean)
    except OutputPathError as exc:
        raise BuildError(str(exc)) from exc
    writer.info = {"src": str(workspace.resolve()), "apiUrl": options.api_url or ""}
    result = BuildResult(report=report, out=options.out, strict=options.strict)
    fingerprint = site_fingerprint(
        design_bytes, allow_html=options.allow_html, fonts=options.fonts, templates=options.templates
    ) + fonts_fingerprint(workspace)
    has_boards = any((workspace / "boards").glob("*/board.yaml"))
    if has_boards:
        fingerprint += "+boards"
    shown: object = None  # what the boards show of the DESIGN.md (`pinup.boards.reuse.shown_fingerprint`)
    theme: str | None = None
    with writer:
        meta = writer.reuse("site", fingerprint)
        if meta is not None:
            pages = meta.get("pages", [])
            result.pages = [str(p) for p in pages] if isinstance(pages, list) else []
            shown = meta.get("boards")
        else:
            from jinja2 import TemplateError, TemplateSyntaxError

            from pinup.docsite.pages import build_site_model
            from pinup.sitecache import cached

            with writer.group("site", fingerprint) as meta:
                try:
                    site = cached(
                        design_bytes,
                        f"site|{options.allow_html}|{options.fonts}|{_fonts_key(workspace, font_plan)}",
                        lambda: build_site_model(
                            report, allow_html=options.allow_html, fonts=options.fonts, font_plan=font_plan
                        ),
                        design_path(src),
                    )
                    write_pages(
                        site,
                        writer,
                        templates=options.templates,
                        progress=progress,
                        has_boards=has_boards,
                        font_plan=font_plan,
                    )
                except TemplateError as exc:
                    where = ""
                    if isinstance(exc, TemplateSyntaxError) and exc.filename:
                        where = f" ({exc.filename}:{exc.lineno})"
                    raise BuildError(f"template error{where}: {exc.message or exc}") from exc
                result.pages = [p.filename for p in site.pages]
                meta["pages"] = result.pages
                if has_boards:  # kept with the site: a build that keeps the site need not work it out
                    from pinup.boards.reuse import shown_fingerprint
                    from pinup.theme import theme_css

                    theme = theme_css(report.design)  # the boards' theme, if one is rendered below
                    meta["boards"] = shown = shown_fingerprint(report.design, options.templates, theme)
        if (workspace / "boards").is_dir():
            from pinup.boards.build import build_boards
            from pinup.boards.reuse import shown_fingerprint
            from pinup.boards.spec import BoardError

            if not isinstance(shown, str):  # a manifest from an older pinup, or a boards folder with no board yet
                shown = shown_fingerprint(report.design, options.templates)
            try:
                result.boards = build_boards(
                    workspace, options.out, report.design, options, writer, shown=shown, theme=theme
                )
            except BoardError as exc:  # a bad board.yaml: one clear "path:line: message" line
                raise BuildError(str(exc)) from None
            if options.results:
                from pinup.hosted.results import ResultsOptions, build_results_pages

                feedback = ResultsOptions(
                    store=options.store, endpoint_url=options.endpoint_url, templates=options.templates
                )
                result.results = build_results_pages(workspace, options.out, feedback, writer)
    result.written, result.skipped, result.removed = writer.written, writer.skipped, writer.removed
    result.changed, result.build_id = list(writer.changed), writer.build_id
    result.seconds = time.perf_counter() - started
    return result
