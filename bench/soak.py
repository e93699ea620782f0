"""Soak run of the reliability battery at full size (tests/reliability runs it small in CI).

    .venv/bin/python bench/soak.py [-n 10000] [-c 128] [--examples 10000] [--disk] [--skip-hypothesis]

1. load: N regenerate submissions at concurrency C against a real `pinup serve` -> exactly N
   files, 0 5xx, every acknowledged id once; prints req/s, p50, p99.
2. crash: the same load, `kill -9` once a quarter is acknowledged, restart -> every
   acknowledged id present and parseable, no temp files left.
3. hypothesis: the DESIGN.md properties of tests/reliability with the `soak` profile
   (10,000 examples each by default): never raises, bounded time.

The store is on tmpfs (/dev/shm) unless --disk: the soak is about correctness under
concurrency; bench/feedback_load.py measures the disk-bound rate.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "reliability"))
sys.path.insert(1, str(ROOT / "tests"))  # serve_process, which reliability_helpers builds on

from reliability_helpers import (  # noqa: E402
    build_workspace,
    copy_built_workspace,
    drive,
    regenerate_body,
    start_serve,
    stored_ids,
    temp_files,
)


def scratch(disk: bool) -> Path:
    shm = Path("/dev/shm")
    where = None if disk or not (shm.is_dir() and os.access(shm, os.W_OK)) else shm
    return Path(tempfile.mkdtemp(prefix="pinup-soak-", dir=where))


def load(template: Path, n: int, c: int, disk: bool) -> bool:
    root = scratch(disk)
    try:
        src, site = copy_built_workspace(template, root)
        served = start_serve(src, site)
        try:
            result = asyncio.run(drive(served.base, [regenerate_body(site) for _ in range(n)], c, timeout=300))
        finally:
            served.stop()
        ids = stored_ids(served.store)
        ok = (
            result.statuses == {200: n}
            and result.errors == 0
            and len(ids) == n
            and sorted(ids) == sorted(result.acked)
            and not temp_files(served.store, site / "boards")
        )
        print(
            result.summary(f"load   n={n} c={c}") + f", {n / result.seconds:.0f} req/s, "
            f"{len(ids)} files -> {'OK' if ok else 'FAIL'}"
        )
        return ok
    finally:
        shutil.rmtree(root, ignore_errors=True)


def crash(template: Path, n: int, c: int, disk: bool) -> bool:
    root = scratch(disk)
    try:
        src, site = copy_built_workspace(template, root)
        served = start_serve(src, site)
        holder: dict[str, object] = {}
        thread = threading.Thread(
            target=lambda: holder.update(
                result=asyncio.run(drive(served.base, [regenerate_body(site) for _ in range(n)], c))
            )
        )
        thread.start()
        deadline = time.monotonic() + 600
        while len(served.stdout_lines) < n // 4 and time.monotonic() < deadline:
            time.sleep(0.01)
        served.kill9()
        thread.join()
        result = holder["result"]
        left = len(temp_files(served.store, site / "boards"))
        restarted = start_serve(src, site)
        try:
            ids = stored_ids(restarted.store)
        finally:
            restarted.stop()
        acked = set(result.acked)  # type: ignore[attr-defined]
        ok = (
            bool(acked)
            and acked <= set(ids)
            and len(ids) == len(set(ids))
            and not temp_files(restarted.store, site / "boards")
        )
        print(
            f"crash  n={n} c={c}: {len(acked)} acknowledged before kill -9, {len(ids)} files after restart, "
            f"{len(acked - set(ids))} acknowledged missing, {left} temp files at the kill, 0 after restart "
            f"-> {'OK' if ok else 'FAIL'}"
        )
        return ok
    finally:
        shutil.rmtree(root, ignore_errors=True)


def hypothesis(examples: int) -> bool:
    env = {
        **os.environ,
        "PINUP_HYPOTHESIS_PROFILE": "soak",
        "PINUP_HYPOTHESIS_EXAMPLES": str(examples),
        "PYTHONPATH": os.pathsep.join(
            [str(ROOT / "generator"), str(ROOT / "functions"), os.environ.get("PYTHONPATH", "")]
        ),
    }
    start = time.perf_counter()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-o",
            "timeout=0",
            str(ROOT / "tests" / "reliability" / "test_reliability_designmd.py"),
            "-k",
            "never_raise",
        ],
        env=env,
        capture_output=True,
        text=True,
    )
    tail = (proc.stdout.strip().splitlines() or ["(no output)"])[-1]
    print(
        f"hypothesis soak: {examples} examples x 3 properties in {time.perf_counter() - start:.0f}s: {tail}"
        f" -> {'OK' if proc.returncode == 0 else 'FAIL'}"
    )
    if proc.returncode:
        print(proc.stdout[-4000:])
    return proc.returncode == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=10_000)
    parser.add_argument("-c", type=int, default=128)
    parser.add_argument("--examples", type=int, default=10_000)
    parser.add_argument("--disk", action="store_true", help="keep the store on disk, not tmpfs")
    parser.add_argument("--skip-hypothesis", action="store_true")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="pinup-soak-build-"))
    try:
        template = build_workspace(workdir)
        results = [load(template, args.n, args.c, args.disk), crash(template, args.n, args.c, args.disk)]
        if not args.skip_hypothesis:
            results.append(hypothesis(args.examples))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
