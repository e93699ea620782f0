"""Stable anchors and links: token ids and lint paths -> the page and fragment that show them."""

from __future__ import annotations

import re
from functools import lru_cache

_NON_ID = re.compile(r"[^a-z0-9_-]+")

#: token group -> (page slug, anchor prefix)
GROUP_PAGES: dict[str, tuple[str, str]] = {
    "colors": ("colors", "colors-"),
    "typography": ("typography", "typography-"),
    "spacing": ("layout", "spacing-"),
    "rounded": ("shapes", "rounded-"),
    "components": ("components", "component-"),
}

#: canonical section name -> page slug
SECTION_PAGES: dict[str, str] = {
    "Overview": "index",
    "Colors": "colors",
    "Typography": "typography",
    "Layout": "layout",
    "Elevation & Depth": "elevation",
    "Shapes": "shapes",
    "Components": "components",
    "Do's and Don'ts": "guidelines",
}


def slugify(text: str) -> str:
    """Lowercase id-safe text: letters, digits, `_` and `-`."""
    return _NON_ID.sub("-", text.lower()).strip("-") or "x"


@lru_cache(maxsize=4096)  # the same tokens on every build of a site (a rebuild models them again)
def token_anchor(group: str, name: str) -> str:
    """The element id of a token on its page (e.g. `colors-primary`)."""
    prefix = GROUP_PAGES.get(group, ("extras", f"{group}-"))[1]
    return prefix + slugify(name)


def lint_target(path: str | None) -> tuple[str, str]:
    """A lint finding's `path` -> (page slug, anchor) to link to; unknown paths go to the lint page."""
    if not path:
        return "lint", ""
    parts = path.split(".")
    group = parts[0]
    if group in GROUP_PAGES:
        page = GROUP_PAGES[group][0]
        if len(parts) >= 2:
            return page, token_anchor(group, parts[1])
        return page, ""
    if path in SECTION_PAGES:
        return SECTION_PAGES[path], ""
    return "lint", ""
