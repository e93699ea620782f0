"""Security headers for the pages `pinup serve` serves: a CSP that allows nothing remote.

The built pages carry small inline scripts (the theme switch, the board's code). Rather than
`'unsafe-inline'`, each HTML response lists the SHA-256 of exactly the inline scripts it holds,
including those inside a variant's `srcdoc` (a srcdoc frame inherits its parent's policy), so
markup injected later through the DOM (`<img onerror=…>`, `javascript:` links) never runs.
Styles stay `'unsafe-inline'`: the pages use style attributes for swatches and specimens.
"""

from __future__ import annotations

import base64
import hashlib
from html.parser import HTMLParser

#: Every directive closed to other origins; 'self' where the site needs its own files.
BASE_POLICY = (
    "default-src 'none'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "media-src 'self' data: blob:",
    "connect-src 'self'",
    "frame-src 'self'",
    "child-src 'self'",
    "manifest-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
    "base-uri 'none'",
    "object-src 'none'",
)

STATIC_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

#: Script types a browser executes (a JSON data block is not code and needs no hash).
_CODE_TYPES = {"", "text/javascript", "application/javascript", "module", "text/ecmascript"}


class _InlineScripts(HTMLParser):
    """Collects the text of inline executable <script> elements, descending into srcdoc."""

    def __init__(self, depth: int = 0) -> None:
        super().__init__(convert_charrefs=False)
        self.depth = depth
        self.scripts: list[str] = []
        self._current: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "script" and "src" not in values and values.get("type", "").strip().lower() in _CODE_TYPES:
            self._current = []
        elif tag == "script":
            self._current = None
        if tag == "iframe" and "srcdoc" in values and self.depth < 3:
            inner = _InlineScripts(self.depth + 1)
            inner.feed(values["srcdoc"])
            inner.close()
            self.scripts += inner.scripts

    def handle_data(self, data: str) -> None:
        if self._current is not None:
            self._current.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._current is not None:
            self.scripts.append("".join(self._current))
            self._current = None


def script_hashes(html: str) -> list[str]:
    """`'sha256-…'` sources for every inline script of the page, in order, without repeats."""
    parser = _InlineScripts()
    parser.feed(html)
    parser.close()
    seen: dict[str, None] = {}
    for text in parser.scripts:
        digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()
        seen[f"'sha256-{digest}'"] = None
    return list(seen)


def policy(html: str | None = None, *, sandbox: bool = False, frames: tuple[str, ...] = ()) -> str:
    """The Content-Security-Policy for a response (`html`: the page, to hash its inline scripts;
    `sandbox`: a variant's file, given the same sandbox as the board's frame: scripts, no origin;
    `frames`: other origins the page may frame, such as `pinup review`'s proxy of a running app)."""
    scripts = ["'self'", *(script_hashes(html) if html else [])]
    base: tuple[str, ...] = BASE_POLICY
    if frames:
        extra = " ".join(frames)
        base = tuple(f"{d} {extra}" if d in ("frame-src 'self'", "child-src 'self'") else d for d in base)
    return "; ".join((f"script-src {' '.join(scripts)}", *base, *(["sandbox allow-scripts"] if sandbox else [])))
