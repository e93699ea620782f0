"""A response cache keyed by a hash of the request.

Why: a run that fails on variant 3 has already paid for variants 1 and 2; the
retried run finds them here and pays nothing twice. It lives under
`<workspace>/.pinup/cache/` (not served, gitignored) and holds no keys.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pinup_feedback.atomicfile import replace_file


def request_key(payload: dict[str, Any]) -> str:
    """A stable sha256 of the request (canonical JSON; never includes the key)."""
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class ResponseCache:
    """One JSON file per request hash; writes are atomic."""

    def __init__(self, root: Path, *, enabled: bool = True) -> None:
        self.root = root
        self.enabled = enabled

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        if not self.enabled:
            return None
        path = self._path(key)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def put(self, key: str, value: dict[str, Any]) -> None:
        if not self.enabled:
            return
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_file(path, json.dumps(value))
