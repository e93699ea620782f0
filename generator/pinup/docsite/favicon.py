"""The site's tab icon: the brand's primary colour with the initial of its name.

A site without an icon makes every browser ask the server for `/favicon.ico` on each visit,
which answers 404 (one more console error for whoever opens the developer tools). The icon is a
file of its own (`assets/favicon.svg`), so it adds no page to what a colour change rebuilds.
"""

from __future__ import annotations

from html import escape

from pinup.theme import Theme, _rgb_to_hex


def favicon_svg(theme: Theme, name: str) -> str:
    """A rounded square in the light theme's primary colour, the name's first letter (if any) on it."""
    fill, ink = _rgb_to_hex(theme.light.primary), _rgb_to_hex(theme.light.on_primary)
    letter = next((ch for ch in name if ch.isalnum()), "")
    text = (
        f'<text x="16" y="22.5" text-anchor="middle" font-family="system-ui, sans-serif" font-size="20" '
        f'font-weight="700" fill="{ink}">{escape(letter.upper())}</text>'
        if letter
        else ""
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
        f'<rect width="32" height="32" rx="7" fill="{fill}"/>{text}</svg>\n'
    )
