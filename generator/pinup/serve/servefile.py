"""serve.json: how agents find a running `pinup serve` (port, url, reload token, board).

Written atomically with mode 0600 (it holds the reload token) next to the site, never
served over HTTP (the feedback app refuses it), and removed when the server exits.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from pinup_feedback.atomicfile import replace_file


class ServeInfo(BaseModel):
    """The content of serve.json."""

    model_config = ConfigDict(extra="ignore")

    port: int
    pid: int
    url: str
    token: str
    board: str | None = None
    startedAt: str
    site: str | None = None
    store: str | None = None
    src: str | None = None

    @property
    def base_url(self) -> str:
        """http://host:port, without the board path."""
        from urllib.parse import urlsplit

        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}"


def write(path: Path, info: ServeInfo) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_file(path, info.model_dump_json(indent=2) + "\n", private=True)


def read(path: Path) -> ServeInfo | None:
    """The serve.json at path, or None when it is missing or unreadable."""
    try:
        return ServeInfo.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return None


def read_live(path: Path) -> ServeInfo | None:
    """The serve.json at path while the server that wrote it still runs (None otherwise)."""
    info = read(path)
    return info if info is not None and pid_alive(info.pid) else None


def remove(path: Path, pid: int | None = None) -> None:
    """Remove serve.json, but only ours (another server may have replaced it)."""
    current = read(path)
    if current is not None and pid is not None and current.pid != pid:
        return
    try:
        path.unlink()
    except FileNotFoundError:
        pass


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
