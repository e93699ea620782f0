"""Load benchmark: POST N feedback submissions at concurrency C against a real `pinup serve`,
and compare with a raw create+fsync+rename loop on the same disk.

    .venv/bin/python bench/feedback_load.py [-n 2000] [-c 32] [--dir DIR] [--compare-fsync] [--compare-src DIR]

Prints, for the server: requests/s, p50 and p99 latency, and the CPU time the server process
spent per request (user + system, from /proc); for the raw loop: operations/s and its own CPU
per operation (the floor the kernel charges for one durable create on this disk). Then the ratio
server/raw and a check that every acknowledged id is on disk. Targets: CPU <= 1 ms/request,
p99 <= 50 ms at concurrency 32, server >= 50 % of the raw rate. `--compare-fsync` runs a second
server with the per-file fsync group commit (PINUP_STORE_SYNC=fsync) in the same rounds, so the
two store commits can be compared on the same disk weather; `--compare-src DIR` does the same with
the server of another checkout (before/after a change, "other" in the output). Every run also loads a bare
uvicorn + Starlette app in the same rounds (one POST route that parses the same JSON body and
answers with a small JSON object, nothing stored; same uvicorn settings as `pinup serve`): its CPU
per request is the floor of the HTTP stack alone, and the server's CPU is printed as a ratio of it.

The load generator is a few lines of asyncio speaking HTTP/1.1 over keep-alive sockets, so that
on a 2-core machine the client takes as little CPU from the server as possible. The submissions
are regenerate requests, which the server stores as separate immutable files (a second *final*
submit for a round is refused with 409).

Freed inodes: on ext4 without a journal (this machine's root) the kernel's inode allocator skips
every inode freed in the last 60 s, or 360 s while its inode-table block is dirty (and the creates
around it keep it dirty), by looking each one up: creates after a mass delete cost several times
more system time. A feedback store never deletes, so that is not the server's cost. The script
therefore waits out that window after its own previous clean-up (a stamp file beside the scratch
folders; `--no-wait` skips it, and says so), and `--keep` leaves the scratch folder instead of
deleting it, so that back-to-back runs need no wait.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from freed_inodes import wait_after_cleanup

ROOT = Path(__file__).resolve().parents[1]
BOARD = "trail-home"
TARGET_CPU_MS, TARGET_P99_MS, TARGET_RATIO = 1.0, 50.0, 0.5


def start_server(workdir: Path, env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], int, Path]:
    src = workdir / "ws"
    shutil.copytree(ROOT / "site_src", src, ignore=shutil.ignore_patterns(".pinup", "__pycache__"))
    cmd = [
        sys.executable,
        "-m",
        "pinup",
        "serve",
        str(src),
        "--no-open",
        "--port",
        "0",
        "--timeout",
        "0",
        "--out",
        str(workdir / "site"),
    ]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})}
    )
    assert proc.stderr is not None
    for line in proc.stderr:
        if line.startswith("SERVE_STARTED:"):
            port = int(line.split("port=")[1].split()[0])
            return proc, port, src / ".pinup" / "feedback"
    raise SystemExit("pinup serve did not start")


BARE_APP = """
import sys, uuid
import uvicorn
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

async def feedback(request):
    data = await request.json()
    return JSONResponse({"received": True, "action": "regenerate", "id": uuid.uuid4().hex, "n": len(data)})

class Announce(uvicorn.Server):
    async def startup(self, sockets=None):
        await super().startup(sockets)
        port = self.servers[0].sockets[0].getsockname()[1]
        print(f"SERVE_STARTED: port={port}", file=sys.stderr, flush=True)

app = Starlette(routes=[Route("/api/feedback", feedback, methods=["POST"])])
Announce(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="error", lifespan="off", access_log=False)).run()
"""


def start_bare(workdir: Path) -> tuple[subprocess.Popen[str], int, Path]:
    """The baseline: a bare uvicorn + Starlette POST handler, the same settings as `pinup serve`."""
    proc = subprocess.Popen(
        [sys.executable, "-c", BARE_APP], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    assert proc.stderr is not None
    for line in proc.stderr:
        if line.startswith("SERVE_STARTED:"):
            return proc, int(line.split("port=")[1].split()[0]), workdir
    raise SystemExit("the bare baseline server did not start")


def body(i: int) -> dict[str, object]:
    return {
        "schemaVersion": 1,
        "board": BOARD,
        "round": 1,
        "clientId": uuid.uuid4().hex,
        "reviewer": f"bench-{i % 50}",
        "preferred": "B",
        "ratings": {"A": 3, "B": 5, "C": 2},
        "comments": {"A": "too busy " * 8, "B": "clear and calm " * 8},
        "overall": "benchmark " * 10,
        "regenerated": True,
        "regenerateAction": "different",
    }


def request_bytes(port: int, i: int) -> bytes:
    payload = json.dumps(body(i)).encode()
    head = (
        f"POST /api/feedback HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(payload)}\r\n\r\n"
    )
    return head.encode() + payload


async def post(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, data: bytes) -> tuple[int, bytes]:
    """One request on a keep-alive connection: (status, body)."""
    writer.write(data)
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    length = next(int(v) for k, _, v in (line.partition(":") for line in lines[1:]) if k.lower() == "content-length")
    return status, await reader.readexactly(length)


async def load(
    port: int,
    n: int,
    concurrency: int,
    *,
    warmup: bool = True,
    cpu_of: Callable[[], tuple[float, float]] | None = None,
    warm_cpu: list[float] | None = None,
) -> tuple[float, list[float], list[str], int]:
    latencies: list[float] = []
    ids: list[str] = []
    failures = 0
    requests = [request_bytes(port, i) for i in range(n)]  # built before the clock starts
    queue: asyncio.Queue[bytes] = asyncio.Queue()
    for data in requests:
        queue.put_nowait(data)
    conns = [await asyncio.open_connection("127.0.0.1", port) for _ in range(concurrency)]
    if warmup:  # the first requests import and warm the app
        for i in range(20):
            await post(*conns[i % concurrency], request_bytes(port, -i))
        # the CPU of the warm-up (imports, first validators) is not counted
        if cpu_of is not None and warm_cpu is not None:
            warm_cpu[:] = cpu_of()

    async def worker(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal failures
        while not queue.empty():
            data = queue.get_nowait()
            t0 = time.perf_counter()
            status, raw = await post(reader, writer, data)
            latencies.append(time.perf_counter() - t0)
            answer = json.loads(raw)
            if status == 200 and answer.get("received"):
                ids.append(answer["id"])
            else:
                failures += 1

    start = time.perf_counter()
    await asyncio.gather(*(worker(*conn) for conn in conns))
    elapsed = time.perf_counter() - start
    for _, writer in conns:
        writer.close()
    return elapsed, latencies, ids, failures


def raw_loop(folder: Path, n: int) -> float:
    """The floor the store cannot beat: O_EXCL create, write, fsync, rename, fsync the directory."""
    folder.mkdir(parents=True, exist_ok=True)
    payload = (
        json.dumps(
            {**body(0), "id": "x" * 32, "receivedAt": "2026-01-01T00:00:00.000000Z", "kind": "regenerate"}, indent=2
        )
        + "\n"
    ).encode()
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


def barriers(folder: Path, count: int) -> list[float]:
    """Seconds per store barrier (syncfs + directory fsync, what one commit pass waits for) after a
    small create each: an acknowledgement waits for two of them (data, then names), so twice
    their time is the latency floor of the syncfs commit on this disk at this moment."""
    from pinup_feedback.store.durable import barrier

    times = []
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for i in range(count):
            (folder / f"barrier-{i}").write_bytes(b"x" * 600)
            start = time.perf_counter()
            barrier([fd])
            times.append(time.perf_counter() - start)
    finally:
        os.close(fd)
    return times


def cpu_seconds(pid: int) -> tuple[float, float]:
    """(user, system) CPU time of a process and all its threads (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def own_cpu() -> tuple[float, float]:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime, usage.ru_stime


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def verdict(ok: bool) -> str:
    return "OK" if ok else "BELOW TARGET"


class Run:
    """One server's totals over the interleaved rounds."""

    def __init__(self, label: str, workdir: Path, env: dict[str, str] | None = None, *, bare: bool = False) -> None:
        workdir.mkdir()
        self.label = label
        self.proc, self.port, self.store = start_bare(workdir) if bare else start_server(workdir, env)
        self.elapsed, self.failures = 0.0, 0
        self.latencies: list[float] = []
        self.ids: list[str] = []
        self.cpu = [0.0, 0.0]

    def batch(self, count: int, concurrency: int, warmup: bool) -> None:
        before = list(cpu_seconds(self.proc.pid))
        e, lat, got, failed = asyncio.run(
            load(
                self.port, count, concurrency, warmup=warmup, cpu_of=lambda: cpu_seconds(self.proc.pid), warm_cpu=before
            )
        )
        after = cpu_seconds(self.proc.pid)
        self.cpu = [self.cpu[k] + after[k] - before[k] for k in (0, 1)]
        self.elapsed, self.failures = self.elapsed + e, self.failures + failed
        self.latencies += lat
        self.ids += got

    def cpu_ms(self) -> float:
        return sum(self.cpu) / max(1, len(self.ids)) * 1000

    def report_bare(self, concurrency: int) -> bool:
        """The baseline's lines: rate, latency and CPU per request (it stores nothing)."""
        done = max(1, len(self.ids))
        print(
            f"{self.label:<7}: {len(self.ids)} answered, {self.failures} failed, {len(self.ids) / self.elapsed:8.1f} "
            f"req/s at concurrency {concurrency}; p50 {pct(self.latencies, 0.50) * 1000:.2f} ms, "
            f"p99 {pct(self.latencies, 0.99) * 1000:.2f} ms; cpu {self.cpu_ms():.2f} ms/request "
            f"(user {self.cpu[0] / done * 1000:.2f}, system {self.cpu[1] / done * 1000:.2f}): the HTTP stack alone"
        )
        return not self.failures

    def report(self, concurrency: int, raw_ops: float, raw_ms: float, bare_ms: float) -> bool:
        """Print this server's lines; True when every acknowledged id is on disk and nothing failed."""
        on_disk = {p.name.rsplit("-", 1)[-1].removesuffix(".json") for p in (self.store / BOARD).glob("*.json")}
        missing = [i for i in self.ids if i not in on_disk]
        done = max(1, len(self.ids))
        rps = len(self.ids) / self.elapsed
        cpu_ms = sum(self.cpu) / done * 1000
        p50, p99 = pct(self.latencies, 0.50) * 1000, pct(self.latencies, 0.99) * 1000
        ratio = rps / raw_ops
        print(
            f"{self.label:<7}: {len(self.ids)} acknowledged, {self.failures} failed, {rps:8.1f} req/s at concurrency "
            f"{concurrency}; p50 {p50:.2f} ms, p99 {p99:.2f} ms, mean {statistics.fmean(self.latencies) * 1000:.2f} ms"
        )
        print(
            f"cpu    : {cpu_ms:.2f} ms/request (user {self.cpu[0] / done * 1000:.2f}, system "
            f"{self.cpu[1] / done * 1000:.2f}; {sum(self.cpu) / self.elapsed * 100:.0f}% of one core); "
            f"{cpu_ms / raw_ms:.2f}x the raw loop's CPU per op, {cpu_ms / bare_ms:.2f}x the bare app's per request"
        )
        print(
            f"targets: cpu {cpu_ms:.2f} ms/request (<= {TARGET_CPU_MS}) {verdict(cpu_ms <= TARGET_CPU_MS)}; "
            f"p99 {p99:.1f} ms (<= {TARGET_P99_MS:g}) {verdict(p99 <= TARGET_P99_MS)}; "
            f"server/raw {ratio:.2f} (>= {TARGET_RATIO}) {verdict(ratio >= TARGET_RATIO)}"
        )
        print(
            f"durable: {len(self.ids) - len(missing)}/{len(self.ids)} acknowledged ids on disk"
            + ("" if not missing else f"; MISSING {missing[:5]}")
        )
        return not missing and not self.failures

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=2000, help="submissions (per server)")
    parser.add_argument("-c", type=int, default=32, help="concurrency")
    parser.add_argument("--rounds", type=int, default=8, help="alternate server and raw batches this many times")
    parser.add_argument("--dir", type=Path, default=None, help="scratch folder (default: a temp folder in bench/)")
    parser.add_argument(
        "--compare-fsync", action="store_true", help="also run a server with PINUP_STORE_SYNC=fsync, same rounds"
    )
    parser.add_argument(
        "--compare-src",
        type=Path,
        default=None,
        help="also run the server of another checkout (its generator/ and functions/), same rounds: before/after",
    )
    parser.add_argument(
        "--keep", action="store_true", help="leave the scratch folder (deleting it slows the next runs' creates)"
    )
    parser.add_argument("--no-wait", action="store_true", help="start at once after a previous run's clean-up")
    args = parser.parse_args()
    parent = args.dir or Path(__file__).parent
    stamp = Path(parent) / ".feedback-load-cleaned"
    wait_after_cleanup(stamp, args.no_wait)
    workdir = Path(tempfile.mkdtemp(prefix=".feedback-load-", dir=parent))
    runs: list[Run] = []
    try:
        runs.append(Run("bare", workdir / "bare", bare=True))
        runs.append(Run("server", workdir / "default"))
        if args.compare_fsync:
            runs.append(Run("fsync", workdir / "fsync", {"PINUP_STORE_SYNC": "fsync"}))
        if args.compare_src is not None:
            other = args.compare_src.resolve()
            path = os.pathsep.join([str(other / "generator"), str(other / "functions")])
            runs.append(Run("other", workdir / "other", {"PYTHONPATH": path}))
        # Interleave server batches and raw batches so both see the same disk weather
        # (a shared disk's fsync latency drifts by 2x over a minute).
        rounds = max(1, min(args.rounds, args.n))
        per = [args.n // rounds + (1 if i < args.n % rounds else 0) for i in range(rounds)]
        raw, raw_cpu = 0.0, [0.0, 0.0]
        barrier_times: list[float] = []
        for i, count in enumerate(per):
            for run in runs if i % 2 == 0 else reversed(runs):
                run.batch(count, args.c, warmup=(i == 0))
            before = own_cpu()
            raw += raw_loop(workdir / "raw" / str(i), count)
            after = own_cpu()
            raw_cpu = [raw_cpu[k] + after[k] - before[k] for k in (0, 1)]
            barrier_times += barriers(workdir / "raw" / str(i), 10)
        raw_ops, raw_ms = args.n / raw, sum(raw_cpu) / args.n * 1000
        print(f"disk: {workdir}")
        print(
            f"raw    : {args.n} create+fsync+rename+dirfsync, {raw_ops:8.1f} ops/s "
            f"({raw / args.n * 1000:.2f} ms each, one at a time; {rounds} batches interleaved with the servers'); "
            f"{raw_ms:.2f} ms CPU/op (user {raw_cpu[0] / args.n * 1000:.2f}, system {raw_cpu[1] / args.n * 1000:.2f})"
        )
        print(
            f"barrier: syncfs + fsync after one small create, {len(barrier_times)} between the batches: "
            f"p50 {pct(barrier_times, 0.5) * 1000:.1f} ms, p99 {pct(barrier_times, 0.99) * 1000:.1f} ms "
            f"(an acknowledgement waits for two: the latency floor of the syncfs commit here)"
        )
        bare, servers = runs[0], runs[1:]
        ok = [bare.report_bare(args.c)] + [run.report(args.c, raw_ops, raw_ms, bare.cpu_ms()) for run in servers]
        return 0 if all(ok) else 1
    finally:
        for run in runs:
            run.stop()
        if args.keep:
            print(f"kept: {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
            stamp.touch()


if __name__ == "__main__":
    sys.exit(main())
