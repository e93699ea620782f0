"""Small readers of pinup's state that only tests need, kept here rather than in the packages."""

from __future__ import annotations

import re

import uvicorn

from pinup import brands, overwrites
from pinup.spec import EXAMPLE


def read_example() -> str:
    """The example DESIGN.md's text (what `pinup init` copies when no brand is given)."""
    return brands.example_design_path().read_text(encoding="utf-8")


def read_brand(slug: str) -> str:
    """A bundled brand's DESIGN.md text; UnknownBrandError for a slug that is not listed."""
    return brands.brand_design_path(slug).read_text(encoding="utf-8")


def example_sections() -> list[str]:
    """The `##` headings of the spec's example DESIGN.md, in order."""
    return re.findall(r"^## (.+)$", EXAMPLE, flags=re.M)


def overwriting(folder: str) -> bool:
    """True while a writer of this process overwrites files in `folder` (`pinup.overwrites`)."""
    return folder in overwrites._writers


def bound_port(server: uvicorn.Server) -> int:
    """The port a started uvicorn server listens on (it was asked for port 0)."""
    for listener in getattr(server, "servers", []):
        for sock in listener.sockets:
            return int(sock.getsockname()[1])
    raise AssertionError("the server has no listening socket yet")
