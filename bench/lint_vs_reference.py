"""Whole-process timing of `pinup lint` against the reference CLI on the same files.

Each tool lints each file several times as a fresh process (interleaved, so load
spikes hit both); the script prints per-file medians and the ratio pinup/reference.
Target: pinup at most 0.5x the reference per file.

    .venv/bin/python bench/lint_vs_reference.py [--runs 9] [FILE ...]

Without FILE arguments it uses the bundled example, the brand references, a few
corpus files and a generated ~400 KB DESIGN.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PINUP = ROOT / ".venv" / "bin" / "pinup"
REFERENCE = ROOT / "node_modules" / ".bin" / "design.md"


def big_design_md(target: Path, colors: int = 4000) -> Path:
    """A large but valid DESIGN.md (~400 KB): many colours, typography levels, components and prose."""
    lines = ["---", "name: Big", "colors:", '  primary: "#0b57d0"']
    lines += [f'  c{i}: "#{(i * 2654435761) % 0xFFFFFF:06x}"' for i in range(colors)]
    lines += ["typography:"]
    for i in range(200):
        lines += [f"  t{i}:", "    fontFamily: Inter, sans-serif", f"    fontSize: {10 + i % 30}px", "    fontWeight: 400"]
    lines += ["rounded:", "  sm: 4px", "spacing:", "  sm: 8px", "components:"]
    for i in range(400):
        lines += [f"  comp{i}:", f'    backgroundColor: "{{colors.c{i}}}"', '    textColor: "{colors.primary}"', "    padding: 8px"]
    lines += ["---", ""]
    for section in ("Overview", "Colors", "Typography", "Layout", "Components"):
        lines += [f"## {section}", ""] + [f"Paragraph {i} about {section.lower()} with **emphasis**." for i in range(300)] + [""]
    target.write_text("\n".join(lines), encoding="utf-8")
    return target


def time_once(cmd: list[str], env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env)
    return time.perf_counter() - start


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
        for warm in files[:1]:  # warm the OS caches (and pinup's bytecode cache) for both runtimes
            for _ in range(2):
                time_once([str(PINUP), "lint", str(warm)], env)
                time_once([str(REFERENCE), "lint", str(warm)])
        print(f"{'file':<40} {'size':>8} {'pinup':>9} {'reference':>10} {'ratio':>6}")
        ratios = []
        for path in files:
            ours, theirs = [], []
            for _ in range(args.runs):
                ours.append(time_once([str(PINUP), "lint", str(path)], env))
                theirs.append(time_once([str(REFERENCE), "lint", str(path)]))
            a, b = statistics.median(ours), statistics.median(theirs)
            ratios.append(a / b)
            name = path.name if path.name != "DESIGN.md" else f"{path.parent.name}/DESIGN.md"
            print(f"{name[:40]:<40} {path.stat().st_size:>8} {a * 1000:>7.0f}ms {b * 1000:>8.0f}ms {a / b:>6.2f}")
        print(f"median ratio pinup/reference: {statistics.median(ratios):.2f} (target <= 0.50); worst {max(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
