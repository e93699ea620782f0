"""Fixtures for the Lambda tests: fake AWS credentials and a fresh bucket on the shared moto S3 server."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from lambda_helpers import BUCKET
from lambda_process import closing_store_clients, own_event_loop


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


@pytest.fixture(autouse=True)
def lambda_process(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The event loop Mangum runs on and the S3 clients the stores make, closed after each test."""
    with own_event_loop(), closing_store_clients(monkeypatch):
        yield


@pytest.fixture()
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture()
def s3_server(moto_endpoint: str, aws_env: None) -> Iterator[tuple[str, Any]]:
    """A fresh bucket on the moto server (tests/conftest.py) and a plain boto3 client to look inside it."""
    import boto3

    client = boto3.client("s3", endpoint_url=moto_endpoint, region_name="us-east-1")
    client.create_bucket(Bucket=BUCKET)
    yield moto_endpoint, client
    for page in client.get_paginator("list_object_versions").paginate(Bucket=BUCKET):
        for obj in page.get("Versions", []) + page.get("DeleteMarkers", []):
            client.delete_object(Bucket=BUCKET, Key=obj["Key"], VersionId=obj["VersionId"])
    client.delete_bucket(Bucket=BUCKET)
    client.close()
