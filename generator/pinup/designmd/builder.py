"""Build the token model from the merged YAML, exactly as the reference's model builder.

Flattens colors/rounded/spacing (depth limit, collision guard), validates every
leaf, resolves `{group.token}` references with cycle detection, and reads
components. The result is a light-weight `Model` (no pydantic, so `pinup lint`
stays fast); `pinup.designmd.convert` turns it into the public `DesignSystem`.
Source lines are kept for every token, typography property and component.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from pinup.designmd.colors import CssColor, parse_css_color
from pinup.designmd.dimensions import STANDARD_UNITS, Dim, is_reference, parse_dimension, parse_unitless
from pinup.designmd.jsnum import js_parse_int
from pinup.designmd.modes import ModeEntry, ModeState, find_siblings, is_mode_object, mode_spec, resolve
from pinup.designmd.parser import Heading, ParsedDocument
from pinup.designmd.report import reference_finding
from pinup.designmd.sections import (
    MAX_REFERENCE_DEPTH,
    MAX_TOKEN_NESTING_DEPTH,
    SCHEMA_KEYS,
    TYPOGRAPHY_PROPERTIES,
)
from pinup.designmd.yamlload import js_string

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    #: `_Builder._flatten`'s walker, handed to itself (see there)
    Walk = Callable[[Any, str, int, dict[str, int], "Walk"], None]

_SCHEMA = frozenset(SCHEMA_KEYS)
_TYPO_PROPS = frozenset(TYPOGRAPHY_PROPERTIES)
_VALID_PROPS_TEXT = ", ".join(TYPOGRAPHY_PROPERTIES)
#: a decimal JavaScript number literal. The integer part's fraction is one optional group, never
#: `[0-9]+\.?[0-9]*`: two adjacent digit runs split `1000…0px` every possible way before failing.
_JS_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


class RawFinding:
    """A finding before conversion to the public `Finding` (cheap to create)."""

    __slots__ = ("severity", "path", "message", "rule", "line")

    def __init__(
        self, severity: str, path: str | None, message: str, rule: str | None = None, line: int | None = None
    ) -> None:
        self.severity = severity
        self.path = path
        self.message = message
        self.rule = rule
        self.line = line

    def reference_dict(self) -> dict[str, Any]:
        return reference_finding(self.severity, self.path, self.message, self.rule)

    def __repr__(self) -> str:
        return f"RawFinding({self.severity!r}, {self.path!r}, {self.message!r}, {self.rule!r}, line={self.line})"


class Typo:
    """A typography level: only valid properties are set, in the reference's order."""

    __slots__ = ("props",)
    type = "typography"

    def __init__(self) -> None:
        self.props: dict[str, Any] = {}

    def get(self, name: str) -> Any:
        return self.props.get(name)

    def model_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "typography"}
        for key, value in self.props.items():
            out[key] = value.model_dict() if isinstance(value, Dim) else value
        return out


class Comp:
    """A component: its valid properties, its raw entries and the references it could not resolve.

    This and `Model` are plain classes, not dataclasses: importing dataclasses costs `pinup lint`
    start-up time.
    """

    __slots__ = ("properties", "raw", "unresolved")

    def __init__(self) -> None:
        self.properties: dict[str, Any] = {}
        self.raw: dict[str, Any] = {}
        self.unresolved: list[Any] = []


class Model:
    """The reference's design-system model plus source lines."""

    def __init__(self) -> None:
        self.name: str | None = None
        self.description: str | None = None
        self.version: str | None = None
        self.omitted: list[dict[str, str]] | None = None
        self.colors: dict[str, CssColor] = {}
        self.typography: dict[str, Typo] = {}
        self.rounded: dict[str, Dim] = {}
        self.spacing: dict[str, Dim] = {}
        self.components: dict[str, Comp] = {}
        self.symbols: dict[str, Any] = {}
        self.raw_tokens: dict[str, Any] = {}
        self.unknown_keys: list[str] = []
        self.unknown_values: dict[str, Any] = {}
        self.sections: list[Heading] = []
        self.lines: dict[str, int] = {}
        self.source_lines: list[str] = []  # the document, for prose checks
        self.body_start = 0  # index of the first line after the front matter
        self.modes = ModeState()  # filled only when modes were asked for


class BuildCrash(Exception):
    """Raised where the reference's builder throws (null typography entry, null component)."""


def _entries(value: Any) -> list[tuple[str, Any]]:
    """JS `Object.entries(value)` for YAML values (strings give their characters)."""
    if isinstance(value, dict):
        return list(value.items())
    if isinstance(value, list):
        return [(str(i), v) for i, v in enumerate(value)]
    if isinstance(value, str):
        return [(str(i), ch) for i, ch in enumerate(_utf16_units(value))]
    return []


def _utf16_units(text: str) -> list[str]:
    if all(ord(ch) <= 0xFFFF for ch in text):
        return list(text)
    units: list[str] = []
    for ch in text:
        code = ord(ch)
        if code > 0xFFFF:
            code -= 0x10000
            units.append(chr(0xD800 + (code >> 10)))
            units.append(chr(0xDC00 + (code & 0x3FF)))
        else:
            units.append(ch)
    return units


def _key_lines(value: Any) -> dict[str, int]:
    lines: dict[str, int] | None = getattr(value, "key_lines", None)
    if lines is not None:
        return lines
    items = getattr(value, "item_lines", None)
    if items is not None:
        return {str(i): line for i, line in enumerate(items)}
    return {}


def _js_number_of_string(text: str) -> float:
    """JavaScript `Number(string)`."""
    stripped = text.strip(
        "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
    )
    if stripped == "":
        return 0.0
    if re.fullmatch(r"0[xX][0-9a-fA-F]+", stripped):
        return float(js_parse_int(stripped[2:], 16))
    if re.fullmatch(r"0[oO][0-7]+", stripped):
        return float(js_parse_int(stripped[2:], 8))
    if re.fullmatch(r"0[bB][01]+", stripped):
        return float(js_parse_int(stripped[2:], 2))
    if re.fullmatch(r"[+-]?Infinity", stripped):
        return -math.inf if stripped.startswith("-") else math.inf
    if _JS_DECIMAL.fullmatch(stripped):
        return float(stripped)
    return math.nan


class _Builder:
    def __init__(self, doc: ParsedDocument, modes: bool = False) -> None:
        self.doc = doc
        self.model = Model()
        self.findings: list[RawFinding] = []
        self.lines = self.model.lines
        if modes:
            self.model.modes.spec = mode_spec(doc.data)

    def _mode_leaf(self, section: str, name: str, item: dict[str, Any], lines: dict[str, int]) -> Any:
        """A `{light, dark}` value: keep the other modes aside and return the default mode's value."""
        state, spec = self.model.modes, self.model.modes.spec
        assert spec is not None
        path = f"{section}.{name}"
        own_lines = _key_lines(item)
        for key, value in item.items():
            mode = str(key)
            line = own_lines.get(key)
            if mode not in spec.themes:
                known = ", ".join(spec.themes)
                state.problems.append((f"{path}.{mode}", f"Unknown mode '{mode}' (the modes are: {known}).", line))
            elif isinstance(value, (dict, list)) or value is None:
                state.problems.append((f"{path}.{mode}", f"The {mode} value of {path} must be a single value.", line))
            elif mode != spec.default:
                state.raw.setdefault(path, {})[mode] = ModeEntry(value, line, "object")
        if spec.default not in item:
            message = f"{path} has no value for the default mode '{spec.default}'."
            state.problems.append((path, message, lines.get(name.rsplit(".", 1)[-1])))
            return None
        default = item[spec.default]
        if spec.default in own_lines:
            self.lines[path] = own_lines[spec.default]
        return None if isinstance(default, (dict, list)) else default

    def error(self, path: str, message: str, severity: str = "error") -> None:
        self.findings.append(RawFinding(severity, path, message, None, self.lines.get(path)))

    # -- flattening -------------------------------------------------------------------------
    def _flatten(self, section: str, value: Any, visit: Any) -> None:
        seen: set[str] = set()
        seen_normalized: set[str] = set()
        depth_reported = False

        # `walk` is handed itself rather than reaching itself through its closure: a self-referencing
        # closure is a cycle, which kept the whole model alive until the next cyclic collection (a build
        # runs without one) instead of freeing it when the lint is done
        def walk(obj: Any, prefix: str, depth: int, lines: dict[str, int], walk: Walk) -> None:
            nonlocal depth_reported
            if depth > MAX_TOKEN_NESTING_DEPTH:
                if not depth_reported:
                    depth_reported = True
                    self.error(
                        section, f"Token nesting depth exceeds maximum allowed depth of {MAX_TOKEN_NESTING_DEPTH}."
                    )
                return
            for key, item in _entries(obj):
                name = f"{prefix}.{key}" if prefix else key
                path = f"{section}.{name}"
                line = lines.get(key)
                if line is not None:
                    self.lines.setdefault(path, line)
                if isinstance(item, dict) and self.model.modes.spec and is_mode_object(item, self.model.modes.spec):
                    item = self._mode_leaf(section, name, item, lines)
                    if item is None:
                        continue
                elif isinstance(item, dict):
                    walk(item, name, depth + 1, _key_lines(item), walk)
                    continue
                normalized = name.replace(".", "-")
                if name in seen:
                    self.error(path, f"Duplicate token path '{path}' detected.")
                    continue
                if normalized in seen_normalized:
                    self.error(path, f"Grouped {section} token flattens to '{normalized}', which is already defined.")
                    continue
                seen.add(name)
                seen_normalized.add(normalized)
                self.model.raw_tokens[path] = item
                visit(name, item)

        walk(value, "", 0, _key_lines(value), walk)

    # -- sections ----------------------------------------------------------------------------
    def colors(self, value: Any) -> None:
        model = self.model

        def visit(name: str, raw: Any) -> None:
            path = f"colors.{name}"
            if isinstance(raw, str) and is_reference(raw):
                model.symbols[path] = raw
                return
            color = parse_css_color(raw)
            if color is not None:
                color.raw = raw
                model.colors[name] = color
                model.symbols[path] = color
                return
            self.error(
                path,
                f"'{_message_string(raw)}' is not a valid color. Expected a CSS color value "
                "(e.g., #ffffff, rgb(0 0 0), oklch(0.5 0.2 240)).",
            )
            model.symbols[path] = raw

        self._flatten("colors", value, visit)

    def typography(self, value: Any) -> None:
        lines = _key_lines(value)
        for name, props in _entries(value):
            path = f"typography.{name}"
            if name in lines:
                self.lines.setdefault(path, lines[name])
            if props is None:
                raise BuildCrash("Cannot read properties of null (reading 'fontFamily')")
            typo = self._typography_entry(path, props)
            self.model.typography[name] = typo
            self.model.symbols[path] = typo

    def _typography_entry(self, path: str, props: Any) -> Typo:
        typo = Typo()
        entries = dict(_entries(props)) if isinstance(props, (dict, list, str)) else {}
        for key, line in _key_lines(props).items():
            self.lines.setdefault(f"{path}.{key}", line)
        for key, item in entries.items():
            self.model.raw_tokens[f"{path}.{key}"] = item
        family = entries.get("fontFamily")
        if isinstance(family, str):
            if parse_css_color(family) is not None:
                self.error(f"{path}.fontFamily", f"'{family}' appears to be a color, not a valid font family.")
            typo.props["fontFamily"] = family
        if "fontWeight" in entries:
            weight = entries["fontWeight"]
            number: float | None = None
            if isinstance(weight, (int, float)) and not isinstance(weight, bool):
                number = weight
            elif isinstance(weight, str):
                parsed = _js_number_of_string(weight)
                if not math.isnan(parsed):
                    number = parsed
            if number is None:
                self.error(
                    f"{path}.fontWeight", f"'{_message_string(weight)}' is not a valid font weight. Expected a number."
                )
            else:
                typo.props["fontWeight"] = number
        for prop in ("fontFeature", "fontVariation"):
            if isinstance(entries.get(prop), str):
                typo.props[prop] = entries[prop]
        for prop in ("fontSize", "lineHeight", "letterSpacing"):
            raw = entries.get(prop)
            if not isinstance(raw, str):
                continue
            dim = parse_dimension(raw)
            if dim is not None:
                if dim.unit not in STANDARD_UNITS:
                    self.error(
                        f"{path}.{prop}", f"'{raw}' has an invalid unit '{dim.unit}'. Only px, rem, and em are allowed."
                    )
                typo.props[prop] = dim
                continue
            unitless = parse_unitless(raw) if prop == "lineHeight" else None
            if unitless is not None:
                typo.props[prop] = unitless
            elif not is_reference(raw):
                self.error(f"{path}.{prop}", f"'{raw}' is not a valid dimension.")
        for key in entries:
            if key not in _TYPO_PROPS:
                self.error(
                    f"{path}.{key}",
                    f"'{key}' is not a recognized typography property. Valid properties: {_VALID_PROPS_TEXT}.",
                    "warning",
                )
        return typo

    def rounded(self, value: Any) -> None:
        model = self.model

        def visit(name: str, raw: Any) -> None:
            if not isinstance(raw, str):
                return
            path = f"rounded.{name}"
            dim = parse_dimension(raw)
            if dim is not None:
                if dim.unit not in STANDARD_UNITS:
                    self.error(path, f"'{raw}' has an invalid unit '{dim.unit}'. Only px, rem, and em are allowed.")
                model.rounded[name] = dim
                model.symbols[path] = dim
            else:
                if not is_reference(raw):
                    self.error(path, f"'{raw}' is not a valid dimension.")
                model.symbols[path] = raw

        self._flatten("rounded", value, visit)

    def spacing(self, value: Any) -> None:
        model = self.model

        def visit(name: str, raw: Any) -> None:
            path = f"spacing.{name}"
            dim = parse_dimension(raw)
            if dim is not None:
                model.spacing[name] = dim
                model.symbols[path] = dim
            else:
                model.symbols[path] = raw

        self._flatten("spacing", value, visit)

    # -- references --------------------------------------------------------------------------
    def resolve(self, path: str, visited: set[str], depth: int = 0) -> Any:
        """The reference's walk: depth limit, cycle detection, null means nothing."""
        symbols = self.model.symbols
        while True:
            if depth > MAX_REFERENCE_DEPTH or path in visited:
                return None
            visited.add(path)
            if path not in symbols:
                return None
            value = symbols[path]
            if isinstance(value, str) and is_reference(value):
                path = value[1:-1]
                depth += 1
                continue
            return value

    def resolve_tokens(self) -> None:
        model = self.model
        for key in list(model.symbols):
            value = model.symbols[key]
            if not (isinstance(value, str) and is_reference(value)):
                continue
            resolved = self.resolve(value[1:-1], set())
            kind = getattr(resolved, "type", None) if not isinstance(resolved, (str, int, float, list, dict)) else None
            if kind is None:
                continue
            group, _, name = key.partition(".")
            if group == "colors" and kind == "color":
                model.colors[name] = resolved
                model.symbols[key] = resolved
            elif group in ("rounded", "spacing") and kind == "dimension":
                getattr(model, group)[name] = resolved
                model.symbols[key] = resolved

    def components(self, value: Any) -> None:
        lines = _key_lines(value)
        for comp_name, props in _entries(value):
            comp_path = f"components.{comp_name}"
            if comp_name in lines:
                self.lines.setdefault(comp_path, lines[comp_name])
            if props is None:
                raise BuildCrash("Cannot convert undefined or null to object")
            comp = Comp()
            for key, line in _key_lines(props).items():
                self.lines.setdefault(f"{comp_path}.{key}", line)
            for prop, raw in _entries(props):
                comp.raw[prop] = raw
                self.model.raw_tokens[f"{comp_path}.{prop}"] = raw
                if isinstance(raw, (bool, int, float)):
                    comp.properties[prop] = raw
                    continue
                if not isinstance(raw, dict) and is_reference(js_string(raw)):
                    target = raw[1:-1] if isinstance(raw, str) else None
                    resolved = self.resolve(target, set()) if target is not None else None
                    if resolved is not None:
                        comp.properties[prop] = resolved
                    else:
                        comp.unresolved.append(raw)
                        comp.properties[prop] = raw
                    continue
                color = parse_css_color(raw)
                if color is not None:
                    color.raw = raw
                    comp.properties[prop] = color
                    continue
                dim = parse_dimension(raw)
                comp.properties[prop] = dim if dim is not None else raw
            self.model.components[comp_name] = comp


def _message_string(value: Any) -> str:
    """`String(value)` as a JS template literal would print it."""
    return js_string(value)


def build_model(doc: ParsedDocument, *, modes: bool = False) -> tuple[Model, list[RawFinding]]:
    """Run the model builder; a crash gives the reference's single error and an empty model.

    `modes=True` reads light/dark values (pinup's extension, see `pinup.designmd.modes`);
    without it the model is exactly the reference's.
    """
    builder = _Builder(doc, modes)
    model = builder.model
    data = doc.data
    for key, line in doc.key_lines.items():
        model.lines[key] = line
    try:
        if data.get("colors"):
            builder.colors(data["colors"])
        if data.get("typography"):
            builder.typography(data["typography"])
        if data.get("rounded"):
            builder.rounded(data["rounded"])
        if data.get("spacing"):
            builder.spacing(data["spacing"])
        builder.resolve_tokens()
        if data.get("components"):
            builder.components(data["components"])
        if builder.model.modes.spec is not None:
            find_siblings(builder.model.modes, model.colors, model.raw_tokens, model.lines)
            resolve(builder.model.modes, model.raw_tokens, model.symbols)
    except BuildCrash as exc:
        return _crashed(doc, model, str(exc))
    except RecursionError:
        return _crashed(doc, model, "Maximum call stack size exceeded")
    model.name = data.get("name") if isinstance(data.get("name"), str) else None
    model.description = data.get("description") if isinstance(data.get("description"), str) else None
    model.version = data.get("version") if isinstance(data.get("version"), str) else None
    model.omitted = _omitted(data.get("omitted"))
    model.unknown_keys = [key for key in doc.keys if key not in _SCHEMA]
    model.unknown_values = {key: data[key] for key in model.unknown_keys if key in data}
    model.sections = doc.headings
    return model, builder.findings


def _crashed(doc: ParsedDocument, partial: Model, message: str) -> tuple[Model, list[RawFinding]]:
    model = Model()
    model.lines = dict(partial.lines)
    line = None
    # point at the entry that made the builder throw
    for group in ("typography", "components"):
        value = doc.data.get(group)
        if isinstance(value, dict):
            for name, item in value.items():
                if item is None:
                    line = partial.lines.get(f"{group}.{name}") or _key_lines(value).get(name)
                    break
        if line:
            break
    return model, [RawFinding("error", None, f"Unexpected error during model building: {message}", None, line)]


def _omitted(value: Any) -> list[dict[str, str]] | None:
    if not isinstance(value, list):
        return None
    out: list[dict[str, str]] = []
    for item in value:
        if isinstance(item, str):
            out.append({"section": item})
        elif isinstance(item, dict) and isinstance(item.get("section"), str):
            entry = {"section": item["section"]}
            if isinstance(item.get("reason"), str):
                entry["reason"] = item["reason"]
            out.append(entry)
    return out
