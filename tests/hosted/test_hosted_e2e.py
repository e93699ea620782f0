"""The hosted issue's "Done when", end to end over real HTTP to moto's S3 server:

`pinup build --api-url` (with PINUP_BOARD_SECRET) -> `pinup publish` to moto -> many reviewers POST
through `pinup_feedback.lambda_handler.handler` with API Gateway v2 event JSON, using the token found
in the built page -> create-only objects in S3 -> `pinup results` aggregates them; `pinup feedback pull`
mirrors them so `pinup feedback list` reads them locally; `pinup build --store s3://…` renders results.html.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from hosted_helpers import (
    build_example,
    fresh_handler_module,
    invoke,
    make_buckets,
    publish,
    response_body,
    run_pinup,
    v2_event,
)

SECRET = "e2e-board-secret-" + "9" * 32
API_URL = "https://api.example.test"
ORIGIN = "https://boards.example.test"
BOARD = "trail-home"


@pytest.fixture()
def hosted(
    tmp_path: Path, moto_endpoint: str, s3: Any, aws_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> Iterator[dict[str, Any]]:
    """Build the bundled example with --api-url, publish it to moto, load the Lambda handler on the S3 store."""
    boards_bucket, feedback_bucket = make_buckets(s3, versioned=True)
    store = f"s3://{feedback_bucket}/team"

    workspace, site, env = build_example(tmp_path, aws_env, secret=SECRET, api_url=API_URL)
    published = publish(
        site,
        boards_bucket,
        store,
        endpoint=moto_endpoint,
        public_url="https://d123.cloudfront.test",
        env=env,
        cwd=tmp_path,
    )

    monkeypatch.setenv("PINUP_STORE", store)
    monkeypatch.setenv("AWS_ENDPOINT_URL", moto_endpoint)
    monkeypatch.setenv("PINUP_BOARD_SECRET", SECRET)
    monkeypatch.setenv("PINUP_ALLOWED_ORIGINS", ORIGIN)
    monkeypatch.setenv("PINUP_RATE_LIMIT", "30")
    module = fresh_handler_module()
    yield {
        "env": env,
        "site": site,
        "store": store,
        "feedback_bucket": feedback_bucket,
        "boards_bucket": boards_bucket,
        "handler": module.handler,
        "publish_output": published,
        "workspace": workspace,
        "tmp": tmp_path,
    }


def board_config(site: Path, slug: str) -> dict[str, Any]:
    soup = BeautifulSoup((site / "boards" / slug / "index.html").read_text("utf-8"), "html.parser")
    return json.loads(soup.select_one("script#board-config").string)  # type: ignore[union-attr]


def post(
    handler: Any, body: dict[str, Any], *, token: str | None, ip: str, origin: str = ORIGIN
) -> tuple[int, dict[str, Any], dict[str, str]]:
    headers = {"origin": origin}
    if token is not None:
        headers["x-pinup-board-token"] = token
    response = invoke(handler, v2_event("POST", "/api/feedback", body, headers, ip))
    raw = response_body(response).decode()
    return (
        response["statusCode"],
        (json.loads(raw) if raw else {}),
        {k.lower(): v for k, v in (response.get("headers") or {}).items()},
    )


def feedback(
    reviewer: str, preferred: str | None, ratings: dict[str, int], comments: dict[str, str] | None = None, **extra: Any
) -> dict[str, Any]:
    return {
        "schemaVersion": 1,
        "board": BOARD,
        "round": 1,
        "clientId": f"client-{reviewer.lower()}-{uuid.uuid4().hex[:6]}",
        "reviewer": reviewer,
        "preferred": preferred,
        "ratings": ratings,
        "comments": comments or {},
        "overall": f"{reviewer} was here",
        "regenerated": False,
        "regenerateAction": None,
        "remixSpec": None,
        "website": "",
        **extra,
    }


def record_keys(s3: Any, bucket: str, prefix: str) -> list[str]:
    pages = s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix)
    return sorted(o["Key"] for page in pages for o in page.get("Contents", []) if "/_claims/" not in o["Key"])


def test_build_publish_review_results(hosted: dict[str, Any], s3: Any, moto_endpoint: str) -> None:
    site, handler, bucket = hosted["site"], hosted["handler"], hosted["feedback_bucket"]

    # 1. the built page carries the endpoint and the board token
    config = board_config(site, BOARD)
    token = config["token"]
    assert config["apiUrl"] == API_URL
    assert token == hmac.new(SECRET.encode(), BOARD.encode(), hashlib.sha256).hexdigest()
    variants = config["variants"]
    assert len(variants) >= 3
    a, b, c = variants[:3]

    # 2. publish put the site in the boards bucket and the manifest next to the feedback
    assert "https://d123.cloudfront.test/boards/trail-home/" in hosted["publish_output"]
    head = s3.head_object(Bucket=hosted["boards_bucket"], Key=f"boards/{BOARD}/index.html")
    assert head["ContentType"] == "text/html; charset=utf-8"
    manifest = json.loads(s3.get_object(Bucket=bucket, Key=f"team/boards/{BOARD}.json")["Body"].read())
    assert manifest["variants"] == variants and manifest["round"] == 1

    # 3. many reviewers through the Lambda handler (API Gateway v2 events)
    votes = [
        ("Ana", b, {a: 3, b: 5, c: 2}, {b: "Clear <b>hierarchy</b>"}),
        ("Bo", b, {a: 4, b: 4}, {a: "Map feels busy"}),
        ("Cy", a, {a: 5, b: 2, c: 1}, {}),
        ("Di", b, {b: 5}, {}),
        ("Ed", c, {a: 2, c: 4}, {c: "<script>alert(1)</script>"}),
    ]
    ids = []
    for n, (who, pick, ratings, comments) in enumerate(votes):
        status, body, headers = post(
            handler, feedback(who, pick, ratings, comments), token=token, ip=f"198.51.100.{n + 10}"
        )
        assert status == 200, body
        assert body["received"] is True and body["action"] == "submitted"
        ids.append(body["id"])
    status, body, _ = post(
        handler,
        {**feedback("Fi", None, {}), "regenerated": True, "regenerateAction": f"more_like_{b}"},
        token=token,
        ip="198.51.100.99",
    )
    assert status == 200 and body["action"] == "regenerate"
    ids.append(body["id"])

    # refusals on the same path: wrong token, no token, unknown variant (manifest from publish), honeypot
    assert post(handler, feedback("Mal", a, {a: 1}), token="0" * 64, ip="203.0.113.5")[0] == 403
    assert post(handler, feedback("Mal", a, {a: 1}), token=None, ip="203.0.113.6")[0] == 403
    status, body, _ = post(handler, feedback("Typo", "Z", {"Z": 5}), token=token, ip="203.0.113.7")
    assert status == 422 and "unknown variant" in json.dumps(body)
    status, body, _ = post(
        handler, {**feedback("Bot", a, {a: 5}), "website": "http://spam.test"}, token=token, ip="203.0.113.8"
    )
    assert status == 200  # fake ack: nothing stored

    # 4. one create-only object per acknowledged submission, under feedback/<board>/YYYY/MM/DD/
    keys = record_keys(s3, bucket, f"team/feedback/{BOARD}/")
    assert len(keys) == len(ids) == 6
    for key in keys:
        parts = key.split("/")
        assert len(parts) == 7 and parts[:3] == ["team", "feedback", BOARD]
        assert any(parts[-1].endswith(f"-{rid}.json") for rid in ids)
        head = s3.head_object(Bucket=bucket, Key=key)
        assert head["ContentType"] == "application/json"
        assert head.get("ServerSideEncryption") == "AES256"
        body = s3.get_object(Bucket=bucket, Key=key)["Body"].read().decode()
        assert "198.51.100" not in body  # no raw client address in storage
    with pytest.raises(Exception) as refused:  # create-only: the same key cannot be written again
        s3.put_object(Bucket=bucket, Key=keys[0], Body=b"{}", IfNoneMatch="*")
    assert "PreconditionFailed" in str(refused.value)
    assert all(len(s3.list_object_versions(Bucket=bucket, Prefix=k)["Versions"]) == 1 for k in keys)

    # 5. pinup results aggregates every reviewer from the hosted store
    env = {**hosted["env"], "AWS_ENDPOINT_URL": moto_endpoint}
    result = run_pinup(
        "results",
        BOARD,
        "--store",
        hosted["store"],
        "--src",
        str(hosted["workspace"]),
        "--format",
        "json",
        env=env,
        cwd=hosted["tmp"],
    )
    data = json.loads(result.stdout)
    tally = {v["id"]: v for v in data["variants"]}
    assert data["submissions"] == 5 and data["winner"] == b and data["round"] == 1
    assert (tally[a]["picks"], tally[b]["picks"], tally[c]["picks"]) == (1, 3, 1)
    assert tally[a]["mean"] == 3.5 and tally[a]["median"] == 3.5
    assert tally[b]["mean"] == 4.0 and tally[b]["median"] == 4.5
    assert [q["action"] for q in data["regenerate"]] == [f"more_like_{b}"]
    assert [n["text"] for n in tally[c]["comments"]] == ["<script>alert(1)</script>"]

    as_csv = run_pinup(
        "results",
        BOARD,
        "--store",
        hosted["store"],
        "--endpoint-url",
        moto_endpoint,
        "--format",
        "csv",
        env=hosted["env"],
        cwd=hosted["tmp"],
    )
    assert as_csv.stdout.splitlines()[0].startswith("board,round,variant")

    # 6. the static results page can be built from the hosted store; user text stays escaped
    out2 = hosted["tmp"] / "site2"
    run_pinup(
        "build", str(hosted["workspace"]), "--out", str(out2), "--store", hosted["store"], env=env, cwd=hosted["tmp"]
    )
    soup = BeautifulSoup((out2 / "boards" / BOARD / "results.html").read_text("utf-8"), "html.parser")
    assert soup.find("script") is None
    assert soup.select_one(f'tr[data-variant="{b}"] .picks').get_text() == "3"
    assert "<script>alert(1)</script>" in soup.get_text()


def test_pull_then_list_locally(hosted: dict[str, Any], s3: Any, moto_endpoint: str) -> None:
    handler, token = hosted["handler"], board_config(hosted["site"], BOARD)["token"]
    a, b = board_config(hosted["site"], BOARD)["variants"][:2]
    ids = []
    for n, who in enumerate(["Ana", "Bo", "Cy"]):
        status, body, _ = post(handler, feedback(who, b if n else a, {a: 4}), token=token, ip=f"192.0.2.{n + 1}")
        assert status == 200, body
        ids.append(body["id"])

    local = hosted["tmp"] / "local-store"
    env = {**hosted["env"], "AWS_ENDPOINT_URL": moto_endpoint}
    first = run_pinup(
        "feedback", "pull", "--store", hosted["store"], "--into", str(local), "--json", env=env, cwd=hosted["tmp"]
    )
    assert json.loads(first.stdout)["pulled"] == 3
    files = sorted((local / BOARD).glob("*.json"))
    assert len(files) == 3 and all(any(f.name.endswith(f"-{i}.json") for f in files) for i in ids)
    assert not (local / "_claims").exists()

    again = run_pinup(
        "feedback", "pull", "--store", hosted["store"], "--into", str(local), "--json", env=env, cwd=hosted["tmp"]
    )
    assert json.loads(again.stdout) == {"into": str(local), "pulled": 0, "present": 3, "conflicts": [], "invalid": []}

    # a local file that differs is never overwritten: reported as a conflict, exit 1
    victim = files[0]
    victim.write_text('{"edited": "locally"}')
    conflict = run_pinup(
        "feedback", "pull", "--store", hosted["store"], "--into", str(local), env=env, cwd=hosted["tmp"], ok=False
    )
    assert conflict.returncode == 1 and "conflict" in conflict.stderr
    assert victim.read_text() == '{"edited": "locally"}'
    victim.unlink()
    run_pinup("feedback", "pull", "--store", hosted["store"], "--into", str(local), env=env, cwd=hosted["tmp"])

    listed = run_pinup(
        "feedback", "list", "--store", str(local), "--board", BOARD, "--format", "json", env=env, cwd=hosted["tmp"]
    )
    for rid in ids:
        assert rid in listed.stdout
    shown = run_pinup("feedback", "show", ids[-1], "--store", str(local), env=env, cwd=hosted["tmp"])
    assert "Cy" in shown.stdout


def test_pull_feeds_wait_and_handoff_like_a_local_review(hosted: dict[str, Any], moto_endpoint: str) -> None:
    """`pinup wait` blocks on the workspace's local store; pulls bring hosted submissions into it."""
    import subprocess
    import sys
    import time

    handler, token = hosted["handler"], board_config(hosted["site"], BOARD)["token"]
    a, b = board_config(hosted["site"], BOARD)["variants"][:2]
    workspace, env = hosted["workspace"], {**hosted["env"], "AWS_ENDPOINT_URL": moto_endpoint}
    pull_args = ("feedback", "pull", "--store", hosted["store"], "--src", str(workspace), "--json")
    waiter = subprocess.Popen(
        [sys.executable, "-m", "pinup", "wait", str(workspace), "--board", BOARD, "--timeout", "600"],
        env=env,
        cwd=hosted["tmp"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    posted: list[str] = []
    try:
        # A reviewer submits on the hosted board and the designer pulls, until the waiting agent wakes.
        # (`wait` only returns records newer than its own start, so keep going until one is.)
        for n in range(60):
            status, body, _ = post(
                handler, feedback(f"R{n}", b, {a: 2, b: 5}, {b: "ship it"}), token=token, ip=f"203.0.113.{n + 100}"
            )
            assert status == 200, body
            posted.append(body["id"])
            run_pinup(*pull_args, env=env, cwd=hosted["tmp"])
            if waiter.poll() is not None:
                break
            time.sleep(1.0)
        out, err = waiter.communicate(timeout=60)
    finally:
        if waiter.poll() is None:
            waiter.kill()
            waiter.communicate()
    assert waiter.returncode == 0, err  # 0: a final submit
    record = json.loads(out)
    assert record["id"] in posted and record["kind"] == "final" and record["board"] == BOARD
    assert "clientHash" in record and record["comments"] == {b: "ship it"}
    local = workspace / ".pinup" / "feedback" / BOARD
    assert {p.name.rsplit("-", 1)[1][:-5] for p in local.glob("*.json")} == set(posted)

    handoff = run_pinup(
        "feedback", "handoff", "--src", str(workspace), "--board", BOARD, "--format", "json", env=env, cwd=hosted["tmp"]
    )
    data = json.loads(handoff.stdout)
    assert data["id"] == posted[-1] and data["preferred"] == b and data["ratings"] == {a: 2, b: 5}
    assert data["comments"] == {b: "ship it"} and data["kind"] == "final"
