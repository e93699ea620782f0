"""Starting `pinup review` for the tests (a module of its own: test files import it by name)."""

from __future__ import annotations

from pathlib import Path

from serve_process import Served, copy_example, start


def start_review(tmp_path: Path, url: str, *args: str) -> Served:
    """`pinup review URL WS --no-open` on a copy of the example workspace (made on first use),
    once SERVE_STARTED is out."""
    src = tmp_path / "ws"
    if not src.is_dir():
        copy_example(src)
    site = tmp_path / "site"
    cmd = ["review", url, str(src), "--no-open", "--out", str(site), *args]
    return start(cmd, cwd=tmp_path, src=src, site=site)
