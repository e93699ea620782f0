"""`pinup drift` over a generated monorepo: files per second, and whether the time grows linearly.

Generates a tree of --files files (10,000 by default) spread over CSS, SCSS, Less, HTML, JS, TSX,
Vue and Svelte, each a few KB with hard-coded colours, sizes and fonts (one in fifty a minified
60 KB bundle), then times, in this one process:

- the raw baseline: reading and UTF-8-decoding every file and one `#rrggbb` regex over it (what
  any scanner must at least do);
- `pinup.drift.run.check` over a tenth of the tree and over all of it.

It prints files/s and MB/s for each, the ratio drift / baseline (the price of reading CSS rather
than grepping it), and the linearity ratio: time for all / (10 x time for a tenth) (target: between
0.8 and 1.25). By default the generated files are dense: nearly every declaration hard-codes a value
(about 280 findings per file), the worst case for drift's per-finding work; `--typical` makes one
rule in ten hard-code its values and the rest use `var(--…)`, as code that mostly follows its tokens.
CPU time (process time) is reported beside wall time; judge on CPU on a busy machine.

    .venv/bin/python bench/drift_scale.py [--files 10000] [--typical] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "generator"), str(ROOT / "functions")]

from pinup.drift.run import check  # noqa: E402  (after the path set-up above)

DESIGN = """---
name: Scale
colors:
  primary: "#0b57d0"
  on-primary: "#ffffff"
  surface: "#f8f9fa"
  error: "#b3261e"
typography:
  body:
    fontFamily: Inter
    fontSize: 16px
rounded:
  sm: 4px
  md: 8px
spacing:
  sm: 8px
  md: 16px
---

## Overview

Scale test.
"""


def css_rule(rng: random.Random, i: int, dense: bool) -> str:
    if not dense and rng.random() < 0.9:  # typical code: most rules use the tokens
        return (
            f".c{i} {{ color: var(--color-primary); padding: var(--spacing-md) var(--spacing-sm); "
            f"border-radius: var(--rounded-md); font-size: var(--text-body); }}\n"
            f".c{i} .inner {{ margin: 0 auto; display: flex; background: var(--color-surface); }}\n"
        )
    colour = rng.choice(["#0b57d0", "#ffffff", "#123456", "rgb(179 38 30)", "hsl(210 17% 98%)", "tomato"])
    return (
        f".c{i} {{ color: {colour}; padding: {rng.choice([8, 12, 16])}px {rng.choice([4, 8])}px; "
        f"border-radius: {rng.choice([4, 6, 8])}px; font-size: {rng.choice(['1rem', '14px'])}; }}\n"
        f".c{i} .inner {{ margin: 0 auto; display: flex; background: var(--color-surface); }}\n"
    )


def body(kind: str, rng: random.Random, dense: bool) -> str:
    rules = "".join(css_rule(rng, i, dense) for i in range(40))
    if kind in (".css", ".scss", ".less"):
        return rules
    if kind == ".html":
        return f"<!doctype html><style>{rules}</style>\n" + '<a href="#top" style="color: white">x</a>\n' * 40
    if kind == ".vue" or kind == ".svelte":
        return "<template><div/></template>\n<script>export default {}</script>\n" + f"<style>{rules}</style>\n"
    hard = "{ color: '#0b57d0', fontSize: 16, padding: '12px', gap: 8 }"
    tokens = "{ color: 'var(--color-primary)', fontSize: 'var(--text-body)', padding: 'var(--spacing-md)' }"
    lines = [f"export const s{i} = {hard if dense or rng.random() < 0.1 else tokens};\n" for i in range(80)]
    return "".join(lines)


def make_tree(root: Path, files: int, dense: bool) -> list[Path]:
    rng = random.Random(39)
    kinds = [".css", ".scss", ".less", ".html", ".js", ".tsx", ".vue", ".svelte"]
    (root / "DESIGN.md").write_text(DESIGN, "utf-8")
    made = []
    for n in range(files):
        folder = root / "packages" / f"p{n % 100:03d}" / "src" / f"d{n % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        kind = kinds[n % len(kinds)]
        text = body(kind, rng, dense)
        if n % 50 == 0:  # a minified bundle: one long line
            kind, text = ".css", (text.replace("\n", "") * 15)
        path = folder / f"f{n}{kind}"
        path.write_text(text, "utf-8")
        made.append(path)
    return made


HEX = re.compile(r"#[0-9a-fA-F]{6}\b")


def raw_pass(paths: list[Path]) -> int:
    found = 0
    for path in paths:
        with open(path, "rb") as handle:
            found += len(HEX.findall(handle.read().decode("utf-8")))
    return found


def timed(label: str, fn: object, size: int, count: int) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()  # type: ignore[operator]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(
        f"{label:<34} {count:>6} files  {wall:7.2f} s wall  {cpu:7.2f} s CPU  "
        f"{count / cpu:8.0f} files/s  {size / cpu / 1e6:6.1f} MB/s (CPU)"
    )
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--keep", type=Path, help="generate the tree here and keep it")
    parser.add_argument(
        "--typical", action="store_true", help="one rule in ten hard-codes its values (default: nearly all do)"
    )
    args = parser.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="pinup-drift-scale-"))
    try:
        paths = make_tree(root, args.files, dense=not args.typical)
        tenth = paths[: len(paths) // 10]
        size = sum(p.stat().st_size for p in paths)
        size_tenth = sum(p.stat().st_size for p in tenth)
        print(f"tree: {len(paths)} files, {size / 1e6:.1f} MB, in {root}")
        os.chdir(root)
        raw_pass(paths)  # warm the page cache for every pass alike
        _, raw_cpu = timed("raw read + one hex regex", lambda: raw_pass(paths), size, len(paths))
        outcome = check([str(p) for p in tenth])
        _, tenth_cpu = timed("pinup drift, a tenth", lambda: check([str(p) for p in tenth]), size_tenth, len(tenth))
        _, all_cpu = timed("pinup drift, all", lambda: check(["packages"]), size, len(paths))
        outcome = check(["packages"])
        print(
            f"drift found {len(outcome.drifts)} values ({outcome.scanned} files scanned, {len(outcome.skipped)} skipped)"
        )
        print(f"drift / raw baseline (CPU): {all_cpu / raw_cpu:.1f}x")
        print(
            f"linearity, all / (10 x tenth) (CPU): {all_cpu / (tenth_cpu * len(paths) / len(tenth)):.2f}   (target 0.8-1.25)"
        )
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
