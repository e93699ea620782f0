"""A small app for `pinup review` tests: two pages linked to each other, a cookie, a strict-CSP page.

It runs on 127.0.0.1 in a thread of the test, records what it was asked, and can be stopped and
started again on the same port (the "app is down" case).
"""

from __future__ import annotations

import html
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

STYLE = "body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:1.5rem;max-width:60rem}.price{font-size:2rem}"


def page(title: str, body: str) -> bytes:
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><style>{STYLE}</style></head>'
        f"<body>{body}</body></html>"
    ).encode()


@dataclass
class SmallApp:
    """The app's server and what it saw: each request's path and Cookie header."""

    port: int = 0
    seen: list[tuple[str, str, str]] = field(default_factory=list)  # (method, path, cookie)
    server: ThreadingHTTPServer | None = None

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> SmallApp:
        app = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

            def do_GET(self) -> None:
                app.seen.append(("GET", self.path, self.headers.get("Cookie", "")))
                cookie = self.headers.get("Cookie", "")
                visits = "returning visitor" if "visitor=" in cookie else "first visit"
                headers = [("Set-Cookie", "visitor=ada; Path=/; SameSite=Lax")]
                if self.path.startswith("/pricing"):
                    body = page(
                        "Pricing",
                        '<h1>Pricing</h1><p class="price" id="pro">Pro: 12 EUR a month</p>'
                        f'<p id="visits">{html.escape(visits)}</p><a href="/">Back home</a>',
                    )
                    headers.append(("Content-Security-Policy", "script-src 'self'; frame-ancestors 'none'"))
                elif self.path.startswith("/strict"):
                    body = page("Strict", "<h1>Locked down</h1><p>No scripts at all here.</p>")
                    headers.append(("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'"))
                elif self.path.startswith("/plain"):
                    body = page("Plain", '<h1 id="plain">A page that any site may frame</h1>')
                elif self.path.startswith("/old-home"):
                    self.send_response(302)
                    self.send_header("Location", f"{app.origin}/")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                else:
                    body = page(
                        "Trailhead",
                        '<header><h1 id="title">Trailhead</h1></header><main><p class="lead">Maps for weekend hikes.</p>'
                        '<button id="signup" type="button">Sign up</button>'
                        '<p><a id="to-pricing" href="/pricing">See pricing</a></p></main>',
                    )
                    headers += [("X-Frame-Options", "DENY"), ("Content-Security-Policy", "frame-ancestors 'none'")]
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self) -> None:
                size = int(self.headers.get("Content-Length") or 0)
                data = self.rfile.read(size)
                app.seen.append(("POST", self.path, self.headers.get("Cookie", "")))
                body = b"got " + data + b" from " + self.headers.get("Origin", "-").encode()
                self.send_response(201)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        self.port = int(self.server.server_address[1])
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None
