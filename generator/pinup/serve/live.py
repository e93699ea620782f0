"""Live reload for site pages, only under `pinup serve`: the built files never carry it.

An ASGI wrapper around the feedback app: it serves `/_pinup/live.js` and adds one
`<script src="/_pinup/live.js" defer>` to the HTML site pages it serves. Board pages (they follow
the event stream themselves, keeping drafts) and variant files under `boards/<slug>/` are left as
they are, so a variant in its sandboxed frame never reloads on its own.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from starlette.types import ASGIApp, Message, Receive, Scope, Send

LIVE_PATH = "/_pinup/live.js"
SCRIPT = f'<script src="{LIVE_PATH}" defer></script>'.encode()
LIVE_JS = Path(__file__).resolve().parent.parent / "static" / "live" / "live.js"


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


def inject(body: bytes) -> bytes:
    """The page with the script before its last </body> (or at the end)."""
    at = body.lower().rfind(b"</body>")
    return body + SCRIPT if at < 0 else body[:at] + SCRIPT + body[at:]


class LiveReload:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        if path == LIVE_PATH and scope["method"] in ("GET", "HEAD"):
            await self._script(scope, send)
            return
        if scope["method"] != "GET" or not is_site_page(path):
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
            body = inject(b"".join(chunks))
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
