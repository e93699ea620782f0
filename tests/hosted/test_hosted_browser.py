"""Hosted boards in a real browser: Chromium opens a board published to a private bucket on moto's S3
server, through a stand-in CloudFront (signed reads as OAC does, the template's index rewrite), and
posts, cross-origin, to a stand-in HTTP API that answers CORS the way infra/template.yaml configures it
and invokes the Lambda handler. Several reviewers (separate browser contexts) end up as S3 objects that
`pinup results` aggregates; a board page from an origin the API does not allow cannot post.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hosted_helpers import (
    FakeCloudFront,
    FakeHttpApi,
    build_example,
    fresh_handler_module,
    make_buckets,
    publish,
    run_pinup,
)

pytestmark = pytest.mark.browser

SECRET = "browser-board-secret-" + "7" * 32
BOARD = "trail-home"


@pytest.fixture()
def deployed(
    tmp_path: Path, moto_endpoint: str, s3: Any, aws_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> Iterator[dict[str, Any]]:
    boards_bucket, feedback_bucket = make_buckets(s3)
    store = f"s3://{feedback_bucket}/pinup"
    edge = FakeCloudFront(s3, boards_bucket).start()
    boards_origin = edge.url  # the page's origin, like https://dxxxx.cloudfront.net

    monkeypatch.setenv("PINUP_STORE", store)
    monkeypatch.setenv("AWS_ENDPOINT_URL", moto_endpoint)
    monkeypatch.setenv("PINUP_BOARD_SECRET", SECRET)
    monkeypatch.setenv("PINUP_ALLOWED_ORIGINS", boards_origin)
    api = FakeHttpApi(fresh_handler_module().handler, allow_origins=[boards_origin]).start()

    workspace, site, env = build_example(tmp_path, aws_env, secret=SECRET, api_url=api.url)
    published = publish(site, boards_bucket, store, endpoint=moto_endpoint, public_url=edge.url, env=env, cwd=tmp_path)
    board_url = f"{edge.url}/boards/{BOARD}/"
    assert board_url in published
    try:
        yield {
            "api": api,
            "edge": edge,
            "store": store,
            "feedback_bucket": feedback_bucket,
            "env": {**env, "AWS_ENDPOINT_URL": moto_endpoint},
            "board_url": board_url,
            "site": site,
            "workspace": workspace,
            "tmp": tmp_path,
        }
    finally:
        api.stop()
        edge.stop()


def review(browser: Any, url: str, *, name: str, pick: str, stars: dict[str, int], comment: str) -> dict[str, Any]:
    context = browser.new_context()  # a separate reviewer: own localStorage, own clientId
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(url)
        page.wait_for_selector("#submit-btn")
        page.fill("#reviewer-name", name)
        page.check(f"input[name=preferred][value={pick}]")
        for vid, value in stars.items():
            page.click(f".stars[data-variant={vid}] .star[data-value='{value}']")
        page.fill(f".feedback-input[data-variant={pick}]", comment)
        page.click("#submit-btn")
        page.wait_for_function(
            "['submitted', ''].includes(document.querySelector('#status').textContent)"
            " && (document.querySelector('#status').textContent === 'submitted'"
            " || !document.querySelector('#error-box').hidden)"
        )
        return {
            "status": page.eval_on_selector("#status", "e => e.textContent"),
            "error": page.eval_on_selector("#error-box", "e => e.hidden ? '' : e.textContent"),
            "errors": errors,
        }
    finally:
        context.close()


def test_reviewers_in_a_browser_reach_s3_and_results(
    browser: Any, deployed: dict[str, Any], s3: Any, artifacts_dir: Path
) -> None:
    url = deployed["board_url"]
    ballots = [
        ("Ana", "B", {"A": 3, "B": 5}, "Map first <b>wins</b>"),
        ("Bo", "B", {"B": 4, "C": 2}, "Clear"),
        ("Cy", "C", {"A": 1, "C": 5}, "Journal feel"),
    ]
    for name, pick, stars, comment in ballots:
        outcome = review(browser, url, name=name, pick=pick, stars=stars, comment=comment)
        assert outcome["status"] == "submitted", outcome
        assert not outcome["errors"], outcome["errors"]

    # the browser really went through CORS: a preflight (custom token header) then the POST, with the token
    api: FakeHttpApi = deployed["api"]
    posts = [e for e in api.events if e["requestContext"]["http"]["method"] == "POST"]
    assert len(posts) == 3
    assert all(e["headers"]["origin"] == deployed["edge"].url for e in posts)
    assert all(len(e["headers"]["x-pinup-board-token"]) == 64 for e in posts)
    assert (deployed["edge"].url, True) in api.preflights

    edge: FakeCloudFront = deployed["edge"]
    served = {uri: ctype for uri, code, ctype in edge.requests if code == 200}
    assert served[f"/boards/{BOARD}/index.html"] == "text/html; charset=utf-8"  # the directory URL was rewritten
    assert any(uri.startswith(f"/boards/{BOARD}/variants/") for uri in served)  # variant iframes loaded too

    keys = [
        o["Key"]
        for o in s3.list_objects_v2(Bucket=deployed["feedback_bucket"], Prefix=f"pinup/feedback/{BOARD}/").get(
            "Contents", []
        )
    ]
    assert len(keys) == 3

    result = run_pinup(
        "results",
        BOARD,
        "--store",
        deployed["store"],
        "--src",
        str(deployed["workspace"]),
        "--format",
        "json",
        env=deployed["env"],
        cwd=deployed["tmp"],
    )
    data = json.loads(result.stdout)
    tally = {v["id"]: v for v in data["variants"]}
    assert data["submissions"] == 3 and data["winner"] == "B"
    assert (tally["A"]["picks"], tally["B"]["picks"], tally["C"]["picks"]) == (0, 2, 1)
    assert tally["B"]["mean"] == 4.5 and tally["A"]["median"] == 2.0
    assert {c["reviewer"] for c in tally["B"]["comments"]} == {"Ana", "Bo"}

    # a page served from an origin the API does not allow: the browser blocks the request, nothing is stored
    rogue = deployed["tmp"] / "rogue.html"
    shutil.copy(deployed["site"] / "boards" / BOARD / "index.html", rogue)
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(rogue.as_uri())
        page.wait_for_selector("#submit-btn")
        page.check("input[name=preferred][value=A]")
        page.click("#submit-btn")
        page.wait_for_selector("#error-box:not([hidden])")
        page.screenshot(path=str(artifacts_dir / "hosted-foreign-origin.png"), full_page=True)
        assert page.eval_on_selector("#status", "e => e.textContent") != "submitted"
        assert ("null", False) in api.preflights  # file:// origin: refused at the gateway's preflight
    finally:
        context.close()
    after = s3.list_objects_v2(Bucket=deployed["feedback_bucket"], Prefix=f"pinup/feedback/{BOARD}/").get(
        "Contents", []
    )
    assert len(after) == 3
