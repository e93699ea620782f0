"""Evidence an agent gives when it resolves an item: a commit, a pull request, a file.

Why here: every way to resolve (the CLI, the MCP server, a hosted store) goes through
`Lifecycle.resolve`, which checks these again before anything is written, so a bad SHA or a
`javascript:` link can never reach a page that renders it. Reading and checking a file's bytes
(Pillow) is the caller's job (`pinup.evidence`); this module only knows the bytes it is handed.

The file is kept create-only in the items' log, named by its content:
`<board>/evidence/<sha256>.<ext>`, and the resolve event cites that name.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

COMMIT_RE = re.compile(r"[0-9a-fA-F]{7,40}")
#: what may be kept, by extension: the content type it is served with
TYPES = {"png": "image/png", "jpg": "image/jpeg", "html": "text/html; charset=utf-8"}
FILE_RE = re.compile(r"evidence/[0-9a-f]{64}\.(png|jpg|html)")
MAX_BYTES = 8 * 1024 * 1024
MAX_URL = 2000
#: what no URL we render may hold: whitespace and control characters (which `urlsplit` quietly
#: drops, so they would pass its check) and characters that end an attribute or a Markdown link
_NOT_IN_URL = re.compile(r'[\s\x00-\x1f\x7f"<>\\^`{|}]')


class EvidenceError(ValueError):
    """Evidence that cannot be recorded; the sentence says what is wrong with it."""


@dataclass(frozen=True, slots=True)
class EvidenceFile:
    """A checked file, ready to store."""

    data: bytes
    """Its bytes, as they will be kept."""
    ext: str
    """`png`, `jpg` or `html` (`TYPES`)."""
    name: str
    """What it was called where the agent had it, for a person reading the hand-off."""

    @property
    def file(self) -> str:
        """Its name in the items' log: named by its content, so storing it twice is harmless."""
        return f"evidence/{hashlib.sha256(self.data).hexdigest()}.{self.ext}"


@dataclass(frozen=True, slots=True)
class Evidence:
    """What a resolve cites; each part optional."""

    commit: str | None = None
    pr: str | None = None
    file: EvidenceFile | None = None


def check_commit(value: str) -> str:
    if not COMMIT_RE.fullmatch(value):
        raise EvidenceError(f"--commit {value!r} is not a commit SHA (7 to 40 hex digits)")
    return value.lower()


def check_pr(value: str) -> str:
    """An http(s) URL with a host: the only links a board or a results page will render."""
    parts = urlsplit(value)
    if len(value) > MAX_URL or _NOT_IN_URL.search(value) or parts.scheme not in ("http", "https") or not parts.hostname:
        raise EvidenceError(f"--pr {value[:200]!r} is not an http(s) URL")
    return value


def check(evidence: Evidence) -> Evidence:
    """The evidence with its commit in lower case; EvidenceError for anything it should not be."""
    commit = check_commit(evidence.commit) if evidence.commit is not None else None
    pr = check_pr(evidence.pr) if evidence.pr is not None else None
    found = evidence.file
    if found is not None:
        if found.ext not in TYPES:
            raise EvidenceError(f"evidence must be a PNG or JPEG screenshot or an HTML report, not .{found.ext}")
        if not found.data or len(found.data) > MAX_BYTES:
            raise EvidenceError(f"evidence {found.name!r} must be 1 byte to {MAX_BYTES // (1024 * 1024)} MB")
    return Evidence(commit, pr, found)


def event_fields(evidence: Evidence) -> dict[str, Any]:
    """What the resolve event records (only the parts given)."""
    fields: dict[str, Any] = {}
    if evidence.commit:
        fields["commit"] = evidence.commit
    if evidence.pr:
        fields["pr"] = evidence.pr
    if evidence.file is not None:
        fields["evidence"] = {
            "file": evidence.file.file,
            "type": TYPES[evidence.file.ext].split(";")[0],
            "name": evidence.file.name[:200],
            "bytes": len(evidence.file.data),
        }
    return fields


def latest(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The commit, PR and evidence of the item's latest resolve event (what it was closed with;
    a reopen keeps them on show, so the reviewer sees what did not convince)."""
    for event in reversed(events):
        if event.get("action") == "resolve":
            return {k: event[k] for k in ("commit", "pr", "evidence") if event.get(k)}
    return {}


def is_evidence_file(file: str) -> bool:
    return FILE_RE.fullmatch(file) is not None
