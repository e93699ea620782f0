"""Board tokens: hex(HMAC-SHA256(secret, slug)), sent by a built board as X-Pinup-Board-Token."""

from __future__ import annotations

import hashlib
import hmac

HEADER = "x-pinup-board-token"


def board_token(secret: str, board: str) -> str:
    """The token `pinup build --api-url` embeds in a board page."""
    return hmac.new(secret.encode("utf-8"), board.encode("utf-8"), hashlib.sha256).hexdigest()


def token_ok(secret: str | None, board: str, presented: str | None) -> bool:
    """True when no secret is set (development) or the presented token matches, in constant time."""
    if not secret:
        return True
    if not presented:
        return False
    return hmac.compare_digest(board_token(secret, board).encode(), presented.strip().encode())
