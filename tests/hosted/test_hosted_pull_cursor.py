"""A repeated `pinup feedback pull` (and `pinup results` on S3) costs what is new, not what is stored:
the requests are counted with botocore's event hooks against moto's S3 server. Records stored late
under an older key, and records a slower writer stores just behind the newest, are still pulled."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from pinup.cli import cli
from pinup.hosted.aws import S3Location
from pinup.hosted.pull import pull
from pinup_feedback.store.base import iso_ts
from pinup_feedback.store.s3 import S3Store

BOARD = "checkout"
START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def record(n: int, at: datetime) -> dict[str, Any]:
    return {
        "schemaVersion": 1,
        "board": BOARD,
        "round": 1,
        "id": f"r{n:05d}",
        "receivedAt": iso_ts(at),
        "kind": "final",
    }


def put_on_time(s3: Any, bucket: str, rec: dict[str, Any]) -> str:
    """A record as the endpoint stores it when it is stored as it arrives (no late marker)."""
    key = S3Store(bucket, "p", client=s3).key_for(rec)
    s3.put_object(Bucket=bucket, Key=key, Body=json.dumps(rec).encode())
    return key


def counted(s3: Any) -> Counter[str]:
    """Requests and listed objects from now on, by botocore's event hooks on this client."""
    seen: Counter[str] = Counter()

    def before(event_name: str, **_: Any) -> None:
        seen[event_name.rsplit(".", 1)[1]] += 1

    def listed(parsed: dict[str, Any], **_: Any) -> None:
        seen["objects listed"] += len(parsed.get("Contents", ()))

    s3.meta.events.register("before-call.s3.ListObjectsV2", before)
    s3.meta.events.register("before-call.s3.GetObject", before)
    s3.meta.events.register("after-call.s3.ListObjectsV2", listed)
    return seen


def test_a_repeated_pull_lists_and_fetches_only_what_is_new(s3: Any, bucket: str, tmp_path: Path) -> None:
    for n in range(300):  # one a minute
        put_on_time(s3, bucket, record(n, START + timedelta(minutes=n)))
    s3.put_object(Bucket=bucket, Key=f"p/feedback/{BOARD}/attachments/{'a' * 64}.png", Body=b"png")
    location, into = S3Location(bucket, "p"), tmp_path / "store"
    seen = counted(s3)

    first = pull(s3, location, into)
    assert len(first.pulled) == 300 and seen["GetObject"] == 300 and seen["objects listed"] >= 300
    seen.clear()

    again = pull(s3, location, into)
    assert (len(again.pulled), len(again.present)) == (0, 6)  # the last five minutes, listed again
    assert seen["GetObject"] == 0
    # the five minutes, and the attachment that ends the same page (a page is one request: a board
    # with thousands of attachments adds one page of them, not all of them)
    assert seen["objects listed"] == 6 + 1
    assert seen["ListObjectsV2"] == 3  # boards, the board's records, its late markers
    seen.clear()

    for n in range(300, 303):
        put_on_time(s3, bucket, record(n, START + timedelta(minutes=n)))
    third = pull(s3, location, into, boards=(BOARD,))
    assert len(third.pulled) == 3 and seen["GetObject"] == 3 and seen["objects listed"] == 3 + 6 + 1
    assert len(list((into / BOARD).glob("*.json"))) == 303

    shutil.rmtree(into / BOARD)  # the local copy gone: the cursor is not trusted, everything comes back
    assert len(pull(s3, location, into).pulled) == 303


def test_records_stored_behind_the_newest_are_still_pulled(s3: Any, bucket: str, tmp_path: Path) -> None:
    """Two ways a record's key can sort before keys a pull has already seen, both found by the next pull."""
    store = S3Store(bucket, "p", client=s3)
    now = datetime.now(UTC)
    for n in range(5):
        store.save(record(n, now - timedelta(seconds=5 - n)))
    location, into = S3Location(bucket, "p"), tmp_path / "store"
    assert len(pull(s3, location, into).pulled) == 5

    # a slower writer: received 40 s before the newest pulled, stored only now (no marker)
    slow = record(10, now - timedelta(seconds=45))
    store.save(slow)
    # a retried final completing the record an unacknowledged attempt claimed a day ago: stored now
    # under that day-old name, far behind where the next listing of records starts
    late = record(11, now - timedelta(days=1))
    late_key = store.save(late)
    markers = s3.list_objects_v2(Bucket=bucket, Prefix="p/feedback/_late/")
    assert [o["Key"].endswith(late_key.rsplit("/", 1)[1]) for o in markers["Contents"]] == [True]

    seen = counted(s3)
    report = pull(s3, location, into)
    assert sorted(p.name for p in report.pulled) == sorted(store.key_for(r).rsplit("/", 1)[1] for r in (slow, late))
    assert seen["GetObject"] == 2  # only the two new records
    listed = s3.list_objects_v2(Bucket=bucket, Prefix=f"p/feedback/{BOARD}/")["Contents"]
    assert late_key == min(o["Key"] for o in listed)  # listing records from the cursor alone would miss it


def test_a_marker_of_a_record_never_stored_is_skipped(s3: Any, bucket: str, tmp_path: Path) -> None:
    """The endpoint marks a late record before storing it: a crash between the two leaves a marker
    of nothing, which a pull passes over without an error."""
    store = S3Store(bucket, "p", client=s3)
    lost = record(1, datetime.now(UTC) - timedelta(hours=2))
    name = store.key_for(lost).rsplit("/", 1)[1]
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    s3.put_object(Bucket=bucket, Key=f"p/feedback/_late/{BOARD}/{stamp}-{name}", Body=b"")
    store.save(record(2, datetime.now(UTC)))
    report = pull(s3, S3Location(bucket, "p"), tmp_path / "store")
    assert len(report.pulled) == 1 and not report.invalid and not report.conflicts


def test_results_on_s3_read_the_mirror_and_add_what_is_new(
    s3: Any, bucket: str, moto_endpoint: str, tmp_path: Path
) -> None:
    src = tmp_path / "ws"
    src.mkdir()
    for n in range(4):
        put_on_time(s3, bucket, {**record(n, START + timedelta(minutes=n)), "preferred": "A"})

    def results() -> dict[str, Any]:
        args = ["results", BOARD, "--store", f"s3://{bucket}/p", "--src", str(src), "--endpoint-url", moto_endpoint]
        done = CliRunner().invoke(cli, [*args, "--format", "json"], catch_exceptions=False)
        assert done.exit_code == 0, done.output
        answer: dict[str, Any] = json.loads(done.output)
        return answer

    assert results()["submissions"] == 4
    mirror = list((src / ".pinup" / "hosted").glob(f"*/{BOARD}/*.json"))
    assert len(mirror) == 4  # the hosted records, copied beside the workspace
    assert not (src / ".pinup" / "feedback").exists()  # never mixed into the local store

    put_on_time(s3, bucket, {**record(9, START + timedelta(minutes=9)), "preferred": "B"})
    again = results()
    assert again["submissions"] == 5
    assert {v["id"]: v["picks"] for v in again["variants"]} == {"A": 4, "B": 1}
