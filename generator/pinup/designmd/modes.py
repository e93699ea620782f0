"""Light/dark (and other) modes of a DESIGN.md, an opt-in extension of the format.

Two spellings are understood, only when a caller asks for modes (`pinup lint
--extended`, `pinup export --modes`, the site and boards):

* `<name>-dark` siblings (`surface` and `surface-dark`), the common convention:
  the sibling's value is `surface`'s value in the `dark` mode; the sibling stays
  a token of its own.
* per-token mode objects, as proposed upstream (google-labs-code/design.md
  PR #128): `surface: {light: "#fff", dark: "#111"}` under colors, rounded or
  spacing, with the modes declared in a top-level `themes: [light, dark]` (and
  optionally `default-theme: light`). Without `themes`, a mapping whose keys are
  only `light`/`dark` is read the same way, with `light` as the default.

The default mode's value is the token's value (what every reference rule and
export sees); the other modes' values are resolved here, per mode, following
references (an alias of a token with a dark value has that dark value too).
Values that are not valid are left for the `mode-value` rule to report.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pinup.designmd.colors import CssColor, parse_css_color
from pinup.designmd.dimensions import Dim, is_reference, parse_dimension
from pinup.designmd.sections import MAX_REFERENCE_DEPTH

if TYPE_CHECKING:
    from typing import Any

IMPLICIT_THEMES = ("light", "dark")
MODE_GROUPS = ("colors", "rounded", "spacing")
DARK_SUFFIX = "-dark"


class ModeSpec:
    """The modes a document declares (or the implicit light/dark pair) and its default mode.

    This and the two classes below are plain classes, not dataclasses: importing dataclasses
    costs `pinup lint` start-up time.
    """

    __slots__ = ("themes", "default", "declared")

    def __init__(self, themes: list[str], default: str, declared: bool) -> None:
        self.themes = themes
        self.default = default
        self.declared = declared


class ModeEntry:
    """One token's value in one non-default mode, as written, with its source line."""

    __slots__ = ("raw", "line", "source")

    def __init__(self, raw: Any, line: int | None, source: str) -> None:
        self.raw = raw
        self.line = line
        self.source = source  # "object" (a {light, dark} value) or "sibling" (a `-dark` token)


class ModeState:
    """Everything the model keeps about modes (empty when modes were not asked for)."""

    __slots__ = ("spec", "raw", "problems", "values", "siblings")

    def __init__(self) -> None:
        self.spec: ModeSpec | None = None
        # 'colors.surface' -> mode -> value as written (non-default modes only)
        self.raw: dict[str, dict[str, ModeEntry]] = {}
        # problems found while reading mode objects: (path, message, line)
        self.problems: list[tuple[str, str, int | None]] = []
        # mode -> 'colors.surface' -> resolved CssColor | Dim (non-default modes only)
        self.values: dict[str, dict[str, Any]] = {}
        # 'colors.surface-dark' -> 'colors.surface'
        self.siblings: dict[str, str] = {}


def mode_spec(data: dict[str, Any]) -> ModeSpec:
    """`themes` / `default-theme` from the front matter, else the implicit light/dark pair."""
    themes_raw = data.get("themes")
    themes: list[str] = []
    if isinstance(themes_raw, list):
        for item in themes_raw:
            if isinstance(item, str) and item.strip() and item.strip() not in themes:
                themes.append(item.strip())
    if not themes:
        return ModeSpec(list(IMPLICIT_THEMES), "light", False)
    wanted = data.get("default-theme")
    default = wanted.strip() if isinstance(wanted, str) and wanted.strip() in themes else themes[0]
    return ModeSpec(themes, default, True)


def is_mode_object(value: Any, spec: ModeSpec) -> bool:
    """A mapping that holds one value per mode rather than a group of tokens."""
    if not isinstance(value, dict) or not value:
        return False
    keys = [str(k) for k in value]
    if spec.declared:
        return any(k in spec.themes for k in keys)
    return all(k in IMPLICIT_THEMES for k in keys)


def _parse(group: str, raw: Any) -> CssColor | Dim | None:
    if group == "colors":
        return parse_css_color(raw)
    return parse_dimension(raw) if isinstance(raw, str) else None


class _Resolver:
    """Per-mode values of every token: its own mode value, else its reference's, else none."""

    def __init__(self, state: ModeState, raw_tokens: dict[str, Any], symbols: dict[str, Any]) -> None:
        self.state = state
        self.raw_tokens = raw_tokens
        self.symbols = symbols

    def value(self, path: str, mode: str, depth: int = 0, seen: frozenset[str] = frozenset()) -> Any:
        if depth > MAX_REFERENCE_DEPTH or path in seen:
            return None
        seen = seen | {path}
        entry = self.state.raw.get(path, {}).get(mode)
        if entry is not None:
            raw = entry.raw
            if isinstance(raw, str) and is_reference(raw):
                own = self.value(raw[1:-1], mode, depth + 1, seen)
                return own if own is not None else self._default(raw[1:-1], path.split(".", 1)[0])
            return _parse(path.split(".", 1)[0], raw)
        raw = self.raw_tokens.get(path)
        if isinstance(raw, str) and is_reference(raw):
            return self.value(raw[1:-1], mode, depth + 1, seen)
        return None

    def _default(self, path: str, group: str) -> Any:
        value = self.symbols.get(path)
        kind = "color" if group == "colors" else "dimension"
        return value if getattr(value, "type", None) == kind and isinstance(value, (CssColor, Dim)) else None


def find_siblings(state: ModeState, colors: dict[str, Any], raw_tokens: dict[str, Any], lines: dict[str, int]) -> None:
    """`X-dark` colours whose `X` is also a colour give X's dark value."""
    if state.spec is None or "dark" not in state.spec.themes or state.spec.default == "dark":
        return
    for path, raw in raw_tokens.items():
        group, _, name = path.partition(".")
        if group != "colors" or not name.endswith(DARK_SUFFIX) or len(name) == len(DARK_SUFFIX):
            continue
        base = f"colors.{name[: -len(DARK_SUFFIX)]}"
        if base not in raw_tokens or "dark" in state.raw.get(base, {}):
            continue
        state.siblings[path] = base
        state.raw.setdefault(base, {})["dark"] = ModeEntry(raw, lines.get(path), "sibling")


def resolve(state: ModeState, raw_tokens: dict[str, Any], symbols: dict[str, Any]) -> None:
    """Fill `state.values`: for each non-default mode, every token that has a value in it."""
    if state.spec is None:
        return
    resolver = _Resolver(state, raw_tokens, symbols)
    candidates = [p for p in symbols if p.split(".", 1)[0] in MODE_GROUPS]
    for mode in state.spec.themes:
        if mode == state.spec.default:
            continue
        values: dict[str, Any] = {}
        for path in candidates:
            value = resolver.value(path, mode)
            if value is not None:
                values[path] = value
        if values:
            state.values[mode] = values
