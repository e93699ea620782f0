"""Holds requests for the site's files while a rebuild overwrites them.

Why: the build writes a changed file over the old one in place (much cheaper than a rename on
ext4, see `pinup.output`), so a page fetched during a rebuild could come back half old, half
new. A rebuild's writes take milliseconds: a request that arrives meanwhile waits for them and
then gets the new files, all from the same build; a rebuild lets the responses under way finish
before it overwrites (`pinup.overwrites`). The API and the event streams are never held.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from starlette.types import ASGIApp, Receive, Scope, Send

from pinup import overwrites

#: a request is served after this many seconds even if a build is still writing (a stuck
#: build must not hang the pages)
MAX_WAIT = 10.0
POLL = 0.002


class BuildGate:
    """ASGI wrapper: GET and HEAD requests for the files of `site` never overlap its overwrites."""

    def __init__(self, app: ASGIApp, site: Path) -> None:
        self.app = app
        self.site = str(Path(site).resolve())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] not in ("GET", "HEAD")
            or scope["path"].startswith(("/api/", "/_pinup/"))
            or scope["path"] == "/healthz"
        ):
            await self.app(scope, receive, send)
            return
        reading = overwrites.start_reading(self.site)
        if not reading:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + MAX_WAIT
            while not reading and loop.time() < deadline:
                await asyncio.sleep(POLL)
                reading = overwrites.start_reading(self.site)
        try:
            await self.app(scope, receive, send)
        finally:
            if reading:
                overwrites.stop_reading(self.site)
