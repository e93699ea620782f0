"""Rounds on disk: `boards/<slug>/round-N/variants/…`, `round-N/meta.json`, board.yaml.

Why: a round is a record of what reviewers saw, so it is never overwritten. A new
round is written into a temporary folder and renamed into place in one step, and
only then does board.yaml move the current round into `history` and point
`variants` at the new files (replaced atomically, comments kept by ruamel's
round-trip mode, and checked against `pinup.boards.spec.BoardSpec` first).
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pinup.generate.client import GenerationError
from pinup_feedback.atomicfile import create_file, fsync_dir, replace_file
from pinup_feedback.records import BOARD_SLUG

SLUG = BOARD_SLUG
ROUND_DIR = re.compile(r"^round-(\d+)$")

#: One writer per board folder inside this process (serve hook and CLI share it).
_BOARD_LOCKS: dict[str, threading.Lock] = {}
_LOCKS_GUARD = threading.Lock()


def board_lock(folder: Path) -> threading.Lock:
    key = os.path.realpath(folder)
    with _LOCKS_GUARD:
        return _BOARD_LOCKS.setdefault(key, threading.Lock())


@dataclass
class BoardRef:
    """A board folder, its slug and the workspace that holds it."""

    slug: str
    folder: Path
    workspace: Path

    @property
    def board_file(self) -> Path:
        return self.folder / "board.yaml"

    @property
    def exists(self) -> bool:
        return self.board_file.is_file()


def resolve_board(board: str, src: Path | None = None) -> BoardRef:
    """BOARD is a board folder (with board.yaml) or a slug in the workspace."""
    path = Path(board)
    if (path / "board.yaml").is_file():
        folder = path.resolve()
        workspace = src or (folder.parent.parent if folder.parent.name == "boards" else folder.parent)
        return BoardRef(slug=folder.name, folder=folder, workspace=Path(workspace).resolve())
    if not SLUG.match(board):
        raise GenerationError(
            "board_not_found", f"no board at {board!r} (give a board slug or a folder with board.yaml)"
        )
    if src is None:
        from pinup.workspace import find_workspace

        found = find_workspace()
        if found is None:
            raise GenerationError(
                "workspace_missing",
                "no workspace here (a folder with a DESIGN.md, or its site_src/): run inside one or use --src DIR",
            )
        src = found
    workspace = Path(src).resolve()
    if not workspace.is_dir():
        raise GenerationError("workspace_missing", f"workspace {workspace} does not exist (use --src DIR)")
    return BoardRef(slug=board, folder=workspace / "boards" / board, workspace=workspace)


def _yaml() -> Any:
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 4096
    return yaml


def read_board(ref: BoardRef) -> dict[str, Any]:
    """board.yaml as a round-trip mapping (empty for a board that does not exist yet)."""
    if not ref.exists:
        return {}
    from ruamel.yaml.error import YAMLError

    try:
        data = _yaml().load(ref.board_file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, YAMLError) as exc:
        raise GenerationError("bad_board", f"{ref.board_file}: cannot read board.yaml ({exc})") from None
    if not isinstance(data, dict):
        raise GenerationError("bad_board", f"{ref.board_file}: board.yaml must be a mapping")
    return data


def current_variants(board: dict[str, Any]) -> list[dict[str, Any]]:
    return [dict(v) for v in board.get("variants") or [] if isinstance(v, dict)]


def used_rounds(ref: BoardRef, board: dict[str, Any]) -> set[int]:
    """Every round number taken: board.yaml's round and history, and round-N folders."""
    taken: set[int] = set()
    if board.get("variants"):
        taken.add(int(board.get("round") or 1))
    for past in board.get("history") or []:
        if isinstance(past, dict) and past.get("round"):
            taken.add(int(past["round"]))
    if ref.folder.is_dir():
        for child in ref.folder.iterdir():
            match = ROUND_DIR.match(child.name)
            if match:
                taken.add(int(match.group(1)))
    return taken


def next_round(ref: BoardRef, board: dict[str, Any]) -> int:
    taken = used_rounds(ref, board)
    return max(taken) + 1 if taken else 1


def read_variant_html(ref: BoardRef, variant: dict[str, Any]) -> str | None:
    """A current variant's HTML (None for images or a file outside the board)."""
    rel = str(variant.get("file") or "")
    if not rel.lower().endswith((".html", ".htm")):
        return None
    root = Path(os.path.realpath(ref.folder))
    target = Path(os.path.realpath(root / rel))
    if root not in target.parents or not target.is_file():
        return None
    return target.read_text(encoding="utf-8", errors="replace")


def previous_directions(ref: BoardRef, board: dict[str, Any]) -> list[str]:
    """The directions of the current round (from its meta.json), else its labels."""
    meta = ref.folder / f"round-{int(board.get('round') or 1)}" / "meta.json"
    try:
        directions = json.loads(meta.read_text(encoding="utf-8")).get("directions")
        if isinstance(directions, list) and directions:
            return [str(d) for d in directions]
    except (OSError, ValueError):
        pass
    return [
        ": ".join(p for p in (str(v.get("label") or ""), str(v.get("description") or "")) if p) or str(v.get("id"))
        for v in current_variants(board)
    ]


@dataclass
class NewVariant:
    """One generated variant before it is written."""

    id: str
    label: str
    description: str
    suffix: str
    data: bytes
    extra: dict[str, Any] = field(default_factory=dict)


def variant_id(index: int) -> str:
    """A, B, …, Z, then V27, V28 …"""
    return chr(ord("A") + index) if index < 26 else f"V{index + 1}"


def write_round(
    ref: BoardRef,
    round_number: int,
    variants: list[NewVariant],
    meta: dict[str, Any],
    *,
    title: str | None = None,
    brief: str | None = None,
    pick: str | None = None,
) -> tuple[int, Path]:
    """Write round-N atomically, then update board.yaml; returns (round, folder).

    `pick`: the variant reviewers preferred in the round this one follows, kept with it in `history`.

    Durable in that order: the round's files and folders are on disk before it takes its name,
    and its name before board.yaml names it, so a power cut never leaves a board.yaml that points
    at a round it lost.
    """
    ref.folder.mkdir(parents=True, exist_ok=True)
    with board_lock(ref.folder):
        board = read_board(ref)
        taken = used_rounds(ref, board)
        if round_number in taken:
            round_number = max(taken) + 1
        tmp = Path(tempfile.mkdtemp(prefix=f".round-{round_number}.tmp-", dir=ref.folder))
        try:
            entries = []
            (tmp / "variants").mkdir()
            for v in variants:
                rel = f"variants/{v.id.lower()}{v.suffix}"
                create_file(tmp / rel, v.data, sync=True)
                entry = {"id": v.id, "label": v.label, "file": f"round-{round_number}/{rel}"}
                if v.description:
                    entry["description"] = v.description
                entries.append(entry)
            described = [{**e, **v.extra} for e, v in zip(entries, variants, strict=True)]
            meta = {**meta, "round": round_number, "variants": described}
            create_file(tmp / "meta.json", (json.dumps(meta, indent=2, ensure_ascii=False) + "\n").encode(), sync=True)
            fsync_dir(tmp / "variants")
            fsync_dir(tmp)
            text = _updated_board_yaml(ref, board, round_number, entries, title=title, brief=brief, pick=pick)
            final = ref.folder / f"round-{round_number}"
            if final.exists():
                raise GenerationError("round_exists", f"{final} already exists; nothing was overwritten")
            os.rename(tmp, final)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        fsync_dir(ref.folder)
        replace_file(ref.board_file, text, durable=True)
    return round_number, final


def _updated_board_yaml(
    ref: BoardRef,
    board: dict[str, Any],
    round_number: int,
    entries: list[dict[str, Any]],
    *,
    title: str | None,
    brief: str | None,
    pick: str | None = None,
) -> str:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    data = board if board else CommentedMap()
    if not data.get("title"):
        data["title"] = title or ref.slug.replace("-", " ").replace("_", " ").capitalize()
    if brief and not data.get("brief"):
        data["brief"] = brief
    old = data.get("variants")
    if old:
        history = data.get("history")
        if history is None:
            history = CommentedSeq()
            data["history"] = history
        past = CommentedMap()
        past["round"] = int(data.get("round") or 1)
        past["variants"] = old
        if pick and pick in {str(v.get("id")) for v in old}:
            past["pick"] = pick
        history.append(past)
    data["round"] = round_number
    seq = CommentedSeq()
    for entry in entries:
        item = CommentedMap()
        for key, value in entry.items():
            item[key] = value
        seq.append(item)
    data["variants"] = seq
    buf = io.StringIO()
    _yaml().dump(data, buf)
    text = buf.getvalue()
    _check_spec(ref, text)
    return text


def _check_spec(ref: BoardRef, text: str) -> None:
    """Refuse to write a board.yaml the board builder would reject."""
    from pinup.boards.spec import BoardError, parse_board_yaml

    try:
        parse_board_yaml(ref.board_file, text)
    except BoardError as exc:
        raise GenerationError("bad_board", f"the updated board.yaml would be invalid: {exc}") from None
