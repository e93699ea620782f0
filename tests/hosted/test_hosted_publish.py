"""`pinup publish` against moto's S3 server over real HTTP: headers, change detection, dry run, manifests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pinup.cli import cli
from pinup.hosted.publish import (
    CACHE_DEFAULT,
    CACHE_IMMUTABLE,
    CACHE_SHORT,
    cache_control_for,
    content_type_for,
    is_excluded,
)

MANIFEST = {"board": "checkout", "title": "Checkout hero", "round": 2, "variants": ["A", "B", "C"]}

EXPECTED = {
    "index.html": ("text/html; charset=utf-8", CACHE_SHORT),
    "assets/app.3f9a1c2b.js": ("text/javascript; charset=utf-8", CACHE_IMMUTABLE),
    "assets/site.css": ("text/css; charset=utf-8", CACHE_DEFAULT),
    "assets/site.0123abcd89.css": ("text/css; charset=utf-8", CACHE_IMMUTABLE),
    "assets/logo.svg": ("image/svg+xml", CACHE_DEFAULT),
    "assets/photo.webp": ("image/webp", CACHE_DEFAULT),
    "assets/inter.5e6f7a8b.woff2": ("font/woff2", CACHE_IMMUTABLE),
    "assets/app.3f9a1c2b.js.map": ("application/json", CACHE_DEFAULT),
    "assets/tokens.json": ("application/json", CACHE_SHORT),
    "robots.txt": ("text/plain; charset=utf-8", CACHE_DEFAULT),
    "DESIGN.md": ("text/markdown; charset=utf-8", CACHE_DEFAULT),
    "assets/shot.png": ("image/png", CACHE_DEFAULT),
    "boards/index.html": ("text/html; charset=utf-8", CACHE_SHORT),
    "boards/checkout/index.html": ("text/html; charset=utf-8", CACHE_SHORT),
    "boards/checkout/board.json": ("application/json", CACHE_SHORT),
    "boards/checkout/variants/a.html": ("text/html; charset=utf-8", CACHE_SHORT),
}
NEVER = [
    "serve.json",
    ".pinup-build.json",
    ".pinup/feedback/checkout/x.json",
    "boards/checkout/feedback.json",
    "boards/checkout/feedback-pending.json",
    "boards/checkout/.draft.html",
    "boards/checkout/results.html",
]


@pytest.fixture()
def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    for rel in EXPECTED:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(f"content of {rel}\n".encode())
    (root / "boards/checkout/board.json").write_text(json.dumps(MANIFEST))
    for rel in NEVER:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text('{"secret": "local only"}')
    return root


def run(*args: str, ok: bool = True) -> Any:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    if ok:
        assert result.exit_code == 0, result.output
    return result


def keys(s3: Any, bucket: str) -> set[str]:
    pages = s3.get_paginator("list_objects_v2").paginate(Bucket=bucket)
    return {o["Key"] for page in pages for o in page.get("Contents", [])}


def versions(s3: Any, bucket: str, key: str) -> int:
    return len(s3.list_object_versions(Bucket=bucket, Prefix=key).get("Versions", []))


def test_headers_unit() -> None:
    assert content_type_for("a/b.JS") == "text/javascript; charset=utf-8"
    assert content_type_for("x.unknownext") == "application/octet-stream"
    assert content_type_for("a.csv").startswith("text/csv")
    assert cache_control_for("app.1234567.js") == CACHE_DEFAULT  # 7 hex digits is not a hash
    assert cache_control_for("app.deadbeef.js") == CACHE_IMMUTABLE
    assert cache_control_for("app.DEADBEEF.js") == CACHE_DEFAULT  # lowercase hex only
    assert is_excluded("boards/x/feedback-archive-1.json")
    assert not is_excluded("assets/feedback.json")  # only local copies inside a board folder
    assert not is_excluded("boards/x/results.html", include_results=True)


def test_publish_sets_content_type_and_cache(site: Path, s3: Any, bucket: str, moto_endpoint: str) -> None:
    result = run("publish", str(site), "--bucket", bucket, "--prefix", "/docs/", "--endpoint-url", moto_endpoint)
    assert f"{moto_endpoint}/{bucket}/docs/index.html" in result.output
    assert f"{moto_endpoint}/{bucket}/docs/boards/checkout/index.html" in result.output
    stored = keys(s3, bucket)
    assert {f"docs/{rel}" for rel in EXPECTED} | {"docs/boards/checkout.json"} == stored
    for rel, (ctype, cache) in EXPECTED.items():
        head = s3.head_object(Bucket=bucket, Key=f"docs/{rel}")
        assert head["ContentType"] == ctype, rel
        assert head["CacheControl"] == cache, rel
    body = s3.get_object(Bucket=bucket, Key="docs/assets/site.css")["Body"].read()
    assert body == b"content of assets/site.css\n"


def test_never_uploads_local_state(site: Path, s3: Any, bucket: str, moto_endpoint: str) -> None:
    run("publish", str(site), "--bucket", bucket, "--endpoint-url", moto_endpoint)
    stored = keys(s3, bucket)
    for rel in NEVER:
        assert rel not in stored
    assert not any("serve.json" in k or "/." in k or k.startswith(".") for k in stored)


def test_results_pages_only_on_request(site: Path, s3: Any, bucket: str, moto_endpoint: str) -> None:
    run("publish", str(site), "--bucket", bucket, "--endpoint-url", moto_endpoint, "--with-results")
    assert "boards/checkout/results.html" in keys(s3, bucket)


def test_second_publish_skips_unchanged_and_reuploads_changed(
    site: Path, s3: Any, bucket: str, moto_endpoint: str
) -> None:
    s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={"Status": "Enabled"})
    first = run("publish", str(site), "--bucket", bucket, "--endpoint-url", moto_endpoint)
    assert f"uploaded {len(EXPECTED) + 1} file(s)" in first.output

    second = run("publish", str(site), "--bucket", bucket, "--endpoint-url", moto_endpoint)
    assert "uploaded 0 file(s)" in second.output
    assert f"{len(EXPECTED) + 1} unchanged" in second.output
    assert versions(s3, bucket, "index.html") == 1

    (site / "assets/site.css").write_text("body{color:red}\n")
    third = run("publish", str(site), "--bucket", bucket, "--endpoint-url", moto_endpoint)
    assert "uploaded 1 file(s)" in third.output
    assert versions(s3, bucket, "assets/site.css") == 2
    assert versions(s3, bucket, "index.html") == 1
    assert s3.get_object(Bucket=bucket, Key="assets/site.css")["Body"].read() == b"body{color:red}\n"


def test_dry_run_uploads_nothing(site: Path, s3: Any, bucket: str, moto_endpoint: str) -> None:
    result = run("publish", str(site), "--bucket", bucket, "--endpoint-url", moto_endpoint, "--dry-run")
    assert keys(s3, bucket) == set()
    assert f"s3://{bucket}/index.html" in result.output
    assert f"s3://{bucket}/boards/checkout.json" in result.output
    assert "nothing was uploaded" in result.output

    run("publish", str(site), "--bucket", bucket, "--endpoint-url", moto_endpoint)
    (site / "index.html").write_text("<h1>new</h1>")
    again = run("publish", str(site), "--bucket", bucket, "--endpoint-url", moto_endpoint, "--dry-run")
    assert "changed" in again.output and "index.html" in again.output
    assert "1 to upload" in again.output
    assert s3.get_object(Bucket=bucket, Key="index.html")["Body"].read() == b"content of index.html\n"


def test_manifest_goes_to_the_feedback_store(site: Path, s3: Any, bucket: str, moto_endpoint: str) -> None:
    feedback_bucket = bucket + "-fb"
    s3.create_bucket(Bucket=feedback_bucket)
    run(
        "publish",
        str(site),
        "--bucket",
        bucket,
        "--endpoint-url",
        moto_endpoint,
        "--store",
        f"s3://{feedback_bucket}/team/pinup",
        "--public-url",
        "https://d111.cloudfront.test",
    )
    obj = s3.get_object(Bucket=feedback_bucket, Key="team/pinup/boards/checkout.json")
    assert json.loads(obj["Body"].read()) == MANIFEST
    assert obj["ContentType"] == "application/json"
    assert "boards/checkout.json" not in keys(s3, bucket)
    assert keys(s3, feedback_bucket) == {"team/pinup/boards/checkout.json"}
    # a second run finds the manifest unchanged in the other bucket too
    again = run(
        "publish",
        str(site),
        "--bucket",
        bucket,
        "--endpoint-url",
        moto_endpoint,
        "--store",
        f"s3://{feedback_bucket}/team/pinup",
        "--public-url",
        "https://d111.cloudfront.test",
    )
    assert "uploaded 0 file(s)" in again.output
    assert "https://d111.cloudfront.test/boards/checkout/" in again.output


def test_bad_manifest_is_a_clear_error(site: Path, bucket: str, moto_endpoint: str) -> None:
    (site / "boards/checkout/board.json").write_text('{"board": "other", "round": 1, "variants": ["A"]}')
    result = run("publish", str(site), "--bucket", bucket, "--endpoint-url", moto_endpoint, ok=False)
    assert result.exit_code == 1
    assert "folder is 'checkout'" in result.output


def test_missing_bucket_is_a_clear_error(site: Path, aws_env: dict[str, str], moto_endpoint: str) -> None:
    result = run("publish", str(site), "--bucket", "pinup-no-such-bucket", "--endpoint-url", moto_endpoint, ok=False)
    assert result.exit_code == 1
    assert "NoSuchBucket" in result.output
    assert "Traceback" not in result.output


def test_not_a_site(tmp_path: Path, aws_env: dict[str, str]) -> None:
    result = run("publish", str(tmp_path / "nope"), "--bucket", "b", ok=False)
    assert result.exit_code == 1 and "pinup build" in result.output


def test_force_reuploads_everything(site: Path, s3: Any, bucket: str, moto_endpoint: str) -> None:
    run("publish", str(site), "--bucket", bucket, "--endpoint-url", moto_endpoint)
    forced = run("publish", str(site), "--bucket", bucket, "--endpoint-url", moto_endpoint, "--force")
    assert f"uploaded {len(EXPECTED) + 1} file(s)" in forced.output


def test_progress_bar_on_a_terminal(
    site: Path, s3: Any, bucket: str, moto_endpoint: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # rich treats stderr as a terminal: the live bar is drawn
    import re

    result = CliRunner().invoke(
        cli, ["publish", str(site), "--bucket", bucket, "--endpoint-url", moto_endpoint], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    assert "publish" in result.stderr and "\u2501" in result.stderr  # the bar's "━" segments
    done = re.findall(r"(\d+)/(\d+) bytes", result.stderr)
    assert done and done[-1][0] == done[-1][1] != "0"  # it ends full: every changed byte counted
    assert "uploaded" in result.stdout and "\u2501" not in result.stdout  # the bar never mixes into stdout


def test_the_manifest_listing_skips_the_feedback_records(site: Path, s3: Any, bucket: str, moto_endpoint: str) -> None:
    from pinup.hosted.aws import S3Location, s3_client
    from pinup.hosted.publish import build_plan, fetch_etags

    feedback_bucket = bucket + "-fb"
    s3.create_bucket(Bucket=feedback_bucket)
    s3.put_object(Bucket=feedback_bucket, Key="team/feedback/checkout/2026/11/30/r.json", Body=b"{}")
    s3.put_object(Bucket=feedback_bucket, Key="team/boards/checkout.json", Body=b"{}")
    plan = build_plan(site, S3Location(bucket), S3Location(feedback_bucket, "team"))
    client = s3_client(moto_endpoint)
    listed: list[tuple[str, str]] = []
    client.meta.events.register(
        "before-parameter-build.s3.ListObjectsV2",
        lambda params, **_: listed.append((params["Bucket"], params.get("Prefix", ""))),
    )
    etags = fetch_etags(client, plan)
    assert sorted(listed) == sorted([(bucket, ""), (feedback_bucket, "team/boards/")])
    assert "team/boards/checkout.json" in etags and not any("/feedback/" in k for k in etags)


def test_public_urls_follow_the_prefix() -> None:
    from pinup.hosted.aws import S3Location
    from pinup.hosted.publish import public_urls

    cdn = "https://d111.cloudfront.test"
    assert public_urls(S3Location("b", "docs/v2"), ["x"], public_url=cdn) == [
        f"{cdn}/docs/v2/",
        f"{cdn}/docs/v2/boards/x/",
    ]
    assert public_urls(S3Location("b", "docs"), ["x"], public_url=cdn + "/docs/") == [
        f"{cdn}/docs/",
        f"{cdn}/docs/boards/x/",
    ]
    assert public_urls(S3Location("b"), ["x"], public_url=cdn + "/") == [f"{cdn}/", f"{cdn}/boards/x/"]
    assert public_urls(S3Location("b", "p"), ["x"], endpoint_url="http://127.0.0.1:9000/") == [
        "http://127.0.0.1:9000/b/p/index.html",
        "http://127.0.0.1:9000/b/p/boards/x/index.html",
    ]
    assert public_urls(S3Location("b"), [], region="eu-west-1") == ["https://b.s3.eu-west-1.amazonaws.com/index.html"]
