"""Which rebuilt files an open page can take in place, without reloading: stylesheets, and pages whose
change is only in their styles.

Why: an edit of DESIGN.md's token values changes the site's theme stylesheet and the styles inlined
in the boards, often nothing else on a page. Reloading for that costs the page its scroll, a
reviewer's unsent draft (a board offers a button instead) and open pins, and most of the time from
edit to paint. Like Vite's CSS hot update, `pinup serve` tells the pages which changes are only
styles, and they swap them in place; any other change to a page still reloads it.

A page's *shape* is its HTML with the bodies of its `<style>` elements blanked and, on a board, the
values that come from the tokens: its JSON config (the build id, the tweak controls' defaults)
and its tweak panel. Two builds of a page with the same shape differ only in styles, which the
page swaps, and token values, which a board refreshes from the new page. The shapes of the pages
that follow the event stream (the site's pages, the boards index and each board's page) are kept
per server; a page without a known shape counts as changed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

#: blanked spans: (opening text, where the opening tag ends, closing text)
_SPANS = (
    (b"<style", b">", b"</style>"),
    (b'<script type="application/json" id="board-config"', b">", b"</script>"),
    (b'<section id="tweaks"', b">", b"</section>"),
)


def shape(html: bytes) -> bytes:
    """A digest of the page with its styles and token values blanked (see the module docstring)."""
    digest = hashlib.blake2b(digest_size=16)
    at = 0
    while True:
        found = [(html.find(start, at), start, end, close) for start, end, close in _SPANS]
        found = [f for f in found if f[0] >= 0]
        if not found:
            break
        begin, _start, end, close = min(found)
        body = html.find(end, begin)
        stop = html.find(close, body) if body >= 0 else -1
        if stop < 0:  # not closed: keep the rest as it is
            break
        digest.update(html[at : body + len(end)])
        at = stop
    digest.update(html[at:])
    return digest.digest()


def is_live(name: str) -> bool:
    """`name` (relative to the site, with slashes) is a page that follows the event stream."""
    parts = name.split("/")
    if len(parts) == 1:
        return name.endswith(".html")
    return parts[0] == "boards" and (name == "boards/index.html" or (len(parts) == 3 and parts[2] == "index.html"))


def live_pages(site: Path) -> list[Path]:
    """The built pages that follow the event stream: the site's pages, the boards index, each board."""
    return [
        *site.glob("*.html"),
        *([site / "boards" / "index.html"] if (site / "boards" / "index.html").is_file() else []),
        *site.glob("boards/*/index.html"),
    ]


class PageShapes:
    """The shape of each live page of one site, as last built."""

    def __init__(self, site: Path) -> None:
        self.site = site
        self.shapes: dict[str, bytes] = {}

    def prime(self) -> None:
        """Remember the shape of every live page as it is now."""
        self.shapes = {}
        for path in live_pages(self.site):
            self._remember(path.relative_to(self.site).as_posix())

    def forget(self) -> None:
        """After a failed build (it may have written some pages): every page counts as changed once."""
        self.shapes = {}

    def restyled(self, changed: Iterable[str]) -> list[str]:
        """Of a build's changed files, those an open page takes in place: its stylesheets, and the
        pages whose shape did not change. Remembers the new shapes."""
        out: list[str] = []
        for name in changed:
            if name.endswith(".css"):
                out.append(name)
            elif is_live(name):
                before = self.shapes.get(name)
                if self._remember(name) is not None and before is not None and before == self.shapes[name]:
                    out.append(name)
        return out

    def _remember(self, name: str) -> bytes | None:
        try:
            self.shapes[name] = shape((self.site / name).read_bytes())
        except OSError:
            self.shapes.pop(name, None)
            return None
        return self.shapes[name]
