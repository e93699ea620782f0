"""Live-reload latency: edit one colour in DESIGN.md while `pinup serve` runs; time until the open
colours page in Chromium shows it.

    .venv/bin/python bench/serve_reload.py [--runs 9]

Each run changes `colors.primary`, then waits until the page (reloaded by the live script over SSE)
contains the new value. Prints every latency, the median (goal: <= 1 s on the example), the
server's own rebuild times (from its SERVE_REBUILT lines), and, as the baseline of the same run,
the median wall time of what one did by hand before: a whole `pinup build` process after the edit
(without even reloading the page).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("PINUP_CHROMIUM", "/usr/bin/chromium")
PRIMARY = re.compile(r'^(  primary: )"#[0-9a-fA-F]{6}"', re.M)


def set_primary(design: Path, hex_: str) -> None:
    text = design.read_text(encoding="utf-8")
    design.write_text(PRIMARY.sub(rf'\g<1>"{hex_}"', text, count=1), encoding="utf-8")


def start_server(work: Path) -> tuple[subprocess.Popen[str], int, list[str]]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "pinup", "serve", "--no-open", "--timeout", "0"],
        cwd=work,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "DISPLAY": ""},
    )
    lines: list[str] = []
    started = threading.Event()
    port = [0]

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.append(line.strip())
            if line.startswith("SERVE_STARTED:"):
                port[0] = int(line.split("port=")[1].split()[0])
                started.set()

    threading.Thread(target=read, daemon=True).start()
    if not started.wait(120):
        proc.kill()
        raise SystemExit("pinup serve did not start:\n" + "\n".join(lines))
    return proc, port[0], lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="pinup-reload-"))
    shutil.copytree(ROOT / "site_src", work / "site_src", ignore=shutil.ignore_patterns(".pinup", "__pycache__"))
    design = work / "site_src" / "DESIGN.md"
    proc, port, lines = start_server(work)
    latencies: list[float] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/colors.html")
            page.wait_for_function("() => window.pinupLive && window.pinupLive.version()")
            for n in range(args.runs):
                hex_ = f"#a1{n:02d}6b"
                time.sleep(0.5)  # let the previous reload settle
                started = time.perf_counter()
                set_primary(design, hex_)
                shows = f"() => document.body && document.body.textContent.toLowerCase().includes('{hex_}')"
                page.wait_for_function(shows, timeout=60_000, polling=10)
                latencies.append(time.perf_counter() - started)
                print(f"run {n + 1}: {latencies[-1]:.3f} s", flush=True)
            browser.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    rebuilds = [
        float(m.group(1))
        for line in lines
        if (m := re.search(r"in ([0-9.]+)s$", line)) and line.startswith("SERVE_REBUILT:")
    ]
    baseline: list[float] = []
    for n in range(max(3, args.runs // 3)):
        set_primary(design, f"#b2{n:02d}7c")
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pinup", "build"], cwd=work, check=True, capture_output=True)
        baseline.append(time.perf_counter() - started)
    median = statistics.median(latencies)
    base = statistics.median(baseline)
    print(
        f"edit -> page shows it: median {median:.3f} s (min {min(latencies):.3f}, max {max(latencies):.3f}) "
        f"over {len(latencies)} runs; goal <= 1 s: {'met' if median <= 1.0 else 'NOT met'}"
    )
    if rebuilds:
        print(f"server rebuild (watcher, incremental): median {statistics.median(rebuilds):.3f} s over {len(rebuilds)}")
    print(
        f"baseline: edit then a whole `pinup build` process: median {base:.3f} s; live reload / baseline = "
        f"{median / base:.2f}"
    )
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
