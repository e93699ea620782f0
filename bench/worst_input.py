"""CPU seconds to lint and build the worst-shaped DESIGN.md files found for the regular expressions.

Each shape is about --size bytes (1 MB by default): a long run of one character where a pattern
once tried every split of it (digits in a dimension or number, spaces in a heading, digits in prose
that the shadow scale scans, `#` in the title, a word with no `-dark` for the theme, spaces in the
`# title`, `(` in a colour's label, `-container` in a colour's name), long lines of backticks or
asterisks, a huge token table, plain prose of the same size as the yardstick, and a YAML block as large as
pinup reads (256 KB) in a shape the plain line reader declines (flow collections, anchors, quoted
keys, block scalars, sequences, deep nesting, many short entries, one long flow line, an error at the
very end), padded with prose. `pinup lint` runs
in-process and is timed with `time.process_time()`; `pinup build` runs as a fresh process on each
shape (or those given by --build), timed by its children's CPU (resource.getrusage) with an empty user cache, and the same
for a one-line DESIGN.md as the start-up every build pays.

    .venv/bin/python bench/worst_input.py [--size 1000000] [--build all|SHAPE ...]
"""

from __future__ import annotations

import argparse
import os
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
#: pinup reads at most 256 KB of front matter (and 50,000 lines): a run inside the YAML stops short
#: of that, and the file is filled up to --size with plain prose after it.
YAML_RUN = 200_000
SENTENCE = "The primary blue marks actions; surfaces stay calm and text keeps a 4.5:1 contrast. "
PARAGRAPH = SENTENCE * 8 + "\n\n"


def _filled(text: str, n: int) -> str:
    return text + "\n" + PARAGRAPH * max(0, (n - len(text)) // len(PARAGRAPH))


def _fontweight(n: int) -> str:
    return _filled(HEAD + "    fontWeight: 1" + "0" * min(n, YAML_RUN) + "px\n" + TAIL, n)


def _lineheight(n: int) -> str:
    return _filled(HEAD + "    lineHeight: 1" + "0" * min(n, YAML_RUN) + "x\n" + TAIL, n)


def _spacing(n: int) -> str:
    return _filled(HEAD + "spacing:\n  sm: -" + "0" * min(n, YAML_RUN) + "\n" + TAIL, n)


def _heading_spaces(n: int) -> str:
    return HEAD + TAIL + "\n## Colors" + " " * n + "x\n\nText.\n"


def _prose_digits(n: int) -> str:
    return HEAD + "---\n\n## Elevation\n\nShadow " + "1" * n + "\n"


def _title_hashes(n: int) -> str:
    return HEAD + "---\n\n# " + "#" * n + "!\n\n## Overview\n\nText.\n"


def _dark_word(n: int) -> str:
    return HEAD + "---\n\n## Overview\n\nA brand " + "k" * n + ".\n"


def _title_spaces(n: int) -> str:
    return '---\ncolors:\n  primary: "#0b57d0"\n---\n\n# A' + " " * n + "b\n\n## Overview\n\nText.\n"


def _label_parens(n: int) -> str:
    return HEAD + "---\n\n## Colors\n\n- **Primary " + "(" * n + "**: the brand's blue.\n"


def _name_containers(n: int) -> str:
    key = "x" + "-container" * (min(n, YAML_RUN) // 10) + "\\ny"
    yaml = f'  ? "{key}"\n  : "#112233"\ncomponents:\n  b:\n    backgroundColor: "{{colors.primary}}"\n'
    return _filled('---\nname: Worst\ncolors:\n  primary: "#0b57d0"\n' + yaml + TAIL, n)


def _prose_runs(char: str) -> Callable[[int], str]:
    """Lines of 1,000 `char` each in the Overview (code spans and emphasis that never close)."""
    return lambda n: HEAD + "---\n\n## Overview\n\n" + (char * 1000 + "\n") * (n // 1001) + "\nText.\n"


def _token_table(n: int) -> str:
    rows = "".join(f'  c{i}: "#{i % 0xFFFFFF:06x}"\n' for i in range(min(n, YAML_RUN) // 20))
    return _filled(HEAD.replace('colors:\n  primary: "#0b57d0"\n', 'colors:\n  primary: "#0b57d0"\n' + rows) + TAIL, n)


def _long_heading(n: int) -> str:
    return HEAD + TAIL + "\n## " + "Colors and more " * (n // 16) + "\n\nText.\n"


def _plain_prose(n: int) -> str:
    return _filled(HEAD + TAIL, n)


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
    "dark-word": _dark_word,
    "title-spaces": _title_spaces,
    "label-parens": _label_parens,
    "name-containers": _name_containers,
    "prose-backticks": _prose_runs("`"),
    "prose-asterisks": _prose_runs("*"),
    "prose-digit-lines": _prose_runs("7"),
    "token-table": _token_table,
    "long-heading": _long_heading,
    "plain-prose": _plain_prose,
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
            env={**os.environ, "PINUP_CACHE_DIR": str(work / "cache")},  # cold: no memo from an earlier run
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--build", nargs="*", default=["all"], choices=["all", "none", *sorted(SHAPES)])
    args = parser.parse_args()
    lint_cpu("---\nname: Warm\n---\n")  # imports outside the timings
    worst = ("", 0.0)
    for name, shape in SHAPES.items():
        text = shape(args.size)
        seconds = lint_cpu(text)
        worst = max(worst, (name, seconds), key=lambda pair: pair[1])
        print(f"lint  {name:18} {len(text.encode()):>9} bytes  {seconds:6.3f} s CPU")
    print(f"worst lint shape: {worst[0]} ({worst[1]:.3f} s CPU)")
    names = [] if "none" in args.build else sorted(SHAPES) if "all" in args.build else args.build
    if not names:
        return
    start_up = build_cpu(HEAD + TAIL)
    print(f"build {'one-line':18} {len((HEAD + TAIL).encode()):>9} bytes  {start_up:6.3f} s CPU (whole process)")
    worst = ("", 0.0)
    for name in names:
        text = SHAPES[name](args.size)
        seconds = build_cpu(text)
        worst = max(worst, (name, seconds), key=lambda pair: pair[1])
        print(
            f"build {name:18} {len(text.encode()):>9} bytes  {seconds:6.3f} s CPU (whole process), "
            f"{seconds - start_up:6.3f} s past start-up"
        )
    print(f"worst build shape: {worst[0]} ({worst[1]:.3f} s CPU, {worst[1] - start_up:.3f} s past start-up)")


if __name__ == "__main__":
    main()
