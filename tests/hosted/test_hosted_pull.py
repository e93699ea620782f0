"""`pinup feedback pull` against moto's S3 server: layout mapping, board filter, junk keys, claims, no overwrite."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from pinup.cli import cli

NAME = "20261130T010203.123456Z-{kind}-{rid}.json"


def put_record(s3: Any, bucket: str, board: str, rid: str, kind: str = "final", prefix: str = "p") -> str:
    key = f"{prefix}/feedback/{board}/2026/11/30/" + NAME.format(kind=kind, rid=rid)
    body = {
        "schemaVersion": 1,
        "board": board,
        "round": 1,
        "id": rid,
        "kind": kind,
        "receivedAt": "2026-11-30T01:02:03.123456Z",
    }
    s3.put_object(Bucket=bucket, Key=key, Body=json.dumps(body).encode(), ContentType="application/json")
    return key


def pull(*args: str) -> Any:
    return CliRunner().invoke(cli, ["feedback", "pull", *args], catch_exceptions=False)


def test_pull_maps_layout_filters_and_skips_junk(s3: Any, bucket: str, moto_endpoint: str, tmp_path: Path) -> None:
    put_record(s3, bucket, "alpha", "a1")
    put_record(s3, bucket, "alpha", "a2", kind="regenerate")
    put_record(s3, bucket, "beta", "b1")
    s3.put_object(Bucket=bucket, Key="p/feedback/_claims/alpha-1-x.json", Body=b"{}")
    s3.put_object(Bucket=bucket, Key="p/feedback/alpha/2026/11/30/notes.txt", Body=b"x")
    s3.put_object(
        Bucket=bucket, Key="p/feedback/beta/2026/11/30/" + NAME.format(kind="final", rid="junk"), Body=b"[1, 2]"
    )
    s3.put_object(
        Bucket=bucket, Key="other/feedback/alpha/2026/11/30/" + NAME.format(kind="final", rid="z9"), Body=b"{}"
    )
    into = tmp_path / "store"

    only_alpha = pull(
        "--store",
        f"s3://{bucket}/p",
        "--endpoint-url",
        moto_endpoint,
        "--into",
        str(into),
        "--board",
        "alpha",
        "--json",
    )
    assert only_alpha.exit_code == 0, only_alpha.output
    assert json.loads(only_alpha.output)["pulled"] == 2
    assert sorted(p.name for p in (into / "alpha").iterdir()) == sorted(
        [NAME.format(kind="final", rid="a1"), NAME.format(kind="regenerate", rid="a2")]
    )
    assert not (into / "beta").exists()

    everything = pull("--store", f"s3://{bucket}/p", "--endpoint-url", moto_endpoint, "--into", str(into), "--json")
    report = json.loads(everything.output)
    assert (report["pulled"], report["present"]) == (1, 2)
    assert len(report["invalid"]) == 1 and report["invalid"][0].endswith("-junk.json")
    assert sorted(p.name for p in into.iterdir()) == ["_pulled", "alpha", "beta"]  # no _claims, no other prefix
    stored = json.loads((into / "beta" / NAME.format(kind="final", rid="b1")).read_text())
    assert stored["id"] == "b1"
    assert not list(into.rglob(".*"))  # no temp files left behind


def test_pull_refuses_bad_arguments(aws_env: dict[str, str], tmp_path: Path) -> None:
    assert pull("--store", "/not/s3", "--into", str(tmp_path)).exit_code == 2
    assert pull("--store", "s3://b/p", "--board", "../x", "--into", str(tmp_path)).exit_code == 2


def test_pull_missing_bucket_is_a_clear_error(aws_env: dict[str, str], moto_endpoint: str, tmp_path: Path) -> None:
    result = pull("--store", "s3://pinup-absent-bucket/p", "--endpoint-url", moto_endpoint, "--into", str(tmp_path))
    assert result.exit_code == 1 and "NoSuchBucket" in result.output


def test_pull_only_takes_names_the_local_store_lists(s3: Any, bucket: str, moto_endpoint: str, tmp_path: Path) -> None:
    put_record(s3, bucket, "alpha", "ok1")
    odd = "p/feedback/alpha/2026/11/30/2026-11-30T01:02:03Z-final-x.json"  # not the store's timestamp format
    s3.put_object(Bucket=bucket, Key=odd, Body=b"{}")
    result = pull("--store", f"s3://{bucket}/p", "--endpoint-url", moto_endpoint, "--into", str(tmp_path), "--json")
    report = json.loads(result.output)
    assert report["pulled"] == 1 and report["invalid"] == [odd]
