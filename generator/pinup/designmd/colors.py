"""CSS colour parsing and WCAG contrast, with the reference's exact arithmetic.

Every form the DESIGN.md spec lists (hex, named colours, rgb/hsl/hwb, lab/lch,
oklab/oklch, `color-mix(in srgb, …)`) becomes 8-bit sRGB the way the reference
computes it, JavaScript rounding and `parseFloat` leniency included, so lint
messages and exports match byte for byte.

Public API: `parse_css_color(value) -> CssColor | None`, `contrast_ratio(a, b)`,
`to_oklch(c)`. It imports nothing of the model: the model's `Color` is made from a
`CssColor` by `pinup.designmd.model.parse_color`.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

MAX_COLOR_MIX_DEPTH = 32

#: the reference's table: the CSS named colours, `transparent`, and its bogus `lightslate`.
NAMED_COLORS: dict[str, str] = {
    "aliceblue": "#f0f8ff",
    "antiquewhite": "#faebd7",
    "aqua": "#00ffff",
    "aquamarine": "#7fffd4",
    "azure": "#f0ffff",
    "beige": "#f5f5dc",
    "bisque": "#ffe4c4",
    "black": "#000000",
    "blanchedalmond": "#ffebcd",
    "blue": "#0000ff",
    "blueviolet": "#8a2be2",
    "brown": "#a52a2a",
    "burlywood": "#deb887",
    "cadetblue": "#5f9ea0",
    "chartreuse": "#7fff00",
    "chocolate": "#d2691e",
    "coral": "#ff7f50",
    "cornflowerblue": "#6495ed",
    "cornsilk": "#fff8dc",
    "crimson": "#dc143c",
    "cyan": "#00ffff",
    "darkblue": "#00008b",
    "darkcyan": "#008b8b",
    "darkgoldenrod": "#b8860b",
    "darkgray": "#a9a9a9",
    "darkgrey": "#a9a9a9",
    "darkgreen": "#006400",
    "darkkhaki": "#bdb76b",
    "darkmagenta": "#8b008b",
    "darkolivegreen": "#556b2f",
    "darkorange": "#ff8c00",
    "darkorchid": "#9932cc",
    "darkred": "#8b0000",
    "darksalmon": "#e9967a",
    "darkseagreen": "#8fbc8f",
    "darkslateblue": "#483d8b",
    "darkslategrey": "#2f4f4f",
    "darkslategray": "#2f4f4f",
    "darkturquoise": "#00ced1",
    "darkviolet": "#9400d3",
    "deeppink": "#ff1493",
    "deepskyblue": "#00bfff",
    "dimgray": "#696969",
    "dimgrey": "#696969",
    "dodgerblue": "#1e90ff",
    "firebrick": "#b22222",
    "floralwhite": "#fffaf0",
    "forestgreen": "#228b22",
    "fuchsia": "#ff00ff",
    "gainsboro": "#dcdcdc",
    "ghostwhite": "#f8f8ff",
    "gold": "#ffd700",
    "goldenrod": "#daa520",
    "gray": "#808080",
    "grey": "#808080",
    "green": "#008000",
    "greenyellow": "#adff2f",
    "honeydew": "#f0fff0",
    "hotpink": "#ff69b4",
    "indianred": "#cd5c5c",
    "indigo": "#4b0082",
    "ivory": "#fffff0",
    "khaki": "#f0e68c",
    "lavender": "#e6e6fa",
    "lavenderblush": "#fff0f5",
    "lawngreen": "#7cfc00",
    "lemonchiffon": "#fffacd",
    "lightblue": "#add8e6",
    "lightcoral": "#f08080",
    "lightcyan": "#e0ffff",
    "lightgoldenrodyellow": "#fafad2",
    "lightgray": "#d3d3d3",
    "lightgrey": "#d3d3d3",
    "lightgreen": "#90ee90",
    "lightpink": "#ffb6c1",
    "lightsalmon": "#ffa07a",
    "lightseagreen": "#20b2aa",
    "lightskyblue": "#87cefa",
    "lightslate": "#778899",
    "lightslategray": "#778899",
    "lightslategrey": "#778899",
    "lightsteelblue": "#b0c4de",
    "lightyellow": "#ffffe0",
    "lime": "#00ff00",
    "limegreen": "#32cd32",
    "linen": "#faf0e6",
    "magenta": "#ff00ff",
    "maroon": "#800000",
    "mediumaquamarine": "#66cdaa",
    "mediumblue": "#0000cd",
    "mediumorchid": "#ba55d3",
    "mediumpurple": "#9370db",
    "mediumseagreen": "#3cb371",
    "mediumslateblue": "#7b68ee",
    "mediumspringgreen": "#00fa9a",
    "mediumturquoise": "#48d1cc",
    "mediumvioletred": "#c71585",
    "midnightblue": "#191970",
    "mintcream": "#f5fffa",
    "mistyrose": "#ffe4e1",
    "moccasin": "#ffe4b5",
    "navajowhite": "#ffdead",
    "navy": "#000080",
    "oldlace": "#fdf5e6",
    "olive": "#808000",
    "olivedrab": "#6b8e23",
    "orange": "#ffa500",
    "orangered": "#ff4500",
    "orchid": "#da70d6",
    "palegoldenrod": "#eee8aa",
    "palegreen": "#98fb98",
    "paleturquoise": "#afeeee",
    "palevioletred": "#db7093",
    "papayawhip": "#ffefd5",
    "peachpuff": "#ffdab9",
    "peru": "#cd853f",
    "pink": "#ffc0cb",
    "plum": "#dda0dd",
    "powderblue": "#b0e0e6",
    "purple": "#800080",
    "rebeccapurple": "#663399",
    "red": "#ff0000",
    "rosybrown": "#bc8f8f",
    "royalblue": "#4169e1",
    "saddlebrown": "#8b4513",
    "salmon": "#fa8072",
    "sandybrown": "#f4a460",
    "seagreen": "#2e8b57",
    "seashell": "#fff5ee",
    "sienna": "#a0522d",
    "silver": "#c0c0c0",
    "skyblue": "#87ceeb",
    "slateblue": "#6a5acd",
    "slategray": "#708090",
    "slategrey": "#708090",
    "snow": "#fffafa",
    "springgreen": "#00ff7f",
    "steelblue": "#4682b4",
    "tan": "#d2b48c",
    "teal": "#008080",
    "thistle": "#d8bfd8",
    "tomato": "#ff6347",
    "turquoise": "#40e0d0",
    "violet": "#ee82ee",
    "wheat": "#f5deb3",
    "white": "#ffffff",
    "whitesmoke": "#f5f5f5",
    "yellow": "#ffff00",
    "yellowgreen": "#9acd32",
    "transparent": "#00000000",
}


class CssColor:
    """A parsed colour: 8-bit channels, optional alpha, hex and WCAG luminance."""

    __slots__ = ("hex", "r", "g", "b", "a", "luminance", "raw")
    type = "color"

    def __init__(self, r: int, g: int, b: int, a: float | None) -> None:
        self.r, self.g, self.b, self.a = r, g, b, a
        text = f"#{_hex2(r)}{_hex2(g)}{_hex2(b)}"
        if a is not None and a < 1:
            text += _hex2(js_round(a * 255))
        self.hex = text
        self.luminance = luminance(r, g, b)
        self.raw: str | None = None

    def __repr__(self) -> str:
        return f"CssColor({self.hex})"

    def copy(self) -> CssColor:
        """The same colour without its `raw` (without working out the hex and luminance again)."""
        made = object.__new__(CssColor)
        made.hex, made.r, made.g, made.b, made.a, made.luminance = (
            self.hex,
            self.r,
            self.g,
            self.b,
            self.a,
            self.luminance,
        )
        made.raw = None
        return made

    def model_dict(self) -> dict[str, Any]:
        """The reference's model value (what `diff` compares): `a` only when defined."""
        out: dict[str, Any] = {"type": "color", "hex": self.hex, "r": self.r, "g": self.g, "b": self.b}
        if self.a is not None:
            out["a"] = self.a
        out["luminance"] = self.luminance
        return out


def _hex2(value: int) -> str:
    """JS `n.toString(16).padStart(2, "0")` (negative numbers keep their sign)."""
    text = "-" + format(-value, "x") if value < 0 else format(value, "x")
    return text.rjust(2, "0")


def js_round(x: float) -> int:
    """JavaScript `Math.round`: halves go toward +infinity; ±Infinity and NaN clamp like JS's do."""
    if not math.isfinite(x):
        return 0 if math.isnan(x) else (2**31 if x > 0 else -(2**31))
    return math.floor(x + 0.5)


def _clamp255(x: int) -> int:
    return max(0, min(255, x))


@lru_cache(maxsize=4096)  # a site's pages compare the same few colours hundreds of times
def luminance(r: int, g: int, b: int) -> float:
    """WCAG 2.0 relative luminance (old 0.03928 threshold), from 8-bit channels."""

    def lin(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def contrast_of(la: float, lb: float) -> float:
    """WCAG 2 contrast ratio of two relative luminances (the one formula every part of pinup uses)."""
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


def rgb_luminance(rgb: tuple[int, int, int]) -> float:
    """`luminance` of an (r, g, b) tuple of 8-bit channels."""
    return luminance(*rgb)


def rgb_contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG 2 contrast ratio between two opaque (r, g, b) colours."""
    return contrast_of(luminance(*a), luminance(*b))


_JS_FLOAT = re.compile(r"[+-]?(?:Infinity|[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?)")
_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"


def js_parse_float(text: str) -> float:
    """JavaScript `parseFloat`: the longest numeric prefix, NaN when there is none."""
    match = _JS_FLOAT.match(text.lstrip(_JS_SPACE))
    if not match:
        return math.nan
    token = match.group(0)
    if token.endswith("Infinity"):
        return -math.inf if token.startswith("-") else math.inf
    return float(token)


def _pct(text: str, ref: float) -> float:
    text = text.strip(_JS_SPACE)
    if text.endswith("%"):
        return js_parse_float(text[:-1]) / 100 * ref
    return js_parse_float(text)


def _alpha(text: str | None) -> float:
    if text is None:
        return 1.0
    text = text.strip(_JS_SPACE)
    if text.endswith("%"):
        return js_parse_float(text[:-1]) / 100
    return js_parse_float(text)


def _hue(text: str) -> float:
    lower = text.strip(_JS_SPACE).lower()
    if lower.endswith("deg"):
        val = js_parse_float(lower[:-3])
    elif lower.endswith("grad"):
        val = js_parse_float(lower[:-4]) * 360 / 400
    elif lower.endswith("rad"):
        val = js_parse_float(lower[:-3]) * 180 / math.pi
    elif lower.endswith("turn"):
        val = js_parse_float(lower[:-4]) * 360
    else:
        val = js_parse_float(lower)
    if math.isnan(val) or math.isinf(val):
        return math.nan
    val = math.fmod(val, 360)
    if val < 0:
        val += 360
    return val


_FUNC = re.compile(r"^([a-z-]{3,15})\((.*)\)\Z", re.IGNORECASE)
_JS_WS_CHARS = set(_JS_SPACE)


def _split_top_level(text: str, *, on_space: bool) -> list[str]:
    """Split on top-level commas (and whitespace when `on_space`), ignoring nested parentheses.

    With `on_space` empty items are dropped; comma-only lists keep them (bar a trailing one),
    so a caller counting items sees `a,,b` as three.
    """
    results: list[str] = []
    current = ""
    depth = 0
    for char in text:
        if char == "(":
            depth += 1
            current += char
        elif char == ")":
            depth -= 1
            current += char
        elif depth == 0 and (char == "," or (on_space and char in _JS_WS_CHARS)):
            piece = current.strip(_JS_SPACE)
            if piece or not on_space:
                results.append(piece)
                current = ""
        else:
            current += char
    if current.strip(_JS_SPACE):
        results.append(current.strip(_JS_SPACE))
    return results


def _tokenize(text: str) -> tuple[str, list[str]] | None:
    match = _FUNC.match(text.strip(_JS_SPACE))
    if not match:
        return None
    name = match.group(1).lower()
    inner = match.group(2).strip(_JS_SPACE)
    coords, alpha = inner, None
    depth = 0
    for index, char in enumerate(inner):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif depth == 0 and char == "/":
            coords = inner[:index].strip(_JS_SPACE)
            alpha = inner[index + 1 :].strip(_JS_SPACE)
            break
    args = _split_top_level(coords, on_space=True)
    if alpha is not None:
        args.append(alpha)
    return name, args


def _hsl_to_rgb(h: float, s: float, l: float) -> tuple[int, int, int]:
    c = (1 - abs(2 * l - 1)) * s
    x = c * (1 - abs(math.fmod(h / 60, 2) - 1))
    m = l - c / 2
    if h < 60:
        r_, g_, b_ = c, x, 0.0
    elif h < 120:
        r_, g_, b_ = x, c, 0.0
    elif h < 180:
        r_, g_, b_ = 0.0, c, x
    elif h < 240:
        r_, g_, b_ = 0.0, x, c
    elif h < 300:
        r_, g_, b_ = x, 0.0, c
    else:
        r_, g_, b_ = c, 0.0, x
    return (
        _clamp255(js_round((r_ + m) * 255)),
        _clamp255(js_round((g_ + m) * 255)),
        _clamp255(js_round((b_ + m) * 255)),
    )


def _hwb_to_rgb(h: float, w: float, b: float) -> tuple[int, int, int]:
    if w + b >= 1:
        val = _clamp255(js_round(w / (w + b) * 255))
        return val, val, val
    pr, pg, pb = _hsl_to_rgb(h, 1, 0.5)
    red, green, blue = (_clamp255(js_round(c / 255 * (1 - w - b) * 255 + w * 255)) for c in (pr, pg, pb))
    return red, green, blue


def _gamma(val: float) -> float:
    if val <= 0.0031308:
        return 12.92 * val
    return 1.055 * math.pow(val, 1 / 2.4) - 0.055


def _to8(val: float) -> int:
    g = _gamma(val) if not math.isnan(val) else math.nan
    if math.isnan(g):
        return 0
    return _clamp255(js_round(g * 255))


def _lab_to_rgb(l: float, a: float, b: float) -> tuple[int, int, int]:
    fy = (l + 16) / 116
    fx = a / 500 + fy
    fz = fy - b / 200
    e = 216 / 24389
    k = 24389 / 27
    fx3 = fx * fx * fx
    fz3 = fz * fz * fz
    xr = fx3 if fx3 > e else (116 * fx - 16) / k
    yr = fy * fy * fy if l > k * e else l / k
    zr = fz3 if fz3 > e else (116 * fz - 16) / k
    x = xr * 0.96422
    y = yr * 1
    z = zr * 0.82521
    x65 = 0.9555726312052288 * x - 0.02303316850884054 * y + 0.06316100215997245 * z
    y65 = -0.02828971739420664 * x + 1.0099416310812543 * y + 0.021007716449297165 * z
    z65 = 0.012298224741016325 * x - 0.02048298287477757 * y + 1.3299098463422234 * z
    r_lin = 3.2404542 * x65 - 1.5371385 * y65 - 0.4985314 * z65
    g_lin = -0.969266 * x65 + 1.8760108 * y65 + 0.041556 * z65
    b_lin = 0.0556434 * x65 - 0.2040259 * y65 + 1.0572252 * z65
    return _to8(r_lin), _to8(g_lin), _to8(b_lin)


def _oklab_to_rgb(l: float, a: float, b: float) -> tuple[int, int, int]:
    l_ = l + 0.3963377774 * a + 0.2158037573 * b
    m_ = l - 0.1055613458 * a - 0.0638541728 * b
    s_ = l - 0.0894841775 * a - 1.291485548 * b
    l3, m3, s3 = l_ * l_ * l_, m_ * m_ * m_, s_ * s_ * s_
    r_lin = 4.0767416621 * l3 - 3.3077115913 * m3 + 0.2309699292 * s3
    g_lin = -1.2684380046 * l3 + 2.6097574011 * m3 - 0.3413193965 * s3
    b_lin = -0.0041960863 * l3 - 0.7034186147 * m3 + 1.707614701 * s3
    return _to8(r_lin), _to8(g_lin), _to8(b_lin)


def _polar(c: float, h: float) -> tuple[float, float]:
    rad = h * math.pi / 180
    return c * math.cos(rad), c * math.sin(rad)


def _from_hex(text: str) -> CssColor:
    known = _HEXES.get(text)
    if known is None:
        full = text
        if len(text) == 4 or len(text) == 5:
            full = "#" + "".join(ch * 2 for ch in text[1:])
        a = int(full[7:9], 16) / 255 if len(full) == 9 else None
        known = CssColor(int(full[1:3], 16), int(full[3:5], 16), int(full[5:7], 16), a)
        if len(_HEXES) < 4096:
            _HEXES[text] = known
    return known.copy()  # the caller sets its `raw`


#: each hex colour parsed so far, as a template (a file's colours recur in every lint of it)
_HEXES: dict[str, CssColor] = {}


_HEX = re.compile(r"^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})\Z")


def _any_nan(*values: float) -> bool:
    return any(math.isnan(v) for v in values)


def parse_css_color(value: Any, depth: int = 0) -> CssColor | None:
    """Parse a CSS colour exactly as the reference does; None when it is not one."""
    if not isinstance(value, str) or depth > MAX_COLOR_MIX_DEPTH:
        return None
    clean = value.strip(_JS_SPACE).lower()
    if not clean:
        return None
    if clean.startswith("#"):
        return _from_hex(clean) if _HEX.match(clean) else None
    named = NAMED_COLORS.get(clean)
    if named is not None:
        return _from_hex(named)
    parsed = _tokenize(clean)
    if parsed is None:
        return None
    name, args = parsed
    if name == "color-mix":
        return _color_mix(clean, depth)
    if name not in _FUNCS or len(args) not in (3, 4):
        return None
    alpha = _alpha(args[3]) if len(args) == 4 else 1.0
    if name in ("rgb", "rgba"):
        r, g, b = (_pct(x, 255) for x in args[:3])
        if _any_nan(r, g, b, alpha):
            return None
        return CssColor(
            _clamp255(_round_inf(r)), _clamp255(_round_inf(g)), _clamp255(_round_inf(b)), max(0.0, min(1.0, alpha))
        )
    if name in ("hsl", "hsla", "hwb"):
        h, s, l = _hue(args[0]), _pct(args[1], 1), _pct(args[2], 1)
        if _any_nan(h, s, l, alpha):
            return None
        try:
            rgb = _hsl_to_rgb(h, s, l) if name != "hwb" else _hwb_to_rgb(h, s, l)
        except (OverflowError, ValueError, ZeroDivisionError):
            return None
        return CssColor(*rgb, alpha)
    if name in ("lab", "lch", "oklab", "oklch"):
        ref = 100 if name in ("lab", "lch") else 1
        l = _pct(args[0], ref)
        c1 = js_parse_float(args[1])
        c2 = _hue(args[2]) if name.endswith("ch") else js_parse_float(args[2])
        if _any_nan(l, c1, c2, alpha):
            return None
        a_, b_ = _polar(c1, c2) if name.endswith("ch") else (c1, c2)
        try:
            rgb = _lab_to_rgb(l, a_, b_) if name in ("lab", "lch") else _oklab_to_rgb(l, a_, b_)
        except (OverflowError, ValueError, ZeroDivisionError):
            return None
        return CssColor(*rgb, alpha)
    return None


_FUNCS = {"rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch"}


def _round_inf(x: float) -> int:
    if math.isinf(x):
        return 255 if x > 0 else 0
    return js_round(x)


def _with_weight(part: str) -> tuple[str, float | None] | None:
    pieces = _split_top_level(part.strip(_JS_SPACE), on_space=True)
    if not pieces or len(pieces) > 2:
        return None
    if len(pieces) == 1:
        return pieces[0], None
    p0, p1 = pieces
    if p0.endswith("%") and not p1.endswith("%"):
        return p1, js_parse_float(p0[:-1])
    if p1.endswith("%") and not p0.endswith("%"):
        return p0, js_parse_float(p1[:-1])
    return None


def _color_mix(clean: str, depth: int) -> CssColor | None:
    parts = _split_top_level(clean[10:-1], on_space=False)
    if len(parts) != 3:
        return None
    space = parts[0].strip(_JS_SPACE).split()
    if space != ["in", "srgb"]:
        return None
    p1, p2 = _with_weight(parts[1]), _with_weight(parts[2])
    if p1 is None or p2 is None:
        return None
    c1, c2 = parse_css_color(p1[0], depth + 1), parse_css_color(p2[0], depth + 1)
    if c1 is None or c2 is None:
        return None
    given1, given2 = p1[1], p2[1]
    if given1 is None and given2 is None:
        w1, w2 = 50.0, 50.0
    elif given2 is None:
        assert given1 is not None  # the first branch took both missing
        w1, w2 = given1, 100 - given1
    elif given1 is None:
        w1, w2 = 100 - given2, given2
    else:
        total = given1 + given2
        if total == 0:
            return None
        w1, w2 = given1 / total * 100, given2 / total * 100
    f1, f2 = w1 / 100, w2 / 100
    a1 = c1.a if c1.a is not None else 1.0
    a2 = c2.a if c2.a is not None else 1.0
    mix = a1 * f1 + a2 * f2
    if math.isnan(mix):
        return None
    r = g = b = 0
    if mix > 0:
        r = js_round((c1.r * a1 * f1 + c2.r * a2 * f2) / mix)
        g = js_round((c1.g * a1 * f1 + c2.g * a2 * f2) / mix)
        b = js_round((c1.b * a1 * f1 + c2.b * a2 * f2) / mix)
    return CssColor(_clamp255(r), _clamp255(g), _clamp255(b), max(0.0, min(1.0, mix)))


def ratio(a: Any, b: Any) -> float:
    """WCAG contrast ratio of two objects with a `luminance` (alpha ignored, as the reference)."""
    return contrast_of(a.luminance, b.luminance)


def contrast_ratio(a: Any, b: Any) -> float:
    """WCAG 2 contrast ratio between two colours (`Color` or `CssColor`), alpha ignored."""
    return ratio(a, b)


def to_oklch(c: Any) -> tuple[float, float, float]:
    """OKLCH (L 0–1, C, H degrees 0–360) of a colour's 8-bit sRGB channels."""
    return _oklch(c.r, c.g, c.b)


@lru_cache(maxsize=4096)  # a site's colours recur in every build of it
def _oklch(red: int, green: int, blue: int) -> tuple[float, float, float]:
    def lin(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = lin(red), lin(green), lin(blue)
    l_ = 0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b
    m_ = 0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b
    s_ = 0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b
    l_, m_, s_ = (math.copysign(abs(v) ** (1 / 3), v) for v in (l_, m_, s_))
    big_l = 0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_
    a = 1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_
    bb = 0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_
    chroma = math.hypot(a, bb)
    hue = math.degrees(math.atan2(bb, a)) % 360 if chroma > 1e-7 else 0.0
    return big_l, chroma, hue
