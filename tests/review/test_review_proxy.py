"""`pinup review`'s app proxy over real HTTP, and the command's refusals.

The proxy passes the app through untouched except for the overlay script in each HTML page and
the two framing headers; pinup's API refuses the proxy's origin.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from review_app import SmallApp
from serve_process import PINUP

from pinup.serve.proxy import OVERLAY_TAG, AppProxy, inject_overlay, without_frame_ancestors

PARENT = "http://127.0.0.1:8123"


@pytest.fixture()
def proxy(small_app: SmallApp) -> Iterator[AppProxy]:
    running = AppProxy(small_app.origin + "/", PARENT, "/* agent */").start()
    yield running
    running.stop()


def test_html_pages_get_the_overlay_and_lose_only_their_framing_refusal(proxy: AppProxy) -> None:
    r = httpx.get(proxy.origin + "/")
    assert r.status_code == 200
    assert r.text.count(OVERLAY_TAG.decode()) == 1 and '<head><script src="/__pinup__/overlay.js">' in r.text
    assert r.text.replace(OVERLAY_TAG.decode(), "").endswith(
        '<a id="to-pricing" href="/pricing">See pricing</a></p></main></body></html>'
    )
    assert "x-frame-options" not in r.headers
    assert "content-security-policy" not in r.headers  # frame-ancestors was its only directive
    assert r.headers["set-cookie"] == "visitor=ada; Path=/; SameSite=Lax"
    pricing = httpx.get(proxy.origin + "/pricing?plan=pro", cookies={"visitor": "ada"})
    assert pricing.headers["content-security-policy"] == "script-src 'self'"
    assert "returning visitor" in pricing.text


def test_requests_reach_the_app_as_sent_with_its_own_origin(proxy: AppProxy, small_app: SmallApp) -> None:
    r = httpx.post(
        proxy.origin + "/signup?x=1",
        content=b"email=a%40b.c",
        headers={"Origin": proxy.origin, "Cookie": "visitor=ada"},
    )
    assert r.status_code == 201 and r.text == f"got email=a%40b.c from {small_app.origin}"
    assert "pinup" not in r.text
    assert small_app.seen[-1] == ("POST", "/signup?x=1", "visitor=ada")


def test_a_redirect_to_the_app_stays_on_the_proxy(proxy: AppProxy) -> None:
    r = httpx.get(proxy.origin + "/old-home")
    assert r.status_code == 302 and r.headers["location"] == proxy.origin + "/"


def test_the_overlay_knows_the_review_pages_origin(proxy: AppProxy) -> None:
    r = httpx.get(proxy.origin + "/__pinup__/overlay.js")
    assert r.headers["content-type"].startswith("text/javascript")
    assert f"var PINUP_PARENT = {json.dumps(PARENT)};" in r.text and "/* agent */" in r.text
    assert httpx.get(proxy.origin + "/__pinup__/other").status_code == 404


def test_an_app_that_is_down_gets_a_page_in_words(proxy: AppProxy, small_app: SmallApp) -> None:
    small_app.stop()
    r = httpx.get(proxy.origin + "/pricing")
    assert r.status_code == 502
    assert f"The app at {small_app.origin} is not answering (connection refused)." in r.text
    script = httpx.get(proxy.origin + "/__pinup__/down.js").text
    assert 'type: "appdown"' in script and script.rstrip().endswith(f"}}, {json.dumps(PARENT)});\n}})();")


@pytest.mark.parametrize(
    ("page", "expected"),
    [
        (
            b"<!doctype html><HTML><HEAD lang=x><title>t</title>",
            b"<!doctype html><HTML><HEAD lang=x>TAG<title>t</title>",
        ),
        (b"<!DOCTYPE html><html lang=en><p>x", b"<!DOCTYPE html><html lang=en>TAG<p>x"),
        (b"<!doctype html><p>x", b"<!doctype html>TAG<p>x"),
        (b"<p>x", b"TAG<p>x"),
        (b"<header>no head here</header>", b"TAG<header>no head here</header>"),
    ],
)
def test_where_the_overlay_goes(page: bytes, expected: bytes) -> None:
    assert inject_overlay(page) == expected.replace(b"TAG", OVERLAY_TAG)


def test_only_frame_ancestors_leaves_the_csp() -> None:
    csp = "default-src 'self'; FRAME-ANCESTORS 'none' ; img-src data:"
    assert without_frame_ancestors(csp) == "default-src 'self'; img-src data:"


def test_a_host_that_is_not_loopback_is_refused_before_anything(tmp_path: Path) -> None:
    site = tmp_path / "site"
    proc = subprocess.run(
        [*PINUP, "review", "http://app.example:3000/", str(tmp_path / "missing"), "--no-open", "--out", str(site)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert "http://app.example:3000/ is not on this machine" in proc.stderr
    assert "--allow-host app.example" in proc.stderr
    assert "Traceback" not in proc.stderr and not site.exists()  # no workspace looked up, nothing built or served


def test_a_file_is_not_a_running_app(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text("<p>hi</p>")
    proc = subprocess.run([*PINUP, "review", str(page), "--no-open"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "takes the http(s) address of a running app" in proc.stderr
