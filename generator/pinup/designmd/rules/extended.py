"""pinup's own checks, beyond the reference linter; they run only with `--extended`.

Each is a plain function `model -> findings` with a docstring saying what it
checks; `EXTENDED_RULES` registers them after the reference's rules, so the
default output stays identical to the reference.
"""

from __future__ import annotations

import re
from typing import Any

from pinup.designmd.builder import Model, RawFinding, Typo
from pinup.designmd.colors import CssColor, parse_css_color, ratio
from pinup.designmd.dimensions import STANDARD_UNITS, Dim, is_reference
from pinup.designmd.jsnum import to_fixed
from pinup.designmd.memo import remember
from pinup.designmd.rules import cvd_pairs, interactive_states, mode_contrast, mode_values, non_text_contrast
from pinup.designmd.rules.base import Rule
from pinup.designmd.sections import MAX_REFERENCE_DEPTH, canonical
from pinup.designmd.yamlload import js_string

_TOKEN_GROUPS = ("colors", "rounded", "spacing")


def _walk(model: Model, start: str) -> tuple[str, Any]:
    """Follow a reference from the symbol table: ('ok', value) | ('missing'|'cycle'|'deep', path)."""
    seen: list[str] = []
    path = start
    while True:
        if path in seen:
            return "cycle", " -> ".join([*seen, path])
        if len(seen) > MAX_REFERENCE_DEPTH:
            return "deep", path
        seen.append(path)
        if path not in model.symbols:
            return "missing", path
        value = model.symbols[path]
        if isinstance(value, str) and is_reference(value):
            path = value[1:-1]
            continue
        return "ok", value


def token_refs(model: Model) -> list[RawFinding]:
    """A `{ref}` inside colors/rounded/spacing/typography that does not resolve (unknown token, cycle,
    chain deeper than 10) or resolves to the wrong kind of value. The reference drops these silently."""
    findings: list[RawFinding] = []
    for path, raw in model.raw_tokens.items():
        if not is_reference(raw):  # the common case first: a literal value (one test, no split)
            continue
        group = path.split(".", 1)[0]
        if group not in (*_TOKEN_GROUPS, "typography"):
            continue
        status, value = _walk(model, raw[1:-1])
        if status == "missing":
            message = f"Reference {raw} does not resolve: there is no token '{value}'."
        elif status == "cycle":
            message = f"Reference {raw} is circular ({value})."
        elif status == "deep":
            message = f"Reference {raw} goes through more than {MAX_REFERENCE_DEPTH} references."
        else:
            want = {"colors": "color", "rounded": "dimension", "spacing": "dimension", "typography": "dimension"}[group]
            kind = getattr(value, "type", None) if isinstance(value, (CssColor, Dim, Typo)) else None
            if kind == want:
                if group == "typography":
                    findings.append(
                        RawFinding(
                            "info",
                            path,
                            f"Reference {raw} in a typography property resolves, but typography references are "
                            "not resolved by exporters; write the value instead.",
                        )
                    )
                continue
            got = kind or f"the invalid value '{js_string(value)}'"
            message = f"Reference {raw} resolves to {got}, not a {want}."
        findings.append(RawFinding("error", path, message))
    return findings


def spacing_values(model: Model) -> list[RawFinding]:
    """Spacing tokens the reference accepts silently but no exporter writes: units other than
    px/rem/em, and values that are not a dimension or reference at all (`auto`, `8px 16px`, `0`)."""
    findings: list[RawFinding] = []
    for path, raw in model.raw_tokens.items():
        if not path.startswith("spacing.") or (isinstance(raw, str) and is_reference(raw)):
            continue  # references are checked by token-broken-ref
        name = path[len("spacing.") :]
        dim = model.spacing.get(name)
        if isinstance(dim, Dim) and dim.raw is not None:
            if dim.unit not in STANDARD_UNITS:
                findings.append(
                    RawFinding(
                        "warning",
                        path,
                        f"'{raw}' has the unit '{dim.unit}'; spacing should use px, rem or em.",
                    )
                )
            continue
        if dim is None:
            findings.append(
                RawFinding(
                    "warning",
                    path,
                    f"'{js_string(raw)}' is not a dimension, so this spacing token is dropped from every export.",
                )
            )
    return findings


_HEX_IN_PROSE = re.compile(r"(?<![\w&])#(?:[0-9a-fA-F]{8}|[0-9a-fA-F]{6}|[0-9a-fA-F]{3,4})(?![0-9a-zA-Z_-])")
_FENCE_LINE = re.compile(r"^\s{0,3}(```|~~~)")


_WORD_BREAK = re.compile(r"[-_.\s]+")


def _name_words(name: str) -> list[str]:
    return [w for w in _WORD_BREAK.split(name) if w]


def _name_pattern(words: list[str]) -> re.Pattern[str]:
    body = r"[-_ .]?".join(re.escape(w) for w in words)
    return re.compile(rf"(?<![\w-]){body}(?![\w-])", re.IGNORECASE)


class _NamePatterns:
    """Each colour name's pattern, compiled the first time a line might hold the name.

    A line holds an ASCII name only if its lowercase text holds each of the name's words, so most
    names' patterns are never compiled (a fresh process compiled one per colour: a few ms a file).
    """

    def __init__(self, names: tuple[str, ...]) -> None:
        self.given = names
        #: each name and its words, split when the first line with a hex value asks (prose without one,
        #: the common case, never pays for splitting every colour's name)
        self.names: list[tuple[str, list[str]]] | None = None
        self.compiled: dict[str, re.Pattern[str]] = {}

    def named(self, text: str) -> list[str]:
        """The names whose pattern matches `text`."""
        if self.names is None:
            self.names = [(name, _name_words(name)) for name in self.given if len(name) >= 3]
        lower = text.lower() if text.isascii() else None
        found = []
        for name, words in self.names:
            if lower is not None and name.isascii() and not all(w.lower() in lower for w in words):
                continue  # some word is missing: the pattern cannot match
            pattern = self.compiled.get(name)
            if pattern is None:
                pattern = self.compiled[name] = _name_pattern(words)
            if pattern.search(text):
                found.append(name)
        return found


def prose_colors(model: Model, lines: list[str], body_start: int) -> list[RawFinding]:
    """A line of prose (outside code fences) that names exactly one colour token and gives exactly one
    hex value that differs from that token's value: the prose and the tokens disagree."""
    if not model.colors:
        return []
    candidates = _prose_candidates(tuple(model.colors), lines[body_start:])
    if candidates is None:
        return [
            RawFinding(
                "info",
                "colors",
                f"The prose was not checked against the colour tokens: {len(model.colors):,} colours and this "
                f"much prose give more than {MAX_NAME_LINE_PAIRS:,} name and line pairs to compare (a pinup limit).",
            )
        ]
    findings: list[RawFinding] = []
    for offset, hex_text, name in candidates:
        written = parse_css_color(hex_text)
        token = model.colors[name]
        if written is None or written.hex[:7] == token.hex[:7]:
            continue
        findings.append(
            RawFinding(
                "warning",
                f"colors.{name}",
                f"The prose gives {hex_text} for '{name}', but the token is {token.hex}.",
                line=body_start + offset + 1,
            )
        )
    return findings


#: (colour names, the prose) -> what `_scan_prose` found there. Editing a token changes neither,
#: so a file linted again as it is edited (`pinup serve`) skips the scan. Bounded: the last few
#: pairs, prose up to `_PROSE_KEPT_CHARS` (lines hold no line break, so joined they are one key)
_PROSE_SCANS: dict[tuple[tuple[str, ...], str], list[tuple[int, str, str]] | None] = {}
_PROSE_SCANS_KEPT = 32
_PROSE_KEPT_CHARS = 256 * 1024


def _prose_candidates(names: tuple[str, ...], prose: list[str]) -> list[tuple[int, str, str]] | None:
    """`_scan_prose(names, prose)`, remembered for the last few (names, prose) pairs."""
    key = (names, "\n".join(prose))
    if len(key[1]) > _PROSE_KEPT_CHARS:
        return _scan_prose(names, prose)
    if key in _PROSE_SCANS:
        return _PROSE_SCANS[key]
    return remember(_PROSE_SCANS, key, _scan_prose(names, prose), _PROSE_SCANS_KEPT)


#: how many (colour name, prose line) pairs the check compares at most. Each line that gives one hex
#: value is compared with every colour name, so the work is their product: a file with thousands of
#: each would take minutes, and the check is advice, so past this it says it did not look.
MAX_NAME_LINE_PAIRS = 250_000


def _scan_prose(names: tuple[str, ...], prose: list[str]) -> list[tuple[int, str, str]] | None:
    """Each prose line (outside code fences) with exactly one hex value and exactly one colour name:
    (its index in `prose`, the hex value as written, the name); None when there are more
    (name, line) pairs to compare than `MAX_NAME_LINE_PAIRS`."""
    lines: list[tuple[int, str, str]] = []
    in_fence = False
    for index, text in enumerate(prose):
        if _FENCE_LINE.match(text):
            in_fence = not in_fence
            continue
        if in_fence or "#" not in text:
            continue
        hexes = _HEX_IN_PROSE.findall(text)
        if len(hexes) == 1:
            lines.append((index, text, hexes[0]))
    if len(lines) * len(names) > MAX_NAME_LINE_PAIRS:
        return None
    patterns = _NamePatterns(names)
    found: list[tuple[int, str, str]] = []
    for index, text, hex_text in lines:
        named = patterns.named(text)
        # prefer the longest names: "on-primary" also matches "primary"
        named = [n for n in named if not any(n != m and n in m for m in named)]
        if len(named) == 1:
            found.append((index, hex_text, named[0]))
    return found


def on_color_contrast(model: Model) -> list[RawFinding]:
    """Each `on-X` colour against its `X` colour (e.g. on-primary on primary) below WCAG AA 4.5:1."""
    findings: list[RawFinding] = []
    for name, color in model.colors.items():
        base = _on_base(name)
        if base is None or base not in model.colors:
            continue
        value = ratio(color, model.colors[base])
        if value < 4.5:
            findings.append(
                RawFinding(
                    "warning",
                    f"colors.{name}",
                    f"'{name}' ({color.hex}) on '{base}' ({model.colors[base].hex}) has contrast ratio "
                    f"{to_fixed(value, 2)}:1, below WCAG AA minimum of 4.5:1.",
                )
            )
    return findings


def _on_base(name: str) -> str | None:
    head, dot, tail = name.rpartition(".")
    if tail.startswith("on-") and len(tail) > 3:
        return f"{head}{dot}{tail[3:]}"
    return None


def duplicate_sections(model: Model) -> list[RawFinding]:
    """A canonical `##` section (after aliases) that appears more than once."""
    seen: dict[str, int] = {}
    findings: list[RawFinding] = []
    for heading in model.sections:
        name = canonical(heading.text)
        if name is None:
            continue
        if name in seen:
            findings.append(
                RawFinding(
                    "warning",
                    None,
                    f"Section '{name}' appears again (first at line {seen[name]}).",
                    line=heading.line,
                )
            )
        else:
            seen[name] = heading.line
    return findings


def font_weights(model: Model) -> list[RawFinding]:
    """A fontWeight outside CSS's 1–1000 range (the reference accepts any number, even 0 from "")."""
    findings: list[RawFinding] = []
    for name, typo in model.typography.items():
        weight = typo.props.get("fontWeight")
        if weight is None:
            continue
        if not (1 <= weight <= 1000):
            findings.append(
                RawFinding(
                    "warning",
                    f"typography.{name}.fontWeight",
                    f"fontWeight {js_string(weight)} is outside the CSS range 1–1000.",
                )
            )
    return findings


def prose_colors_rule(model: Model) -> list[RawFinding]:
    return prose_colors(model, model.source_lines, model.body_start)


prose_colors_rule.__doc__ = prose_colors.__doc__


EXTENDED_RULES: tuple[Rule, ...] = (
    Rule("token-broken-ref", "error", token_refs.__doc__ or "", token_refs, extended=True),
    Rule("spacing-value", "warning", spacing_values.__doc__ or "", spacing_values, extended=True),
    Rule("prose-color-mismatch", "warning", prose_colors.__doc__ or "", prose_colors_rule, extended=True),
    Rule("on-color-contrast", "warning", on_color_contrast.__doc__ or "", on_color_contrast, extended=True),
    Rule("duplicate-section", "warning", duplicate_sections.__doc__ or "", duplicate_sections, extended=True),
    Rule("font-weight-range", "warning", font_weights.__doc__ or "", font_weights, extended=True),
    Rule("mode-value", "error", mode_values.check.__doc__ or "", mode_values.check, extended=True),
    Rule("mode-contrast", "warning", mode_contrast.check.__doc__ or "", mode_contrast.check, extended=True),
    Rule("non-text-contrast", "warning", non_text_contrast.check.__doc__ or "", non_text_contrast.check, extended=True),
    Rule("cvd-pair", "warning", cvd_pairs.check.__doc__ or "", cvd_pairs.check, extended=True),
    Rule("interactive-states", "info", interactive_states.check.__doc__ or "", interactive_states.check, extended=True),
)
