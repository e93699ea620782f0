"""Which port `pinup serve` listens on: the workspace's recorded one when free, so open tabs reconnect.

A restarted server at the same address is what lets a reviewer's tab (SSE retry, then polling)
carry on by itself. When that port, or one asked for with --port, is taken, the server falls
back to a free port and says so rather than failing.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass


@dataclass(frozen=True)
class PortChoice:
    port: int  # 0: let the OS pick
    note: str | None = None  # one line for stderr when the wanted port was taken


def is_free(host: str, port: int) -> bool:
    """True when `port` can be bound on `host` now (with SO_REUSEADDR, as uvicorn binds)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def choose_port(host: str, requested: int, recorded: int | None) -> PortChoice:
    """--port N when free; with --port 0, the recorded port when free; else a free one (port 0)."""
    wanted, why = (requested, "--port") if requested else (recorded, "the port this workspace used before")
    if not wanted:
        return PortChoice(0)
    if is_free(host, wanted):
        return PortChoice(wanted)
    return PortChoice(0, f"SERVE_PORT_TAKEN: port {wanted} ({why}) is in use; using a free port instead")
