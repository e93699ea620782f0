"""`pinup review`: a board whose one variant is a running app's page, seen through pinup's app proxy.

The review page is a board page like any other (the same pins, drafts, submission, numbered items,
hand-off, webhooks and MCP tools), rendered by the board builder with one variant, `live`, whose
frame shows the app through the proxy (`pinup.serve.proxy`) instead of a file. The frame keeps a
sandbox (the app cannot navigate the review page away) but has its own origin, so the app's
cookies and storage work there. A small script on the review page says in words when the app is
down or when a page's own CSP keeps the overlay out.
"""

from __future__ import annotations

import json
import re
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from pinup.serve.workspace import Workspace

if TYPE_CHECKING:  # pragma: no cover
    from pinup.serve.proxy import AppProxy

VARIANT = "live"
STATIC = Path(__file__).resolve().parent.parent / "static"
#: how long the review page waits for a framed page's overlay to say hello before explaining
HELLO_MS = 4000
#: the frame's sandbox: scripts, forms, pop-ups and dialogs of the app work; the top page is out of reach
SANDBOX = "allow-scripts allow-same-origin allow-forms allow-popups allow-modals allow-downloads"


@dataclass(frozen=True)
class ReviewTarget:
    """The app page to review and where the review page lives."""

    url: str  # the page as the user named it
    slug: str  # the review's board
    proxy: str  # the proxy's origin


def free_port(host: str) -> int:
    """A port the OS considers free now (the review page's origin must be known before it binds)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def framed_url(target: ReviewTarget) -> str:
    """The reviewed page's address on the proxy."""
    parts = urlsplit(target.url)
    return target.proxy + (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def _design(ws: Workspace) -> Any:
    """The workspace's DESIGN.md model, for the review page's theme (None without one)."""
    from pinup.build import design_path, lint_design

    path = design_path(ws.src)
    return lint_design(path).design if path.is_file() else None


def _static(rel: str) -> str:
    from pinup.templating import packaged_file

    return packaged_file(STATIC / rel).decode("utf-8")


def agent_js() -> str:
    """The board's variant agent: the overlay the proxy serves."""
    return _static("board/agent.js")


def render(ws: Workspace, target: ReviewTarget, round_number: int = 1) -> tuple[str, dict[str, Any]]:
    """The review page and its manifest (board.json)."""
    from pinup.boards.build import render_board
    from pinup.boards.spec import Board, BoardSpec, VariantSpec
    from pinup.buildoptions import BuildOptions

    folder = ws.out / "boards" / target.slug
    folder.mkdir(parents=True, exist_ok=True)
    placeholder = folder / f"{VARIANT}.html"
    placeholder.write_text(
        f"<!doctype html><title>Live page</title><p>This review shows {target.url} through pinup's proxy.</p>\n",
        encoding="utf-8",
    )
    spec = BoardSpec(
        title=f"Review of {target.url}",
        brief="The running app, through pinup: use it as usual, press Pin to point at something, and submit.",
        round=round_number,
        variants=[VariantSpec(id=VARIANT, label="the running app", file=f"{VARIANT}.html")],
    )
    board = Board(slug=target.slug, folder=folder, spec=spec, files={VARIANT: placeholder})
    html, _copies, manifest = render_board(board, _design(ws), BuildOptions(src=ws.src, out=ws.out))
    return live_page(html, target), {**manifest, "review": {"url": target.url}}


def live_page(html: str, target: ReviewTarget) -> str:
    """The rendered board with its `live` frame pointed at the proxy and the review script added."""
    from html import escape

    frame = re.compile(r'<iframe class="variant-frame" sandbox="allow-scripts"([^>]*?) src="' + VARIANT + r'\.html"')
    html, count = frame.subn(
        lambda m: f'<iframe class="variant-frame" sandbox="{SANDBOX}"{m.group(1)} src="{escape(framed_url(target))}"',
        html,
        count=1,
    )
    assert count == 1, "the board template no longer has the variant frame pinup review points at the app"
    config = json.dumps({"proxy": target.proxy, "url": target.url, "helloMs": HELLO_MS}).replace("<", "\\u003c")
    status = '<section id="review-status" class="review-status" role="status" aria-live="polite" hidden></section>'
    html = html.replace('<div id="banner"', status + '\n<div id="banner"', 1)
    # right after the frame, so its listeners are in place before the frame's first load event
    extra = (
        f'<script type="application/json" id="review-config">{config}</script>\n'
        f"<script>\n{_static('review/review.js')}\n</script>\n"
    )
    end = html.index("</iframe>", html.index(escape(framed_url(target)))) + len("</iframe>")
    html = html[:end] + extra + html[end:]
    index = html.rfind("</body>")
    html = html[:index] + f"<style>{_static('review/review.css')}</style>\n" + html[index:]
    return html.replace('class="pinup-board"', 'class="pinup-board pinup-review"', 1)


def next_round(ws: Workspace, slug: str) -> int:
    """The round this review starts at: the last one again, or the next once it was submitted."""
    from pinup_feedback.ledger import Ledger
    from pinup_feedback.store.file import FileStore

    manifest = ws.out / "boards" / slug / "board.json"
    try:
        last = int(json.loads(manifest.read_text(encoding="utf-8")).get("round", 1))
    except (OSError, ValueError, TypeError, AttributeError):
        return 1
    ledger = Ledger()
    ledger.rebuild_from(FileStore(ws.store))
    return last + 1 if ledger.final_for(slug, last) is not None else last


def write(ws: Workspace, target: ReviewTarget) -> Path:
    """Write the review board into the site; returns its page."""
    html, manifest = render(ws, target, next_round(ws, target.slug))
    folder = ws.out / "boards" / target.slug
    (folder / "board.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    page = folder / "index.html"
    page.write_text(html, encoding="utf-8")
    return page


def start_proxy(url: str, parent_origin: str) -> AppProxy:
    from pinup.serve.proxy import AppProxy

    return AppProxy(url, parent_origin, agent_js()).start()
