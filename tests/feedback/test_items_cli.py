"""`pinup feedback items|claim|resolve`: local and s3:// stores, clear errors, exit codes, real processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pinup.cli import cli
from pinup_feedback.store.base import iso_ts, now_utc
from pinup_feedback.store.file import FileStore

ROOT = Path(__file__).resolve().parents[2]


def save(store: Any, board: str = "hero", **fields: Any) -> dict[str, Any]:
    rec = {
        "schemaVersion": 1,
        "board": board,
        "round": 1,
        "id": uuid.uuid4().hex,
        "receivedAt": iso_ts(now_utc()),
        "kind": "final",
        "clientHash": "0" * 16,
        "comments": {"A": "too busy", "B": "good"},
        **fields,
    }
    store.save(rec)
    return rec


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, ["feedback", *args], catch_exceptions=False)


def test_items_claim_resolve_on_a_local_store(tmp_path: Path) -> None:
    store = FileStore(tmp_path / "store")
    save(store)
    s = ["--store", str(store.root)]
    r = run("items", "--format", "json", "--all", *s)
    assert r.exit_code == 0, r.output
    assert [(i["n"], i["status"]) for i in json.loads(r.output)["items"]] == [(1, "open"), (2, "open")]
    r = run("claim", "1", "--agent", "codex", *s)
    assert r.exit_code == 0 and r.output.strip() == "claimed #1 in_progress: comment on A"
    r = run("claim", "1", *s)
    assert r.exit_code == 3 and "already claimed by codex" in r.output
    r = run("resolve", "1", "--status", "resolved", "--summary", "Removed two badges", "--format", "json", *s)
    assert r.exit_code == 0 and json.loads(r.output)["summary"] == "Removed two badges"
    r = run("resolve", "1", "--status", "wont_fix", "--summary", "again", *s)
    assert r.exit_code == 3 and "already resolved" in r.output
    r = run("resolve", "7", "--status", "resolved", "--summary", "x", *s)
    assert r.exit_code == 1 and "no item #7" in r.output
    r = run("resolve", "2", "--status", "done", "--summary", "x", *s)
    assert r.exit_code == 2
    r = run("items", "--status", "open", *s)
    assert r.exit_code == 0 and "#" in r.output and "good" in r.output and "too busy" not in r.output


def test_board_must_be_named_when_there_are_several(tmp_path: Path) -> None:
    store = FileStore(tmp_path / "store")
    save(store, "hero")
    save(store, "cards")
    r = run("items", "--store", str(store.root))
    assert r.exit_code == 1 and "cards, hero" in r.output and "--board" in r.output
    r = run("claim", "1", "--board", "cards", "--store", str(store.root))
    assert r.exit_code == 0
    r = run("items", "--store", str(tmp_path / "empty"))
    assert r.exit_code == 1 and "no feedback yet" in r.output


def test_items_on_an_s3_store(moto_endpoint: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import boto3

    from pinup_feedback.store.s3 import S3Store

    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
    }.items():
        monkeypatch.setenv(name, value)
    bucket = f"pinup-cli-{uuid.uuid4().hex[:10]}"
    boto3.client("s3", endpoint_url=moto_endpoint, region_name="us-east-1").create_bucket(Bucket=bucket)
    save(S3Store(bucket, "p", endpoint_url=moto_endpoint))
    s = ["--store", f"s3://{bucket}/p", "--endpoint-url", moto_endpoint]
    assert run("claim", "2", *s).exit_code == 0
    r = run("items", "--format", "json", "--all", *s)
    assert [i["status"] for i in json.loads(r.output)["items"]] == ["open", "in_progress"]


def test_concurrent_claims_from_separate_processes(tmp_path: Path) -> None:
    store = FileStore(tmp_path / "store")
    save(store)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "generator"), str(ROOT / "functions")])}
    assert run("items", "--store", str(store.root)).exit_code == 0  # numbered before the race
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "pinup",
                "feedback",
                "claim",
                "2",
                "--agent",
                f"agent-{n}",
                "--store",
                str(store.root),
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(4)
    ]
    codes = sorted(p.communicate(timeout=120) and p.returncode for p in procs)
    assert codes == [0, 3, 3, 3]
    events = list((store.root / "_items" / "hero" / "e" / f"{2:010d}").glob("*.json"))
    assert len(events) == 1


LOOP = """
import json, sys
from pinup.cli import main
sys.argv = ["pinup", "feedback", *json.loads(sys.argv[1])]
try:
    main()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
loaded = [m for m in ("pydantic", "pinup_feedback.schema", "asyncio") if m in sys.modules]
print(json.dumps({"code": code, "loaded": loaded}), file=sys.stderr)
"""


def test_the_agent_loop_reads_records_without_pydantic_or_asyncio(tmp_path: Path) -> None:
    """An agent calls these once per item: each is a new process, and only the endpoint validates
    records (pydantic) or waits on an event loop (asyncio), so none of them imports either."""
    store = FileStore(tmp_path / "store")
    save(store)
    for args in (
        ["list"],
        ["items", "--format", "json"],
        ["show", "latest"],
        ["claim", "1", "--agent", "codex"],
        ["resolve", "1", "--status", "resolved", "--summary", "Removed two badges"],
        ["items"],
    ):
        done = subprocess.run(
            [sys.executable, "-c", LOOP, json.dumps([*args, "--store", str(store.root)])],
            capture_output=True,
            text=True,
            cwd=tmp_path,
        )
        report = json.loads(done.stderr.strip().splitlines()[-1])
        assert report == {"code": 0, "loaded": []}, (args, done.stdout, done.stderr)
    assert "resolved" in done.stdout and "Removed two badges" in done.stdout
