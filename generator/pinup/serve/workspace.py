"""Where `pinup serve` and `pinup wait` find the workspace, the built site and the store.

With no arguments the bundled example is used: `./site_src` when it holds a DESIGN.md
(a checkout of pinup), else a copy of the example packaged with pinup made once in
`./pinup-example/` (site-packages is read-only, and feedback must land somewhere the
user can see it).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pinup

EXAMPLE_COPY = "pinup-example"
BUILD_MANIFEST = ".pinup-build.json"


@dataclass(frozen=True)
class Workspace:
    """A workspace (DESIGN.md + boards), its built site, and its feedback store."""

    src: Path
    out: Path
    store: Path

    @property
    def serve_json(self) -> Path:
        return self.out / "serve.json"


def bundled_example() -> Path | None:
    """The example workspace shipped with pinup (wheel: pinup/_data/site_src; checkout: ./site_src)."""
    package = Path(pinup.__file__).resolve().parent
    for candidate in (package / "_data" / "site_src", package.parent.parent / "site_src"):
        if (candidate / "DESIGN.md").is_file():
            return candidate
    return None


def default_src(cwd: Path | None = None, *, create_example: bool = True) -> Path:
    """./site_src, or a copy of the bundled example in ./pinup-example/site_src (made once).

    Read-only commands (`wait`, `feedback`) pass create_example=False: they never copy anything.
    """
    cwd = cwd or Path.cwd()
    local = cwd / "site_src"
    if (local / "DESIGN.md").is_file():
        return local
    copy = cwd / EXAMPLE_COPY / "site_src"
    if (copy / "DESIGN.md").is_file() or not create_example:
        return copy if copy.is_dir() else local
    example = bundled_example()
    if example is None:
        raise FileNotFoundError("no ./site_src/DESIGN.md and no bundled example: pass a workspace folder")
    shutil.copytree(example, copy, ignore=shutil.ignore_patterns(".pinup", "__pycache__"))
    return copy


def resolve(src: str | Path | None, out: str | Path | None = None, store: str | Path | None = None, *,
            must_exist: bool = True) -> Workspace:
    """The workspace for SRC (or the default), its site (default: a `site/` folder beside it)."""
    src_path = Path(src) if src else default_src(create_example=must_exist)
    src_path = src_path.resolve()
    if must_exist and not src_path.is_dir():
        raise FileNotFoundError(f"workspace {src_path} is not a folder")
    out_path = Path(out).resolve() if out else src_path.parent / "site"
    store_path = Path(store).resolve() if store else src_path / ".pinup" / "feedback"
    return Workspace(src=src_path, out=out_path, store=store_path)


def _newest_source(src: Path) -> float:
    newest = 0.0
    for path in src.rglob("*"):
        rel = path.relative_to(src).parts
        if any(part.startswith(".") or part == "__pycache__" for part in rel):
            continue
        if path.is_file():
            newest = max(newest, path.stat().st_mtime)
    return newest


def _posts_elsewhere(ws: Workspace) -> bool:
    """True when a built board embeds an API URL (built with --api-url for hosting): serve must rebuild
    it, or local reviews would be sent to the hosted endpoint."""
    import json
    import re

    pattern = re.compile(r'<script type="application/json" id="board-config">(.*?)</script>', re.S)
    for page in (ws.out / "boards").glob("*/index.html"):
        match = pattern.search(page.read_text(encoding="utf-8", errors="replace"))
        try:
            if match and json.loads(match.group(1)).get("apiUrl"):
                return True
        except ValueError:
            return True
    return False


def needs_build(ws: Workspace) -> bool:
    """True when the site is missing, older than a workspace file, or built for a hosted endpoint."""
    manifest = ws.out / BUILD_MANIFEST
    if not manifest.is_file() or not (ws.out / "boards").is_dir():
        return True
    return _newest_source(ws.src) > manifest.stat().st_mtime or _posts_elsewhere(ws)


def build(ws: Workspace) -> None:
    """Build the whole site through pinup.build (boards only while that module is missing)."""
    try:
        from pinup.build import BuildOptions, build_all
    except ImportError:
        _build_boards_only(ws)
        return
    build_all(BuildOptions(src=ws.src, out=ws.out, store=str(ws.store)))


def _build_boards_only(ws: Workspace) -> None:
    from pinup.boards.build import build_boards
    from pinup.output import OutputWriter

    try:
        from pinup.designmd.lint import lint_path

        design = lint_path(ws.src / "DESIGN.md").design
    except ImportError:
        from pinup.designmd.model import DesignSystem

        design = DesignSystem()

    class _Options:
        inline = False
        api_url = None
        templates = None

    with OutputWriter(ws.out) as writer:
        build_boards(ws.src, ws.out, design, _Options(), writer)


def board_slugs(ws: Workspace) -> list[str]:
    root = ws.out / "boards"
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / "board.json").is_file())
