"""Load one YAML block the way the reference's `yaml` 2.x library does (YAML 1.2 core schema).

ruamel.yaml only composes the node tree (so we get marks for line numbers); the
scalars are resolved here, by the YAML 1.2 core rules the reference uses: `yes`
and `on` stay strings, `0777` is 777, `<<` is an ordinary key, duplicate keys
are errors, and mappings enumerate keys in JavaScript object order (integer-like
keys first, ascending). Every mapping and sequence remembers the 1-based source
line of each of its entries.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from pinup.designmd.jsnum import js_number, js_parse_int
from pinup.designmd.jsobject import reorder

if TYPE_CHECKING:
    from typing import Any


class YDict(dict["Any", "Any"]):  # quoted: no `typing` import at run time
    """A mapping that remembers the source line of each key (and its own)."""

    __slots__ = ("key_lines", "line")

    def __init__(self) -> None:
        super().__init__()
        self.key_lines: dict[str, int] = {}
        self.line = 0


class YList(list["Any"]):  # quoted, as YDict
    """A sequence that remembers the source line of each item."""

    __slots__ = ("item_lines", "line")

    def __init__(self) -> None:
        super().__init__()
        self.item_lines: list[int] = []
        self.line = 0


class YamlError(Exception):
    """A YAML error with the message formatted like the reference's (`… at line L, column C:` + excerpt)."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line  # 1-based, relative to the block


_NULL = {"", "~", "null", "Null", "NULL"}
_TRUE = {"true", "True", "TRUE"}
_FALSE = {"false", "False", "FALSE"}
_INT = re.compile(r"^[-+]?[0-9]+\Z")
_OCT = re.compile(r"^0o[0-7]+\Z")
_HEX = re.compile(r"^0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)\Z")
_EXP = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+\Z")
_INF = re.compile(r"^[-+]?\.(?:inf|Inf|INF)\Z")
_NAN = re.compile(r"^\.(?:nan|NaN|NAN)\Z")
_PLAIN = "tag:pinup:plain"
_NUL_SUB = "\U0010fffe"
_CR_SUB = "\U0010fffd"
_LONE_CR = re.compile(r"\r(?!\n)")


def resolve_plain(text: str) -> Any:
    """A plain scalar by the YAML 1.2 core schema."""
    if text in _NULL:
        return None
    first = text[0]
    if first in "tTfF":
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        return text
    if first in "0123456789+-.":
        if _INT.match(text):
            return js_parse_int(text)
        if _OCT.match(text):
            return js_parse_int(text[2:], 8)
        if _HEX.match(text):
            return js_parse_int(text[2:], 16)
        if _FLOAT.match(text) or _EXP.match(text):
            return float(text)
        if _INF.match(text):
            return -math.inf if text.startswith("-") else math.inf
        if _NAN.match(text):
            return math.nan
    return text


def js_string(value: Any) -> str:
    """JavaScript `String(value)` for YAML values (used for keys and in messages)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return js_number(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ",".join("" if v is None else js_string(v) for v in value)
    if isinstance(value, dict):
        return "[object Object]"
    return str(value)


def key_string(value: Any) -> str:
    """A mapping key as the `yaml` library turns it into a JavaScript property name."""
    if value is None:
        return ""
    if isinstance(value, list):
        return "[ " + ", ".join(key_string(v) for v in value) + " ]" if value else "[]"
    if isinstance(value, dict):
        inner = ", ".join(f"{key_string(k)}: {key_string(v)}" for k, v in value.items())
        return "{ " + inner + " }" if value else "{}"
    return js_string(value)


def dup_identity(value: Any) -> tuple[str, Any]:
    """What makes two keys the same key for the `yaml` library's uniqueness check."""
    if value is None:
        return ("null", None)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (int, float)):
        return ("num", float(value))
    if isinstance(value, str):
        return ("str", value)
    return ("obj", id(value))


def prettify(source: str, message: str, line: int, col: int, count: int = 1, starts: list[int] | None = None) -> str:
    """Append ` at line L, column C:` and a code excerpt with a caret, as the `yaml` library does.

    Lines start where `starts` says (the `yaml` library's line counter); by default at each \\n
    (the `yaml` library does not break lines at a lone \\r).
    """
    if starts is None:
        starts = [0, *(m.end() for m in re.finditer("\n", source))]
    message += f" at line {line}, column {col}"
    if line < 1 or line - 1 >= len(starts):
        return message
    ci = col - 1

    def text_of(number: int) -> str:
        begin = starts[number - 1]
        return source[begin : starts[number]] if number < len(starts) else source[begin:]

    line_str = re.sub(r"[\n\r]+\Z", "", text_of(line))
    if ci >= 60 and len(line_str) > 80:
        trim = min(ci - 39, len(line_str) - 79)
        line_str = "…" + line_str[trim:]
        ci -= trim - 1
    if len(line_str) > 80:
        line_str = line_str[:79] + "…"
    if line > 1 and re.fullmatch(r" *", line_str[:ci]):
        prev = text_of(line - 1)
        if len(prev) > 80:
            prev = prev[:79] + "…\n"
        line_str = prev + line_str
    if re.search(r"[^ ]", line_str):
        pointer = " " * ci + "^" * max(1, min(count, 80 - ci))
        message += f":\n\n{line_str}\n{pointer}\n"
    return message


def _resolver_class() -> type:
    from ruamel.yaml.nodes import ScalarNode, SequenceNode
    from ruamel.yaml.resolver import BaseResolver
    from ruamel.yaml.tag import Tag

    class PlainResolver(BaseResolver):
        """Marks untagged plain scalars so we resolve them ourselves (YAML 1.2 core)."""

        def __init__(self, version: Any = None, loader: Any = None, loadumper: Any = None) -> None:
            super().__init__(loadumper=loadumper if loadumper is not None else loader)

        @property
        def processing_version(self) -> Any:
            return (1, 2)

        def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
            if kind is ScalarNode:
                if implicit[0]:
                    return Tag(suffix=_PLAIN)
                return self.DEFAULT_SCALAR_TAG
            if kind is SequenceNode:
                return self.DEFAULT_SEQUENCE_TAG
            return self.DEFAULT_MAPPING_TAG

    return PlainResolver


def _scanner_classes() -> tuple[type, type]:
    """A ruamel scanner that treats tabs as the `yaml` library does (separation yes, indentation no),
    and a reader that accepts every character (the `yaml` library does not reject control characters)."""
    from ruamel.yaml.reader import Reader
    from ruamel.yaml.scanner import Scanner

    class TabScanner(Scanner):
        def _tab_allowed(self) -> bool:
            if self.flow_level > 0:
                return True
            reader = self.reader
            buffer, pointer = reader.buffer, reader.pointer
            start = buffer.rfind("\n", 0, pointer) + 1
            return bool(buffer[start:pointer].strip(" \t"))

        def scan_to_next_token(self) -> Any:
            srp = self.reader.peek
            srf = self.reader.forward
            if self.reader.index == 0 and srp() == "\ufeff":
                srf()
            while True:
                while srp() == " " or (srp() == "\t" and self._tab_allowed()):
                    srf()
                if srp() == "#":
                    reader = self.reader
                    # a quoted scalar run on from an earlier line: a quote left open, worded later
                    multiline = getattr(self, "quoted_from", reader.line) < reader.line
                    if not multiline and reader.pointer and reader.buffer[reader.pointer - 1] not in " \t\r\n\ufeff":
                        from ruamel.yaml.scanner import ScannerError

                        raise ScannerError(None, None, COMMENT_NOT_SEPARATED, reader.get_mark())
                    while srp() not in "\0\r\n\x85\u2028\u2029":
                        srf()
                if self.scan_line_break():
                    if not self.flow_level:
                        self.allow_simple_key = True
                else:
                    return None

        def scan_flow_scalar(self, style: Any) -> Any:
            start = self.reader.line
            token = super().scan_flow_scalar(style)
            self.quoted_from = start if self.reader.line > start else self.reader.line
            return token

        def scan_plain_spaces(self, indent: Any, start_mark: Any) -> Any:
            srp = self.reader.peek
            length = 0
            while srp(length) in " \t":
                length += 1
            if length and srp(length) not in "\r\n\x85\u2028\u2029\0" and srp(length) != "#":
                whitespaces = self.reader.prefix(length)
                self.reader.forward(length)
                return [whitespaces]
            return super().scan_plain_spaces(indent, start_mark)

    class LenientReader(Reader):
        def check_printable(self, data: Any) -> None:
            return None

    return TabScanner, LenientReader


#: The `yaml` library's error (code MISSING_CHAR) for `'#ffcbef'# note`: a comment must follow white space.
COMMENT_NOT_SEPARATED = "Comments must be separated from other tokens by white space characters"

#: The `yaml` library's default `maxAliasCount`: past it, a document is refused as an alias bomb.
MAX_ALIAS_COUNT = 100
ALIAS_BOMB_MESSAGE = "Excessive alias count indicates a resource exhaustion attack"


class _Anchor:
    """What the `yaml` library keeps per anchored node: times used, and the alias weight inside it."""

    __slots__ = ("alias_count", "count")

    def __init__(self) -> None:
        self.count = 1
        self.alias_count = 0


class _Builder:
    """Node tree -> Python values. A node met twice is an alias (the composers share the node);
    aliases are counted exactly as the `yaml` library counts them, so a bomb stops early with the
    reference's own message instead of expanding into millions of values downstream."""

    def __init__(self, source: str, line_offset: int) -> None:
        self.source = source
        self.offset = line_offset
        self.memo: dict[int, Any] = {}
        self.anchors: dict[int, _Anchor] = {}
        self.children: dict[int, list[tuple[Any, bool]]] = {}  # collection -> (child, was an alias)

    def child(self, parent: Any, node: Any, indent: int = -1) -> Any:
        """Build `node` as an entry of `parent`, recording whether it was an alias there."""
        self.children[id(parent)].append((node, id(node) in self.memo))
        return self.build(node, indent)

    def _alias_weight(self, node: Any, was_alias: bool) -> int:
        """The `yaml` library's getAliasCount: the heaviest alias reachable without following one."""
        if was_alias:
            anchor = self.anchors.get(id(node))
            return anchor.count * anchor.alias_count if anchor is not None else 0
        entries = self.children.get(id(node))
        if entries is None:
            return 1
        return max((self._alias_weight(child, alias) for child, alias in entries), default=0)

    def _use_alias(self, node: Any) -> None:
        anchor = self.anchors.setdefault(id(node), _Anchor())
        anchor.count += 1
        if anchor.alias_count == 0:
            anchor.alias_count = self._alias_weight(node, False)
        if anchor.count * anchor.alias_count > MAX_ALIAS_COUNT:
            raise YamlError(ALIAS_BOMB_MESSAGE, node.start_mark.line + 1)

    def build(self, node: Any, indent: int = -1) -> Any:
        key = id(node)
        if key in self.memo:
            self._use_alias(node)
            return self.memo[key]
        kind = node.id  # 'mapping' | 'sequence' | 'scalar' in both ruamel and PyYAML
        if kind == "mapping":
            return self._mapping(node)
        if kind == "sequence":
            out = YList()
            out.line = node.start_mark.line + 1 + self.offset
            self.memo[key] = out
            self.children[key] = []
            child_indent = -1 if node.flow_style else node.start_mark.column
            for item in node.value:
                out.append(self.child(node, item, child_indent))
                out.item_lines.append(item.start_mark.line + 1 + self.offset)
            return out
        if indent >= 0 and node.style in ('"', "'") and node.end_mark.line > node.start_mark.line:
            self._check_quoted(node, indent)
        return self._scalar(node)

    def _check_quoted(self, node: Any, indent: int) -> None:
        """A multi-line quoted scalar in block context must indent its continuation lines past its parent."""
        lines = self.source.split("\n")
        first = node.start_mark.line
        for number in range(first + 1, node.end_mark.line + 1):
            if number >= len(lines):
                break
            text = lines[number].rstrip("\r")
            if not text.strip(" \t"):
                continue
            if len(text) - len(text.lstrip(" ")) <= indent:
                quote = '"quote' if node.style == '"' else "'quote"
                col = len(lines[first].rstrip("\r")) + 1
                raise YamlError(prettify(self.source, f"Missing closing {quote}", first + 1, col), first + 1)

    def _scalar(self, node: Any) -> Any:
        tag = str(node.tag)
        text = node.value
        if _NUL_SUB in text:
            text = text.replace(_NUL_SUB, "\x00")
        if _CR_SUB in text:
            text = text.replace(_CR_SUB, "\r")
        if tag == _PLAIN:
            return resolve_plain(text)
        if tag in ("tag:yaml.org,2002:str", "!!str"):
            return text
        kind = tag.rsplit(":", 1)[-1] if tag.startswith("tag:yaml.org,2002:") else ""
        if kind in ("int", "float", "bool", "null"):
            # an explicit core tag converts the text whatever its quoting; text it cannot read stays a string
            value = resolve_plain(text)
            if kind == "null" and value is None:
                return None
            if kind == "bool" and isinstance(value, bool):
                return value
            if kind in ("int", "float") and isinstance(value, (int, float)) and not isinstance(value, bool):
                return float(value) if kind == "float" else value
        return text

    def _duplicate_position(self, key_node: Any, previous: tuple[Any, Any] | None) -> tuple[int, int]:
        """Where the `yaml` library reports a duplicate key: at the key, except right after an empty
        value, where it points just past the end of that value's line."""
        mark = key_node.start_mark
        if previous is not None:
            prev_key, prev_value = previous
            if prev_value.id == "scalar" and prev_value.value == "" and not prev_value.style:
                text = self.source.split("\n")[prev_key.start_mark.line].rstrip("\r")
                if "#" not in text[prev_key.start_mark.column :] and prev_key.start_mark.line < mark.line:
                    return prev_key.start_mark.line + 1, len(text) + 1
        return mark.line + 1, mark.column + 1

    def _mapping(self, node: Any) -> YDict:
        out = YDict()
        out.line = node.start_mark.line + 1 + self.offset
        self.memo[id(node)] = out
        self.children[id(node)] = []
        seen: set[tuple[str, Any]] = set()
        block = not node.flow_style
        previous: tuple[Any, Any] | None = None
        for key_node, value_node in node.value:
            key_value = self.child(node, key_node)
            ident = dup_identity(key_value)
            if ident in seen:
                line, col = self._duplicate_position(key_node, previous)
                raise YamlError(prettify(self.source, "Map keys must be unique", line, col), line)
            seen.add(ident)
            previous = (key_node, value_node)
            key = key_string(key_value)
            out[key] = self.child(node, value_node, key_node.start_mark.column if block else -1)
            out.key_lines.setdefault(key, key_node.start_mark.line + 1 + self.offset)
        reorder(out)
        return out


#: The `yaml` library's lexer names for one-character tokens, as its "Unexpected … at node end" says.
_INDICATORS = {"-": "seq-item-ind", "?": "explicit-key-ind", ":": "map-value-ind"}
_FLOW_STARTS = {"[": "flow-seq-start", "{": "flow-map-start", "]": "flow-seq-end", "}": "flow-map-end"}


def token_at(line: str, col: int) -> tuple[str, int]:
    """The `yaml` library's name for the token starting at `col`, and its length on the line."""
    rest = line[col:].rstrip()
    head, after = rest[:1], rest[1:2]
    if head in _INDICATORS and after in ("", " ", "\t"):
        return _INDICATORS[head], 1
    if head in _FLOW_STARTS:
        return _FLOW_STARTS[head], 1
    if head in ("&", "*", "!"):
        name = rest.split(" ", 1)[0]
        return {"&": "anchor", "*": "alias", "!": "tag"}[head], len(name)
    if head in ("'", '"'):
        close = rest.find(head, 1)
        return "scalar", (close + 1 if close > 0 else len(rest))
    end = len(rest)
    for stop in (": ", " #"):
        found = rest.find(stop)
        if found >= 0:
            end = min(end, found)
    if rest.endswith(":"):
        end = min(end, len(rest) - 1)
    return "scalar", max(end, 1)


def _error_from_ruamel(source: str, exc: Exception) -> YamlError:
    """Word a ruamel.yaml error like the `yaml` library would, for the errors people usually make."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    start = getattr(exc, "context_mark", None)
    problem = str(getattr(exc, "problem", None) or str(exc).splitlines()[0])
    context = str(getattr(exc, "context", "") or "")
    lines = source.split("\n")

    def line_text(index: int) -> str:
        return lines[index].rstrip("\r") if 0 <= index < len(lines) else ""

    def at(message: str, line: int, col: int, count: int = 1) -> YamlError:
        return YamlError(prettify(source, message, line + 1, col + 1, count), line + 1)

    if problem.startswith("found unknown escape character") and mark is not None and mark.column > 0:
        raw = line_text(mark.line)[mark.column - 1 : mark.column + 1]  # the backslash and what follows
        return at(f"Invalid escape sequence {raw}", mark.line, mark.column - 1)
    if problem.startswith("expected escape sequence of ") and mark is not None:
        length = int(problem.split()[4])
        start = line_text(mark.line).rfind("\\", 0, mark.column + 1)
        if start >= 0:
            raw = line_text(mark.line)[start : start + 2 + length]
            return at(f"Invalid escape sequence {raw}", mark.line, start)
    if problem == COMMENT_NOT_SEPARATED and mark is not None:
        return at(problem, mark.line, mark.column, len(line_text(mark.line)) - mark.column)
    if mark is not None and problem.startswith("found character '") and problem.endswith("cannot start any token"):
        char = problem[len("found character '")]
        following = next((line_text(i) for i in range(mark.line + 1, len(lines)) if line_text(i).strip()), "")
        if char in "@`" and ":" in following and ":" not in line_text(mark.line):
            return at("Implicit keys need to be on a single line", mark.line, mark.column)
        if char in "@`":
            return at(f"Plain value cannot start with reserved character {char}", mark.line, mark.column)
    if mark is not None and problem == "expected <block end>, but found '-'":
        return at("A block sequence may not be used as an implicit map key", mark.line, 0)
    if problem == "expected the node content, but found '<document end>'" and mark is not None:
        after = next((i for i in range(mark.line + 1, len(lines)) if line_text(i).strip()), None)
        if after is not None:
            message = "Source contains multiple documents; please use YAML.parseAllDocuments()"
            return at(message, after, 0, len(line_text(after).rstrip()))
    if "expected a single document" in problem or "but found another document" in problem:
        message = "Source contains multiple documents; please use YAML.parseAllDocuments()"
    elif "'\\t'" in problem and mark is not None:
        text = line_text(mark.line)
        blank = len(text) - len(text.lstrip(" \t"))
        if blank > mark.column:
            return at("Tabs are not allowed as indentation", mark.line, 0, blank)
        message = "Tabs are not allowed as indentation"
    elif "quoted scalar" in context and "end of stream" in problem and start is not None:
        quote = "'quote" if source[start.index : start.index + 1] == "'" else '"quote'
        return at(f"Missing closing {quote}", start.line, len(line_text(start.line)))
    elif "could not find expected ':'" in problem and start is not None:
        text = line_text(start.line)[start.column :].rstrip()
        following = next((line_text(i) for i in range(start.line + 1, len(lines)) if line_text(i).strip()), "")
        if ":" in following:
            return at("Implicit keys need to be on a single line", start.line, start.column)
        return at("Implicit map keys need to be followed by map values", start.line, start.column, len(text))
    elif "mapping values are not allowed here" in problem and mark is not None:
        text, previous = line_text(mark.line), line_text(mark.line - 1)

        def value_start(line: str, limit: int) -> int:
            colon = line.find(": ")
            if colon < 0 or colon >= limit:
                return -1
            value = colon + 2
            while value < len(line) and line[value] == " ":
                value += 1
            return value if value < len(line) else -1

        here = value_start(text, mark.column)
        above = value_start(previous, len(previous)) if mark.line > 0 else -1
        if here >= 0:
            return at("Nested mappings are not allowed in compact mappings", mark.line, here)
        if above >= 0:
            return at("Nested mappings are not allowed in compact mappings", mark.line - 1, above)
        if mark.line > 0 and ": " not in previous and not previous.rstrip().endswith(":"):  # no map-value indicator
            indent = len(previous) - len(previous.lstrip(" "))
            return at("Implicit keys need to be on a single line", mark.line - 1, indent)
        message = "YAML syntax error: " + problem
    elif mark is not None and (
        problem.startswith("expected '<document start>', but found") or problem == "expected <block end>, but found '?'"
    ):
        kind, count = token_at(line_text(mark.line), mark.column)
        return at(f"Unexpected {kind} at node end", mark.line, mark.column, count)
    elif "but found '<block mapping start>'" in problem and mark is not None:
        return at("All mapping items must start at the same column", mark.line, 0)
    elif problem.startswith("found undefined alias"):
        name = problem.split("'")[1] if "'" in problem else ""
        line = mark.line + 1 if mark is not None else None
        return YamlError(f"Unresolved alias (the anchor must be set before the alias): {name}", line)
    elif "but found '<scalar>'" in problem and mark is not None:
        text = line_text(mark.line)
        before = text[: mark.column].rstrip(" ")
        if before.endswith(('"', "'")):
            rest = text[mark.column :].rstrip()
            return at("Unexpected scalar at node end", mark.line, mark.column, len(rest))
        message = "YAML syntax error: " + problem
    elif "expected ',' or '}'" in problem and mark is not None:
        return at("Flow map in block collection must be sufficiently indented and end with a }", mark.line, 0)
    elif "expected ',' or ']'" in problem and mark is not None:
        return at("Flow sequence in block collection must be sufficiently indented and end with a ]", mark.line, 0)
    else:
        message = "YAML syntax error: " + problem
    if mark is None:
        return YamlError(message, None)
    return at(message, mark.line, mark.column)


def _fast_loader() -> Any:
    """libyaml's composer (through PyYAML's C binding) with our YAML 1.2 resolver, or None."""
    global _FAST
    if _FAST is False:
        try:
            from yaml._yaml import CParser  # type: ignore[import-untyped]  # PyYAML ships no types
            from yaml.nodes import ScalarNode, SequenceNode  # type: ignore[import-untyped]  # as above
            from yaml.resolver import BaseResolver  # type: ignore[import-untyped]  # as above
        except ImportError:
            _FAST = None
            return None

        class FastLoader(CParser, BaseResolver):  # type: ignore[misc]  # untyped bases (PyYAML)
            def __init__(self, stream: str) -> None:
                CParser.__init__(self, stream)
                BaseResolver.__init__(self)

            def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
                if kind is ScalarNode:
                    return _PLAIN if implicit[0] else "tag:yaml.org,2002:str"
                if kind is SequenceNode:
                    return "tag:yaml.org,2002:seq"
                return "tag:yaml.org,2002:map"

        _FAST = FastLoader
    return _FAST


_FAST: Any = False


def _compose_fast(text: str) -> tuple[bool, Any]:
    """(True, node) when libyaml composes the block cleanly; (False, None) to use the exact path."""
    loader_class = _fast_loader()
    if loader_class is None or "\t" in text:
        return False, None
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
    except Exception:  # any libyaml complaint: let the exact (ruamel) path decide and word it
        return False, None
    finally:
        loader.dispose()
    return (False, None) if _comment_touches_a_value(text, node) else (True, node)


def _comment_touches_a_value(text: str, root: Any) -> bool:
    """A quoted scalar or flow collection that ends right before `#`: libyaml takes the `#` as a
    comment, the `yaml` library refuses it, so the exact path must word that."""
    if "#" not in text:
        return False
    stack = [root] if root is not None else []
    seen: set[int] = set()  # an alias is the node it names: visit it once
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        value = node.value
        if isinstance(value, list):
            stack.extend(item for pair in value for item in (pair if isinstance(pair, tuple) else (pair,)))
            if not node.flow_style:
                continue
        elif not node.style:
            continue
        end = node.end_mark.index
        if end < len(text) and text[end] == "#":
            return True
    return False


#: Flow collections nested deeper than this are refused before parsing (no DESIGN.md needs 10).
MAX_FLOW_DEPTH = 200


def flow_too_deep(text: str) -> bool:
    """A cheap, conservative bracket count: parsers recurse per level, so refuse absurd depth
    up front instead of spending seconds before the recursion limit says the same."""
    if text.count("[") + text.count("{") <= MAX_FLOW_DEPTH:
        return False
    depth = 0
    for char in text:
        if char in "[{":
            depth += 1
            if depth > MAX_FLOW_DEPTH:
                return True
        elif char in "]}" and depth:
            depth -= 1
    return False


#: how many unresolved aliases `_problem_past_alias` looks past, each by composing the block again
ALIASES_LOOKED_PAST = 8


def load_block(text: str, line_offset: int = 0, aliases: int = ALIASES_LOOKED_PAST) -> Any:
    """Parse one YAML block; lines in the result are `line_offset` + the block's own 1-based line.

    Clean blocks are composed by libyaml (fast); anything libyaml rejects, and any block with
    tabs, goes through ruamel.yaml with the `yaml` library's tab rules, which words the error.
    Raises `YamlError` (message shaped like the reference's) on any YAML error. `aliases`: how many
    more unresolved aliases may be looked past for an earlier problem (each costs a compose).
    """
    original = text
    if flow_too_deep(text):
        raise YamlError("YAML nesting is too deep", None)
    if "\x00" in text:
        # ruamel uses NUL as its end-of-input marker; carry NULs through as a placeholder
        text = text.replace("\x00", _NUL_SUB)
    if "\r" in text:
        # the `yaml` library ends lines only at \n (and \r\n): a lone CR does not break a line
        text = _LONE_CR.sub(_CR_SUB, text)
    ok, node = _compose_fast(text)
    if not ok:
        try:
            node = _compose_exact(text, original)
        except YamlError as exc:
            raise _earlier_problem(text, exc) or _problem_past_alias(text, exc, aliases) or exc from None
    if node is None:
        return None
    try:
        return _Builder(text, line_offset).build(node)
    except RecursionError:
        raise YamlError("YAML nesting is too deep", None) from None


def _problem_past_alias(text: str, error: YamlError, budget: int) -> YamlError | None:
    """Another problem in a block with an unresolved alias, which the `yaml` library reports first.

    It resolves aliases only after composing the whole document, so a duplicate key or a syntax
    error anywhere wins; ruamel stops at the alias. Read the block again with the alias blanked out
    (`~` and spaces, so every column stays put) and report what that finds, if anything.
    """
    prefix = "Unresolved alias (the anchor must be set before the alias): "
    if budget <= 0 or not error.message.startswith(prefix) or not error.line:
        return None  # past a few aliases the alias itself is reported: each look is a whole compose
    name = error.message[len(prefix) :]
    lines = text.split("\n")
    index = error.line - 1
    if not (0 <= index < len(lines)) or "*" + name not in lines[index]:
        return None
    original = lines[index]
    lines[index] = original.replace("*" + name, "~" + " " * len(name), 1)
    try:
        load_block("\n".join(lines), aliases=budget - 1)
    except YamlError as exc:
        if exc.message.startswith(prefix):
            return None  # only more aliases below: the first one is what the `yaml` library reports
        return YamlError(exc.message.replace(lines[index] + "\n", original + "\n"), exc.line)
    return None


def _duplicate_on_error_line(text: str, line: int) -> YamlError | None:
    """A duplicate key on the line of a value's error: the `yaml` library meets the key first.

    The lines above with that key alone are composed directly, not through `load_block`: its own
    search for an earlier problem would start this search again on the same line, once per level
    of Python's recursion limit, each time composing the whole block.
    """
    lines = text.split("\n")
    here = lines[line - 1] if line - 1 < len(lines) else ""
    if ": " not in here:
        return None
    key_only = here.split(": ", 1)[0] + ": ~"
    if key_only == here:
        return None
    prefix = "\n".join([*lines[: line - 1], key_only])
    try:
        ok, node = _compose_fast(prefix)
        if not ok:
            node = _compose_exact(prefix)
        if node is not None:
            _Builder(prefix, 0).build(node)
    except YamlError as exc:
        if exc.message.startswith("Map keys must be unique") and exc.line == line:
            return YamlError(exc.message.replace(key_only + "\n", here + "\n"), exc.line)
    except RecursionError:
        return None
    return None


def _earlier_problem(text: str, error: YamlError) -> YamlError | None:
    """A duplicate key (or alias bomb) above a syntax error, which the `yaml` library reports first.

    ruamel stops at the syntax error before our builder looks for duplicates, so compose the
    lines above the error on their own (cut a line or two above it, or at the top-level entry
    holding it: the first cut that parses) and report their problem, if any.
    """
    if not error.line:
        return None
    same_line = _duplicate_on_error_line(text, error.line)
    if same_line is not None or error.line <= 2:
        return same_line
    lines = text.split("\n")[: error.line - 1]
    top = len(lines)
    while top > 0 and not (lines[top - 1][:1].strip() and lines[top - 1][0] not in "#-"):
        top -= 1
    for cut in dict.fromkeys((len(lines), len(lines) - 1, top - 1)):
        if cut < 1:
            continue
        prefix = "\n".join(lines[:cut])
        ok, node = _compose_fast(prefix)
        try:
            if not ok:
                node = _compose_exact(prefix)
            if node is not None:
                _Builder(prefix, 0).build(node)
            return None  # the part above parses cleanly: the syntax error is the first problem
        except (YamlError, RecursionError) as exc:
            if (
                isinstance(exc, YamlError)
                and exc.line is not None
                and exc.line < error.line
                and (exc.message.startswith(("Map keys must be unique", ALIAS_BOMB_MESSAGE)))
            ):
                return exc
    return None


def _compose_exact(text: str, original: str | None = None) -> Any:
    from ruamel.yaml.main import YAML

    yaml = YAML(typ="safe", pure=True)
    yaml.Resolver = _resolver_class()
    yaml.Scanner, yaml.Reader = _scanner_classes()
    yaml.allow_duplicate_keys = True
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. a reused anchor: legal YAML, the later one wins
            return yaml.compose(text)
    except RecursionError:
        raise YamlError("YAML nesting is too deep", None) from None
    except Exception as exc:  # ruamel raises many error classes; all mean "bad YAML"
        raise _error_from_ruamel(original if original is not None else text, exc) from None
