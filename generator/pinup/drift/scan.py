"""Find hard-coded design values in one file's text: colours, spacing, radii, font sizes and families.

Two passes, each a left-to-right walk whose patterns cannot backtrack (possessive runs, bounded
names, no nested unbounded repetition), so a file is scanned in time linear in its size, minified
or not:

- **Colours**, anywhere: every hex colour and colour function (each pattern starts with a literal,
  so the engine skips to candidates), except `#id` selectors (`#fade {`, `#fade:hover`, `#a, #b {`),
  `href="#…"` fragments, `url(#…)` and `#private` JS fields.
- **Declarations** (`prop: value` in CSS, a `style` attribute, a JS style object, styled components)
  of the properties drift reads: named colours in colour properties, the sizes of spacing, radius and
  font-size properties, the font family; and the colour property each colour above sits in.
"""

from __future__ import annotations

import re

from pinup.designmd.colors import NAMED_COLORS

#: the kind of value each drift rule compares
COLOR, SPACING, RADIUS, FONT_SIZE, FONT_FAMILY = "color", "spacing", "radius", "font-size", "font-family"

STYLESHEET_SUFFIXES = frozenset({".css", ".scss", ".sass", ".less"})
SCRIPT_SUFFIXES = frozenset({".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx", ".vue", ".svelte"})
MARKUP_SUFFIXES = frozenset({".html", ".htm"})
SUFFIXES = STYLESHEET_SUFFIXES | SCRIPT_SUFFIXES | MARKUP_SUFFIXES

#: a hex colour; its first character is a literal so the engine skips ahead to each `#`
_HEX = re.compile(r"#(?<![\w&#./$-]#)(?<!url\(#)[0-9a-fA-F]{3,8}+(?![\w-])")
#: a colour function (its arguments may hold parenthesised values: `color-mix(in srgb, red, rgb(0 0 0))`);
#: it starts with one of the names' first letters, the rest of the name is checked against FUNCTIONS
_FUNCTION = re.compile(
    r"([rhloc])(?<![\w-][rhloc])(gba?|sla?|wb|ab|ch|klab|klch|olor-mix|olor)\((?:[^()\n]++|\([^()\n]*+\))*+\)",
    re.IGNORECASE,
)
FUNCTIONS = frozenset({"rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch", "color-mix", "color"})
_HEX_LENGTHS = frozenset({4, 5, 7, 9})  # with the `#`
_COMMA_AFTER = re.compile(r"[ \t]*+,")
_BLOCK_END = re.compile(r"[{};]")
_SELECTOR_AFTER = re.compile(r"[ \t]*+[{.:\[>+~(=]")
_FRAGMENT_BEFORE = re.compile(r"(?:href|src|action|to)\s*=\s*[\"']?$", re.IGNORECASE)

#: `name:` as a declaration starts (not `::before`); the name is bounded, so a long run costs nothing
_DECLARATION = re.compile(r"(?<![\w$@-])([$@]?-{0,2}[A-Za-z_][\w-]{0,60}+)[ \t]*+:(?!:)[ \t]*+")
_STYLESHEET_VALUE = re.compile(r"[^;{}]{0,2000}+")
_SASS_VALUE = re.compile(r"[^;{}\n]{0,2000}+")  # the indented syntax ends a declaration with its line
_MARKUP_VALUE = re.compile(r"[^;{}\n<>\"'`]{0,2000}+")
_JS_NUMBER = re.compile(r"-?(?:\d++(?:\.\d++)?|\.\d++)(?=[ \t]*+[,}\n;])")
_DIMENSION = re.compile(r"(?<![\w.#$-])-?(?:\d++(?:\.\d++)?|\.\d++)(?:px|rem|em)(?![\w%-])")
_WORD = re.compile(r"(?<![\w#$@.-])[a-zA-Z]++(?![\w(-])")
_CAMEL = re.compile(r"(?<=[a-z])([A-Z])")

_SPACING_PROPS = frozenset(
    {"margin", "padding", "gap", "row-gap", "column-gap", "grid-gap", "inset"}
    | {f"{p}-{side}" for p in ("margin", "padding", "inset") for side in ("top", "right", "bottom", "left")}
    | {
        f"{p}-{axis}{end}"
        for p in ("margin", "padding")
        for axis in ("block", "inline")
        for end in ("", "-start", "-end")
    }
)
_RADIUS_PROPS = frozenset(
    {"border-radius"}
    | {f"border-{v}-{h}-radius" for v in ("top", "bottom") for h in ("left", "right")}
    | {f"border-{b}-{i}-radius" for b in ("start", "end") for i in ("start", "end")}
)
_COLOR_PROPS = frozenset(
    {"color", "background", "background-color", "fill", "stroke", "outline", "outline-color", "box-shadow"}
    | {"text-shadow", "caret-color", "accent-color", "stop-color", "flood-color", "lighting-color", "column-rule"}
    | {"text-decoration", "text-decoration-color", "column-rule-color", "border", "border-color"}
    | {
        f"border-{side}{end}"
        for side in ("top", "right", "bottom", "left", "block", "inline")
        for end in ("", "-color")
    }
)
#: property -> the kind of size it holds
_SIZE_KINDS = {
    **dict.fromkeys(_SPACING_PROPS, SPACING),
    **dict.fromkeys(_RADIUS_PROPS, RADIUS),
    "font-size": FONT_SIZE,
}
#: every property drift reads, by the name code writes it in (kebab-case or a JS style object's camelCase)
_PROPS = {
    spelled: prop
    for prop in (*_COLOR_PROPS, *_SIZE_KINDS, "font-family")
    for spelled in (prop, re.sub(r"-([a-z])", lambda m: m.group(1).upper(), prop))
}
#: named colours that are no design decision
_NOT_DRIFT_NAMES = frozenset({"transparent"})
_GENERIC_FAMILIES = frozenset(
    "serif sans-serif monospace cursive fantasy system-ui ui-serif ui-sans-serif ui-monospace ui-rounded emoji math "
    "fangsong inherit initial unset revert revert-layer -apple-system blinkmacsystemfont".split()
)


class Literal:
    """One hard-coded value: its kind, its text and where it starts and ends in the file's text."""

    __slots__ = ("kind", "text", "start", "end", "prop")

    def __init__(self, kind: str, text: str, start: int, end: int, prop: str | None) -> None:
        self.kind = kind
        self.text = text
        self.start = start
        self.end = end
        self.prop = prop

    def __repr__(self) -> str:
        return f"Literal({self.kind}, {self.text!r}, {self.start})"


def css_property(name: str) -> str:
    """A JS style key (`borderRadius`) as the CSS property it sets (`border-radius`)."""
    lower = name.lower()
    if lower == name or name.startswith("-"):
        return lower
    return _CAMEL.sub(r"-\1", name).lower()


def _code_colors(text: str, *, stylesheet: bool) -> list[Literal]:
    found: list[Literal] = []
    for match in _HEX.finditer(text):
        value, start, end = match.group(), match.start(), match.end()
        if len(value) not in _HEX_LENGTHS or _SELECTOR_AFTER.match(text, end):
            continue
        if _FRAGMENT_BEFORE.search(text, max(0, start - 12), start):
            continue
        if stylesheet and _in_selector_list(text, end):
            continue
        found.append(Literal(COLOR, value, start, end, None))
    for match in _FUNCTION.finditer(text):
        if (match.group(1) + match.group(2)).lower() in FUNCTIONS:
            found.append(Literal(COLOR, match.group(), match.start(), match.end(), None))
    return found


def _in_selector_list(text: str, end: int) -> bool:
    """`#fade, .x {`: a hex-looking id followed by a comma belongs to a selector when `{` comes before `;` or `}`."""
    if not _COMMA_AFTER.match(text, end):
        return False
    stop = _BLOCK_END.search(text, end)
    return stop is not None and stop.group() == "{"


def _family(value: str, offset: int, prop: str) -> Literal | None:
    """The first family of a font-family value, unless it is generic or not a literal name."""
    first = value.split(",", 1)[0]
    name = first.strip().strip("\"'").strip()
    if not name or name.lower() in _GENERIC_FAMILIES or any(ch in name for ch in "$@{}()#`"):
        return None
    start = offset + first.index(name)
    return Literal(FONT_FAMILY, name, start, start + len(name), prop)


def _value_literals(value: str, offset: int, prop: str) -> list[Literal]:
    found: list[Literal] = []
    if prop in _COLOR_PROPS:
        for word in _WORD.finditer(value):
            lower = word.group().lower()
            if lower in NAMED_COLORS and lower not in _NOT_DRIFT_NAMES:
                found.append(Literal(COLOR, word.group(), word.start() + offset, word.end() + offset, prop))
        return found
    kind = _SIZE_KINDS.get(prop)
    if kind is not None:
        for dim in _DIMENSION.finditer(value):
            if float(dim.group().rstrip("pxrem")) != 0:
                found.append(Literal(kind, dim.group(), dim.start() + offset, dim.end() + offset, prop))
    elif prop == "font-family":
        family = _family(value, offset, prop)
        if family is not None:
            found.append(family)
    return found


def _declarations(
    text: str, *, stylesheet: bool, script: bool, spans: list[tuple[int, int, str]], sass: bool = False
) -> list[Literal]:
    """Sizes, families and named colours of declarations; `spans` gets where each colour property's value is."""
    found: list[Literal] = []
    pos = 0
    search = _DECLARATION.search
    while (match := search(text, pos)) is not None:
        pos = match.end()
        name = match.group(1)
        prop = _PROPS.get(name) or _PROPS.get(css_property(name))
        if prop is None:  # a property drift has no token for, a selector's `a:hover`, a URL's `https:`
            continue
        quote = text[pos : pos + 1]
        if not stylesheet and quote in ("'", '"', "`"):
            close = text.find(quote, pos + 1, pos + 2002)
            if close < 0:
                continue
            found += _value_literals(text[pos + 1 : close], pos + 1, prop)
            if prop in _COLOR_PROPS:
                spans.append((pos + 1, close, prop))
            pos = close + 1
            continue
        if script and (number := _JS_NUMBER.match(text, pos)) is not None:
            kind = _SIZE_KINDS.get(prop)
            if kind is not None and float(number.group()) != 0:
                found.append(Literal(kind, number.group(), number.start(), number.end(), prop))
            pos = number.end()
            continue
        value = (_SASS_VALUE if sass else _STYLESHEET_VALUE if stylesheet else _MARKUP_VALUE).match(text, pos)
        assert value is not None  # both patterns match the empty string
        end = value.end()
        if text[end : end + 1] == "{":  # `a:hover {`, `@media (min-width: 40em) {`: not a declaration
            continue
        found += _value_literals(value.group(), pos, prop)
        if prop in _COLOR_PROPS:
            spans.append((pos, end, prop))
        pos = end
    return found


def _with_properties(colors: list[Literal], spans: list[tuple[int, int, str]]) -> list[Literal]:
    """Give each colour found in code the colour property whose value holds it (both lists in order)."""
    at = 0
    for color in colors:
        while at < len(spans) and spans[at][1] < color.end:
            at += 1
        if at < len(spans) and spans[at][0] <= color.start:
            color.prop = spans[at][2]
    return colors


def scan(text: str, suffix: str) -> list[Literal]:
    """Every hard-coded value in a file's text, in order of position (`suffix`: the file's, lowercase)."""
    stylesheet = suffix in STYLESHEET_SUFFIXES
    spans: list[tuple[int, int, str]] = []
    found = _declarations(
        text, stylesheet=stylesheet, script=suffix in SCRIPT_SUFFIXES, spans=spans, sass=suffix == ".sass"
    )
    colors = _code_colors(text, stylesheet=stylesheet)
    colors.sort(key=lambda lit: lit.start)
    found += _with_properties(colors, spans)
    found.sort(key=lambda lit: lit.start)
    return found
