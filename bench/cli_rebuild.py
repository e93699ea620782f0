"""Benchmark: whole `pinup` processes after an edit, this checkout against another one, alternating.

What a person running `pinup build` by hand (or a CI step) pays after editing one token: each
round edits the first colour of the example workspace's DESIGN.md (a version no earlier round
built) and runs `pinup build` on it, runs it again with nothing changed, and edits one brand's
DESIGN.md in a copy of the bundled brands and runs `pinup gallery`; then builds a small MkDocs project
with the pinup plugin (`mkdocs build`) after an edit of one of its docs pages (its DESIGN.md
unchanged, as `mkdocs serve` rebuilds after most edits) and after a one-token edit of its
DESIGN.md. Both checkouts run the same
rounds, each measurement right after the other's, each with its own copies, cache folder (`PINUP_CACHE_DIR`) and
bytecode folder (`PYTHONPYCACHEPREFIX`), warmed by two runs first; CPU time (user + system) of
each child process, medians and minimums.

    .venv/bin/python bench/cli_rebuild.py --compare-src ../other-checkout [--rounds 10]

Without `--compare-src` it times this checkout alone.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the first colour token: its last two hex digits are what each round edits
COLOUR = re.compile(r'^(  [\w-]+: "#[0-9a-fA-F]{4})([0-9a-fA-F]{2})"', re.M)


def _cpu(cmd: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one child process; it must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode not in (0, 1):  # 1: the build finished with lint errors
        raise SystemExit(f"{' '.join(cmd)} failed:\n{result.stderr}")
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def _edit(path: Path, digits: str) -> None:
    text = path.read_text("utf-8")
    path.write_text(COLOUR.sub(lambda m: m.group(1) + digits + '"', text, count=1), "utf-8")


def _docs_project(folder: Path) -> list[str]:
    """A small MkDocs project with the pinup plugin (the example DESIGN.md); the command that builds it."""
    (folder / "docs").mkdir(parents=True)
    shutil.copy(ROOT / "site_src" / "DESIGN.md", folder / "DESIGN.md")
    (folder / "docs" / "index.md").write_text("# Home\n\nSee the [colours](design-system/colors.md).\n", "utf-8")
    config = folder / "mkdocs.yml"
    config.write_text(
        "site_name: Bench\nnav:\n  - Home: index.md\nplugins:\n  - pinup:\n      design_md: DESIGN.md\n", "utf-8"
    )
    return [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(folder / "site")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--compare-src", type=Path, help="another checkout of pinup, run in the same rounds")
    args = parser.parse_args()
    trees = {"this": ROOT}
    if args.compare_src:
        trees["other"] = args.compare_src.resolve()
    base = Path(tempfile.mkdtemp(prefix="pinup-cli-rebuild-"))
    env0 = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PINUP_NO_CACHE")}
    env0["NO_MKDOCS_2_WARNING"] = "1"
    try:
        setups = {}
        for name, tree in trees.items():
            folder = base / name
            shutil.copytree(ROOT / "brand_refs", folder / "brands")
            shutil.copytree(ROOT / "site_src", folder / "ws")
            env = {
                **env0,
                "PYTHONPATH": f"{tree}/generator{os.pathsep}{tree}/functions",
                "PINUP_BRAND_REFS": str(folder / "brands"),
                "PINUP_CACHE_DIR": str(folder / "cache"),
                "PYTHONPYCACHEPREFIX": str(folder / "pycache"),
            }
            build = [sys.executable, "-m", "pinup", "build", str(folder / "ws"), "--out", str(folder / "site")]
            gallery = [sys.executable, "-m", "pinup", "gallery", "--out", str(folder / "gallery")]
            brand = sorted((folder / "brands").glob("*/DESIGN.md"))[0]
            docs = _docs_project(folder / "mk")
            for _ in range(2):  # bytecode, caches, the disk's cache
                _cpu(build, env)
                _cpu(gallery, env)
                _cpu(docs, env)
            setups[name] = (folder, env, build, gallery, brand, docs)
        keys = ("build", "noop", "gallery", "docs", "docs-token")
        times: dict[str, dict[str, list[float]]] = {name: {key: [] for key in keys} for name in trees}
        for i in range(args.rounds):
            digits = f"{(i * 7 + 1) % 256:02x}"  # a version no earlier round built
            # each measurement right after the other checkout's, first one then the other, so the
            # machine's changing speed hits both alike
            order = list(setups) if i % 2 == 0 else list(reversed(setups))
            for name in order:
                folder, env, build, _, _, _ = setups[name]
                _edit(folder / "ws" / "DESIGN.md", digits)
                times[name]["build"].append(_cpu(build, env))
            for name in order:
                _, env, build, _, _, _ = setups[name]
                times[name]["noop"].append(_cpu(build, env))
            for name in order:
                _, env, _, gallery, brand, _ = setups[name]
                _edit(brand, digits)
                times[name]["gallery"].append(_cpu(gallery, env))
            for name in order:
                folder, env, _, _, _, docs = setups[name]
                page = folder / "mk" / "docs" / "index.md"
                page.write_text(page.read_text("utf-8") + f"\nRevision {i}.\n", "utf-8")
                times[name]["docs"].append(_cpu(docs, env))
            for name in order:
                folder, env, _, _, _, docs = setups[name]
                _edit(folder / "mk" / "DESIGN.md", digits)
                times[name]["docs-token"].append(_cpu(docs, env))
        labels = {
            "build": "`pinup build` after a one-token edit",
            "noop": "`pinup build` with nothing changed",
            "gallery": "`pinup gallery` after a one-token edit of one brand",
            "docs": "`mkdocs build` with the pinup plugin after an edit of a docs page",
            "docs-token": "`mkdocs build` with the pinup plugin after a one-token edit of its DESIGN.md",
        }
        print(f"rounds: {args.rounds}; CPU per process (user + system), median (minimum)")
        for key, label in labels.items():
            cells = []
            for name in trees:
                values = times[name][key]
                cells.append(f"{name} {statistics.median(values) * 1e3:.0f} ms ({min(values) * 1e3:.0f})")
            line = f"{label}: " + ", ".join(cells)
            if "other" in trees:
                ratio = statistics.median(times["this"][key]) / statistics.median(times["other"][key])
                paired = statistics.median(a / b for a, b in zip(times["this"][key], times["other"][key], strict=True))
                line += f" -> this / other {ratio:.2f}x (median of the rounds' ratios {paired:.2f}x)"
            print(line)
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
