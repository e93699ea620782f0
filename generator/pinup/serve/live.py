"""Live reload for site pages, and the feedback API's marker on board pages, only under `pinup serve`:
the built files never carry either.

An ASGI wrapper around the feedback app: it serves `/_pinup/live.js` and adds one
`<script src="/_pinup/live.js" data-version="<build id>" defer>` to the HTML site pages it serves.
The build id is the one served when the request came in (a page is never older than that), so a
rebuild that lands before the page's script connects is not missed. Board pages follow the
event stream themselves (keeping drafts); they get `<meta name="pinup-serve">` instead, which tells
the board that this origin answers `/api/…`, and `<meta name="pinup-build">`, the build id. A static copy of the same page (any file server,
`file://`) has no marker, so the board never asks for an API that is not there. Variant files
under `boards/<slug>/` are left as they are, so a variant in its sandboxed frame never reloads.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache, partial
from html import escape
from pathlib import Path

from starlette.types import ASGIApp, Message, Receive, Scope, Send

LIVE_PATH = "/_pinup/live.js"
LIVE_JS = Path(__file__).resolve().parent.parent / "static" / "live" / "live.js"
#: what board.js looks for before it talks to this origin's feedback API
SERVED_MARKER = b'<meta name="pinup-serve" content="api">'
_BOARD_PAGE = re.compile(r"/boards/[^/]+/(?:index\.html)?")


@lru_cache(maxsize=1)
def live_js() -> bytes:
    return LIVE_JS.read_bytes()


def is_site_page(path: str) -> bool:
    """A design-system page or the boards index: not the API, not a board or its variants."""
    if path.startswith(("/api/", "/_pinup/")) or path == "/healthz":
        return False
    if path.startswith("/boards/"):
        return path in ("/boards/", "/boards/index.html")
    return path.endswith(("/", ".html"))


def is_board_page(path: str) -> bool:
    """A board's page (`/boards/<slug>/` or its index.html), not its variants or results."""
    return _BOARD_PAGE.fullmatch(path) is not None


def inject(body: bytes, version: str = "") -> bytes:
    """The page with the script, naming the build `version`, before its last </body> (or at the end)."""
    script = f'<script src="{LIVE_PATH}" data-version="{escape(version)}" defer></script>'.encode()
    at = body.lower().rfind(b"</body>")
    return body + script if at < 0 else body[:at] + script + body[at:]


def mark_served(body: bytes, version: str = "") -> bytes:
    """The board page with the marker and the build `version` in its head, for the board's script."""
    marker = SERVED_MARKER + f'\n<meta name="pinup-build" content="{escape(version)}">'.encode()
    at = body.lower().find(b"</head>")
    return marker + body if at < 0 else body[:at] + marker + b"\n" + body[at:]


class LiveReload:
    def __init__(self, app: ASGIApp, version: Callable[[], str] = str) -> None:
        self.app = app
        self.version = version  # the served build's id

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        if path == LIVE_PATH and scope["method"] in ("GET", "HEAD"):
            await self._script(scope, send)
            return
        if scope["method"] != "GET":
            await self.app(scope, receive, send)
            return
        # the build served before the page is read: the page is that build or a newer one
        if is_site_page(path):
            edit: Callable[[bytes], bytes] = partial(inject, version=self.version())
        elif is_board_page(path):
            edit = partial(mark_served, version=self.version())
        else:
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        chunks: list[bytes] = []

        async def capture(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = dict(message.get("headers", []))
                if message["status"] == 200 and headers.get(b"content-type", b"").startswith(b"text/html"):
                    start = message
                    return
                await send(message)
                return
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            body = edit(b"".join(chunks))
            kept = [(k, v) for k, v in start.get("headers", []) if k.lower() not in (b"content-length", b"etag")]
            kept.append((b"content-length", str(len(body)).encode()))
            await send({**start, "headers": kept})
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, capture)

    @staticmethod
    async def _script(scope: Scope, send: Send) -> None:
        body = live_js()
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"text/javascript; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                    (b"cache-control", b"no-store"),
                    (b"x-content-type-options", b"nosniff"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body if scope["method"] == "GET" else b""})
