"""Soak run of the reliability battery at full size (tests/reliability runs it small in CI).

    .venv/bin/python bench/soak.py [-n 10000] [-c 128] [--examples 10000] [--site-examples 1000] [--disk]
        [--skip-hypothesis | --only-hypothesis | --only-lint]

1. load: N regenerate submissions at concurrency C against a real `pinup serve` -> exactly N
   files, 0 5xx, every acknowledged id once; prints req/s, p50, p99.
2. crash: the same load, `kill -9` once a quarter is acknowledged, restart -> every
   acknowledged id present and parseable, no temp files left.
3. hypothesis: the DESIGN.md properties of tests/reliability with the `soak` profile
   (10,000 examples each by default): never raises, bounded time. --only-hypothesis runs
   just this part (one pytest run per property, each reported as it ends). The site-builder
   property (a whole `pinup build` per example) runs --site-examples (1,000).
4. lint: the seven 1 MB DESIGN.md shapes of tests/reliability, each linted (plain and
   --extended) in under 1 s of CPU, with the ratio to the example DESIGN.md (--only-lint).

The store is on tmpfs (/dev/shm) unless --disk: the soak is about correctness under
concurrency; bench/feedback_load.py measures the disk-bound rate.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
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


PROPERTIES = (  # (test file, property, how many examples: the DESIGN.md count or the site count)
    ("test_reliability_designmd.py", "test_generated_documents_never_raise", "doc"),
    ("test_reliability_designmd.py", "test_any_text_never_raises", "doc"),
    ("test_reliability_designmd.py", "test_yaml_punctuation_never_raises", "doc"),
    ("test_reliability_site_property.py", "test_generated_documents_always_build_a_site", "site"),
)


def hypothesis(examples: int, site_examples: int) -> bool:
    """Each property in its own pytest run, so a long soak reports as it goes."""
    env = {
        **os.environ,
        "PINUP_HYPOTHESIS_PROFILE": "soak",
        "PINUP_HYPOTHESIS_EXAMPLES": str(examples),
        "PINUP_SITE_EXAMPLES": str(site_examples),
        "PYTHONPATH": os.pathsep.join(
            [str(ROOT / "generator"), str(ROOT / "functions"), os.environ.get("PYTHONPATH", "")]
        ),
    }
    passed = True
    for file, name, kind in PROPERTIES:
        asked = examples if kind == "doc" else site_examples
        start, cpu = time.perf_counter(), children_cpu()
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "-n",
                "0",  # one test, in this process: no xdist workers (pyproject's addopts start them)
                "-o",
                "timeout=0",
                f"{ROOT / 'tests' / 'reliability' / file}::{name}",
                "--hypothesis-show-statistics",
            ],
            env=env,
            capture_output=True,
            text=True,
        )
        stats = [
            line.strip(" -")
            for line in proc.stdout.splitlines()
            if "passing," in line or "Typical runtimes" in line or "Stopped because" in line
        ]
        print(
            f"hypothesis {name}: {asked} examples asked, {time.perf_counter() - start:.0f}s wall, "
            f"{children_cpu() - cpu:.0f}s CPU, load {os.getloadavg()[0]:.2f}: {'; '.join(stats)} "
            f"-> {'OK' if proc.returncode == 0 else 'FAIL'}",
            flush=True,
        )
        if proc.returncode:
            passed = False
            print(proc.stdout[-6000:], flush=True)
    return passed


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def lint_megabyte(runs: int = 3) -> bool:
    """#12's bound as a figure: each 1 MB shape of tests/reliability linted (`run`, plain and
    --extended) in under a second of CPU; best of `runs`, with the ratio to the example DESIGN.md."""
    from test_reliability_designmd import SHAPES

    from pinup.designmd.lint import run

    def best(text: str, extended: bool, n: int) -> float:
        times = []
        for _ in range(n):
            start = time.process_time()
            run(text, extended=extended)
            times.append(time.process_time() - start)
        return min(times)

    example = (ROOT / "site_src" / "DESIGN.md").read_text(encoding="utf-8")
    ok = True
    for extended in (False, True):
        base = best(example, extended, 20)
        label = "extended" if extended else "plain"
        print(f"lint 1 MB ({label}): baseline site_src/DESIGN.md {base * 1000:.1f} ms CPU", flush=True)
        for name, text in SHAPES.items():
            cpu = best(text, extended, runs)
            ok = ok and cpu < 1.0
            print(
                f"  {name:14} {len(text) / 1e6:.2f} MB: {cpu * 1000:6.0f} ms CPU = {cpu / base:5.0f}x the example"
                f" -> {'OK' if cpu < 1.0 else 'OVER 1 s'}",
                flush=True,
            )
    print(f"load {os.getloadavg()[0]:.2f}")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=10_000)
    parser.add_argument("-c", type=int, default=128)
    parser.add_argument("--examples", type=int, default=10_000)
    parser.add_argument("--site-examples", type=int, default=1_000, help="for the site-builder property")
    parser.add_argument("--disk", action="store_true", help="keep the store on disk, not tmpfs")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--skip-hypothesis", action="store_true")
    which.add_argument("--only-hypothesis", action="store_true", help="run only the DESIGN.md properties")
    which.add_argument("--only-lint", action="store_true", help="run only the 1 MB lint figures")
    args = parser.parse_args()
    if args.only_hypothesis:
        sys.exit(0 if hypothesis(args.examples, args.site_examples) else 1)
    if args.only_lint:
        sys.exit(0 if lint_megabyte() else 1)
    workdir = Path(tempfile.mkdtemp(prefix="pinup-soak-build-"))
    try:
        template = build_workspace(workdir)
        results = [load(template, args.n, args.c, args.disk), crash(template, args.n, args.c, args.disk)]
        results.append(lint_megabyte())
        if not args.skip_hypothesis:
            results.append(hypothesis(args.examples, args.site_examples))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
