"""Store faults: a full or read-only disk and a failing S3 give JSON errors and acknowledge nothing.

The full disk is a real 64 KB tmpfs when this process may mount one (root in CI containers);
otherwise the write call itself fails with ENOSPC. Read-only is a read-only remount (root
ignores permission bits) or, without root, a read-only directory.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from payloads import feedback_body

from pinup_feedback.app import create_app
from pinup_feedback.settings import Settings
from pinup_feedback.store import durable as file_store
from pinup_feedback.store.s3 import S3Store

BUCKET = "pinup-faults"


def body(**overrides: Any) -> dict[str, Any]:
    defaults = {"comments": {"A": "x" * 2000}, "regenerated": True, "regenerateAction": "different"}
    return feedback_body(**{**defaults, **overrides})


def mount_tmpfs(path: Path, options: str) -> bool:
    path.mkdir(parents=True, exist_ok=True)
    return (
        subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)], capture_output=True).returncode == 0
    )


def unmount(path: Path) -> None:
    subprocess.run(["umount", "-l", str(path)], capture_output=True)


@pytest.fixture()
def full_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, str]]:
    """(store dir, how): a store whose disk has no room left."""
    store = tmp_path / "store"
    if os.geteuid() == 0 and mount_tmpfs(store, "size=64k"):
        try:
            (store / "hero").mkdir()
            fd = os.open(store / "filler", os.O_WRONLY | os.O_CREAT)
            for size in (4096, 1):  # fill it to the last byte
                try:
                    while os.write(fd, b"\0" * size):
                        pass
                except OSError as exc:
                    assert exc.errno == errno.ENOSPC
            os.close(fd)
            yield store, "tmpfs"
        finally:
            unmount(store)
        return

    def no_space(path: Path, data: bytes, *, sync: bool = False) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(file_store, "create_file", no_space)  # every commit creates its files through it
    yield store, "simulated"


@pytest.fixture()
def readonly_store(tmp_path: Path) -> Iterator[Path]:
    store = tmp_path / "ro"
    if os.geteuid() == 0 and mount_tmpfs(store, "size=1m"):
        try:
            (store / "hero").mkdir()
            assert subprocess.run(["mount", "-o", "remount,ro", str(store)], capture_output=True).returncode == 0
            yield store
        finally:
            unmount(store)
        return
    (store / "hero").mkdir(parents=True)
    store.chmod(0o500)
    (store / "hero").chmod(0o500)
    try:
        yield store
    finally:
        (store / "hero").chmod(0o700)
        store.chmod(0o700)


def records(store: Path) -> list[Path]:
    return sorted(p for p in store.rglob("*.json"))


async def post(store: Path, payload: dict[str, Any]) -> httpx.Response:
    settings = Settings(mode="local", store=str(store), log_requests=False, rate_limit=0)
    app = create_app(settings)
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5000))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8765") as http:
        return await http.post("/api/feedback", json=payload)


@pytest.mark.anyio
async def test_full_disk_is_a_json_error_and_nothing_is_acknowledged(full_store: tuple[Path, str]) -> None:
    store, how = full_store
    for _ in range(3):
        r = await post(store, body())
        assert r.status_code in (500, 503), (how, r.status_code, r.text)
        assert r.headers["content-type"] == "application/json"
        assert r.json()["error"] in ("store_failed", "store_unavailable") and "id" not in r.json()
    assert records(store) == [], how
    assert list(store.rglob(".*.tmp")) == [], "a failed write left a temp file"


@pytest.mark.anyio
async def test_read_only_store_is_a_json_error_and_nothing_is_acknowledged(readonly_store: Path) -> None:
    r = await post(readonly_store, body())
    assert r.status_code == 500 and r.json()["error"] == "store_failed" and "id" not in r.json()
    assert records(readonly_store) == []


# --- S3: timeouts and connection failures (status errors are covered in tests/lambda) --------
@pytest.fixture()
def no_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    from botocore.retries import standard

    monkeypatch.setattr(standard.ExponentialBackoff, "delay_amount", lambda self, context: 0)


@pytest.fixture()
def s3_bucket() -> Iterator[Any]:
    from moto import mock_aws

    with mock_aws():
        import boto3

        client = boto3.client("s3", region_name="us-east-1")
        client.create_bucket(Bucket=BUCKET)
        yield client


def raising(exc: Exception, calls: list[str]) -> Any:
    def hook(request: Any, **_: Any) -> Any:
        calls.append(request.url)
        raise exc

    return hook


def fault(kind: str) -> Exception:
    from botocore.exceptions import ConnectTimeoutError, EndpointConnectionError, ReadTimeoutError

    url = "https://s3.amazonaws.com"
    faults = {
        "read-timeout": ReadTimeoutError,
        "connect-timeout": ConnectTimeoutError,
        "connection": EndpointConnectionError,
    }
    return faults[kind](endpoint_url=url)


@pytest.mark.anyio
@pytest.mark.parametrize("kind", ["read-timeout", "connect-timeout", "connection"])
async def test_s3_timeouts_are_retried_then_503_with_retry_after(
    s3_bucket: Any, no_backoff: None, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    store = S3Store(BUCKET, "p", max_attempts=4, region="us-east-1")
    calls: list[str] = []
    store.client.meta.events.register("before-send.s3.PutObject", raising(fault(kind), calls))
    settings = Settings(mode="hosted", store=f"s3://{BUCKET}/p", log_requests=False, retry_after=9)
    app = create_app(settings, store=store)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="https://api.example") as http:
        r = await http.post("/api/feedback", json=body())
    assert r.status_code == 503 and r.headers["retry-after"] == "9", r.text
    assert r.json()["error"] == "store_unavailable" and "id" not in r.json()
    assert len(calls) == 4, "botocore's standard mode retries timeouts and connection errors"
    listed = s3_bucket.list_objects_v2(Bucket=BUCKET).get("Contents", [])
    assert listed == []
    assert json.loads(r.content)["detail"]
