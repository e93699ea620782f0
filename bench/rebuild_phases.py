"""Benchmark: where a one-token rebuild's CPU goes inside one process, phase by phase.

`bench/build_vs_mkdocs.py` says how long the rebuild `pinup serve` makes after a one-token edit
takes against a full build; this says what it is made of, so the next cut goes where the time is.
In one process, on a copy of the bundled brands with its own cache folder, it builds the gallery,
then, N times: a build with nothing changed (timed), an edit of one brand's first colour (its last two hex
digits, a version no earlier edit made, so nothing is loaded from the site cache) and its rebuild,
timed by phase (CPU time of the process: the lint, the page models, the rendering of pages, the
rest of the brand's files, the site cache, the search index), and the colour put back. Prints
medians over the edits, and the median of three full builds into fresh folders for the share.

    .venv/bin/python bench/rebuild_phases.py [--edits 60] [--no-wait]
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from freed_inodes import wait_after_cleanup

ROOT = Path(__file__).resolve().parent.parent
STAMP = Path(__file__).resolve().parent / ".rebuild-phases-cleaned"
COLOUR = re.compile(r'^  [\w-]+: "#[0-9a-fA-F]{6}"', re.M)

#: (module, function, phase) timed on each rebuild; nested phases are shown indented under theirs
PHASES = (
    ("pinup.gallery", "write_brand", "the changed brand"),
    ("pinup.build", "lint_design", "  lint"),
    ("pinup.docsite.pages", "build_site_model", "  page models"),
    ("pinup.build", "write_pages", "  its files"),
    ("pinup.docsite.render", "render_page", "    pages rendered"),
    ("pinup.docsite.search", "search_index_js", "    search index"),
    ("pinup.sitecache", "save", "  site cache saved"),
)


def _timed(spent: dict[str, float], label: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """`function`, adding its CPU time to `spent[label]` (modules look it up at call time)."""

    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[label] = spent.get(label, 0.0) + time.process_time() - started

    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edits", type=int, default=60, help="one-token edits, each rebuilt once (at most 200)")
    parser.add_argument("--no-wait", action="store_true", help="start at once after a previous run's clean-up")
    args = parser.parse_args()
    edits = max(1, min(args.edits, 200))

    sys.path.insert(0, str(ROOT / "generator"))
    from pinup.brands import brand_refs_dir, load_manifest

    spent: dict[str, float] = {}
    for module_name, name, label in PHASES:
        module: ModuleType = importlib.import_module(module_name)
        setattr(module, name, _timed(spent, label, getattr(module, name)))

    wait_after_cleanup(STAMP, args.no_wait)  # full builds into fresh folders create thousands of files
    gc.disable()  # as `pinup serve` builds (pinup.build.paused_gc)
    tmp = Path(tempfile.mkdtemp(prefix=".rebuild-phases-", dir=ROOT / "bench"))
    try:
        brands = tmp / "brand_refs"
        shutil.copytree(brand_refs_dir(), brands)
        os.environ["PINUP_BRAND_REFS"] = str(brands)
        os.environ["PINUP_CACHE_DIR"] = str(tmp / "cache")
        os.environ.pop("PINUP_NO_CACHE", None)
        from pinup.buildcache import BuildCache
        from pinup.gallery import build_gallery

        served = BuildCache()  # one for every build, as `pinup serve` holds

        slugs = [b.slug for b in load_manifest(brands) if (brands / b.slug / "DESIGN.md").is_file()]
        changed = brands / slugs[len(slugs) // 2] / "DESIGN.md"
        original = changed.read_text("utf-8")
        token = COLOUR.search(original)
        if token is None:
            raise SystemExit(f"no colour token to change in {changed}")
        at = token.end() - 3  # the colour's last two hex digits
        versions = [f"{n:02x}" for n in range(256) if f"{n:02x}" != original[at : at + 2].lower()]
        random.Random(13).shuffle(versions)

        out = tmp / "site"
        build_gallery(out, cache=served)  # fills the site cache
        fulls: list[float] = []
        for number in range(3):
            started = time.process_time()
            build_gallery(tmp / f"full-{number}", cache=served)
            fulls.append(time.process_time() - started)
        full = statistics.median(fulls)
        rebuilds: list[float] = []
        unchanged: list[float] = []
        phases: list[dict[str, float]] = []
        written: list[int] = []
        for version in versions[:edits]:
            build_gallery(out, cache=served)  # after the previous edit was put back
            started = time.process_time()
            build_gallery(out, cache=served)
            unchanged.append(time.process_time() - started)
            changed.write_text(original[:at] + version + original[at + 2 :], "utf-8")
            spent.clear()
            started = time.process_time()
            result = build_gallery(out, cache=served)
            rebuilds.append(time.process_time() - started)
            phases.append(dict(spent))
            written.append(result.written)
            changed.write_text(original, "utf-8")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        STAMP.touch()

    def ms(values: list[float]) -> str:
        return f"{statistics.median(values) * 1000:6.2f} ms"

    rebuild = statistics.median(rebuilds)
    print(f"{len(slugs)} brands; {changed.parent.name}'s first colour edited {edits} times, each rebuilt once")
    print(
        f"full gallery build into a fresh folder (page models from the site cache; median of 3): {full * 1000:.1f} ms"
    )
    print(f"{'a build with nothing changed:':<44}{ms(unchanged)}")
    print(
        f"{'one-token rebuild:':<44}{ms(rebuilds)} = {rebuild / full:.1%} of the full build "
        f"(median {statistics.median(written):.0f} files written)"
    )
    for _, _, label in PHASES:
        print(f"  {label:<42}{ms([p.get(label, 0.0) for p in phases])}")
    rest = [r - p.get(PHASES[0][2], 0.0) for r, p in zip(rebuilds, phases, strict=True)]
    print(f"  {'the rest (index, manifest, kept brands)':<42}{ms(rest)}")


if __name__ == "__main__":
    main()
