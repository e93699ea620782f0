"""`pinup review`'s app proxy: a running app under a second loopback origin, with pinup's pin overlay.

Why a second origin: the app's own scripts run there, so the browser keeps them away from the
review page and from pinup's API (which refuses a state-changing request from any origin but its
own). The overlay talks to the review page only through postMessage, both sides naming and
checking the other's origin.

What passes through untouched: the method, path, query, body, cookies and every header, except
the hop-by-hop ones, `Host` (the app's), `Origin`/`Referer` (rewritten to the app's own origin so
the app's same-origin checks keep working), and `Accept-Encoding` (identity, so an HTML page can
carry the overlay). Responses come back as the app sent them, except: an HTML page gets one
`<script src="/__pinup__/overlay.js">` at the top of its head; `X-Frame-Options` and the CSP's
`frame-ancestors` are dropped so the review page can frame it; a redirect to the app's own origin
points at the proxy instead. Paths under /__pinup__/ are the proxy's own.
"""

from __future__ import annotations

import http.client
import json
import re
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

RESERVED = "/__pinup__/"
OVERLAY_PATH = RESERVED + "overlay.js"
DOWN_PATH = RESERVED + "down.js"
OVERLAY_TAG = b'<script src="' + OVERLAY_PATH.encode() + b'"></script>'
HOP_BY_HOP = frozenset(
    {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding"}
    | {"upgrade", "proxy-connection"}
)
#: `[^>]*+(>)?`: an opening tag with no `>` after it takes the rest of the page (group 1 unset), as no
#: later one can close either; `[^>]*>` scanned to the end again from each of them.
_HEAD = re.compile(rb"<head\b[^>]*+(>)?", re.IGNORECASE)
_HTML = re.compile(rb"<html\b[^>]*+(>)?", re.IGNORECASE)
_DOCTYPE = re.compile(rb"^\s*<!doctype[^>]*>", re.IGNORECASE)


@dataclass(frozen=True)
class Upstream:
    """The app: its scheme, host and port."""

    scheme: str
    host: str
    port: int

    @property
    def origin(self) -> str:
        default = 443 if self.scheme == "https" else 80
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}" + ("" if self.port == default else f":{self.port}")

    @classmethod
    def of(cls, url: str) -> Upstream:
        parts = urlsplit(url)
        scheme = parts.scheme or "http"
        return cls(scheme, parts.hostname or "127.0.0.1", parts.port or (443 if scheme == "https" else 80))

    def connect(self, timeout: float) -> http.client.HTTPConnection:
        if self.scheme == "https":
            return http.client.HTTPSConnection(self.host, self.port, timeout=timeout)
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout)


def inject_overlay(html: bytes) -> bytes:
    """The page with the overlay script first in its head (or after <html>, or after the doctype)."""
    for pattern in (_HEAD, _HTML, _DOCTYPE):
        found = pattern.search(html)
        if found and found.group(0).endswith(b">"):
            return html[: found.end()] + OVERLAY_TAG + html[found.end() :]
    return OVERLAY_TAG + html


def without_frame_ancestors(csp: str) -> str:
    """A CSP without its frame-ancestors directive (the review page frames the app)."""
    kept = [d.strip() for d in csp.split(";") if d.strip() and d.strip().split()[0].lower() != "frame-ancestors"]
    return "; ".join(kept)


def overlay_script(agent_js: str, parent_origin: str) -> bytes:
    """The board's variant agent, told which origin the review page has."""
    return f"(function () {{\nvar PINUP_PARENT = {json.dumps(parent_origin)};\n{agent_js}\n}})();\n".encode()


def down_page(upstream: Upstream, reason: str) -> bytes:
    """What the frame shows when the app does not answer; its script tells the review page too."""
    from html import escape

    text = f"The app at {upstream.origin} is not answering ({reason}). Start it, then reload this page."
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The app is not answering</title></head>'
        f'<body style="font: 16px/1.5 system-ui, sans-serif; margin: 2rem"><p id="pinup-app-down">{escape(text)}</p>'
        f'<script src="{DOWN_PATH}"></script></body></html>'
    ).encode()


def down_script(parent_origin: str) -> bytes:
    """Posts the down page's words to the review page (and to no other origin)."""
    return (
        "(function () {\n"
        '  var p = document.getElementById("pinup-app-down");\n'
        "  var doc = Math.random().toString(36).slice(2);\n"
        '  window.parent.postMessage({ pinup: 1, type: "appdown", doc: doc, text: p ? p.textContent : "" }, '
        f"{json.dumps(parent_origin)});\n"
        "})();\n"
    ).encode()


def reason_of(exc: OSError) -> str:
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    if isinstance(exc, TimeoutError):
        return "no answer in time"
    return exc.strerror or type(exc).__name__


class AppProxy:
    """The proxy server, on 127.0.0.1 and a port of its own, run on a daemon thread."""

    def __init__(self, upstream: str, parent_origin: str, agent_js: str, *, host: str = "127.0.0.1") -> None:
        self.upstream = Upstream.of(upstream)
        self.parent_origin = parent_origin
        self.overlay = overlay_script(agent_js, parent_origin)
        self.down = down_script(parent_origin)
        handler = type("Handler", (_Handler,), {"proxy": self})
        self.server = ThreadingHTTPServer((host, 0), handler)
        self.server.daemon_threads = True
        self._thread = threading.Thread(target=self.server.serve_forever, name="pinup-review-proxy", daemon=True)

    @property
    def origin(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}"

    def rewrite_location(self, value: str) -> str:
        if value.startswith(self.upstream.origin + "/") or value == self.upstream.origin:
            return self.origin + value[len(self.upstream.origin) :]
        return value

    def start(self) -> AppProxy:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class _Handler(BaseHTTPRequestHandler):
    """One request: the proxy's own paths, or the app's response passed through."""

    proxy: AppProxy
    server_version = "pinup-review"
    protocol_version = "HTTP/1.0"  # one response per connection: no chunking or keep-alive to relay

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the stdlib's name
        """Quiet: the reviewer's terminal shows pinup's lines, not every asset request."""

    def do_GET(self) -> None:
        self._handle()

    do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = do_GET

    def _handle(self) -> None:
        path = urlsplit(self.path).path
        if path == OVERLAY_PATH:
            self._send(
                200,
                [("Content-Type", "text/javascript; charset=utf-8"), ("Cache-Control", "no-store")],
                self.proxy.overlay,
            )
        elif path == DOWN_PATH:
            self._send(
                200,
                [("Content-Type", "text/javascript; charset=utf-8"), ("Cache-Control", "no-store")],
                self.proxy.down,
            )
        elif path.startswith(RESERVED):
            self._send(404, [("Content-Type", "text/plain; charset=utf-8")], b"not found\n")
        else:
            self._forward()

    def _send(self, status: int, headers: list[tuple[str, str]], body: bytes) -> None:
        self.send_response_only(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _request_headers(self) -> dict[str, str]:
        upstream, mine = self.proxy.upstream.origin, self.proxy.origin
        out: dict[str, str] = {}
        for name, value in self.headers.items():
            low = name.lower()
            if low in HOP_BY_HOP or low in ("host", "accept-encoding", "content-length"):
                continue
            if low in ("origin", "referer") and value.startswith(mine):
                value = upstream + value[len(mine) :]
            out[name] = value
        out["Host"] = upstream.split("://", 1)[1]
        out["Accept-Encoding"] = "identity"
        return out

    def _forward(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length > 0 else None
        conn = self.proxy.upstream.connect(timeout=60)
        try:
            try:
                conn.request(self.command, self.path, body=body, headers=self._request_headers())
                response = conn.getresponse()
            except OSError as exc:
                page = down_page(self.proxy.upstream, reason_of(exc))
                self._send(502, [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")], page)
                return
            self._relay(response)
        finally:
            conn.close()

    def _relay(self, response: http.client.HTTPResponse) -> None:
        headers: list[tuple[str, str]] = []
        for name, value in response.getheaders():
            low = name.lower()
            if low in HOP_BY_HOP or low in ("content-length", "x-frame-options"):
                continue
            if low == "content-security-policy":
                value = without_frame_ancestors(value)
                if not value:
                    continue
            elif low == "location":
                value = self.proxy.rewrite_location(value)
            headers.append((name, value))
        ctype = (response.getheader("Content-Type") or "").lower()
        if ctype.startswith(("text/html", "application/xhtml+xml")) and self.command != "HEAD":
            self._send(response.status, headers, inject_overlay(response.read()))
            return
        self.send_response_only(response.status)
        for name, value in headers:
            self.send_header(name, value)
        size = response.getheader("Content-Length")
        if size is not None:
            self.send_header("Content-Length", size)
        self.end_headers()
        while chunk := response.read1(65536) if self.command != "HEAD" else b"":
            self.wfile.write(chunk)
            self.wfile.flush()
