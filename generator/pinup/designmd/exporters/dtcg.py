"""`dtcg`: pinup's DTCG 2025.10 `tokens.json`, built to load unchanged in Style Dictionary and Terrazzo.

The reference's DTCG output keeps invalid units, semi-transparent hex values,
incomplete typography and dotted names; here every token is typed and valid,
and whatever had to be converted, filled in or left out is reported as a
warning instead of vanishing. docs/exports.md lists every difference.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pinup.designmd.exporters import ExportResult
from pinup.designmd.exporters.jsjson import stringify
from pinup.designmd.jsnum import js_number

if TYPE_CHECKING:
    from pinup.designmd.model import Color, DesignSystem, Dimension, Typography

SCHEMA = "https://www.designtokens.org/schemas/2025.10/format.json"
BASE_PX = 16.0
"""The root font size assumed wherever a relative unit has nothing else to refer to."""
ABSOLUTE_PX = {"px": 1.0, "pt": 4 / 3, "pc": 16.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4}
DEFAULT_LINE_HEIGHT = 1.2
"""What browsers use for `line-height: normal` with common fonts."""
_REF = re.compile(r"\{([a-zA-Z0-9._-]+)\}")
# model section -> (DTCG group, $type); the order is the reference's.
GROUPS = (("colors", "color", "color"), ("spacing", "spacing", "dimension"), ("rounded", "rounded", "dimension"))


def _round(value: float, places: int = 4) -> float:
    """Round half up, like JavaScript's Math.round(x * 10**n) / 10**n."""
    if not math.isfinite(value):
        return value
    scale = 10**places
    result = math.floor(value * scale + 0.5) / scale
    return 0.0 if result == 0 else result


class _Builder:
    """Collects tokens into a nested tree, checking DTCG names and recording warnings."""

    def __init__(self, design: DesignSystem, modes: bool = False) -> None:
        self.design = design
        self.modes = modes
        self.warnings: list[str] = []
        self.tree: dict[str, Any] = {}
        self.placed: dict[str, tuple[str, ...]] = {}  # model path -> DTCG path of an emitted token
        self.kinds: dict[str, str] = {}  # model path -> $type of the emitted token

    # -- names -----------------------------------------------------------------------------
    def dtcg_path(self, group: str, name: str, model_path: str) -> tuple[str, ...]:
        """Split a dotted model name into DTCG groups, renaming segments DTCG forbids."""
        parts = name.split(".")
        if "{" not in name and "}" not in name and "$" not in name and all(parts):
            return (group, *parts)  # the usual name: nothing to rename
        segments = [_segment(part) for part in parts]
        if any(a != b for a, b in zip(segments, parts, strict=True)):
            self.warnings.append(
                f"{model_path}: renamed to '{'.'.join(segments)}' "
                "(DTCG names cannot hold '{', '}', a leading '$' or an empty part)"
            )
        return (group, *segments)

    def place(self, path: tuple[str, ...], token: dict[str, Any], model_path: str, kind: str) -> bool:
        """Put `token` at `path`, refusing a path that is already a token or a group."""
        node = self.tree
        for part in path[:-1]:
            child = node.setdefault(part, {})
            if "$value" in child:
                self.warnings.append(f"{model_path}: left out, '{part}' is already a token and cannot also be a group")
                return False
            node = child
        if path[-1] in node:
            self.warnings.append(f"{model_path}: left out, '{'.'.join(path[1:])}' is already defined")
            return False
        node[path[-1]] = token
        self.placed[model_path] = path
        self.kinds[model_path] = kind
        return True

    def alias_for(self, model_path: str, kind: str, raw: Any = None) -> str | None:
        """`{group.token}` if the source wrote `model_path` as a reference to an emitted token of `kind`."""
        if raw is None:
            raw = self.design.raw_tokens.get(model_path)
        if not isinstance(raw, str):
            return None
        match = _REF.fullmatch(raw)
        if not match:
            return None
        target = match.group(1)
        if target == model_path or self.kinds.get(target) != kind:
            return None
        return "{" + ".".join(self.placed[target]) + "}"

    # -- values ----------------------------------------------------------------------------
    def color(self, color: Color, where: str) -> dict[str, Any]:
        alpha = 1.0 if color.a is None else float(color.a)
        if not 0 <= alpha <= 1 or math.isnan(alpha):
            clamped = 1.0 if math.isnan(alpha) or alpha > 1 else 0.0
            self.warnings.append(f"{where}: alpha {js_number(alpha)} clamped to {js_number(clamped)}")
            alpha = clamped
        return {
            "colorSpace": "srgb",
            "components": [_round(c / 255, 3) for c in (color.r, color.g, color.b)],
            "alpha": _round(alpha, 3),
            "hex": f"#{color.r:02x}{color.g:02x}{color.b:02x}",
        }

    def dimension(self, dim: Dimension, where: str) -> dict[str, Any] | None:
        """{value, unit} in px or rem; em and % taken against the 16px base, absolute units as px."""
        unit, value = dim.unit, float(dim.value)
        if unit in ("px", "rem"):
            return {"value": value, "unit": unit}
        if unit == "em":
            self.warnings.append(
                f"{where}: {dim.css()} written as {js_number(value)}rem (em taken against the 16px base)"
            )
            return {"value": value, "unit": "rem"}
        if unit in ABSOLUTE_PX:
            # CSS fixes these ratios (1in = 96px), so the conversion is exact and needs no note.
            return {"value": _round(value * ABSOLUTE_PX[unit]), "unit": "px"}
        self.warnings.append(f"{where}: {dim.css() or repr(dim.raw)} has no px or rem equivalent; left out")
        return None

    # -- sections --------------------------------------------------------------------------
    def simple_groups(self) -> None:
        literal: list[tuple[str, tuple[str, ...], str, dict[str, Any]]] = []
        for section, group, kind in GROUPS:
            tokens: dict[str, Any] = getattr(self.design, section)
            for name, token in tokens.items():
                model_path = f"{section}.{name}"
                value = self.color(token, model_path) if kind == "color" else self.dimension(token, model_path)
                if value is None:
                    continue
                path = self.dtcg_path(group, name, model_path)
                entry: dict[str, Any] = {"$value": value}
                if self.place(path, entry, model_path, kind):
                    literal.append((model_path, path, kind, entry))
        # Second pass: tokens written as references become aliases once every target is known.
        for model_path, _path, kind, entry in literal:
            alias = self.alias_for(model_path, kind)
            if alias is not None:
                entry["$value"] = alias
            elif self.modes:
                self.mode_extension(model_path, kind, entry)
        for _section, group, kind in GROUPS:
            if group in self.tree:
                self.tree[group] = {"$type": kind, **self.tree[group]}

    def mode_extension(self, model_path: str, kind: str, entry: dict[str, Any]) -> None:
        """Terrazzo's `$extensions.mode`: the value in every mode, the default's too (aliases inherit theirs)."""
        design = self.design
        own = {mode: values[model_path] for mode, values in design.modes.items() if model_path in values}
        if not own or design.default_theme is None:
            return
        by_mode: dict[str, Any] = {design.default_theme: entry["$value"]}
        for mode in design.themes:
            if mode not in own:
                continue
            where = f"{model_path} ({mode} mode)"
            token: Any = own[mode]  # a colour for a colour token, a dimension for a dimension (`kind`)
            value = self.color(token, where) if kind == "color" else self.dimension(token, where)
            if value is not None:
                by_mode[mode] = value
        if len(by_mode) > 1:
            entry["$extensions"] = {"mode": by_mode}

    def typography(self) -> None:
        levels = self.design.typography
        families = Counter(t.fontFamily for t in levels.values() if t.fontFamily and _stack(t.fontFamily))
        fallback_family = families.most_common(1)[0][0] if families else "sans-serif"
        for name, typo in levels.items():
            model_path = f"typography.{name}"
            value = self.typography_value(typo, model_path, fallback_family)
            path = self.dtcg_path("typography", name, model_path)
            self.place(path, {"$type": "typography", "$value": value}, model_path, "typography")

    def typography_value(self, typo: Typography, where: str, fallback_family: str) -> dict[str, Any]:
        family = _stack(typo.fontFamily) if typo.fontFamily else []
        if not family:
            family = _stack(fallback_family)
            self.warnings.append(f"{where}.fontFamily: missing; filled with '{fallback_family}'")
        size, size_alias = self.font_size(typo, where)
        size_px = size["value"] * (BASE_PX if size["unit"] == "rem" else 1.0)
        weight: float = 400
        if typo.fontWeight is None:
            pass
        elif math.isfinite(typo.fontWeight) and 1 <= typo.fontWeight < 1000:
            weight = typo.fontWeight
        elif typo.fontWeight == 1000:
            # DTCG allows 1000, Terrazzo only < 1000; 999 renders the same.
            weight = 999
            self.warnings.append(f"{where}.fontWeight: 1000 written as 999 (Terrazzo accepts 0-999)")
        else:
            self.warnings.append(f"{where}.fontWeight: {js_number(typo.fontWeight)} is outside 1-1000; written as 400")
        return {
            "fontFamily": family[0] if len(family) == 1 else family,
            "fontSize": size_alias or size,
            "fontWeight": weight,
            "letterSpacing": self.letter_spacing(typo, where, size),
            "lineHeight": self.line_height(typo, where, size_px),
        }

    def referenced(self, where: str, prop: str) -> tuple[Dimension | None, str | None]:
        """A typography property written as `{spacing.x}`/`{rounded.x}`: the model keeps no value for it."""
        raw = self.design.raw_tokens.get(f"{where}.{prop}")
        if raw is None:
            level = self.design.raw_tokens.get(where)
            raw = level.get(prop) if isinstance(level, dict) else None
        match = _REF.fullmatch(raw) if isinstance(raw, str) else None
        if not match:
            return None, None
        section, _, name = match.group(1).partition(".")
        target = {"spacing": self.design.spacing, "rounded": self.design.rounded}.get(section, {}).get(name)
        if target is None:
            self.warnings.append(f"{where}.{prop}: reference {raw} is not a spacing or rounded dimension")
            return None, None
        alias = self.alias_for(f"{where}.{prop}", "dimension", raw) if target.unit in ("px", "rem") else None
        return target, alias

    def font_size(self, typo: Typography, where: str) -> tuple[dict[str, Any], str | None]:
        dim, alias = typo.fontSize, None
        if dim is None:
            dim, alias = self.referenced(where, "fontSize")
        if dim is None:
            self.warnings.append(f"{where}.fontSize: missing; filled with 1rem (16px, the CSS default)")
            return {"value": 1.0, "unit": "rem"}, None
        if dim.unit == "%":
            self.warnings.append(f"{where}.fontSize: {dim.css()} written as {js_number(_round(dim.value / 100))}rem")
            return {"value": _round(dim.value / 100), "unit": "rem"}, None
        if dim.unit in ("px", "rem", "em") or dim.unit in ABSOLUTE_PX:
            value = self.dimension(dim, f"{where}.fontSize")
            if value is not None and value["value"] > 0:
                return value, alias
        self.warnings.append(
            f"{where}.fontSize: {dim.css()} has no positive px or rem equivalent; filled with 1rem (16px)"
        )
        return {"value": 1.0, "unit": "rem"}, None

    def letter_spacing(self, typo: Typography, where: str, size: dict[str, Any]) -> dict[str, Any] | str:
        dim, alias = typo.letterSpacing, None
        if dim is None:
            dim, alias = self.referenced(where, "letterSpacing")
        if alias is not None:
            return alias
        if dim is None:
            return {"value": 0, "unit": "px"}
        if dim.unit in ("em", "%"):
            factor = dim.value / 100 if dim.unit == "%" else dim.value
            # Exact: em is relative to this level's own font size.
            return {"value": _round(factor * size["value"]), "unit": size["unit"]}
        converted = (
            self.dimension(dim, f"{where}.letterSpacing")
            if dim.unit in ("px", "rem") or dim.unit in ABSOLUTE_PX
            else None
        )
        if converted is not None:  # px, rem and absolute units always convert
            return converted
        self.warnings.append(f"{where}.letterSpacing: {dim.css()} has no px or rem equivalent; filled with 0px")
        return {"value": 0, "unit": "px"}

    def line_height(self, typo: Typography, where: str, size_px: float) -> float:
        dim = typo.lineHeight
        if dim is None:
            dim = self.referenced(where, "lineHeight")[0]
        if dim is None:
            self.warnings.append(
                f"{where}.lineHeight: missing; filled with {js_number(DEFAULT_LINE_HEIGHT)} (line-height: normal)"
            )
            return DEFAULT_LINE_HEIGHT
        ratio: float | None
        if dim.unit in ("", "em"):
            ratio = dim.value
        elif dim.unit == "%":
            ratio = dim.value / 100
        elif dim.unit == "rem":
            ratio = dim.value * BASE_PX / size_px
        elif dim.unit in ABSOLUTE_PX:
            ratio = dim.value * ABSOLUTE_PX[dim.unit] / size_px
        else:
            ratio = None
        if ratio is None or not math.isfinite(ratio) or ratio <= 0:
            self.warnings.append(
                f"{where}.lineHeight: {dim.css()} cannot be a ratio; filled with {js_number(DEFAULT_LINE_HEIGHT)}"
            )
            return DEFAULT_LINE_HEIGHT
        return _round(ratio)

    def components(self) -> None:
        """Component properties whose resolved value is a colour, a dimension or a typography level.

        Told by the value's `type` (a token of either model, `pinup.designmd.model` or `.light`).
        """
        for comp_name, component in self.design.components.items():
            skipped = []
            for prop, value in component.properties.items():
                model_path = f"components.{comp_name}.{prop}"
                where = model_path
                raw = component.raw.get(prop)
                token: dict[str, Any] | None = None
                kind = _token_kind(value)
                if kind == "color":
                    color = self.alias_for(model_path, "color", raw) or self.color(value, where)
                    token = {"$type": "color", "$value": color}
                elif kind == "dimension":
                    dim = self.alias_for(model_path, "dimension", raw) or self.dimension(value, where)
                    token = {"$type": "dimension", "$value": dim} if dim is not None else None
                elif kind == "typography":
                    alias = self.alias_for(model_path, "typography", raw)
                    token = {"$type": "typography", "$value": alias} if alias else None
                if token is None:
                    unresolved = isinstance(raw, str) and _REF.fullmatch(raw) is not None
                    skipped.append(f"{prop} (unresolved reference {raw})" if unresolved else prop)
                    continue
                path = (*self.dtcg_path("components", comp_name, model_path), _segment(_kebab(prop).replace(".", "_")))
                self.place(path, token, model_path, token["$type"])
            if skipped:
                self.warnings.append(
                    f"components.{comp_name}: {', '.join(skipped)} left out (no DTCG token type for the value)"
                )


def _token_kind(value: Any) -> str | None:
    """ "color", "dimension" or "typography" for a token object, None for anything else (a raw value)."""
    if isinstance(value, (str, int, float, dict, list, type(None))):
        return None
    kind = getattr(value, "type", None)
    return kind if kind in ("color", "dimension", "typography") else None


def _segment(part: str) -> str:
    """One DTCG name: no braces, no leading `$`, not empty."""
    fixed = part.replace("{", "_").replace("}", "_")
    if fixed.startswith("$"):
        fixed = "_" + fixed[1:]
    return fixed or "_"


@lru_cache(maxsize=1024)  # the same property names in every component
def _kebab(name: str) -> str:
    """`backgroundColor` -> `background-color`, the naming Terrazzo's linter expects.

    All lower case, so `BackgroundColor` is the same token (left out as a duplicate) rather
    than one that tools deriving camelCase or CSS names would collide with.
    """
    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "-" + m.group(1), name).lower()


def _stack(family: str) -> list[str]:
    """Split a CSS font stack on top-level commas, unquoting names: `"A B", serif` -> ["A B", "serif"]."""
    if '"' not in family and "'" not in family:  # the usual case: no quoted names
        return [name for name in (part.strip() for part in family.split(",")) if name]
    out: list[str] = []
    current: list[str] = []
    quote = ""
    for ch in family:
        if quote:
            if ch == quote:
                quote = ""
            else:
                current.append(ch)
        elif ch in "\"'":
            quote = ch
        elif ch == ",":
            out.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    out.append("".join(current).strip())
    return [name for name in out if name]


def _tokens(node: dict[str, Any], prefix: tuple[str, ...] = ()) -> dict[tuple[str, ...], dict[str, Any]]:
    """Every token (object with `$value`) of a DTCG tree by its path (depth first, in key order)."""
    out: dict[tuple[str, ...], dict[str, Any]] = {}
    _collect_tokens(node, prefix, out)
    return out


def _collect_tokens(node: dict[str, Any], prefix: tuple[str, ...], out: dict[tuple[str, ...], dict[str, Any]]) -> None:
    if "$value" in node:
        out[prefix] = node
        return
    for key, child in node.items():
        if not key.startswith("$") and isinstance(child, dict):
            _collect_tokens(child, (*prefix, key), out)


def _aliases(value: Any) -> list[str]:
    """The alias targets inside a `$value` (itself, or a typography member)."""
    if isinstance(value, str):
        if value[:1] != "{":  # most values are no alias
            return []
        match = _REF.fullmatch(value)
        return [match.group(1)] if match else []
    if not isinstance(value, dict):
        return []
    found: list[str] = []
    for member in value.values():  # a composite value: its string members inline, the rest recursively
        if isinstance(member, str):
            if member[:1] == "{":
                match = _REF.fullmatch(member)
                if match:
                    found.append(match.group(1))
        elif isinstance(member, dict):
            found += _aliases(member)
    return found


def drop_dangling(tree: dict[str, Any], warnings: list[str]) -> None:
    """Leave out every token whose alias points at no token of the tree (or into a loop), repeatedly.

    The passes above only alias emitted tokens; this is the guarantee that holds for
    any input, so tokens.json always builds in Style Dictionary and Terrazzo.
    """
    while True:
        tokens = _tokens(tree)
        bad: list[tuple[tuple[str, ...], str]] = []
        for path, token in tokens.items():
            for target in _aliases(token["$value"]):
                probe = tuple(target.split("."))
                found = tokens.get(probe)
                if found is not None and probe != path:
                    value = found["$value"]
                    if not isinstance(value, str) or not _aliases(value):
                        continue  # the usual alias: straight at a token with a value of its own
                seen = {path}
                while probe in tokens and probe not in seen:
                    seen.add(probe)
                    nxt = _aliases(tokens[probe]["$value"])
                    if not nxt or not isinstance(tokens[probe]["$value"], str):
                        probe = ()
                        break
                    probe = tuple(nxt[0].split("."))
                if probe:
                    bad.append((path, target))
                    break
        if not bad:
            return
        for path, target in bad:
            node = tree
            for part in path[:-1]:
                node = node[part]
            del node[path[-1]]
            warnings.append(f"{'.'.join(path)}: left out, its alias {{{target}}} points at no token in tokens.json")
        _prune(tree)


def _prune(node: dict[str, Any]) -> None:
    """Remove groups that lost all their tokens."""
    for key in [k for k, v in node.items() if not k.startswith("$") and isinstance(v, dict) and "$value" not in v]:
        _prune(node[key])
        if not _tokens(node[key]):
            del node[key]


def build(design: DesignSystem, *, modes: bool = False) -> tuple[dict[str, Any], list[str]]:
    """The DTCG document as a dict, plus warnings for everything converted, filled in or left out."""
    builder = _Builder(design, modes)
    builder.simple_groups()
    builder.typography()
    builder.components()
    drop_dangling(builder.tree, builder.warnings)
    doc: dict[str, Any] = {"$schema": SCHEMA}
    description = design.description or design.name
    if description:
        doc["$description"] = description
    for group in ("color", "spacing", "rounded", "typography", "components"):
        if group in builder.tree:
            doc[group] = builder.tree[group]
    return doc, builder.warnings


def render_result(design: DesignSystem, *, modes: bool = False) -> ExportResult:
    """tokens.json text plus the warnings `pinup export` prints on stderr (`modes`: `$extensions.mode`)."""
    doc, warnings = build(design, modes=modes)
    return ExportResult(stringify(doc, remember=True) + "\n", warnings)


def render(design: DesignSystem) -> str:
    """tokens.json text (two-space JSON plus a newline)."""
    return render_result(design).text
