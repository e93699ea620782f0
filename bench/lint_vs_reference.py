"""Whole-process timing of `pinup lint` against the reference CLI on the same files.

Each tool lints each file several times as a fresh process (interleaved, so load
spikes hit both); the script prints, per file, the median wall time and the lowest CPU
time (user + system of the child process) of each, and their ratios pinup/reference.
Target: pinup at most 0.25x the reference per file (judged on CPU time, which a busy
machine disturbs far less than wall time).

Then the many-files mode: `pinup lint -r FOLDER` over --many generated files (1,000 by
default) in one process, against the reference linting 20 of them, one process each.
Target: the 1,000 take less time than the reference's 20.

    .venv/bin/python bench/lint_vs_reference.py [--runs 9] [--many 1000] [FILE ...]

Without FILE arguments it uses the bundled example, the brand references, a few
corpus files and a generated ~400 KB DESIGN.md.
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

ROOT = Path(__file__).resolve().parent.parent
PINUP = ROOT / ".venv" / "bin" / "pinup"
if not PINUP.exists():  # a worktree without its own venv: the pinup next to this interpreter
    PINUP = Path(sys.executable).parent / "pinup"
REFERENCE = ROOT / "node_modules" / ".bin" / "design.md"


def big_design_md(target: Path, colors: int = 4000) -> Path:
    """A large but valid DESIGN.md (~400 KB): many colours, typography levels, components and prose."""
    lines = ["---", "name: Big", "colors:", '  primary: "#0b57d0"']
    lines += [f'  c{i}: "#{(i * 2654435761) % 0xFFFFFF:06x}"' for i in range(colors)]
    lines += ["typography:"]
    for i in range(200):
        lines += [
            f"  t{i}:",
            "    fontFamily: Inter, sans-serif",
            f"    fontSize: {10 + i % 30}px",
            "    fontWeight: 400",
        ]
    lines += ["rounded:", "  sm: 4px", "spacing:", "  sm: 8px", "components:"]
    for i in range(400):
        lines += [
            f"  comp{i}:",
            f'    backgroundColor: "{{colors.c{i}}}"',
            '    textColor: "{colors.primary}"',
            "    padding: 8px",
        ]
    lines += ["---", ""]
    for section in ("Overview", "Colors", "Typography", "Layout", "Components"):
        lines += (
            [f"## {section}", ""]
            + [f"Paragraph {i} about {section.lower()} with **emphasis**." for i in range(300)]
            + [""]
        )
    target.write_text("\n".join(lines), encoding="utf-8")
    return target


def time_once(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """(wall, CPU) seconds of one child process; CPU is its user + system time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def many_files(folder: Path, sources: list[Path], count: int) -> list[Path]:
    """`count` DESIGN.md files in `folder`, cycling through `sources` (small ones: real-world sizes)."""
    folder.mkdir()
    texts = [p.read_text(encoding="utf-8") for p in sources if p.stat().st_size < 100_000]
    out = []
    for i in range(count):
        target = folder / f"design-{i:04d}.md"
        target.write_text(texts[i % len(texts)], encoding="utf-8")
        out.append(target)
    return out


def python_env(cache_dir: str) -> dict[str, str]:
    """Run pinup as installed on a user's machine: bytecode cached (in a temp dir, not the repo)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = cache_dir
    return env


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--many", type=int, default=1000, help="files for the many-files run (0: skip it)")
    args = parser.parse_args()
    if not REFERENCE.exists():
        print("reference CLI missing: run `npm ci`", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        files = list(args.files)
        if not files:
            files = [p for p in [ROOT / "site_src" / "DESIGN.md"] if p.exists()]
            files += sorted(ROOT.glob("brand_refs/*/DESIGN.md"))[:4]
            corpus = ROOT / "tests" / "designmd" / "corpus"
            files += [corpus / n for n in ("full-ok.md", "refs.md", "colors-syntax.md") if (corpus / n).exists()]
            files.append(big_design_md(Path(tmp) / "big-DESIGN.md"))
        env = python_env(str(Path(tmp) / "pycache"))
        node = subprocess.run(["node", "--version"], capture_output=True, text=True, check=False).stdout.strip()
        print(
            f"pinup: {PINUP} with its bytecode cached (PYTHONPYCACHEPREFIX, warmed), as a wheel install runs; "
            f"reference: {REFERENCE.name} under Node {node or '?'} "
            f"(NODE_COMPILE_CACHE {os.environ.get('NODE_COMPILE_CACHE', 'unset')}); load average "
            + " ".join(f"{x:.2f}" for x in os.getloadavg())
        )
        for warm in files[:1]:  # warm the OS caches (and pinup's bytecode cache) for both runtimes
            for _ in range(2):
                time_once([str(PINUP), "lint", str(warm)], env)
                time_once([str(REFERENCE), "lint", str(warm)])
        print(
            f"{'file':<32} {'size':>8} {'pinup wall':>11} {'ref wall':>9} {'ratio':>6} "
            f"{'pinup cpu':>10} {'ref cpu':>8} {'ratio':>6}"
        )
        ratios, cpu_ratios = [], []
        for path in files:
            ours, theirs = [], []
            for _ in range(args.runs):
                ours.append(time_once([str(PINUP), "lint", str(path)], env))
                theirs.append(time_once([str(REFERENCE), "lint", str(path)]))
            a, b = statistics.median(w for w, _ in ours), statistics.median(w for w, _ in theirs)
            ca, cb = min(c for _, c in ours), min(c for _, c in theirs)
            ratios.append(a / b)
            cpu_ratios.append(ca / cb)
            name = path.name if path.name != "DESIGN.md" else f"{path.parent.name}/DESIGN.md"
            print(
                f"{name[:32]:<32} {path.stat().st_size:>8} {a * 1000:>9.0f}ms {b * 1000:>7.0f}ms {a / b:>6.2f} "
                f"{ca * 1000:>8.0f}ms {cb * 1000:>6.0f}ms {ca / cb:>6.2f}"
            )
        print(
            f"pinup/reference per file: CPU median {statistics.median(cpu_ratios):.2f}, worst {max(cpu_ratios):.2f} "
            f"(target <= 0.25); wall median {statistics.median(ratios):.2f}, worst {max(ratios):.2f}"
        )
        if args.many:
            folder = Path(tmp) / "many"
            corpus_files = many_files(folder, files, args.many)
            wall, cpu = time_once([str(PINUP), "lint", "-r", str(folder)], env)
            ref_wall = ref_cpu = 0.0
            for path in corpus_files[:20]:
                w, c = time_once([str(REFERENCE), "lint", str(path)])
                ref_wall, ref_cpu = ref_wall + w, ref_cpu + c
            print(
                f"many files: pinup lint -r over {args.many} files {wall:.2f} s wall, {cpu:.2f} s CPU; the reference "
                f"over 20 of them {ref_wall:.2f} s wall, {ref_cpu:.2f} s CPU -> "
                f"{'OK' if wall < ref_wall and cpu < ref_cpu else 'SLOWER'} ({wall / ref_wall:.2f}x wall, "
                f"{cpu / ref_cpu:.2f}x CPU)"
            )
            shutil.rmtree(folder, ignore_errors=True)
    print("load average at the end: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
