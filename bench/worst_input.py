"""CPU seconds to lint (and build) the worst-shaped DESIGN.md files found for the regular expressions.

Each shape is about --size bytes (1 MB by default): a long run of one character where a pattern
once tried every split of it (digits in a dimension or number, spaces in a heading, digits in prose
that the shadow scale scans, `#` in the title). `pinup lint` runs in-process and is timed with
`time.process_time()`; `pinup build` runs once as a fresh process on the shape given by --build,
timed by its children's CPU (resource.getrusage).

    .venv/bin/python bench/worst_input.py [--size 1000000] [--build fontweight-zeros]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HEAD = (
    '---\nname: Worst\ncolors:\n  primary: "#0b57d0"\ntypography:\n  body:\n    fontFamily: Inter\n    fontSize: 16px\n'
)
TAIL = "---\n\n## Overview\n\nA shape that once made a pattern backtrack.\n"


def _fontweight(n: int) -> str:
    return HEAD + "    fontWeight: 1" + "0" * n + "px\n" + TAIL


def _lineheight(n: int) -> str:
    return HEAD + "    lineHeight: 1" + "0" * n + "x\n" + TAIL


def _spacing(n: int) -> str:
    return HEAD + "spacing:\n  sm: -" + "0" * n + "\n" + TAIL


def _heading_spaces(n: int) -> str:
    return HEAD + TAIL + "\n## Colors" + " " * n + "x\n\nText.\n"


def _prose_digits(n: int) -> str:
    return HEAD + "---\n\n## Elevation\n\nShadow " + "1" * n + "\n"


def _title_hashes(n: int) -> str:
    return HEAD + "---\n\n# " + "#" * n + "!\n\n## Overview\n\nText.\n"


SHAPES: dict[str, Callable[[int], str]] = {
    "fontweight-zeros": _fontweight,
    "lineheight-zeros": _lineheight,
    "spacing-zeros": _spacing,
    "heading-spaces": _heading_spaces,
    "prose-digits": _prose_digits,
    "title-hashes": _title_hashes,
}


def lint_cpu(text: str) -> float:
    from pinup.designmd.lint import lint_text

    start = time.process_time()
    lint_text(text)
    return time.process_time() - start


def build_cpu(text: str) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "DESIGN.md").write_text(text, encoding="utf-8")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(
            [sys.executable, "-m", "pinup", "build", str(work), "--out", str(work / "site")],
            check=False,
            capture_output=True,
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--build", default="fontweight-zeros", choices=sorted(SHAPES))
    args = parser.parse_args()
    lint_cpu("---\nname: Warm\n---\n")  # imports outside the timings
    worst = ("", 0.0)
    for name, shape in SHAPES.items():
        text = shape(args.size)
        seconds = lint_cpu(text)
        worst = max(worst, (name, seconds), key=lambda pair: pair[1])
        print(f"lint  {name:18} {len(text.encode()):>9} bytes  {seconds:6.3f} s CPU")
    print(f"worst lint shape: {worst[0]} ({worst[1]:.3f} s CPU)")
    text = SHAPES[args.build](args.size)
    print(f"build {args.build:18} {len(text.encode()):>9} bytes  {build_cpu(text):6.3f} s CPU (whole process)")


if __name__ == "__main__":
    main()
