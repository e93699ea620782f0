"""The serve side of a workspace: is its site stale, build it (one build at a time), which boards it has.

Paths (where the workspace, its site and its store are) live in `pinup.workspace`.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

from pinup.buildcache import BuildCache
from pinup.workspace import BUILD_MANIFEST, Workspace, resolve

if TYPE_CHECKING:  # pragma: no cover
    from pinup.build import BuildResult

__all__ = ["Workspace", "board_slugs", "build", "needs_build", "resolve"]

#: the watcher, `serve --generate` and start-up build the same folder: never two at once
_BUILD_LOCK = threading.Lock()


def _newest_source(src: Path) -> float:
    newest = 0.0
    for path in src.rglob("*"):
        rel = path.relative_to(src).parts
        if any(part.startswith(".") or part == "__pycache__" for part in rel):
            continue
        if path.is_file():
            newest = max(newest, path.stat().st_mtime)
    return newest


def needs_build(ws: Workspace) -> bool:
    """True when the site is missing, older than a workspace file, or built for a hosted endpoint
    (its manifest records an `apiUrl`: local reviews must not be sent there)."""
    from pinup.output import build_info

    manifest = ws.out / BUILD_MANIFEST
    if not manifest.is_file() or not (ws.out / "boards").is_dir():
        return True
    return _newest_source(ws.src) > manifest.stat().st_mtime or bool(build_info(ws.out).get("apiUrl"))


def build(ws: Workspace, cache: BuildCache | None = None) -> BuildResult:
    """Build the workspace's site for local review (no --api-url); returns the BuildResult.

    `cache`: the one `pinup serve` holds for all its builds (start-up, watcher, `--generate`)."""
    from pinup import outwatch
    from pinup.build import build_all
    from pinup.buildoptions import BuildOptions

    outwatch.expect_rebuilds()  # the watcher builds this folder again after each edit
    with _BUILD_LOCK:
        return build_all(BuildOptions(src=ws.src, out=ws.out), cache=cache)


def board_slugs(ws: Workspace) -> list[str]:
    root = ws.out / "boards"
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / "board.json").is_file())
