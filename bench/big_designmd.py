"""A 2 MB DESIGN.md still builds: whole-process times of `pinup lint`, `pinup export` and `pinup build`.

The file is generated (valid YAML: thousands of colours with `-dark` siblings, typography levels,
components, and long prose sections) to about --size bytes. Each command runs --runs times as a
fresh process; the script prints the median wall and CPU time, plus the CPU ratio to the same
command on the bundled site_src/DESIGN.md in the same run (so load on the machine affects both).

    .venv/bin/python bench/big_designmd.py [--size 2000000] [--runs 3]
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "site_src" / "DESIGN.md"


def _hex(i: int) -> str:
    return f"#{(i * 2654435761) % 0xFFFFFF:06x}"


def big_design_md(target: Path, size: int) -> Path:
    """Write a valid DESIGN.md of about `size` bytes: tokens (a quarter) and prose (the rest)."""
    colors = max(100, size // 4 // 60)
    lines = [
        "---",
        "name: Big",
        "description: A generated 2 MB design system.",
        "colors:",
        '  primary: "#0b57d0"',
        '  primary-dark: "#8ab4ff"',
        '  surface: "#ffffff"',
        '  surface-dark: "#121212"',
    ]
    for i in range(colors):
        lines += [f'  c{i}: "{_hex(i)}"', f'  c{i}-dark: "{_hex(i * 7 + 3)}"']
    lines += ["typography:"]
    for i in range(300):
        lines += [
            f"  t{i}:",
            "    fontFamily: Inter, sans-serif",
            f"    fontSize: {10 + i % 30}px",
            "    fontWeight: 400",
            f"    lineHeight: {14 + i % 30}px",
        ]
    lines += ["rounded:", "  sm: 4px", "  md: 8px", "spacing:", "  sm: 8px", "  md: 16px", "components:"]
    for i in range(600):
        lines += [
            f"  comp{i}:",
            f'    backgroundColor: "{{colors.c{i}}}"',
            '    textColor: "{colors.surface}"',
            '    rounded: "{rounded.md}"',
            "    padding: 8px",
        ]
    lines += ["---", ""]
    text = "\n".join(lines) + "\n"
    sections = (
        "Overview",
        "Colors",
        "Typography",
        "Layout",
        "Elevation & Depth",
        "Shapes",
        "Components",
        "Do's and Don'ts",
    )
    paragraph = (
        "The surface colour carries the content; use c12 for accents and keep text on "
        "surface above 4.5:1. Spacing follows the 8px grid. "
    ) * 4
    prose: list[str] = []
    per_section = max(1, (size - len(text)) // len(sections) // (len(paragraph) + 2))
    for name in sections:
        prose += [f"## {name}", ""]
        for j in range(per_section):
            prose += [f"{paragraph} ({name} {j})", ""]
    target.write_text(text + "\n".join(prose) + "\n", encoding="utf-8")
    return target


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _time(cmd: list[str], runs: int) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of each run; CPU is what a shared, loaded machine distorts least."""
    times = []
    for _ in range(runs):
        start, cpu = time.perf_counter(), _cpu()
        proc = subprocess.run(cmd, capture_output=True, check=False)
        times.append((time.perf_counter() - start, _cpu() - cpu))
        if proc.returncode not in (0, 1):  # lint exits 1 for errors; anything else is a failure
            sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr.decode()[-2000:]}")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=2_000_000, help="bytes of the generated DESIGN.md")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    pinup = [sys.executable, "-m", "pinup"]
    with tempfile.TemporaryDirectory(prefix="pinup-big-") as tmp:
        work = Path(tmp)
        (work / "big").mkdir()
        big = big_design_md(work / "big" / "DESIGN.md", args.size)
        small_dir = work / "small"
        small_dir.mkdir()
        shutil.copyfile(EXAMPLE, small_dir / "DESIGN.md")
        small = small_dir / "DESIGN.md"
        print(
            f"generated {big.stat().st_size / 1e6:.2f} MB ({len(big.read_text().splitlines())} lines); "
            f"example {small.stat().st_size / 1e3:.1f} KB; {args.runs} runs each"
        )
        commands = {
            "lint": lambda f: [*pinup, "lint", str(f)],
            "lint --extended": lambda f: [*pinup, "lint", "--extended", str(f)],
            "export css-vars --modes": lambda f: [*pinup, "export", str(f), "--format", "css-vars", "--modes"],
            "export dtcg": lambda f: [*pinup, "export", str(f), "--format", "dtcg"],
            "build": lambda f: [*pinup, "build", str(f), "--out", str(f.parent / "site"), "--clean"],
        }
        print(f"{'command':26} {'2 MB wall':>10} {'2 MB CPU':>9} {'example CPU':>12} {'CPU ratio':>10}")
        for name, make in commands.items():
            big_times = _time(make(big), args.runs)
            small_times = _time(make(small), args.runs)
            wall = statistics.median(t[0] for t in big_times)
            cpu = statistics.median(t[1] for t in big_times)
            ref = statistics.median(t[1] for t in small_times)
            print(f"{name:26} {wall:9.2f}s {cpu:8.2f}s {ref:11.2f}s {cpu / ref:9.1f}x")
        pages = sorted((big.parent / "site").glob("*.html"))
        print(f"2 MB build: {len(pages)} pages, {sum(p.stat().st_size for p in pages) / 1e6:.1f} MB of HTML")


if __name__ == "__main__":
    main()
