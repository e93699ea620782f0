"""`pinup gallery`: one design-system site per bundled brand, plus an index page linking them all.

Uses the same site writer as `pinup build` (one OutputWriter for the whole
gallery, so a rebuild after one brand changes rewrites only that brand's files).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pinup.buildcache import BuildCache, active, using

if TYPE_CHECKING:  # pragma: no cover
    from pinup.docsite.models import SiteModel
    from pinup.output import FileSink, FolderSink


@dataclass(slots=True)
class Brand:
    """One bundled brand: its slug, name, category and the folder of its DESIGN.md."""

    slug: str
    name: str
    category: str
    path: Path


@dataclass(slots=True)
class GalleryResult:
    """What a gallery build did: the brands built, the files written and kept, and lint errors per brand."""

    brands: list[Brand] = field(default_factory=list)
    written: int = 0
    skipped: int = 0
    seconds: float = 0.0
    errors: dict[str, int] = field(default_factory=dict)


def list_brands(root: Path | None = None) -> list[Brand]:
    """Every brand of `pinup.brands`' manifest (in its order) that has a DESIGN.md.

    The validated entries are kept in the site cache by the manifest's bytes, so a
    gallery build with warm caches does not load pydantic to validate it again.
    """
    from pinup.brands import MANIFEST, brand_refs_dir, load_manifest
    from pinup.sitecache import cached

    memos = active().gallery
    root = root or brand_refs_dir()
    try:
        data = (root / MANIFEST).read_bytes()
    except OSError:  # load_manifest says what is wrong
        data = None
    if data is None:
        entries = [(e.slug, e.name, e.category or "") for e in load_manifest(root)]
    elif memos.entries.get(str(root), (None, []))[0] == data:  # a rebuild with this cache: already validated
        entries = memos.entries[str(root)][1]
    else:
        entries = cached(data, "brands", lambda: [(e.slug, e.name, e.category or "") for e in load_manifest(root)])
        memos.entries[str(root)] = (data, entries)
    known = memos.brands.get(str(root))
    if known is None or known[0] is not entries:
        known = memos.brands[str(root)] = (
            entries,
            [Brand(slug, name, category, root / slug / "DESIGN.md") for slug, name, category in entries],
        )
    return [brand for brand in known[1] if os.path.isfile(brand.path)]


def render_brand(brand: Brand, fonts: str = "system") -> tuple[dict[str, bytes], dict[str, object]]:
    """Lint and render one brand in memory: (files by relative path, index card) (worker processes)."""
    from pinup.output import MemoryWriter

    memory = MemoryWriter()
    card = write_brand(brand, memory, fonts)
    return memory.files, card


def write_brand(brand: Brand, sink: FileSink, fonts: str = "system") -> dict[str, object]:
    """Lint and write one brand into `sink`; returns its index card.

    The page models and the card come from the site cache when this DESIGN.md was built
    before (`pinup.sitecache.cached`); pages the previous build of `sink` rendered from the
    same inputs are kept, the others rendered.
    """
    from pinup.build import read_design, write_pages
    from pinup.sitecache import cached

    data = read_design(brand.path)
    site, card = cached(data, f"gallery|{fonts}", lambda: _brand_model(brand, data, fonts), brand.path)
    write_pages(site, sink)
    return dict(card)


def _brand_model(brand: Brand, data: bytes, fonts: str) -> tuple[SiteModel, dict[str, object]]:
    """The brand's page models and its index card (what the gallery index shows)."""
    from pinup.build import lint_design
    from pinup.docsite.pages import build_site_model

    report = lint_design(brand.path, data)
    site = build_site_model(report, fonts=fonts)
    design = report.design
    card: dict[str, object] = {
        "name": design.name or brand.name,
        "description": design.description or "",
        "swatches": [c.hex[:7] for n, c in design.colors.items() if not n.endswith("-dark")][:8],
        "errors": report.summary.errors,
        "warnings": report.summary.warnings,
    }
    return site, card


def _render_all(
    todo: list[Brand], fonts: str, jobs: int
) -> Iterator[tuple[Brand, Callable[[FileSink], dict[str, object]]]]:
    """Each brand with a function writing it into a sink and returning its card.

    With jobs > 1 (0 = one per CPU) the brands are rendered in forked worker processes
    (every page, in memory); in one process straight into the sink, which can keep pages.
    """
    from functools import partial

    workers = min(len(todo), jobs if jobs > 0 else (os.cpu_count() or 1))
    if workers >= 2:  # multiprocessing costs imports a one-process build does not need
        import multiprocessing
    if workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
        for brand in todo:
            yield brand, partial(write_brand, brand, fonts=fonts)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        futures = [pool.submit(render_brand, brand, fonts) for brand in todo]
        for brand, future in zip(todo, futures, strict=False):
            files, card = future.result()
            yield brand, partial(_copy, files, card)


def _copy(files: dict[str, bytes], card: dict[str, object], sink: FileSink) -> dict[str, object]:
    """Write what a worker rendered into `sink`; returns the brand's card."""
    for rel, data in files.items():
        sink.write_bytes(rel, data)
    return card


def write_gallery(
    writer: FolderSink,
    brands: list[Brand],
    *,
    fonts: str = "system",
    progress: Callable[[str, int, int], None] | None = None,
    jobs: int = 1,
) -> list[dict[str, object]]:
    """Write every brand's site under `<slug>/` and the index page; returns the index cards.

    Brands whose DESIGN.md (and pinup itself) did not change since the last build are
    kept as they are; the others are rendered (in `jobs` worker processes if asked).
    """
    import hashlib
    import json

    from pinup.codeprint import code_fingerprint

    cards: dict[str, dict[str, object]] = {}
    fingerprints: dict[str, str] = {}
    todo: list[Brand] = []
    for brand in brands:
        fingerprints[brand.slug] = _fingerprint(brand.path, fonts, code_fingerprint())
        card = writer.sub(brand.slug).reuse("site", fingerprints[brand.slug])
        if card is None:
            todo.append(brand)
        else:
            cards[brand.slug] = card
    done = len(cards)
    for brand, write in _render_all(todo, fonts, jobs):
        sub = writer.sub(brand.slug)
        with sub.group("site", fingerprints[brand.slug]) as meta:
            meta.update(write(sub))
        cards[brand.slug] = meta
        done += 1
        if progress:
            progress(brand.slug, done, len(brands))
    cards_list = [{**cards[b.slug], "slug": b.slug, "category": b.category} for b in brands]
    # the shared assets depend only on pinup's own code, the index page on the cards too: an edit
    # of one brand's card renders the index page again and keeps the assets without looking at them
    code = code_fingerprint()
    if writer.reuse("gallery-assets", code) is None:
        from pinup.docsite.render import STATIC_ASSETS, static_asset
        from pinup.sitecache import cached

        with writer.group("gallery-assets", code):
            themes = active().gallery.index_themes
            if code not in themes:  # a rebuild with this cache: no need to load it again
                themes[code] = cached(b"", "gallery-theme", _index_theme)
            writer.write_text("assets/theme.css", themes[code])
            for name in STATIC_ASSETS:
                writer.write_bytes(f"assets/{name}", static_asset(name))
    index_key = hashlib.sha256(json.dumps(cards_list, sort_keys=True, default=str).encode())
    index_key.update(code.encode())
    if writer.reuse("gallery-index", index_key.hexdigest()) is None:
        from pinup.templating import PACKAGE_TEMPLATES, environment

        with writer.group("gallery-index", index_key.hexdigest()):
            index = environment("gallery", str(PACKAGE_TEMPLATES / "gallery")).get_template("index.html")
            writer.write_text("index.html", index.render(brands=cards_list))
    return cards_list


#: a file modified this recently may change again within the same clock tick (the kernel's
#: timestamps are coarse: an edit of the same size then leaves the stat as it was), so it is read
_RACY_NS = 2_000_000_000


def _fingerprint(path: Path, fonts: str, code: str) -> str:
    """The brand's site fingerprint, without reading its DESIGN.md again when its stat says it was
    not touched since a build with this cache last read it (a gallery rebuild reads the one that changed)."""
    from pinup.build import site_fingerprint

    where = (str(path), fonts, code)
    st = os.stat(path)
    seen = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    known_prints = active().gallery.fingerprints
    known = known_prints.get(where)
    if known is not None and known[0] == seen:
        return known[1]
    with open(path, "rb") as handle:
        data = handle.read()
    fingerprint = site_fingerprint(data, allow_html=False, fonts=fonts, templates=None)
    if time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) > _RACY_NS:
        known_prints[where] = (seen, fingerprint)
    else:
        known_prints.pop(where, None)
    return fingerprint


def _index_theme() -> str:
    """The index page's theme: pinup's default one (the same for every gallery of this pinup)."""
    from pinup.designmd.model import DesignSystem
    from pinup.theme import theme_css

    return theme_css(DesignSystem(), fonts="system")


def _count(value: object) -> int:
    """A card's error count (cards kept from the last build come back from JSON as plain objects)."""
    return value if isinstance(value, int) else 0


def build_gallery(
    out: Path,
    *,
    clean: bool = False,
    fonts: str = "system",
    root: Path | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    jobs: int = 1,
    cache: BuildCache | None = None,
) -> GalleryResult:
    """`pinup gallery`: write the gallery to `out` (incremental: unchanged brands are not re-rendered).

    `cache`: what earlier builds kept (a process that rebuilds holds one); None: the one of the build
    under way, else a new one."""
    from pinup.build import paused_gc
    from pinup.output import OutputWriter

    started = time.perf_counter()
    with using(cache), paused_gc():
        result = GalleryResult(brands=list_brands(root))
        with OutputWriter(out, clean=clean) as writer:
            cards = write_gallery(writer, result.brands, fonts=fonts, progress=progress, jobs=jobs)
    result.errors = {str(c["slug"]): _count(c.get("errors")) for c in cards}
    result.written, result.skipped = writer.written, writer.skipped
    result.seconds = time.perf_counter() - started
    return result
