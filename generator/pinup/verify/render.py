"""Pages to pixels: headless Chromium (through Playwright) renders a page or an image at a device's size.

One browser serves every page of a run. A page may load only what its kind allows: a local file
its own files (and data: URIs), a URL loopback addresses and the hosts the user allowed; every
other request is refused in the browser, so a variant or page cannot reach the network.
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from pinup.boards.context import DEVICE_WIDTHS
from pinup.boards.spec import MIME_TYPES
from pinup.browser import is_loopback
from pinup.verify.target import Target, VerifyError

#: the screen height of each device, as the board's frames show it (static/board/layout.js)
DEVICE_HEIGHTS: dict[str, int] = {"phone": 812, "tablet": 1024, "desktop": 900}
#: the longest page rendered, in CSS px: below it a page is cut (the report says so)
MAX_HEIGHT = 6000
#: how long a page may take to load, in seconds, unless the caller says otherwise
DEFAULT_TIMEOUT = 30.0

_RECTS_JS = """(selectors) => selectors.map((s) => {
  let el = null;
  try { el = document.querySelector(s); } catch (e) { return null; }
  if (!el) { return null; }
  const r = el.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) { return null; }
  return {x: r.left + window.scrollX, y: r.top + window.scrollY, w: r.width, h: r.height};
})"""
_HEIGHT_JS = """() => Math.max(document.documentElement.scrollHeight,
  document.body ? document.body.scrollHeight : 0, window.innerHeight)"""


@dataclass(slots=True, frozen=True)
class Viewport:
    """The screen a page is rendered on: a board device's width and height, in CSS px."""

    device: str
    width: int
    height: int

    @classmethod
    def of(cls, device: str) -> Viewport:
        return cls(device, DEVICE_WIDTHS.get(device, DEVICE_WIDTHS["desktop"]), DEVICE_HEIGHTS.get(device, 900))


@dataclass(slots=True, frozen=True)
class Rect:
    """A region of a rendered page, in whole pixels from its top left corner."""

    x: int
    y: int
    w: int
    h: int

    @classmethod
    def around(cls, x: float, y: float, w: float, h: float) -> Rect:
        left, top = int(x), int(y)
        return cls(left, top, max(1, round(x + w) - left), max(1, round(y + h) - top))

    def box(self) -> tuple[int, int, int, int]:
        """As PIL's crop box (left, top, right, bottom)."""
        return (self.x, self.y, self.x + self.w, self.y + self.h)


@dataclass(slots=True)
class Shot:
    """A rendered page: its pixels (RGB) and where each asked-for selector's element is (None: absent)."""

    image: Any  # PIL.Image.Image
    rects: list[Rect | None] = field(default_factory=list)
    #: True when the page was longer than MAX_HEIGHT and cut there
    cut: bool = False


def _allowed(url: str, target: Target) -> bool:
    scheme = urlsplit(url).scheme
    if scheme in ("data", "blob", "about"):
        return True
    if target.url.startswith("http"):
        host = urlsplit(url).hostname or ""
        return scheme in ("http", "https") and (is_loopback(host) or host.lower() in target.hosts)
    return scheme == "file"


def _reason(exc: Exception) -> str:
    """Playwright's error in a person's words: the net:: code Chromium gives, named."""
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    for code, said in (
        ("ERR_CONNECTION_REFUSED", "nothing answers there (connection refused)"),
        ("ERR_NAME_NOT_RESOLVED", "the host name does not resolve"),
        ("ERR_CONNECTION_RESET", "the connection was reset"),
        ("ERR_EMPTY_RESPONSE", "the server closed the connection without answering"),
        ("ERR_ADDRESS_UNREACHABLE", "the address cannot be reached"),
        ("ERR_FILE_NOT_FOUND", "the file does not exist"),
        ("ERR_BLOCKED_BY_CLIENT", "the request was refused (not an allowed host)"),
    ):
        if code in text:
            return said
    return text.removeprefix("Page.goto: ")


def _image_page(target: Target) -> str:
    """An image as a page: the image at the screen's width, nothing else."""
    assert target.image is not None
    data = base64.b64encode(target.image.read_bytes()).decode("ascii")
    mime = MIME_TYPES[target.image.suffix.lower()]
    return (
        "<!doctype html><html><head><meta charset=utf-8><style>html,body{margin:0;background:#fff}"
        "img{display:block;width:100%;height:auto}</style></head>"
        f'<body><img alt="" src="data:{mime};base64,{data}"></body></html>'
    )


class Renderer:
    """One headless Chromium for a run; `shot()` renders a page. Use as a context manager."""

    def __init__(self, chromium: str | None = None) -> None:
        self._chromium = chromium
        self._playwright: Any = None
        self._browser: Any = None

    def __enter__(self) -> Renderer:
        from pinup.browser import CHROMIUM_ARGS, BrowserError, find_chromium

        try:
            from playwright.sync_api import sync_playwright
        except ImportError:
            raise VerifyError(
                "rendering pages needs Playwright: pip install 'pinup[verify]' "
                "(it drives your installed Chromium; no browser download is needed)"
            ) from None
        try:
            executable = find_chromium(self._chromium)
        except BrowserError as exc:
            raise VerifyError(str(exc)) from None
        self._playwright = sync_playwright().start()
        try:
            self._browser = self._playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        except Exception as exc:
            self._playwright.stop()
            raise VerifyError(f"Chromium ({executable}) did not start: {_reason(exc)}") from None
        return self

    def __exit__(self, *_exc: object) -> None:
        try:
            if self._browser is not None:
                self._browser.close()
        finally:
            if self._playwright is not None:
                self._playwright.stop()

    def shot(
        self, target: Target, viewport: Viewport, selectors: list[str] | None = None, timeout: float = DEFAULT_TIMEOUT
    ) -> Shot:
        """Render `target` at `viewport` (the whole page, down to MAX_HEIGHT) and find `selectors` in it."""
        from PIL import Image
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        context = self._browser.new_context(
            viewport={"width": viewport.width, "height": viewport.height}, device_scale_factor=1
        )
        try:
            context.set_default_timeout(timeout * 1000)
            page = context.new_page()
            page.route(
                "**/*",
                lambda route: (
                    route.continue_() if _allowed(route.request.url, target) else route.abort("blockedbyclient")
                ),
            )
            try:
                if target.kind == "image" and target.image is not None:
                    page.set_content(_image_page(target), wait_until="load", timeout=timeout * 1000)
                else:
                    response = page.goto(target.url, wait_until="load", timeout=timeout * 1000)
                    if response is not None and response.status >= 400:
                        reason = f" {response.status_text}" if response.status_text else ""
                        raise VerifyError(f"{target.name} answered HTTP {response.status}{reason}")
                page.evaluate("() => document.fonts.ready.then(() => true)")
                height = int(page.evaluate(_HEIGHT_JS))
                rects = [
                    Rect.around(r["x"], r["y"], r["w"], r["h"]) if r else None
                    for r in (page.evaluate(_RECTS_JS, selectors) if selectors else [])
                ]
                clip = {"x": 0, "y": 0, "width": viewport.width, "height": min(height, MAX_HEIGHT)}
                png = page.screenshot(full_page=True, clip=clip if height > MAX_HEIGHT else None, animations="disabled")
            except PlaywrightTimeout:
                raise VerifyError(f"{target.name} did not finish loading within {timeout:g} s") from None
            except PlaywrightError as exc:
                raise VerifyError(f"{target.name} could not be opened: {_reason(exc)}") from None
            image = Image.open(io.BytesIO(png)).convert("RGB")
            return Shot(image=image, rects=rects, cut=height > MAX_HEIGHT)
        finally:
            context.close()
