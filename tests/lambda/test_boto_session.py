"""S3 clients share botocore's parsed data files, and nothing else, within a process."""

from __future__ import annotations

from typing import Any

import botocore.loaders
import pytest

from pinup.hosted.aws import s3_client
from pinup_feedback.store.boto_session import new_session
from pinup_feedback.store.s3 import make_client


def test_a_second_client_reads_no_data_file_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    make_client(None, 2, "eu-west-1").close()
    reads: list[str] = []
    real = botocore.loaders.JSONFileLoader.load_file

    def load_file(self: Any, file_path: str) -> Any:
        reads.append(file_path)
        return real(self, file_path)

    monkeypatch.setattr(botocore.loaders.JSONFileLoader, "load_file", load_file)
    clients = [make_client("http://127.0.0.1:9", 2), s3_client("http://127.0.0.1:9", "eu-west-1")]
    assert reads == []
    assert [c.meta.region_name for c in clients] == ["us-east-1", "eu-west-1"]
    for c in clients:
        c.close()


def test_credentials_and_region_are_still_read_per_session(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "first")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "s1")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "eu-west-1")
    one = new_session()
    assert one.get_credentials().access_key == "first"
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "second")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "ap-south-1")
    two = new_session()
    assert two.get_credentials().access_key == "second"
    assert two.get_config_variable("region") == "ap-south-1"
    assert one.get_component("data_loader") is two.get_component("data_loader")
