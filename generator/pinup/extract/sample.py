"""Read the computed styles of a rendered page: what `infer` works from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pinup.browser import open_page

#: How many elements are read at most: enough for any real page, bounded for a hostile one.
MAX_ELEMENTS = 5000

# Runs in the page. Reads, for each visible element, the computed values a DESIGN.md has tokens for,
# plus what tells an element's role (tag, interactive or not, heading level) and its weight (area,
# length of its own text). Colours come back as the browser serialises them (rgb()/rgba(), or the
# colour function the author used for wide-gamut colours).
_COLLECT = """
(max) => {
  const out = [];
  const interactive = new Set(["A", "BUTTON", "INPUT", "SELECT", "TEXTAREA", "SUMMARY", "LABEL"]);
  const all = document.body ? document.body.querySelectorAll("*") : [];
  const list = [document.documentElement, document.body, ...all].filter(Boolean);
  for (const el of list) {
    if (out.length >= max) break;
    const cs = getComputedStyle(el);
    if (cs.display === "none" || cs.visibility === "hidden" || parseFloat(cs.opacity) === 0) continue;
    const r = el.getBoundingClientRect();
    if (el !== document.documentElement && el !== document.body && (r.width < 1 || r.height < 1)) continue;
    let text = 0;
    for (const n of el.childNodes) if (n.nodeType === 3) text += n.textContent.trim().length;
    const role = el.getAttribute("role") || "";
    out.push({
      tag: el.tagName,
      interactive: interactive.has(el.tagName) || role === "button" || role === "link",
      area: Math.round(r.width * r.height),
      text: text,
      color: cs.color,
      background: cs.backgroundColor,
      border: parseFloat(cs.borderTopWidth) > 0 && cs.borderTopStyle !== "none" ? cs.borderTopColor : "",
      fontFamily: cs.fontFamily,
      fontSize: cs.fontSize,
      fontWeight: cs.fontWeight,
      lineHeight: cs.lineHeight,
      letterSpacing: cs.letterSpacing,
      radius: cs.borderTopLeftRadius,
      shadow: cs.boxShadow,
      spaces: [cs.paddingTop, cs.paddingRight, cs.paddingBottom, cs.paddingLeft,
               cs.marginTop, cs.marginBottom, cs.rowGap, cs.columnGap],
    });
  }
  return {title: document.title || "", elements: out};
}
"""


@dataclass(slots=True, frozen=True)
class Element:
    """One visible element's computed style (CSS text as the browser serialises it)."""

    tag: str
    interactive: bool
    area: int
    #: characters of the element's own text (not its children's)
    text: int
    color: str
    background: str
    border: str
    font_family: str
    font_size: str
    font_weight: str
    line_height: str
    letter_spacing: str
    radius: str
    shadow: str
    spaces: tuple[str, ...]


@dataclass(slots=True, frozen=True)
class PageSample:
    """What was read of one page."""

    url: str
    title: str
    elements: tuple[Element, ...]


def _element(raw: dict[str, Any]) -> Element:
    return Element(
        tag=str(raw.get("tag", "")).lower(),
        interactive=bool(raw.get("interactive")),
        area=int(raw.get("area") or 0),
        text=int(raw.get("text") or 0),
        color=str(raw.get("color") or ""),
        background=str(raw.get("background") or ""),
        border=str(raw.get("border") or ""),
        font_family=str(raw.get("fontFamily") or ""),
        font_size=str(raw.get("fontSize") or ""),
        font_weight=str(raw.get("fontWeight") or ""),
        line_height=str(raw.get("lineHeight") or ""),
        letter_spacing=str(raw.get("letterSpacing") or ""),
        radius=str(raw.get("radius") or ""),
        shadow=str(raw.get("shadow") or ""),
        spaces=tuple(str(s) for s in raw.get("spaces") or ()),
    )


def sample_page(
    url: str, *, width: int = 1440, height: int = 900, allow_hosts: tuple[str, ...] = (), timeout_s: float = 15.0
) -> PageSample:
    """Render `url` (already checked by `pinup.browser.page_address`) and read its elements."""
    with open_page(url, width=width, height=height, allow_hosts=allow_hosts, timeout_s=timeout_s) as page:
        page.wait_for_timeout(50)  # let web fonts and first-frame scripts settle their styles
        raw: dict[str, Any] = page.evaluate(_COLLECT, MAX_ELEMENTS)
    return PageSample(
        url=url, title=str(raw.get("title") or ""), elements=tuple(_element(e) for e in raw.get("elements", ()))
    )
