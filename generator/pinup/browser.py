"""Headless Chromium for the commands that look at a rendered page (`pinup extract`, `pinup pdf`).

Playwright drives the system's Chromium (no browser download). Page addresses are checked before
any request is made: a page on this machine (a file, or an http(s) URL on a loopback host) is
always allowed, another host only when the user names it. While a page renders, every request to a
host that was not allowed is aborted, so a page cannot reach the network behind the user's back.
"""

from __future__ import annotations

import ipaddress
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

CHROMIUM_CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


class BrowserError(Exception):
    """A page that cannot be rendered; `str()` is the one message the CLI prints."""


def find_chromium(explicit: str | None = None) -> str:
    """The Chromium to drive: `explicit`, `$PINUP_CHROMIUM`, or one on PATH (e.g. /usr/bin/chromium)."""
    wanted = explicit or os.environ.get("PINUP_CHROMIUM")
    if wanted:
        if Path(wanted).is_file() and os.access(wanted, os.X_OK):
            return wanted
        raise BrowserError(f"Chromium not found at {wanted}. Install Chromium or point PINUP_CHROMIUM at it.")
    for name in CHROMIUM_CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    raise BrowserError(
        "Chromium not found. Install it (Debian/Ubuntu: apt install chromium) or set PINUP_CHROMIUM to its path."
    )


def is_loopback(host: str) -> bool:
    """True for names and addresses of this machine, decided without a DNS lookup."""
    name = host.strip("[]").lower().rstrip(".")
    if name in LOOPBACK_NAMES or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def page_address(target: str, *, allow_hosts: tuple[str, ...] = ()) -> str:
    """The URL to open for `target` (an http(s) URL or a local file), refused before any request.

    A URL must name a loopback host unless its host is in `allow_hosts`; a file must exist.
    """
    parts = urlsplit(target)
    if parts.scheme in ("http", "https"):
        host = parts.hostname or ""
        if not host:
            raise BrowserError(f"{target} has no host name.")
        if not is_loopback(host) and host.lower() not in {h.lower() for h in allow_hosts}:
            raise BrowserError(
                f"{target} is not on this machine. Only loopback addresses (127.0.0.1, localhost) are opened; "
                f"to open this one, add --allow-host {host}."
            )
        return target
    if parts.scheme not in ("", "file") and len(parts.scheme) > 1:
        raise BrowserError(f"{target}: only http(s) URLs and local files can be opened.")
    path = Path(parts.path if parts.scheme == "file" else target).expanduser()
    if not path.is_file():
        raise BrowserError(f"{path} does not exist or is not a file.")
    return path.resolve().as_uri()


def _request_allowed(url: str, allow_hosts: frozenset[str]) -> bool:
    parts = urlsplit(url)
    if parts.scheme in ("file", "data", "blob", "about"):
        return True
    host = (parts.hostname or "").lower()
    return is_loopback(host) or host in allow_hosts


@contextmanager
def open_page(
    url: str,
    *,
    width: int,
    height: int,
    allow_hosts: tuple[str, ...] = (),
    timeout_s: float = 15.0,
    chromium: str | None = None,
) -> Iterator[Any]:
    """A Playwright page showing `url` at `width`×`height`, loaded and settled.

    Raises BrowserError with the URL and the reason when the page does not answer, answers with an
    HTTP error, or does not finish loading within `timeout_s` seconds.
    """
    try:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise BrowserError(
            "This command needs Playwright: pip install 'pinup[pdf]' (it uses your installed Chromium; "
            "no browser download is needed)."
        ) from None
    executable = find_chromium(chromium)
    allowed = frozenset(h.lower() for h in allow_hosts)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.route(
                "**/*",
                lambda route: route.continue_() if _request_allowed(route.request.url, allowed) else route.abort(),
            )
            try:
                response = page.goto(url, wait_until="load", timeout=timeout_s * 1000)
            except PlaywrightError as exc:
                first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                if "Timeout" in first:
                    raise BrowserError(f"{url} did not finish loading within {timeout_s:g} s.") from None
                reason = first.split("net::", 1)[-1].split(" ", 1)[0] if "net::" in first else first
                raise BrowserError(f"{url} could not be loaded: {reason}.") from None
            if response is not None and response.status >= 400:
                raise BrowserError(f"{url} answered HTTP {response.status} {response.status_text}".rstrip() + ".")
            yield page
        finally:
            browser.close()
