"""What `pinup feedback pull` and `pinup results` cost against a hosted store of 10,000 records, on
the first call and on the calls after it, against what the full listing cost.

    .venv/bin/python bench/hosted_scale.py [--records 10000] [--new 10]

The store is moto's S3 server (real HTTP on 127.0.0.1) with `--records` final records on one board,
stored as the endpoint stores them (its key layout, one every `--every` seconds). Each line is one
call, timed, with the S3 requests it made and the objects S3 listed to it, counted by botocore's
event hooks:

- the baseline is what both commands did on every call before: list the board's every key, and
  for results GET every record;
- `pull` into an empty local store, then again with nothing new, then after `--new` records arrive
  (a repeated listing starts five minutes before the newest record pulled: it lists what is new and
  what was received in those five minutes, and GETs only what is new);
- `results` (the board's tally) read through its local mirror: first (the mirror empty), then again.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "generator"), str(ROOT / "functions")]

BOARD = "hero"
PREFIX = "p"


def record(n: int, start: datetime, every: float) -> dict[str, Any]:
    from pinup_feedback.store.base import iso_ts

    return {
        "schemaVersion": 1,
        "board": BOARD,
        "round": 1,
        "id": f"r{n:07d}",
        "receivedAt": iso_ts(start + timedelta(seconds=n * every)),
        "kind": "final",
        "clientId": f"client-{n}",
        "preferred": "AB"[n % 2],
        "ratings": {"A": 1 + n % 5},
        "comments": {"A": f"too busy ({n})"},
    }


def fill(client: Any, bucket: str, first: int, count: int, start: datetime, every: float) -> None:
    """Records first..first+count, at the keys the endpoint uses (put in parallel: setup, not timed)."""
    from pinup_feedback.store.s3 import S3Store

    keys = S3Store(bucket, PREFIX, client=client)

    def put(n: int) -> None:
        rec = record(n, start, every)
        client.put_object(Bucket=bucket, Key=keys.key_for(rec), Body=json.dumps(rec).encode())

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(put, range(first, first + count)))


def counter(client: Any) -> Counter[str]:
    seen: Counter[str] = Counter()

    def request(event_name: str, **_: Any) -> None:
        seen["requests"] += 1

    def listed(parsed: dict[str, Any], **_: Any) -> None:
        seen["listed"] += len(parsed.get("Contents", ()))

    def fetched(**_: Any) -> None:
        seen["GETs"] += 1

    client.meta.events.register("before-call.s3.*", request)
    client.meta.events.register("after-call.s3.ListObjectsV2", listed)
    client.meta.events.register("before-call.s3.GetObject", fetched)
    return seen


def measure(seen: Counter[str], name: str, fn: Callable[[], Any]) -> tuple[str, float, int, int, int]:
    seen.clear()
    start = time.perf_counter()
    fn()
    took = time.perf_counter() - start
    return name, took, seen["requests"], seen["listed"], seen["GETs"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=10_000, help="records on the board")
    parser.add_argument("--new", type=int, default=10, help="records that arrive between two pulls")
    parser.add_argument("--every", type=float, default=60, help="seconds between two records' receivedAt")
    args = parser.parse_args()

    import boto3
    from moto.server import ThreadedMotoServer

    from pinup.hosted.aws import S3Location
    from pinup.hosted.mirror import mirror_dir
    from pinup.hosted.pull import pull
    from pinup.hosted.records import load_local, s3_feedback_prefix
    from pinup.hosted.results import aggregate

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # moto's server logs every request
    for name, value in (
        ("AWS_ACCESS_KEY_ID", "x"),
        ("AWS_SECRET_ACCESS_KEY", "x"),
        ("AWS_DEFAULT_REGION", "us-east-1"),
    ):
        os.environ.setdefault(name, value)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    scratch = Path(tempfile.mkdtemp(prefix="hosted-scale-"))
    try:
        host, port = server.get_host_and_port()
        client = boto3.client("s3", endpoint_url=f"http://{host}:{port}", region_name="us-east-1")
        bucket = "pinup-bench"
        client.create_bucket(Bucket=bucket)
        start = datetime(2026, 12, 1, tzinfo=UTC)
        made = time.perf_counter()
        fill(client, bucket, 0, args.records, start, args.every)
        print(f"{args.records:,} records stored in {time.perf_counter() - made:.1f} s (setup)\n")
        location = S3Location(bucket, PREFIX)
        seen = counter(client)

        def full_listing(get: bool) -> None:
            pages = client.get_paginator("list_objects_v2").paginate(
                Bucket=bucket, Prefix=s3_feedback_prefix(location, BOARD)
            )
            for page in pages:
                for obj in page.get("Contents", ()):
                    if get:
                        client.get_object(Bucket=bucket, Key=obj["Key"])["Body"].read()

        into, src = scratch / "store", scratch / "ws"
        src.mkdir()
        mirror = mirror_dir(src, location)

        def results() -> None:  # what `pinup results --store s3://…` does: pull what is new, tally the mirror
            pull(client, location, mirror, boards=(BOARD,))
            aggregate(BOARD, load_local(mirror, BOARD))

        rows = [
            measure(seen, "baseline: list every key (pull, each call)", lambda: full_listing(False)),
            measure(seen, "baseline: list and GET every record (results)", lambda: full_listing(True)),
            measure(seen, "pull, first call (empty local store)", lambda: pull(client, location, into)),
            measure(seen, "pull again, nothing new", lambda: pull(client, location, into)),
        ]
        fill(client, bucket, args.records, args.new, start, args.every)
        rows.append(measure(seen, f"pull again, {args.new} new records", lambda: pull(client, location, into)))
        rows.append(measure(seen, "results, first call (empty mirror)", results))
        rows.append(measure(seen, "results again, nothing new", results))
        print(f"{'call':48}{'seconds':>9}{'requests':>10}{'listed':>9}{'GETs':>8}")
        for name, took, requests, listed, gets in rows:
            print(f"{name:48}{took:9.3f}{requests:10,}{listed:9,}{gets:8,}")
    finally:
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
