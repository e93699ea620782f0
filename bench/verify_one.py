"""`pinup verify` of one desktop variant, as a person waits for it: whole processes, wall and CPU.

    .venv/bin/python bench/verify_one.py [--runs 5]

A copy of the example workspace's desktop variant B is verified against itself (`--file`, exit 0)
and against variant C (exit 1), each a whole `pinup verify` process, report included. The baseline
in the same run is the least any Chromium check of that page costs: a process that imports
Playwright, launches Chromium, opens the page and takes one full-page screenshot. Prints each
run, the medians, and verify's ratio to the baseline.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("PINUP_CHROMIUM", "/usr/bin/chromium")
BOARD = "trail-home"
BASELINE = """
import sys
from playwright.sync_api import sync_playwright
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path=sys.argv[2], args=["--no-sandbox", "--disable-gpu"])
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    page.goto(sys.argv[1], wait_until="load")
    page.screenshot(full_page=True)
    browser.close()
"""


def run(cmd: list[str], cwd: Path, expect: int) -> tuple[float, float]:
    """Wall and CPU seconds (user + system of the child and its children, Chromium included)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env={**os.environ, "PINUP_CHROMIUM": CHROMIUM})
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != expect:
        sys.exit(f"{' '.join(cmd)} exited {proc.returncode}, not {expect}:\n{proc.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pinup-bench-verify-") as tmp:
        work = Path(tmp)
        src = work / "ws"
        shutil.copytree(ROOT / "site_src", src, ignore=shutil.ignore_patterns(".pinup", "__pycache__"))
        variants = src / "boards" / BOARD / "variants"
        own, other = variants / "b-map-first.html", variants / "c-journal-page.html"
        pinup = [sys.executable, "-m", "pinup", "verify", BOARD, "--src", str(src), "--variant", "B"]
        cases = {
            "verify B against itself": ([*pinup, "--file", str(own)], 0),
            "verify B against C": ([*pinup, "--file", str(other)], 1),
            "baseline: one Chromium screenshot": ([sys.executable, "-c", BASELINE, own.as_uri(), CHROMIUM], 0),
        }
        results: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
        for n in range(args.runs):  # interleaved, so a busy moment hits every case alike
            for name, (cmd, expect) in cases.items():
                wall, cpu = run(cmd, work, expect)
                results[name].append((wall, cpu))
                print(f"run {n + 1} {name}: {wall:.2f} s wall, {cpu:.2f} s CPU", flush=True)
        print()
        base_wall = statistics.median(w for w, _ in results["baseline: one Chromium screenshot"])
        base_cpu = statistics.median(c for _, c in results["baseline: one Chromium screenshot"])
        for name, timings in results.items():
            wall = statistics.median(w for w, _ in timings)
            cpu = statistics.median(c for _, c in timings)
            print(
                f"{name}: median {wall:.2f} s wall ({wall / base_wall:.2f}x the baseline), "
                f"{cpu:.2f} s CPU ({cpu / base_cpu:.2f}x)"
            )


if __name__ == "__main__":
    main()
