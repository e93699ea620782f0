"""CPU seconds to lint (and build) the worst-shaped DESIGN.md files found for the regular expressions.

Each shape is about --size bytes (1 MB by default): a long run of one character where a pattern
once tried every split of it (digits in a dimension or number, spaces in a heading, digits in prose
that the shadow scale scans, `#` in the title), or a YAML block as large as pinup reads (256 KB)
in a shape the plain line reader declines (flow collections, anchors, quoted keys, block scalars,
sequences, deep nesting, many short entries, one long flow line, an error at the very end), padded
with prose. `pinup lint` runs in-process and is timed with `time.process_time()`; `pinup build`
runs once as a fresh process on the shape given by --build, timed by its children's CPU
(resource.getrusage).

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


#: pinup reads at most this much YAML (parser.MAX_YAML_CHARS), less room for the head's lines
YAML_ROOM = 256 * 1024 - 256


def _yaml_block(first: str, entry: Callable[[int], str], last: str = "") -> Callable[[int], str]:
    """A front matter of as many entries as fit in the YAML cap (the plain line reader declines
    each of them, so the full reader reads it), padded with prose to the requested size."""

    def shape(n: int) -> str:
        parts, size, i = [first], len(first) + len(last), 0
        while size < min(n, YAML_ROOM) - 64:
            parts.append(entry(i))
            size += len(parts[-1])
            i += 1
        parts.append(last)
        text = "---\n" + "".join(parts) + TAIL
        line = "Prose " * 160 + "\n"  # long lines: pinup also caps the number of lines
        return text + "\n" + line * max(0, (n - len(text)) // len(line))

    return shape


SHAPES: dict[str, Callable[[int], str]] = {
    "fontweight-zeros": _fontweight,
    "lineheight-zeros": _lineheight,
    "spacing-zeros": _spacing,
    "heading-spaces": _heading_spaces,
    "prose-digits": _prose_digits,
    "title-hashes": _title_hashes,
    "yaml-flow-maps": _yaml_block("colors:\n", lambda i: f"  c{i}: {{a: 1, b: [x, y], c: 'z'}}\n"),
    "yaml-anchors": _yaml_block("colors:\n", lambda i: f"  a{i}: &x{i} {{v: {i}}}\n  b{i}: *x{i}\n"),
    "yaml-quoted-keys": _yaml_block("colors:\n", lambda i: f'  "k\\t{i}\\u00e9": "v\\n{i}"\n'),
    "yaml-block-scalars": _yaml_block("notes:\n", lambda i: f"  d{i}: |\n    line {i}\n    more\n"),
    "yaml-sequences": _yaml_block("list:\n", lambda i: f"  - item {i}\n  - [a, b]\n"),
    "yaml-short-entries": _yaml_block("list:\n", lambda i: f"  - {i}\n"),
    "yaml-deep-nesting": _yaml_block("x:\n", lambda i: " " * (i % 250 + 1) + f"k{i}:\n", "  v: 1\n"),
    "yaml-long-flow-line": _yaml_block("list: [", lambda i: f"a{i}, ", "]\n"),
    "yaml-long-flow-map": _yaml_block("map: {", lambda i: f"k{i}: v{i}, ", "}\n"),
    "yaml-error-at-end": _yaml_block("colors:\n", lambda i: f"  c{i}: {{a: 1}}\n", "  bad: [1, 2\n"),
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
