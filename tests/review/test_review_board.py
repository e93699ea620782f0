"""The review board `pinup review` writes: its manifest, its page's CSP, and its rounds."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from review_app import SmallApp
from review_helpers import start_review
from serve_process import Served


def proxy_of(served: Served) -> str:
    [line] = served.has("REVIEW_PROXY:")
    return line.split("proxy=", 1)[1].strip()


def test_pinups_api_refuses_the_proxy_origin_and_the_review_page_frames_only_it(reviewed: Served) -> None:
    proxy = proxy_of(reviewed)
    body = {"schemaVersion": 1, "board": "review", "round": 1, "kind": "final", "clientId": "a" * 32}
    refused = httpx.post(f"{reviewed.base}/api/feedback", json=body, headers={"Origin": proxy})
    assert refused.status_code == 403 and refused.json()["error"] == "origin_not_allowed"
    assert reviewed.records("review") == []
    page = httpx.get(reviewed.url)
    csp = dict(d.split(" ", 1) for d in page.headers["content-security-policy"].split("; "))
    assert csp["frame-src"] == f"'self' {proxy}" and csp["connect-src"] == "'self'"
    manifest = json.loads((reviewed.site / "boards" / "review" / "board.json").read_text())  # type: ignore[operator]
    assert manifest["variants"] == ["live"] and manifest["review"]["url"].endswith("/")
    # the live frame has an origin of its own (the proxy), still sandboxed away from the review page
    assert 'sandbox="allow-scripts allow-same-origin allow-forms' in page.text and f'src="{proxy}/"' in page.text


def test_a_submitted_review_opens_the_next_round_when_started_again(tmp_path: Path, small_app: SmallApp) -> None:
    first = start_review(tmp_path, small_app.origin + "/")
    try:
        body = {"schemaVersion": 1, "board": "review", "round": 1, "clientId": "b" * 32, "overall": "Ship it"}
        stored = httpx.post(f"{first.base}/api/feedback", json=body, headers={"Origin": first.base})
        assert stored.status_code == 200, stored.text
    finally:
        first.stop()
    again = start_review(tmp_path, small_app.origin + "/pricing", "--board", "review")
    try:
        manifest = json.loads((tmp_path / "site" / "boards" / "review" / "board.json").read_text())
        assert manifest["round"] == 2 and manifest["review"]["url"] == small_app.origin + "/pricing"
        page = httpx.get(again.url).text
        assert f'src="{proxy_of(again)}/pricing"' in page and "Round 2" in page
    finally:
        again.stop()


def test_a_workspace_board_is_not_taken_over(tmp_path: Path, small_app: SmallApp) -> None:
    import subprocess

    from serve_process import PINUP, copy_example

    src = copy_example(tmp_path / "ws")
    proc = subprocess.run(
        [
            *PINUP,
            "review",
            small_app.origin + "/",
            str(src),
            "--no-open",
            "--out",
            str(tmp_path / "site"),
            "--board",
            "trail-home",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1 and "board 'trail-home' is a board of the workspace" in proc.stderr
    assert small_app.seen == []
