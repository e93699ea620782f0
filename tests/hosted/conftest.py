"""Fixtures for the hosted tests: fake AWS credentials, fresh buckets on the shared moto S3 server (tests/conftest.py)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from lambda_process import closing_store_clients, own_event_loop

FAKE_ENV = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_REGION": "us-east-1",
}


@pytest.fixture()
def aws_env(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Fake credentials only; no profile or real endpoint leaks into a test."""
    for name in ("AWS_PROFILE", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "PINUP_STORE", "PINUP_BOARD_SECRET"):
        monkeypatch.delenv(name, raising=False)
    for name, value in FAKE_ENV.items():
        monkeypatch.setenv(name, value)
    return dict(FAKE_ENV)


@pytest.fixture(autouse=True)
def lambda_process(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The event loop Mangum takes when the handler is made and the S3 clients its stores make,
    closed after each test."""
    with own_event_loop(), closing_store_clients(monkeypatch):
        yield


@pytest.fixture()
def s3(moto_endpoint: str, aws_env: dict[str, str]) -> Iterator[Any]:
    import boto3

    client = boto3.client("s3", endpoint_url=moto_endpoint, region_name="us-east-1")
    yield client
    client.close()


@pytest.fixture()
def bucket(s3: Any) -> str:
    """A new bucket per test: the moto server's state is shared by the whole session."""
    name = f"pinup-test-{uuid.uuid4().hex[:12]}"
    s3.create_bucket(Bucket=name)
    return name
