"""How pinup declares data: slotted `dataclasses` against `msgspec.Struct`, in one run.

Three costs, each the lowest of several tries:
- importing the library in a fresh interpreter (minus the bare interpreter's start);
- declaring 40 classes of eight fields (about how many a site build declares);
- making a million instances of one of them by keyword (what a build of many pages does).

    .venv/bin/python bench/data_classes.py [--tries 7]

Prints each figure and the ratio dataclasses/msgspec (below 1: dataclasses are cheaper).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

CLASSES = 40
INSTANCES = 1_000_000
FIELDS = "a: int\n    b: str\n    c: float\n    d: int = 0\n    e: str = ''\n    f: float = 0.0\n    g: Any = None\n    h: bool = False\n"


def _import_seconds(module: str, tries: int) -> float:
    """A fresh interpreter importing `module`, less one that imports nothing."""

    def run(code: str) -> float:
        best = float("inf")
        for _ in range(tries):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-S", "-c", code], check=True)
            best = min(best, time.perf_counter() - start)
        return best

    path = repr(sys.path)
    bare = run(f"import sys; sys.path[:] = {path}")
    return run(f"import sys; sys.path[:] = {path}; import {module}") - bare


def _declare_dataclasses() -> list[type]:
    made: list[type] = []
    for index in range(CLASSES):
        namespace: dict[str, Any] = {"dataclass": dataclass, "Any": Any}
        exec(f"@dataclass(slots=True, kw_only=True)\nclass C{index}:\n    {FIELDS}", namespace)
        made.append(namespace[f"C{index}"])
    return made


def _declare_structs() -> list[type]:
    import msgspec

    made: list[type] = []
    for index in range(CLASSES):
        namespace: dict[str, Any] = {"msgspec": msgspec, "Any": Any}
        exec(f"class C{index}(msgspec.Struct, kw_only=True):\n    {FIELDS}", namespace)
        made.append(namespace[f"C{index}"])
    return made


def _best(action: Callable[[], object], tries: int) -> float:
    best = float("inf")
    for _ in range(tries):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def _construct(cls: Any) -> None:
    for index in range(INSTANCES):
        cls(a=index, b="x", c=1.5, e="y")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tries", type=int, default=7)
    tries = parser.parse_args(argv).tries
    dataclass_cls, struct_cls = _declare_dataclasses()[0], _declare_structs()[0]
    rows = [
        ("import the library", _import_seconds("dataclasses", tries), _import_seconds("msgspec", tries), 1e3, "ms"),
        (f"declare {CLASSES} classes", _best(_declare_dataclasses, tries), _best(_declare_structs, tries), 1e3, "ms"),
        (
            f"make {INSTANCES:,} instances",
            _best(lambda: _construct(dataclass_cls), 3),
            _best(lambda: _construct(struct_cls), 3),
            1,
            "s",
        ),
    ]
    print(f"{'':28} {'dataclasses':>12} {'msgspec':>12} {'ratio':>7}")
    for name, ours, theirs, scale, unit in rows:
        print(f"{name:28} {ours * scale:10.2f}{unit:>2} {theirs * scale:10.2f}{unit:>2} {ours / theirs:7.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
