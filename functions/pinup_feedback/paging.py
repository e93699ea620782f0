"""How listings page: one default page size and one reading of `since`, for every reader.

Why here: `pinup feedback items|list` and the MCP `list_items` tool must page the same way (the
same default, the same times compared), and the MCP server may not import the command line.
"""

from __future__ import annotations

from datetime import UTC, datetime

#: a listing's default page: the newest this many
PAGE = 50


def since_time(value: str) -> str:
    """An ISO date or time (UTC unless it says otherwise) as the store writes times, so it compares
    with the index's `receivedAt` as text; a ValueError says what was expected."""
    from .store.base import iso_ts

    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{value!r} is not an ISO date or time, such as 2026-12-05 or 2026-12-05T14:00") from None
    return iso_ts(when if when.tzinfo is not None else when.replace(tzinfo=UTC))
