"""Benchmark: pinup's site builder against `mkdocs build` on the same content.

Both builders get every bundled brand x every page:
- pinup: `pinup gallery` into a fresh folder (one process: lint + export + render all brands;
  with a warm cache the page models of unchanged DESIGN.md files are loaded, not rebuilt,
  and every page is still rendered and written);
- MkDocs: the same pages written as Markdown (prose + token tables, generated from
  pinup's page models), built with `mkdocs build` and the default theme.
Whole processes, several runs, medians. Prints pages per second and the ratio
(target: pinup >= 5x faster per page), then the time to rebuild after one token
(a colour's last hex digit) of one DESIGN.md among 25 changes, as a share of a full
pinup build (target <= 10%) and of a full MkDocs build (and MkDocs `--dirty` for reference), with
the part of that rebuild a fresh process cannot avoid (its imports and the lint of the changed file);
then the same rebuild inside one process, as `pinup serve` rebuilds: three full builds and three
first edits per process (one per process with more than five runs), medians over all of them
(a single rebuild of 20-30 ms moves with the machine's speed as much as the code's).

Fairness, both ways:
- both run from byte-compiled code: both sides' child processes get the same fresh
  PYTHONPYCACHEPREFIX, and PYTHONDONTWRITEBYTECODE (set in some environments, e.g. this
  project's CI shell) is dropped for both alike, so the warm-up runs write .pyc files for
  pinup's source checkout and for MkDocs and its dependencies, and every timed run reads them;
- pinup's cache (PINUP_CACHE_DIR: compiled templates, page models by content hash)
  starts empty and is filled by the warm-up run, like the .pyc files; a line with the
  caches off (PINUP_NO_CACHE=1) is printed too;
- MkDocs builds one site, so its default theme puts every page (251) in every page's
  nav, and its default directory URLs make a folder per page. A second, lean MkDocs
  line (26-entry nav: the gallery index + each brand's home, about the nav weight of a
  pinup page; `use_directory_urls: false`) shows the ratio without those costs.

    .venv/bin/python bench/build_vs_mkdocs.py [--runs 5] [--keep] [--no-wait]

Freed inodes: on ext4 without a journal (this project's machine) the inode allocator skips, one
look-up each, every inode freed in the last 60-360 s, so a build's hundreds of new files cost
more right after a mass delete, and pinup's share of that is larger than MkDocs' (its own CPU is
smaller). The script therefore waits out that window after its own previous clean-up (a stamp file
beside its scratch folders in bench/; `--no-wait` starts at once and says so), and `--keep` leaves
the scratch folder instead of deleting it, so runs can follow each other without a wait.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from freed_inodes import wait_after_cleanup

ROOT = Path(__file__).resolve().parent.parent
STAMP = Path(__file__).resolve().parent / ".build-vs-mkdocs-cleaned"

#: the part of a pinup build with its caches off that no page code can remove: start-up and
#: the imports the build needs (Jinja2, markdown-it-py; the click command), linting every DESIGN.md and
#: parsing its prose once.
#: It bounds the ratio of a build that cannot reuse earlier work (a warm build loads cached page
#: models instead).
FLOOR = """
import gc; gc.disable()  # as `pinup gallery` runs (pinup.cli.main: one-shot commands)
import jinja2
import pinup.cli, pinup.cli.group, pinup.cli.build, pinup.gallery, pinup.build
from pinup.designmd.lint import lint_path
from pinup.docsite.markdown import MarkdownCache
for brand in pinup.gallery.list_brands():
    design = lint_path(brand.path, extended=True).design
    cache = MarkdownCache()
    for text in [design.preamble, *(s.body for s in design.sections)]:
        cache.tokens(text)
"""

#: what a whole-process rebuild after one edit cannot avoid: start-up, the CLI (click) and the imports that
#: linting, modelling and rendering the one changed DESIGN.md need (the YAML parser, Jinja2, the model; not the Markdown parser,
#: as its prose comes from `pinup.prosememo`), and linting it; no page models, no pages
REBUILD_FLOOR = """
import gc; gc.disable()  # as `pinup gallery` runs (pinup.cli.main: one-shot commands)
import sys
from pathlib import Path
import jinja2
import pinup.cli, pinup.cli.group, pinup.cli.build, pinup.gallery, pinup.docsite.pages
from pinup.build import lint_design
lint_design(Path(sys.argv[1]))
"""

#: the same rebuild inside one process, as `pinup serve` does it: the code is loaded by a
#: first build with the cache off (as a server's first build has linted its DESIGN.md), then
#: a full gallery build with the disk caches still off (every brand linted and modelled again:
#: a full build that reuses nothing from earlier builds); then, CYCLES times: a full gallery
#: build into a fresh folder with the caches on (page models loaded), the one-token edit and the
#: rebuild, a second edit of the same token and its rebuild (the edit loop: the first edit also
#: adds a lint finding, shown on every page of that brand, so it renders all of them; the second
#: renders only the pages the colour is on), and the DESIGN.md put back; CPU times as JSON.
#: Each cycle's first edit puts another digit in the same place, so every edit is a version no
#: earlier build made (one loaded from the site cache would skip its lint and models).
IN_PROCESS = """
import json, os, sys, time
from pathlib import Path
import pinup.build
from pinup.buildcache import BuildCache
from pinup.gallery import build_gallery
served = BuildCache()  # one for every build of this process, as `pinup serve` holds
out, changed, digit, news = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
linted = []  # the DESIGN.md files each build linted: a rebuild must lint the changed one, not load it
lint_design = pinup.build.lint_design
pinup.build.lint_design = lambda *args, **kwargs: linted.append(1) or lint_design(*args, **kwargs)
os.environ["PINUP_NO_CACHE"] = "1"
build_gallery(out / "warm-up", cache=served)
started = time.process_time()
build_gallery(out / "no-cache", cache=served)
cold = time.process_time() - started
del os.environ["PINUP_NO_CACHE"]
original = changed.read_text("utf-8")
cycles = []
for number, new in enumerate(news):
    folder = out / f"full-{number}"
    started = time.process_time()
    build_gallery(folder, cache=served)
    full = time.process_time() - started
    changed.write_text(original[:digit] + new + original[digit + 1 :], "utf-8")
    linted.clear()
    started = time.process_time()
    result = build_gallery(folder, cache=served)
    one = time.process_time() - started
    linted_one = len(linted)
    # the same token's last digit too, after this cycle's own first edit: a version no earlier run built
    # (a version another run built would be loaded from the site cache, skipping its lint and models)
    again = next(c for c in "0123456789abcdef" if c != original[digit + 1].lower())
    changed.write_text(original[:digit] + new + again + original[digit + 2 :], "utf-8")
    linted.clear()
    started = time.process_time()
    second = build_gallery(folder, cache=served)
    two = time.process_time() - started
    changed.write_text(original, "utf-8")
    cycles.append({
        "full": full, "one": one, "written": result.written, "two": two, "written2": second.written,
        "linted": [linted_one, len(linted)],
    })
print(json.dumps({"cold": cold, "cycles": cycles}))
"""

#: first edits per in-process run (each a full build, an edit and its rebuild, a second edit and its)
CYCLES = 3

CPU: dict[str, list[float]] = {}


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(cmd: list[str], env: dict[str, str], tag: str = "") -> tuple[float, str]:
    """Wall time of a whole process; its CPU time (user+sys) is recorded under `tag`."""
    cpu = _cpu()
    started = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    elapsed = time.perf_counter() - started
    if tag:
        CPU.setdefault(tag, []).append(_cpu() - cpu)
    if proc.returncode != 0:
        raise SystemExit(f"command failed: {' '.join(cmd)}\n{proc.stderr[-2000:]}")
    return elapsed, proc.stderr + proc.stdout


def _table(rows: list[list[str]], head: list[str]) -> str:
    def cell(v: str) -> str:
        return v.replace("|", "\\|").replace("\n", " ")

    out = ["| " + " | ".join(head) + " |", "| " + " | ".join("---" for _ in head) + " |"]
    out += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def markdown_pages(design_path: Path) -> dict[str, str]:
    """The site's pages as Markdown: the same prose and token data, as tables."""
    from pinup.designmd.lint import lint_path
    from pinup.docsite.models import (
        ColorsPage,
        ComponentsPage,
        DownloadsPage,
        GuidancePage,
        LintPage,
        ScalePage,
        TypographyPage,
    )
    from pinup.docsite.pages import build_site_model
    from pinup.docsite.sources import Sources

    report = lint_path(design_path)
    site = build_site_model(report)
    src = Sources(report)
    prose = {
        "index": "Overview",
        "colors": "Colors",
        "typography": "Typography",
        "layout": "Layout",
        "elevation": "Elevation & Depth",
        "shapes": "Shapes",
        "components": "Components",
        "guidelines": "Do's and Don'ts",
    }
    pages: dict[str, str] = {}
    for page in site.pages:
        parts = [f"# {page.title}", ""]
        if page.slug in prose:
            parts.append(src.section_markdown(prose[page.slug]))
        if isinstance(page, ColorsPage):
            for mode in page.modes:
                parts.append(f"## {mode.title}\n")
                parts.append(
                    _table(
                        [[s.name, s.raw, s.hex, s.rgb, s.oklch, s.role, f"`{s.css_var}`"] for s in mode.swatches],
                        ["Token", "Value", "Hex", "RGB", "OKLCH", "Role", "CSS"],
                    )
                )
                if mode.matrix:
                    parts.append(
                        "\n"
                        + _table(
                            [
                                [r.name, *(f"{c.ratio_text} {c.level}" for c in row)]
                                for r, row in zip(mode.matrix.rows, mode.matrix.cells, strict=False)
                            ],
                            ["Text", *(c.name for c in mode.matrix.cols)],
                        )
                    )
        elif isinstance(page, TypographyPage):
            for level in page.levels:
                parts.append(f"## {level.name}\n\n{page.sample}\n\n```css\n{level.css}\n```\n")
        elif isinstance(page, ScalePage):
            parts.append(_table([[s.name, s.css, s.ref] for s in page.steps], ["Token", "Value", "Reference"]))
        elif isinstance(page, ComponentsPage):
            for group in page.groups:
                for v in group.variants:
                    parts.append(
                        f"## {v.name}\n\n"
                        + _table([[r.name, r.raw, r.resolved] for r in v.props], ["Property", "As written", "Resolved"])
                    )
        elif isinstance(page, GuidancePage):
            parts.append("## Do\n\n" + "\n".join(f"- {re.sub('<[^>]+>', '', d)}" for d in page.dos))
            parts.append("\n## Don't\n\n" + "\n".join(f"- {re.sub('<[^>]+>', '', d)}" for d in page.donts))
        elif isinstance(page, DownloadsPage):
            for f in page.files:
                parts.append(f"## {f.label}\n\n```\n{f.preview}\n```\n")
        elif isinstance(page, LintPage):
            parts.append(
                _table([[f.severity, f.path, f.message] for f in page.findings], ["Severity", "Path", "Message"])
                if page.findings
                else "No findings."
            )
        pages[page.slug] = "\n".join(parts) + "\n"
    return pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", action="store_true", help="leave the scratch folder (no clean-up, no wait next time)")
    parser.add_argument("--no-wait", action="store_true", help="start at once after a previous run's clean-up")
    args = parser.parse_args()

    sys.path.insert(0, str(ROOT / "generator"))
    from pinup.brands import brand_refs_dir, load_manifest

    wait_after_cleanup(STAMP, args.no_wait)
    tmp = Path(tempfile.mkdtemp(prefix=".build-vs-mkdocs-", dir=STAMP.parent))
    try:
        brands_src = brand_refs_dir()
        brands = tmp / "brand_refs"
        shutil.copytree(brands_src, brands)
        slugs = [b.slug for b in load_manifest(brands) if (brands / b.slug / "DESIGN.md").is_file()]
        env = {
            **os.environ,
            "PINUP_BRAND_REFS": str(brands),
            "NO_MKDOCS_2_WARNING": "1",
            "PYTHONPYCACHEPREFIX": str(tmp / "pycache"),
            "PINUP_CACHE_DIR": str(tmp / "cache"),
        }
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.pop("PINUP_NO_CACHE", None)
        nocache_env = {**env, "PINUP_NO_CACHE": "1"}

        # MkDocs project with the same pages as Markdown
        docs = tmp / "mk" / "docs"
        docs.mkdir(parents=True)
        md_pages = 0
        for slug in slugs:
            for name, text in markdown_pages(brands / slug / "DESIGN.md").items():
                path = docs / slug / f"{name}.md"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, "utf-8")
                md_pages += 1
        (docs / "index.md").write_text("# Gallery\n\n" + "\n".join(f"- [{s}]({s}/index.md)" for s in slugs) + "\n")
        md_pages += 1
        (tmp / "mk" / "mkdocs.yml").write_text("site_name: Bench\ntheme:\n  name: mkdocs\n", "utf-8")
        nav = "".join(f"  - {s}: {s}/index.md\n" for s in slugs)
        (tmp / "mk" / "mkdocs-nav.yml").write_text(
            "site_name: Bench\ntheme:\n  name: mkdocs\nuse_directory_urls: false\nnav:\n  - Gallery: index.md\n" + nav,
            "utf-8",
        )

        def pinup_cmd(out: str, *extra: str) -> list[str]:
            return [sys.executable, "-m", "pinup", "gallery", "--out", str(tmp / out), *extra]

        def mk_cmd(out: str, *extra: str, config: str = "mkdocs.yml") -> list[str]:
            return [
                sys.executable,
                "-m",
                "mkdocs",
                "build",
                "-q",
                *extra,
                "-f",
                str(tmp / "mk" / config),
                "-d",
                str(tmp / out),
            ]

        # warm the disk cache, write both's .pyc files and fill pinup's template cache
        _run(pinup_cmd("warm-pinup"), env)
        _run(mk_cmd("warm-mk"), env)
        _run(mk_cmd("warm-mk-nav", config="mkdocs-nav.yml"), env)
        times: dict[str, list[float]] = {}
        for i in range(args.runs):  # full builds into fresh folders, interleaved so load hits all alike
            for tag, cmd, run_env in (
                ("pinup", pinup_cmd(f"pinup-{i}"), env),
                ("mkdocs", mk_cmd(f"mk-{i}"), env),
                ("pinup-j", pinup_cmd(f"pinup-j-{i}", "--jobs", "0"), env),
                ("mkdocs-nav", mk_cmd(f"mk-nav-{i}", config="mkdocs-nav.yml"), env),
                ("pinup-nocache", pinup_cmd(f"pinup-nc-{i}"), nocache_env),
                ("pinup-floor", [sys.executable, "-c", FLOOR], env),
            ):
                times.setdefault(tag, []).append(_run(cmd, run_env, tag)[0])
        pinup_pages = sum(1 for _ in (tmp / "pinup-0").rglob("*.html"))
        mk_built = sum(1 for p in (tmp / "mk-0").rglob("index.html") if p.parent != tmp / "mk-0" / "search")
        if pinup_pages != md_pages or mk_built != md_pages:
            raise SystemExit(f"page counts differ: pinup {pinup_pages}, markdown {md_pages}, mkdocs built {mk_built}")

        med = {tag: statistics.median(values) for tag, values in times.items()}
        cpu = {tag: statistics.median(values) for tag, values in CPU.items()}
        p_med, m_med = med["pinup"], med["mkdocs"]
        p_rate, m_rate = pinup_pages / p_med, md_pages / m_med
        n_rate = md_pages / med["mkdocs-nav"]
        print(f"brands: {len(slugs)}; runs: {args.runs} (whole processes, medians; wall / CPU user+sys)")
        print(
            f"pinup gallery         : {pinup_pages:4d} pages in {p_med:6.2f}s = {p_rate:7.1f} pages/s"
            f"  (CPU {cpu['pinup']:.2f}s)"
        )
        print(
            f"mkdocs build          : {md_pages:4d} pages in {m_med:6.2f}s = {m_rate:7.1f} pages/s"
            f"  (CPU {cpu['mkdocs']:.2f}s)"
        )
        ratio = p_rate / m_rate
        print(
            f"ratio (pinup / mkdocs per page, wall): {ratio:.2f}x  (target >= 5x: {'met' if ratio >= 5 else 'NOT met'})"
        )
        print(
            f"CPU time per page: {(cpu['mkdocs'] / md_pages) / (cpu['pinup'] / pinup_pages):.2f}x "
            "(robust to a loaded machine)"
        )
        print(
            f"mkdocs, lean config   : {md_pages:4d} pages in {med['mkdocs-nav']:6.2f}s = {n_rate:7.1f} pages/s"
            f"  (CPU {cpu['mkdocs-nav']:.2f}s) -> pinup {p_rate / n_rate:.2f}x wall, "
            f"{(cpu['mkdocs-nav'] / md_pages) / (cpu['pinup'] / pinup_pages):.2f}x CPU"
        )
        nc_rate = pinup_pages / med["pinup-nocache"]
        print(
            f"pinup, caches off (PINUP_NO_CACHE=1): {med['pinup-nocache']:6.2f}s = {nc_rate:7.1f} pages/s "
            f"(CPU {cpu['pinup-nocache']:.2f}s) -> {nc_rate / m_rate:.2f}x mkdocs wall, "
            f"{(cpu['mkdocs'] / md_pages) / (cpu['pinup-nocache'] / pinup_pages):.2f}x CPU"
        )
        floor = cpu["pinup-floor"]
        print(
            f"pinup floor without caches (start-up, imports, lint, prose parse; no pages): CPU {floor:.2f}s -> "
            "at most "
            f"{(cpu['mkdocs'] / md_pages) / (floor / pinup_pages):.2f}x mkdocs per page even if pages cost nothing"
        )
        j_med = med["pinup-j"]
        print(
            f"pinup gallery --jobs 0: {pinup_pages:4d} pages in {j_med:6.2f}s = {pinup_pages / j_med:7.1f} pages/s "
            f"({(pinup_pages / j_med) / m_rate:.2f}x mkdocs; {os.cpu_count()} CPUs)"
        )

        # one token of one DESIGN.md among 25 changes: the first colour's last hex digit
        incr_cmd = pinup_cmd("pinup-0")
        changed = brands / slugs[len(slugs) // 2] / "DESIGN.md"
        original = changed.read_text("utf-8")
        token = re.search(r'^  [\w-]+: "#[0-9a-fA-F]{6}"', original, re.M)
        if token is None:
            raise SystemExit(f"no colour token to change in {changed}")
        digit = token.end() - 2
        incr = []
        written = ""
        for i in range(args.runs):
            new_digit = "0123456789abcdef".replace(original[digit].lower(), "")[i % 15]
            changed.write_text(original[:digit] + new_digit + original[digit + 1 :], "utf-8")
            seconds, output = _run(incr_cmd, env, "incremental")
            incr.append(seconds)
            found = re.search(r"\((\d+) written, (\d+) unchanged\)", output)
            written = f"{found.group(1)} files rewritten, {found.group(2)} unchanged" if found else ""
        noop = [_run(incr_cmd, env, "noop")[0] for _ in range(args.runs)]
        md_changed = docs / slugs[len(slugs) // 2] / "index.md"
        dirty = []
        for i in range(args.runs):
            md_changed.write_text(md_changed.read_text("utf-8") + f"\nRevision {i}.\n", "utf-8")
            dirty.append(_run(mk_cmd("mk-0", "--dirty"), env)[0])
        i_med, i_cpu = statistics.median(incr), statistics.median(CPU["incremental"])
        print(
            f"rebuild after one token of 1 of {len(slugs)} DESIGN.md changed: pinup {i_med:.2f}s, CPU {i_cpu:.2f}s "
            f"({written}); no change: {statistics.median(noop):.2f}s, CPU {statistics.median(CPU['noop']):.2f}s"
        )
        share = i_cpu / cpu["pinup"]
        print(
            f"  one-token rebuild / full pinup build: {i_med / p_med:.0%} wall, {share:.0%} CPU "
            f"(target <= 10%: {'met' if share <= 0.10 else 'NOT met'}); "
            f"/ full mkdocs build: {i_med / m_med:.0%} wall, {i_cpu / cpu['mkdocs']:.0%} CPU"
        )
        print(f"  mkdocs: full build {m_med:.2f}s, `--dirty` after one page changed {statistics.median(dirty):.2f}s")
        for _ in range(args.runs):
            _run([sys.executable, "-c", REBUILD_FLOOR, str(changed)], env, "rebuild-floor")
        r_floor = statistics.median(CPU["rebuild-floor"])
        print(
            f"  whole-process rebuild floor (start-up, CLI, the imports one changed DESIGN.md needs, its lint; "
            f"no pages): CPU {r_floor:.2f}s = {r_floor / cpu['pinup']:.0%} of a full pinup build"
        )
        for _ in range(args.runs):  # what any new process that renders a page pays before it reads anything
            _run([sys.executable, "-c", "pass"], env, "python")
            _run([sys.executable, "-c", "import gc; gc.disable(); import jinja2"], env, "jinja2")
        started, jinja = statistics.median(CPU["python"]), statistics.median(CPU["jinja2"])
        print(
            f"  of which starting Python: CPU {started * 1000:.0f} ms = {started / cpu['pinup']:.0%}; starting it and "
            f"importing Jinja2 (every page needs it): {jinja * 1000:.0f} ms = {jinja / cpu['pinup']:.0%} of a full pinup build"
        )
        changed.write_text(original, "utf-8")
        inproc = []
        # the digit before the last one: each cycle of each run puts in a digit no other one did
        others = "0123456789abcdef".replace(original[digit - 1].lower(), "")
        cycles = max(1, min(CYCLES, len(others) // args.runs))
        for i in range(args.runs):
            news = "".join(others[(i * cycles + c) % len(others)] for c in range(cycles))
            folder = tmp / f"inproc-{i}"
            cmd = [sys.executable, "-c", IN_PROCESS, str(folder), str(changed), str(digit - 1), news]
            _, output = _run(cmd, env)
            found = json.loads(output.strip().splitlines()[-1])
            for cycle in found["cycles"]:
                if cycle["linted"] != [1, 1]:
                    raise SystemExit(f"the in-process rebuilds linted {cycle['linted']} files, not [1, 1]")
                inproc.append({**cycle, "cold": found["cold"]})
        full_in = statistics.median(r["full"] for r in inproc)
        one_in = statistics.median(r["one"] for r in inproc)
        two_in = statistics.median(r["two"] for r in inproc)
        print(
            f"in one process (as `pinup serve` rebuilds; {len(inproc)} edits in {args.runs} processes): "
            f"full gallery CPU {full_in:.3f}s, one-token rebuild "
            f"CPU {one_in:.3f}s ({inproc[-1]['written']} files rewritten) = {one_in / full_in:.1%} "
            f"(target <= 10%: {'met' if one_in / full_in <= 0.10 else 'NOT met'})"
        )
        print(
            f"  the same token edited again (edit loop): CPU {two_in:.3f}s ({inproc[-1]['written2']} files "
            f"rewritten) = {two_in / full_in:.1%} of the full build"
        )
        cold_in = statistics.median(r["cold"] for r in inproc)
        print(
            f"  against a full gallery build with the disk caches off (every brand linted and modelled), "
            f"CPU {cold_in:.3f}s: one-token rebuild {one_in / cold_in:.1%}, edit loop {two_in / cold_in:.1%}"
        )
        # a lower bound for any new process, even one that only asks a resident builder to rebuild:
        # it starts Python, and the rebuild itself costs at least what it costs in a warm process
        bound = (started + one_in) / cpu["pinup"]
        print(
            f"  the least any new process could take after a one-token edit, even one that only asks a resident "
            f"builder: starting Python ({started / cpu['pinup']:.1%}) plus the rebuild in a warm process "
            f"({one_in / cpu['pinup']:.1%}) = {bound:.1%} of the whole-process full build; measured above, {share:.0%}"
        )
    finally:
        if args.keep:
            print(f"kept: {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
            STAMP.touch()


if __name__ == "__main__":
    main()
