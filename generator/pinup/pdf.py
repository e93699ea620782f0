"""`pinup pdf`: the whole design-system site (and optionally a board) as one PDF.

The site is built into a temporary folder, each page is printed by headless
Chromium through Playwright (with the print stylesheets), and the pieces are
joined with pypdf behind a table of contents (a printed contents page plus PDF
bookmarks). Playwright is the optional `pdf` extra; Chromium is the system's.
"""

from __future__ import annotations

import html
import io
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pinup.browser import CHROMIUM_ARGS, BrowserError, find_chromium
from pinup_feedback.atomicfile import replace_file


class PdfError(Exception):
    """Something `pinup pdf` cannot do; `str()` is the one message the CLI prints."""


@dataclass
class Section:
    """One printed document: a site page, a board or its feedback summary."""

    title: str
    path: Path
    pages: int = 0


@dataclass
class PdfResult:
    """What was written: the file, its sections (in order) and the page count."""

    out: Path
    sections: list[Section] = field(default_factory=list)
    pages: int = 0


def _playwright() -> Any:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise PdfError(
            "pinup pdf needs Playwright: pip install 'pinup[pdf]' (it uses your installed Chromium; "
            "no browser download is needed)."
        ) from None
    return sync_playwright


def _title(page_html: str, fallback: str) -> str:
    """The page's own name: its <title> up to the ' · site name' part."""
    start, end = page_html.find("<title>"), page_html.find("</title>")
    if start < 0 or end < start:
        return fallback
    text = html.unescape(page_html[start + 7 : end]).strip()
    return text.split(" · ")[0].strip() or fallback


def site_sections(site_dir: Path, pages: list[str], board: str | None) -> list[Section]:
    """The documents to print, in the site's own order, then the board and its feedback summary."""
    sections = []
    for name in pages:
        path = site_dir / name
        if path.is_file():
            sections.append(Section(_title(path.read_text(encoding="utf-8"), name), path))
    if board is not None:
        board_page = site_dir / "boards" / board / "index.html"
        if not board_page.is_file():
            known = sorted(p.parent.name for p in (site_dir / "boards").glob("*/index.html"))
            listed = ", ".join(known) if known else "none"
            raise PdfError(f"No board '{board}' in this workspace (boards: {listed}).")
        title = _title(board_page.read_text(encoding="utf-8"), board)
        sections.append(Section(f"Board: {title}", board_page))
        results = site_dir / "boards" / board / "results.html"
        if results.is_file():
            sections.append(Section(f"Feedback: {title}", results))
    return sections


def _contents_html(site_name: str, sections: list[Section], first_page: int) -> str:
    """The printed table of contents: each section and the page it starts on."""
    rows, page = [], first_page
    for section in sections:
        rows.append(f"<li><span>{html.escape(section.title)}</span><span class=dots></span><span>{page}</span></li>")
        page += section.pages
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>Contents</title><style>"
        "@page{size:A4;margin:20mm}body{font:12pt/1.5 system-ui,sans-serif;color:#000}"
        "h1{font-size:22pt;margin:0 0 4mm}p{color:#444;margin:0 0 10mm}ol{list-style:none;padding:0}"
        "li{display:flex;gap:2mm;margin:0 0 2mm}.dots{flex:1;border-bottom:1px dotted #888;margin-bottom:1.2mm}"
        f"</style></head><body><h1>{html.escape(site_name)}</h1><p>Contents</p><ol>{''.join(rows)}</ol>"
        "</body></html>"
    )


def _build_results(src: Path, site_dir: Path, board: str) -> None:
    """The board's feedback summary, when the site build did not write it (built aside, then copied in)."""
    from pinup.hosted.results import ResultsOptions, build_results_pages
    from pinup.output import OutputWriter

    workspace = src.parent if src.is_file() else src
    aside = site_dir.parent / "results"
    with OutputWriter(aside) as writer:
        build_results_pages(workspace, aside, ResultsOptions(), writer)
    made = aside / "boards" / board / "results.html"
    if made.is_file():
        shutil.copyfile(made, site_dir / "boards" / board / "results.html")


def _print(page: Any, url: str) -> bytes:
    page.goto(url, wait_until="load")
    page.emulate_media(media="print")
    data: bytes = page.pdf(format="A4", print_background=True, prefer_css_page_size=True)
    return data


def render_pdf(src: Path, out: Path, *, board: str | None = None, chromium: str | None = None) -> PdfResult:
    """Build the site from `src` and print it (and `board`) to `out` as one PDF."""
    from pypdf import PdfReader, PdfWriter

    from pinup.build import build_all
    from pinup.buildoptions import BuildError, BuildOptions

    sync_playwright = _playwright()
    try:
        executable = find_chromium(chromium)
    except BrowserError as exc:
        raise PdfError(str(exc)) from None
    with tempfile.TemporaryDirectory(prefix="pinup-pdf-") as tmp:
        site_dir = Path(tmp) / "site"
        try:
            built = build_all(BuildOptions(src=src, out=site_dir))
        except BuildError as exc:
            raise PdfError(str(exc)) from exc
        board_dir = site_dir / "boards" / (board or "")
        if board is not None and (board_dir / "index.html").is_file() and not (board_dir / "results.html").exists():
            _build_results(src, site_dir, board)
        sections = site_sections(site_dir, built.pages, board)
        if not sections:
            raise PdfError(f"The site built from {src} has no pages to print.")
        site_name = built.report.design.name or "Design system"
        printed: list[bytes] = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page()
                for section in sections:
                    data = _print(page, section.path.resolve().as_uri())
                    section.pages = len(PdfReader(io.BytesIO(data)).pages)
                    printed.append(data)
                contents_file = Path(tmp) / "contents.html"
                toc_pages = 1
                for _ in range(3):  # the contents' own length shifts the numbers after it
                    contents_file.write_text(_contents_html(site_name, sections, toc_pages + 1), encoding="utf-8")
                    toc = _print(page, contents_file.as_uri())
                    counted = len(PdfReader(io.BytesIO(toc)).pages)
                    if counted == toc_pages:
                        break
                    toc_pages = counted
            finally:
                browser.close()
        writer = PdfWriter()
        writer.append(PdfReader(io.BytesIO(toc)))
        writer.add_outline_item(title="Contents", page_number=0)
        start = toc_pages
        for section, data in zip(sections, printed, strict=True):
            writer.append(PdfReader(io.BytesIO(data)))
            writer.add_outline_item(title=section.title, page_number=start)
            start += section.pages
        writer.add_metadata({"/Title": site_name, "/Creator": "pinup pdf"})
        document = io.BytesIO()
        writer.write(document)
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            replace_file(out, document.getvalue())  # a failed or interrupted run leaves any earlier PDF whole
        except OSError as exc:
            raise PdfError(f"Cannot write {out}: {exc.strerror or exc}.") from exc
    return PdfResult(out, sections, start)
