"""Load benchmark: POST N feedback submissions at concurrency C against a real `pinup serve`,
and compare with a raw create+fsync+rename loop on the same disk.

    .venv/bin/python bench/feedback_load.py [-n 2000] [-c 16] [--dir DIR]

Prints requests/s, p50 and p99 latency for the server, operations/s for the raw loop,
and the ratio (target: server >= 70% of raw). Then checks that every acknowledged id
is on disk. The submissions are regenerate requests, which the server stores as
separate immutable files (a second *final* submit for a round is refused with 409).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOARD = "trail-home"


def start_server(workdir: Path) -> tuple[subprocess.Popen[str], int, Path]:
    src = workdir / "ws"
    shutil.copytree(ROOT / "site_src", src, ignore=shutil.ignore_patterns(".pinup", "__pycache__"))
    cmd = [sys.executable, "-m", "pinup", "serve", str(src), "--no-open", "--port", "0", "--timeout", "0",
           "--out", str(workdir / "site")]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    for line in proc.stderr:
        if line.startswith("SERVE_STARTED:"):
            port = int(line.split("port=")[1].split()[0])
            return proc, port, src / ".pinup" / "feedback"
    raise SystemExit("pinup serve did not start")


def body(i: int) -> dict[str, object]:
    return {
        "schemaVersion": 1, "board": BOARD, "round": 1, "clientId": uuid.uuid4().hex,
        "reviewer": f"bench-{i % 50}", "preferred": "B", "ratings": {"A": 3, "B": 5, "C": 2},
        "comments": {"A": "too busy " * 8, "B": "clear and calm " * 8}, "overall": "benchmark " * 10,
        "regenerated": True, "regenerateAction": "different",
    }


async def load(port: int, n: int, concurrency: int, *, warmup: bool = True) -> tuple[float, list[float], list[str], int]:
    import httpx

    url = f"http://127.0.0.1:{port}/api/feedback"
    latencies: list[float] = []
    ids: list[str] = []
    failures = 0
    queue: asyncio.Queue[int] = asyncio.Queue()
    for i in range(n):
        queue.put_nowait(i)
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(limits=limits, timeout=30) as client:
        # warm up the connection pool (and, the first time, the app)
        for i in range(min(20 if warmup else concurrency, n)):
            await client.post(url, json=body(-i))

        async def worker() -> None:
            nonlocal failures
            while True:
                try:
                    i = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                t0 = time.perf_counter()
                r = await client.post(url, json=body(i))
                latencies.append(time.perf_counter() - t0)
                if r.status_code == 200 and r.json().get("received"):
                    ids.append(r.json()["id"])
                else:
                    failures += 1

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - start
    return elapsed, latencies, ids, failures


def raw_loop(folder: Path, n: int) -> float:
    """The floor the store cannot beat: O_EXCL create, write, fsync, rename, fsync the directory."""
    folder.mkdir(parents=True, exist_ok=True)
    payload = (json.dumps({**body(0), "id": "x" * 32, "receivedAt": "2026-01-01T00:00:00.000000Z",
                           "kind": "regenerate"}, indent=2) + "\n").encode()
    start = time.perf_counter()
    for i in range(n):
        tmp = folder / f".tmp-{i}"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            os.write(fd, payload)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.rename(tmp, folder / f"{i:08d}.json")
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    return time.perf_counter() - start


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc), or 0 where unavailable."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=2000, help="submissions")
    parser.add_argument("-c", type=int, default=16, help="concurrency")
    parser.add_argument("--rounds", type=int, default=8, help="alternate server and raw batches this many times")
    parser.add_argument("--dir", type=Path, default=None, help="scratch folder (default: a temp folder in bench/)")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix=".feedback-load-", dir=args.dir or Path(__file__).parent))
    proc = None
    try:
        proc, port, store = start_server(workdir)
        # Interleave server batches and raw batches so both see the same disk weather
        # (a shared disk's fsync latency drifts by 2x over a minute).
        rounds = max(1, min(args.rounds, args.n))
        per = [args.n // rounds + (1 if i < args.n % rounds else 0) for i in range(rounds)]
        elapsed, raw, latencies, ids, failures, cpu = 0.0, 0.0, [], [], 0, 0.0
        for i, count in enumerate(per):
            cpu0 = cpu_seconds(proc.pid)
            e, lat, got, failed = asyncio.run(load(port, count, args.c, warmup=(i == 0)))
            cpu += cpu_seconds(proc.pid) - cpu0
            elapsed, failures = elapsed + e, failures + failed
            latencies += lat
            ids += got
            raw += raw_loop(workdir / "raw" / str(i), count)
        on_disk = {p.name.rsplit("-", 1)[-1].removesuffix(".json") for p in (store / BOARD).glob("*.json")}
        missing = [i for i in ids if i not in on_disk]
        rps, raw_ops = len(ids) / elapsed, args.n / raw
        print(f"disk: {workdir}")
        print(f"server : {len(ids)} acknowledged, {failures} failed, {rps:8.1f} req/s at concurrency {args.c}; "
              f"p50 {pct(latencies, 0.50) * 1000:.2f} ms, p99 {pct(latencies, 0.99) * 1000:.2f} ms, "
              f"mean {statistics.fmean(latencies) * 1000:.2f} ms; server CPU {cpu / max(1, len(ids)) * 1000:.2f} ms/request "
              f"({cpu / elapsed * 100:.0f}% of one core)")
        print(f"raw    : {args.n} create+fsync+rename+dirfsync, {raw_ops:8.1f} ops/s "
              f"({raw / args.n * 1000:.2f} ms each, one at a time; {rounds} batches interleaved with the server's)")
        ratio = rps / raw_ops
        print(f"ratio  : server/raw = {ratio:.2f} (target >= 0.70) -> {'OK' if ratio >= 0.7 else 'BELOW TARGET'}")
        print(f"durable: {len(ids) - len(missing)}/{len(ids)} acknowledged ids on disk"
              + ("" if not missing else f"; MISSING {missing[:5]}"))
        return 0 if not missing and not failures else 1
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=30)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
