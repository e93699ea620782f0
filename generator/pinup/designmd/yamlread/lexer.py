"""Split YAML text into the lexical tokens the `yaml` library's lexer emits.

The tokens are slices of the source plus four control strings (`DOCUMENT`, `FLOW_END`,
`SCALAR`, `BOM`). The whole input is always at hand here, so the lexer never waits for more
text. Indices past the end read as the empty string, like `undefined` in the original.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

BOM = "\ufeff"
DOCUMENT = "\x02"
FLOW_END = "\x18"
SCALAR = "\x1f"

_TAG_CHARS = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-#;/?:@&=+$_.!~*'()")
_HEX = frozenset("0123456789ABCDEFabcdef")
_FLOW_INDICATORS = frozenset(",[]{}")
_NOT_ANCHOR = frozenset(" ,[]{}\n\r\t")
#: a run of characters that can neither end a plain scalar nor start a comment (a speed-up only)
_PLAIN_RUN = re.compile(r"[^:\s]+")
_PLAIN_RUN_FLOW = re.compile(r"[^:\s,\[\]{}]+")


#: the characters `_push_indicators` can act on, and those a flow collection skips before its next token
_INDICATOR_START = frozenset("!&-?:")
_BREAK_OR_BLANK = frozenset("\n\r \t")

#: `ch in _EMPTY` is `_is_empty(ch)` for a character or the empty string (past the end)
_EMPTY = " \n\r\t"

_SPACES = re.compile(" +")
_SPACES_TABS = re.compile("[ \t]+")


def _is_empty(ch: str) -> bool:
    return ch in ("", " ", "\n", "\r", "\t")


class Lexer:
    """One pass over one source; `tokens` yields every token in order."""

    def __init__(self, source: str) -> None:
        self.buf = source
        self.size = len(source)
        self.pos = 0
        self.block_indent = -1  # explicit block scalar indentation, minus one; -1 when not given
        self.block_keep = False
        self.flow_key = False
        self.flow_level = 0
        self.indent_next = 0
        self.indent_value = 0
        self.line_break: int | None = None  # the next \n at or after `pos` (-1: none), once looked up
        self.out: list[str] = []

    def tokens(self) -> Iterator[str]:
        """Every token in order, a state's worth at a time (so a reader can stop early)."""
        states = {
            "stream": self._stream,
            "line-start": self._line_start,
            "block-start": self._block_start,
            "doc": self._document,
            "flow": self._flow_collection,
            "quoted-scalar": self._quoted_scalar,
            "block-scalar": self._block_scalar,
            "plain-scalar": self._plain_scalar,
        }
        state: str | None = "stream"
        out = self.out
        while state is not None and self.pos < self.size:
            state = states[state]()
            yield from out
            out.clear()

    # -- helpers ------------------------------------------------------------------------------

    def _at(self, i: int) -> str:
        return self.buf[i] if 0 <= i < self.size else ""

    def _char(self, n: int) -> str:
        return self._at(self.pos + n)

    def _at_line_end(self) -> bool:
        i = self.pos
        ch = self._at(i)
        while ch in (" ", "\t") and ch:
            i += 1
            ch = self._at(i)
        if ch in ("", "#", "\n"):
            return True
        if ch == "\r":
            return self._at(i + 1) == "\n"
        return False

    def _continue_scalar(self, offset: int) -> int:
        ch = self._at(offset)
        if self.indent_next > 0:
            indent = 0
            while ch == " ":
                indent += 1
                ch = self._at(indent + offset)
            if ch == "\r":
                nxt = self._at(indent + offset + 1)
                if nxt == "\n":
                    return offset + indent + 1
            return offset + indent if ch == "\n" or indent >= self.indent_next else -1
        if ch in ("-", "."):
            marker = self.buf[offset : offset + 3]
            if marker in ("---", "...") and _is_empty(self._at(offset + 3)):
                return -1
        return offset

    def _line_end(self) -> int:
        """Where the current line's text ends (before its line break); the break is looked up once a line."""
        end = self.line_break
        if end is None or (end != -1 and end < self.pos):
            end = self.line_break = self.buf.find("\n", self.pos)
        if end == -1:
            return self.size
        if end > 0 and self.buf[end - 1] == "\r":
            end -= 1
        return max(end, self.pos)

    def _line(self) -> str:
        return self.buf[self.pos : self._line_end()]

    def _push_count(self, n: int) -> int:
        if n > 0:
            self.out.append(self.buf[self.pos : self.pos + n])
            self.pos += n
            return n
        return 0

    def _push_to_index(self, i: int, allow_empty: bool) -> int:
        s = self.buf[self.pos : i]
        if s:
            self.out.append(s)
            self.pos += len(s)
            return len(s)
        if allow_empty:
            self.out.append("")
        return 0

    def _push_spaces(self, allow_tabs: bool) -> int:
        buf, pos = self.buf, self.pos
        ch = buf[pos : pos + 1]
        if ch != " " and (ch != "\t" or not allow_tabs):
            return 0
        match = (_SPACES_TABS if allow_tabs else _SPACES).match(buf, pos)
        assert match is not None
        i = match.end()
        self.out.append(buf[pos:i])
        self.pos = i
        return i - pos

    def _push_newline(self) -> int:
        buf, pos = self.buf, self.pos
        if buf.startswith("\n", pos):
            self.out.append("\n")
            self.pos = pos + 1
            return 1
        if buf.startswith("\r\n", pos):
            self.out.append("\r\n")
            self.pos = pos + 2
            return 2
        return 0

    def _push_until_anchor_end(self) -> int:
        i = self.pos
        while i < self.size and self.buf[i] not in _NOT_ANCHOR:
            i += 1
        return self._push_to_index(i, False)

    def _push_indicators(self) -> int:
        buf = self.buf
        total = 0
        while True:
            pos = self.pos
            ch = buf[pos : pos + 1]
            if ch == "!":
                total += self._push_tag() + self._push_spaces(True)
            elif ch == "&":
                total += self._push_until_anchor_end() + self._push_spaces(True)
            elif ch in ("-", "?", ":") and ch:
                in_flow = self.flow_level > 0
                ch1 = buf[pos + 1 : pos + 2]
                if not (_is_empty(ch1) or (in_flow and ch1 in _FLOW_INDICATORS)):
                    return total
                if not in_flow:
                    self.indent_next = self.indent_value + 1
                elif self.flow_key:
                    self.flow_key = False
                total += self._push_count(1) + self._push_spaces(True)
            else:
                return total

    def _push_tag(self) -> int:
        if self._char(1) == "<":
            i = self.pos + 2
            ch = self._at(i)
            while not _is_empty(ch) and ch != ">":
                i += 1
                ch = self._at(i)
            return self._push_to_index(i + 1 if ch == ">" else i, False)
        i = self.pos + 1
        ch = self._at(i)
        while ch:
            if ch in _TAG_CHARS:
                i += 1
                ch = self._at(i)
            elif ch == "%" and self._at(i + 1) in _HEX and self._at(i + 2) in _HEX and self._at(i + 2):
                i += 3
                ch = self._at(i)
            else:
                break
        return self._push_to_index(i, False)

    # -- states -------------------------------------------------------------------------------

    def _stream(self) -> str | None:
        line = self._line()
        if line[:1] == BOM:
            self._push_count(1)
            line = line[1:]
        if line[:1] == "%":
            dir_end = len(line)
            cs = line.find("#")
            while cs != -1:
                if cs > 0 and line[cs - 1] in (" ", "\t"):
                    dir_end = cs - 1
                    break
                cs = line.find("#", cs + 1)
            while dir_end > 0 and line[dir_end - 1] in (" ", "\t"):
                dir_end -= 1
            n = self._push_count(dir_end) + self._push_spaces(True)
            self._push_count(len(line) - n)
            self._push_newline()
            return "stream"
        if self._at_line_end():
            sp = self._push_spaces(True)
            self._push_count(len(line) - sp)
            self._push_newline()
            return "stream"
        self.out.append(DOCUMENT)
        return self._line_start()

    def _line_start(self) -> str | None:
        buf, pos = self.buf, self.pos
        ch = buf[pos] if pos < self.size else ""
        if ch in ("-", ".") and ch:
            marker = buf[pos : pos + 3]
            if marker in ("---", "...") and _is_empty(buf[pos + 3 : pos + 4]):
                self._push_count(3)
                self.indent_value = 0
                self.indent_next = 0
                return "doc" if marker == "---" else "stream"
        self.indent_value = self._push_spaces(False)
        if self.indent_next > self.indent_value and not _is_empty(buf[self.pos + 1 : self.pos + 2]):
            self.indent_next = self.indent_value
        return self._block_start()

    def _block_start(self) -> str | None:
        buf = self.buf
        while True:
            pos = self.pos
            ch0 = buf[pos : pos + 1]
            if ch0 in ("-", "?", ":") and ch0 and _is_empty(buf[pos + 1 : pos + 2]):
                n = self._push_count(1) + self._push_spaces(True)
                self.indent_next = self.indent_value + 1
                self.indent_value += n
                continue
            return "doc"

    def _document(self) -> str | None:
        self._push_spaces(True)
        start, end = self.pos, self._line_end()
        n = self._push_indicators()
        ch = self.buf[start + n] if start + n < end else ""
        if ch == "#":
            self._push_count(end - start - n)
            ch = ""
        if ch == "":
            self._push_newline()
            return self._line_start()
        if ch in ("{", "["):
            self._push_count(1)
            self.flow_key = False
            self.flow_level = 1
            return "flow"
        if ch in ("}", "]"):
            self._push_count(1)  # an error, reported by the parser
            return "doc"
        if ch == "*":
            self._push_until_anchor_end()
            return "doc"
        if ch in ('"', "'"):
            return self._quoted_scalar()
        if ch in ("|", ">"):
            n += self._block_scalar_header()
            n += self._push_spaces(True)
            self._push_count(end - start - n)
            self._push_newline()
            return self._block_scalar()
        return self._plain_scalar()

    def _flow_collection(self) -> str | None:
        indent = -1
        while self.pos < self.size and self.buf[self.pos] in _BREAK_OR_BLANK:
            nl = self._push_newline()
            if nl > 0:
                sp = self._push_spaces(False)
                self.indent_value = indent = sp
            else:
                sp = 0
            sp += self._push_spaces(True)
            if nl + sp == 0:
                break
        buf, start, end = self.buf, self.pos, self._line_end()
        first = buf[start] if start < end else ""
        if (indent != -1 and indent < self.indent_next and first != "#") or (
            indent == 0
            and buf[start : min(start + 3, end)] in ("---", "...")
            and _is_empty(buf[start + 3 : min(start + 4, end)])
        ):
            # a closing bracket at the opening line's indentation is tolerated
            at_flow_end = indent == self.indent_next - 1 and self.flow_level == 1 and first in ("]", "}")
            if not at_flow_end:
                self.flow_level = 0
                self.out.append(FLOW_END)
                return self._line_start()
        out, i = self.out, start
        while i < end and buf[i] == ",":
            out.append(",")
            spaces = _SPACES_TABS.match(buf, i + 1)
            if spaces is None:
                i += 1
            else:
                i = spaces.end()
                out.append(buf[spaces.start() : i])
            self.flow_key = False
        self.pos = i
        if i < end and buf[i] in _INDICATOR_START:
            i += self._push_indicators()
        ch = buf[i] if i < end else ""
        if ch == "":
            return "flow"
        if ch == "#":
            self._push_count(end - i)
            return "flow"
        if ch in ("{", "["):
            out.append(ch)
            self.pos = i + 1
            self.flow_key = False
            self.flow_level += 1
            return "flow"
        if ch in ("}", "]"):
            out.append(ch)
            self.pos = i + 1
            self.flow_key = True
            self.flow_level -= 1
            return "flow" if self.flow_level else "doc"
        if ch == "*":
            self._push_until_anchor_end()
            return "flow"
        if ch in ('"', "'"):
            self.flow_key = True
            return self._quoted_scalar()
        if ch == ":":
            nxt = self._char(1)
            if self.flow_key or _is_empty(nxt) or nxt == ",":
                self.flow_key = False
                self._push_count(1)
                self._push_spaces(True)
                return "flow"
        self.flow_key = False
        return self._plain_scalar()

    def _quoted_scalar(self) -> str | None:
        buf = self.buf
        quote = self._char(0)
        end = buf.find(quote, self.pos + 1)
        if quote == "'":
            while end != -1 and self._at(end + 1) == "'":
                end = buf.find("'", end + 2)
        else:
            while end != -1:
                n = 0
                while end - 1 - n >= 0 and buf[end - 1 - n] == "\\":
                    n += 1
                if n % 2 == 0:
                    break
                end = buf.find('"', end + 1)
        # only newlines inside the quotes matter; an unclosed quote runs to the end of input
        limit = end
        nl = buf.find("\n", self.pos, limit) if end != -1 else -1
        if nl != -1:
            while nl != -1:
                cs = self._continue_scalar(nl + 1)
                if cs == -1:
                    break
                nl = buf.find("\n", cs, limit)
            if nl != -1:
                # an unexpected unindent: the scalar stops before it
                end = nl - (2 if nl > 0 and buf[nl - 1] == "\r" else 1)
        if end == -1:
            end = self.size
        self._push_to_index(end + 1, False)
        return "flow" if self.flow_level else "doc"

    def _block_scalar_header(self) -> int:
        self.block_indent = -1
        self.block_keep = False
        i = self.pos
        while True:
            i += 1
            ch = self._at(i)
            if ch == "+":
                self.block_keep = True
            elif ch and "0" < ch <= "9" and len(ch) == 1 and ch.isascii():
                self.block_indent = int(ch) - 1
            elif ch != "-":
                break
        i = self.pos
        while not (_is_empty(self._at(i)) or self._at(i) == "#"):
            i += 1
        return self._push_to_index(i, False)

    def _block_scalar(self) -> str | None:
        buf = self.buf
        nl = self.pos - 1
        indent = 0
        i = self.pos
        ch = ""
        while i < self.size:
            ch = buf[i]
            if ch == " ":
                indent += 1
            elif ch == "\n":
                nl = i
                indent = 0
            elif ch == "\r" and self._at(i + 1) == "\n":
                pass
            else:
                break
            i += 1
        else:
            ch = ""
        if indent >= self.indent_next:
            if self.block_indent == -1:
                self.indent_next = indent
            else:
                self.indent_next = self.block_indent + (1 if self.indent_next == 0 else self.indent_next)
            while True:
                cs = self._continue_scalar(nl + 1)
                if cs == -1:
                    break
                nl = buf.find("\n", cs)
                if nl == -1:
                    break
            if nl == -1:
                nl = self.size
        # trailing, insufficiently indented tabs are kept in the scalar, so that they are reported
        i = nl + 1
        ch = self._at(i)
        while ch == " ":
            i += 1
            ch = self._at(i)
        if ch == "\t":
            while ch and ch in "\t \r\n":
                i += 1
                ch = self._at(i)
            nl = i - 1
        elif not self.block_keep:
            while True:
                j = nl - 1
                c = self._at(j)
                if c == "\r":
                    j -= 1
                    c = self._at(j)
                last_char = j  # drop the line when its last character is not indented further
                while c == " ":
                    j -= 1
                    c = self._at(j)
                if c == "\n" and j >= self.pos and j + 1 + indent > last_char:
                    nl = j
                else:
                    break
        self.out.append(SCALAR)
        self._push_to_index(nl + 1, True)
        return self._line_start()

    def _plain_scalar(self) -> str | None:
        buf, size = self.buf, self.size
        in_flow = self.flow_level > 0
        run = _PLAIN_RUN_FLOW if in_flow else _PLAIN_RUN
        end = self.pos - 1
        i = self.pos - 1
        ch = ""
        while True:
            i += 1
            if i >= size:
                ch = ""
                break
            ch = buf[i]
            if ch == ":":
                nxt = buf[i + 1 : i + 2]
                if nxt in _EMPTY or (in_flow and nxt in _FLOW_INDICATORS):
                    break
                end = i
            elif ch in _EMPTY:
                nxt = buf[i + 1 : i + 2]
                if ch == "\r":
                    if nxt == "\n":
                        i += 1
                        ch = "\n"
                        nxt = buf[i + 1 : i + 2]
                    else:
                        end = i
                if nxt == "#" or (in_flow and nxt and nxt in _FLOW_INDICATORS):
                    break
                if ch == "\n":
                    cs = self._continue_scalar(i + 1)
                    if cs == -1:
                        break
                    i = max(i, cs - 2)  # advance, but still see a ' #' after the indentation
            else:
                if in_flow and ch in _FLOW_INDICATORS:
                    break
                # a run of ordinary characters: all part of the scalar
                match = run.match(buf, i + 1)
                if match is not None:
                    i = match.end() - 1
                end = i
        self.out.append(SCALAR)
        self._push_to_index(end + 1, True)
        return "flow" if in_flow else "doc"
