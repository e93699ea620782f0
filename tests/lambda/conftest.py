"""Fixtures for the hosted tests: fake AWS credentials, a moto S3 server on 127.0.0.1, a bucket."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from lambda_helpers import BUCKET


@pytest.fixture(autouse=True)
def aws_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Never real AWS: fake credentials, a fixed region, no endpoint leaking in from the shell."""
    for name in ("AWS_PROFILE", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "PINUP_ENDPOINT_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")


@pytest.fixture()
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def moto_server() -> Iterator[str]:
    """moto in server mode: real HTTP on 127.0.0.1, an OS-picked port."""
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@pytest.fixture()
def s3_server(moto_server: str, aws_env: None) -> Iterator[tuple[str, Any]]:
    """A fresh bucket on the moto server and a plain boto3 client to look inside it."""
    import boto3

    client = boto3.client("s3", endpoint_url=moto_server, region_name="us-east-1")
    client.create_bucket(Bucket=BUCKET)
    yield moto_server, client
    for page in client.get_paginator("list_object_versions").paginate(Bucket=BUCKET):
        for obj in page.get("Versions", []) + page.get("DeleteMarkers", []):
            client.delete_object(Bucket=BUCKET, Key=obj["Key"], VersionId=obj["VersionId"])
    client.delete_bucket(Bucket=BUCKET)

