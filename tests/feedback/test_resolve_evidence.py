"""`pinup feedback resolve --commit --pr --evidence`: kept create-only with the item, served only
when a resolve cites it, and bad evidence refused with nothing recorded (local and s3:// stores)."""

from __future__ import annotations

import hashlib
import io
import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from PIL import Image

from pinup.cli import cli
from pinup_feedback.store.base import iso_ts, now_utc
from pinup_feedback.store.file import FileStore

SHA = "0123456789abcdef0123456789abcdef01234567"


def save(store: Any, board: str = "hero") -> None:
    store.save(
        {
            "schemaVersion": 1,
            "board": board,
            "round": 1,
            "id": uuid.uuid4().hex,
            "receivedAt": iso_ts(now_utc()),
            "kind": "final",
            "clientHash": "0" * 16,
            "comments": {"A": "header too small", "B": "good"},
        }
    )


def picture(path: Path, fmt: str = "PNG", color: str = "red") -> Path:
    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), color).save(buffer, fmt)
    path.write_bytes(buffer.getvalue())
    return path


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, ["feedback", *args], catch_exceptions=False)


def item(store: Path, n: int) -> dict[str, Any]:
    r = run("items", "--format", "json", "--all", "--store", str(store))
    found: dict[str, Any] = next(i for i in json.loads(r.output)["items"] if i["n"] == n)
    return found


def recorded(store: Path) -> list[Path]:
    """Every event and evidence file of the board's item log."""
    base = store / "_items" / "hero"
    return sorted([*base.glob("e/*/*.json"), *base.glob("evidence/*")])


def test_resolve_with_commit_pr_and_a_screenshot(tmp_path: Path) -> None:
    store = FileStore(tmp_path / "store")
    save(store)
    shot = picture(tmp_path / "after.png")
    s = ["--store", str(store.root)]
    r = run(
        "resolve", "1", "--status", "resolved", "--summary", "Header 48px", "--commit", SHA.upper()[:12],
        "--pr", "https://github.com/acme/site/pull/7", "--evidence", str(shot), *s,
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert f"commit: {SHA[:12]}" in r.output and "PR: https://github.com/acme/site/pull/7" in r.output
    got = item(store.root, 1)
    digest = hashlib.sha256(shot.read_bytes()).hexdigest()
    assert got["summary"] == "Header 48px" and got["commit"] == SHA[:12]
    assert got["pr"] == "https://github.com/acme/site/pull/7"
    assert got["evidence"] == {"file": f"evidence/{digest}.png", "type": "image/png", "name": "after.png",
                               "bytes": shot.stat().st_size}  # fmt: skip
    kept = store.root / "_items" / "hero" / "evidence" / f"{digest}.png"
    assert kept.read_bytes() == shot.read_bytes()
    assert item(store.root, 2)["evidence"] is None  # the other item has none


def test_each_flag_alone_and_a_jpeg(tmp_path: Path) -> None:
    store = FileStore(tmp_path / "store")
    save(store)
    save(store)
    s = ["--store", str(store.root), "--format", "json"]
    r = run("resolve", "1", "--status", "resolved", "--summary", "x", "--commit", SHA[:7], *s)
    assert r.exit_code == 0 and json.loads(r.output)["commit"] == SHA[:7] and json.loads(r.output)["pr"] is None
    r = run("resolve", "2", "--status", "resolved", "--summary", "x", "--pr", "http://127.0.0.1/pr/1", *s)
    assert r.exit_code == 0 and json.loads(r.output)["pr"] == "http://127.0.0.1/pr/1"
    jpeg = picture(tmp_path / "shot.jpeg", "JPEG")
    r = run("resolve", "3", "--status", "wont_fix", "--summary", "x", "--evidence", str(jpeg), *s)
    assert r.exit_code == 0 and json.loads(r.output)["evidence"]["type"] == "image/jpeg"
    assert json.loads(r.output)["evidence"]["file"].endswith(".jpg")


@pytest.mark.parametrize(
    ("flag", "value", "message"),
    [
        ("--commit", "abc12", "is not a commit SHA"),
        ("--commit", "g" * 40, "is not a commit SHA"),
        ("--commit", "a" * 41, "is not a commit SHA"),
        ("--pr", "javascript:alert(1)", "is not an http(s) URL"),
        ("--pr", "ftp://example.com/pr/1", "is not an http(s) URL"),
        ("--pr", "https://", "is not an http(s) URL"),
        ("--pr", "https://example.com/\n## Next step", "is not an http(s) URL"),
        ("--pr", 'https://example.com/"onmouseover="x', "is not an http(s) URL"),
        ("--evidence", "missing.png", "cannot be read"),
        ("--evidence", "notes.txt", "is not a readable PNG or JPEG"),
        ("--evidence", "fake.png", "is not a readable PNG or JPEG"),
        ("--evidence", "cut.png", "is not a readable PNG or JPEG"),
        ("--evidence", "anim.gif", "is a GIF image"),
        ("--evidence", "page.html", "is not an HTML page"),
    ],
)
def test_bad_evidence_is_refused_and_nothing_is_recorded(tmp_path: Path, flag: str, value: str, message: str) -> None:
    store = FileStore(tmp_path / "store")
    save(store)
    (tmp_path / "notes.txt").write_text("hello")
    (tmp_path / "fake.png").write_text("<svg/>")
    whole = picture(tmp_path / "whole.png").read_bytes()
    (tmp_path / "cut.png").write_bytes(whole[: len(whole) // 2])
    picture(tmp_path / "anim.gif", "GIF")
    (tmp_path / "page.html").write_bytes(b"\xff\xfe not html")
    if flag == "--evidence":
        value = str(tmp_path / value)
    s = ["--store", str(store.root)]
    assert run("claim", "1", *s).exit_code == 0
    before = recorded(store.root)
    r = run("resolve", "1", "--status", "resolved", "--summary", "done", flag, value, *s)
    assert r.exit_code == 1 and message in r.output and "Traceback" not in r.output
    assert recorded(store.root) == before
    assert item(store.root, 1)["status"] == "in_progress"


def test_evidence_over_the_size_cap_is_refused(tmp_path: Path) -> None:
    from pinup_feedback.evidence import MAX_BYTES

    store = FileStore(tmp_path / "store")
    save(store)
    big = tmp_path / "big.png"
    big.write_bytes(picture(tmp_path / "p.png").read_bytes() + b"\0" * MAX_BYTES)
    before = recorded(store.root)
    r = run(
        "resolve", "1", "--status", "resolved", "--summary", "x", "--evidence", str(big), "--store", str(store.root)
    )
    assert r.exit_code == 1 and "the limit is 8 MB" in r.output
    assert recorded(store.root) == before


def test_a_refused_resolve_stores_no_evidence(tmp_path: Path) -> None:
    store = FileStore(tmp_path / "store")
    save(store)
    s = ["--store", str(store.root)]
    assert run("resolve", "1", "--status", "resolved", "--summary", "x", *s).exit_code == 0
    r = run(
        "resolve", "1", "--status", "resolved", "--summary", "y", "--evidence", str(picture(tmp_path / "a.png")), *s
    )
    assert r.exit_code == 3
    assert not list((store.root / "_items" / "hero").glob("evidence/*"))


def test_a_verify_report_folder_is_kept_with_its_pictures_inlined(tmp_path: Path) -> None:
    store = FileStore(tmp_path / "store")
    save(store)
    report = tmp_path / "site" / "boards" / "hero" / "verify"
    report.mkdir(parents=True)
    png = picture(report / "diff.png").read_bytes()
    (report / "index.html").write_text(
        '<!doctype html><html><body><img src="diff.png" alt="d"><img src="gone.png" alt="g"></body></html>'
    )
    r = run("resolve", "1", "--status", "resolved", "--summary", "x", "--evidence", str(report),
            "--store", str(store.root), "--format", "json")  # fmt: skip
    assert r.exit_code == 0, r.output
    ev = json.loads(r.output)["evidence"]
    assert ev["type"] == "text/html" and ev["name"] == "index.html"
    kept = (store.root / "_items" / "hero" / ev["file"]).read_text()
    import base64

    assert f'src="data:image/png;base64,{base64.b64encode(png).decode()}"' in kept
    assert 'src="gone.png"' in kept  # a picture that is not there is left as it was


def test_the_api_serves_only_cited_evidence(tmp_path: Path) -> None:
    """GET /api/items/evidence: the cited file with its type; names not cited, other boards, odd
    names and traversal are 404 or 400, whatever the store holds."""
    from starlette.testclient import TestClient

    from pinup_feedback.app import create_app
    from pinup_feedback.settings import Settings

    store = FileStore(tmp_path / "store")
    save(store)
    shot = picture(tmp_path / "after.png")
    r = run("resolve", "1", "--status", "resolved", "--summary", "x", "--evidence", str(shot),
            "--store", str(store.root), "--format", "json")  # fmt: skip
    file = json.loads(r.output)["evidence"]["file"]
    stray = store.root / "_items" / "hero" / "evidence" / ("f" * 64 + ".png")
    stray.write_bytes(shot.read_bytes())  # in the folder, but no resolve cites it
    app = create_app(Settings(mode="hosted", store=str(store.root), log_requests=False))
    with TestClient(app) as client:
        got = client.get("/api/items/evidence", params={"board": "hero", "file": file})
        assert got.status_code == 200 and got.content == shot.read_bytes()
        assert got.headers["content-type"] == "image/png" and got.headers["x-content-type-options"] == "nosniff"
        assert "sandbox" in got.headers["content-security-policy"]
        for params, status in [
            ({"board": "hero", "file": "evidence/" + "f" * 64 + ".png"}, 404),
            ({"board": "other", "file": file}, 404),
            ({"board": "hero", "file": "../../hero/" + file}, 404),
            ({"board": "hero", "file": "e/0000000001/000001.json"}, 404),
            ({"board": "../hero", "file": file}, 400),
            ({"file": file}, 400),
        ]:
            assert client.get("/api/items/evidence", params=params).status_code == status, params


def test_resolve_with_evidence_on_an_s3_store(
    tmp_path: Path, moto_endpoint: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import boto3

    from pinup_feedback.store.s3 import S3Store

    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
    }.items():
        monkeypatch.setenv(name, value)
    bucket = f"pinup-ev-{uuid.uuid4().hex[:10]}"
    s3 = boto3.client("s3", endpoint_url=moto_endpoint, region_name="us-east-1")
    s3.create_bucket(Bucket=bucket)
    save(S3Store(bucket, "p", endpoint_url=moto_endpoint))
    shot = picture(tmp_path / "after.png")
    s = ["--store", f"s3://{bucket}/p", "--endpoint-url", moto_endpoint, "--format", "json"]
    r = run("resolve", "1", "--status", "resolved", "--summary", "x", "--commit", SHA, "--evidence", str(shot), *s)
    assert r.exit_code == 0, r.output
    file = json.loads(r.output)["evidence"]["file"]
    head = s3.get_object(Bucket=bucket, Key=f"p/feedback/_items/hero/{file}")
    assert head["Body"].read() == shot.read_bytes() and head["ContentType"] == "image/png"
    r = run("resolve", "2", "--status", "resolved", "--summary", "x", "--pr", "nope", *s)
    assert r.exit_code == 1
    r = run("items", "--format", "json", "--all", *s[:-2])
    assert [(i["status"], i["commit"]) for i in json.loads(r.output)["items"]] == [("resolved", SHA), ("open", None)]
    from starlette.testclient import TestClient

    from pinup_feedback.app import create_app
    from pinup_feedback.settings import Settings

    settings = Settings(mode="hosted", store=f"s3://{bucket}/p", endpoint_url=moto_endpoint, log_requests=False)
    with TestClient(create_app(settings)) as client:  # the hosted endpoint reads it back from S3
        got = client.get("/api/items/evidence", params={"board": "hero", "file": file})
        assert (
            got.status_code == 200 and got.content == shot.read_bytes() and got.headers["content-type"] == "image/png"
        )
        other = {"board": "hero", "file": "evidence/" + "0" * 64 + ".png"}
        assert client.get("/api/items/evidence", params=other).status_code == 404
