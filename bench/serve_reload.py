"""Live-update latency: edit DESIGN.md while `pinup serve` runs; time until an open page in Chromium
paints the change.

    .venv/bin/python bench/serve_reload.py [--runs 9]

Three kinds of edit, alternating run by run, each timed from the write to the first animation
frame that shows it:

- a token edit (`colors.outline`, the site's and the boards' border colour), which changes the
  stylesheets and no page's shape: the open guidelines page and the open board swap their styles
  in place (no reload: a mark set in the page survives; goal: median <= 0.3 s);
- a token edit the colours page shows as text (`colors.primary`): that page reloads (the measure
  this bench took before the in-place swap existed);
- a prose edit of the guidelines page: it reloads.

Also prints the server's own rebuild times (its SERVE_REBUILT lines), and as a baseline of the same
run, a whole `pinup build` process after an edit (what one did by hand before `pinup serve` watched).
"""

from __future__ import annotations

import argparse
import functools
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


OUTLINE = re.compile(r'^(  outline: )"#[0-9a-fA-F]{6}"', re.M)
PROSE = "Keep exactly one primary button per screen"
BORDER = "getComputedStyle(document.documentElement).getPropertyValue('--pinup-border').trim()"


def set_outline(design: Path, hex_: str) -> None:
    text = design.read_text(encoding="utf-8")
    design.write_text(OUTLINE.sub(rf'\g<1>"{hex_}"', text, count=1), encoding="utf-8")


def set_prose(design: Path, n: int) -> str:
    """Make the guidelines' sentence say something new; returns the words the page will show."""
    text = design.read_text(encoding="utf-8")
    words = f"Keep exactly one primary button (take {n}) per screen"
    design.write_text(
        re.sub(r"Keep exactly one primary button( \(take \d+\))? per screen", words, text, count=1), encoding="utf-8"
    )
    return words


def timed(page: Any, edit: Callable[[], object], shows: str) -> float:
    started = time.perf_counter()
    edit()
    page.wait_for_function(shows, timeout=60_000, polling=10)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="pinup-reload-"))
    shutil.copytree(ROOT / "site_src", work / "site_src", ignore=shutil.ignore_patterns(".pinup", "__pycache__"))
    design = work / "site_src" / "DESIGN.md"
    assert PROSE in design.read_text(encoding="utf-8") and OUTLINE.search(design.read_text(encoding="utf-8"))
    proc, port, lines = start_server(work)
    base = f"http://127.0.0.1:{port}"
    times: dict[str, list[float]] = {"token, site page": [], "token, board": [], "colours text": [], "prose": []}
    kept = 0
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            site = browser.new_page()
            site.goto(f"{base}/guidelines.html")
            board = browser.new_page()
            board.goto(f"{base}/boards/trail-home/index.html")
            colours = browser.new_page()
            colours.goto(f"{base}/colors.html")
            for page in (site, colours):
                page.wait_for_function("() => window.pinupLive && window.pinupLive.version()")
            board.wait_for_selector("#submit-btn")
            for n in range(args.runs):
                hex_ = f"#7b75{n:02d}"
                time.sleep(0.5)  # let the previous update settle
                for page in (site, board):
                    page.evaluate("window.pinupMark = 1")
                shows = f"() => {BORDER} === '{hex_}'"
                started = time.perf_counter()
                set_outline(design, hex_)
                site.wait_for_function(shows, timeout=60_000, polling=10)
                times["token, site page"].append(time.perf_counter() - started)
                board.wait_for_function(shows, timeout=60_000, polling=10)
                times["token, board"].append(time.perf_counter() - started)
                kept += sum(bool(page.evaluate("window.pinupMark === 1")) for page in (site, board))
                time.sleep(0.5)
                primary = f"#a1{n:02d}6b"
                times["colours text"].append(
                    timed(
                        colours,
                        functools.partial(set_primary, design, primary),
                        f"() => document.body && document.body.textContent.toLowerCase().includes('{primary}')",
                    )
                )
                time.sleep(0.5)
                times["prose"].append(
                    timed(
                        site,
                        functools.partial(set_prose, design, n),
                        f"() => document.body && document.body.textContent.includes('(take {n})')",
                    )
                )
                print(
                    f"run {n + 1}: " + ", ".join(f"{k} {v[-1]:.3f} s" for k, v in times.items()),
                    flush=True,
                )
            browser.close()
    except Exception:
        print("pinup serve said:\n" + "\n".join(lines[-20:]), file=sys.stderr)
        raise
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
    medians = {k: statistics.median(v) for k, v in times.items()}
    for kind, values in times.items():
        print(f"edit -> paint, {kind}: median {medians[kind]:.3f} s (min {min(values):.3f}, max {max(values):.3f})")
    goal = max(medians["token, site page"], medians["token, board"])
    print(
        f"token edits in place: {'met' if goal <= 0.3 else 'NOT met'} (goal <= 0.3 s); pages kept (no reload) {kept} of {2 * args.runs}"
    )
    print(
        "in place / reload of the guidelines page (same run): "
        f"site page {medians['token, site page'] / medians['prose']:.2f}, board {medians['token, board'] / medians['prose']:.2f}"
    )
    if rebuilds:
        print(f"server rebuild (watcher, incremental): median {statistics.median(rebuilds):.3f} s over {len(rebuilds)}")
    print(f"baseline: edit then a whole `pinup build` process: median {statistics.median(baseline):.3f} s")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
