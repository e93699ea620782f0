"""Finding a workspace's feedback store and a board in it, for the CLI and the MCP server alike.

Errors are ValueError with a sentence for a person; each front end turns them into its own kind
(a click error and exit code, an MCP tool error).
"""

from __future__ import annotations

from typing import Any


def open_feedback(src: str | None, store: str | None, endpoint_url: str | None = None) -> tuple[Any, Any]:
    """The workspace and its store: a folder (default <workspace>/.pinup/feedback) or s3://bucket/prefix."""
    from pinup.workspace import resolve
    from pinup_feedback.store import open_store

    is_s3 = bool(store and store.startswith("s3://"))
    try:
        ws = resolve(src, store=None if is_s3 else store, must_exist=False)
        return ws, open_store(store if is_s3 and store else ws.store, endpoint_url=endpoint_url)
    except FileNotFoundError as exc:
        raise ValueError(str(exc)) from None


def where(store: Any) -> str:
    """A store as a person would name it: its folder, or s3://bucket/prefix."""
    root = getattr(store, "root", None)
    return str(root) if root is not None else f"s3://{store.bucket}/{store.prefix}"


def choose_board(store: Any, board: str | None) -> str:
    """The named board, or the only board with feedback in the store."""
    if board:
        return board
    boards = sorted(store.boards())
    if len(boards) == 1:
        return str(boards[0])
    if not boards:
        raise ValueError(f"no feedback yet in {where(store)}")
    raise ValueError(f"the store has feedback for {', '.join(boards)}: name the board")
