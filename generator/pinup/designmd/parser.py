"""Split a DESIGN.md into YAML blocks and `##` sections, as the reference parser does.

Front matter is detected by hand (exactly the micromark-extension-frontmatter
rules); the rest is plain CommonMark through markdown-it-py, whose token maps give
the source line of every fence and heading. YAML blocks are then parsed and
merged (shallow, duplicates across blocks are an error), keeping the source
line of every key.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pinup.designmd.jsobject import js_order
from pinup.designmd.memo import remember
from pinup.designmd.yamlload import YamlError
from pinup.designmd.yamlsimple import NOT_SIMPLE, load_simple

if TYPE_CHECKING:
    from typing import Any

_FENCE = re.compile(r"^---[ \t]*\Z")
_LINE_SPLIT = re.compile(r"\r\n|\r|\n")
#: JavaScript's `String.prototype.trim` whitespace set.
JS_WHITESPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"

NO_YAML_MESSAGE = "No YAML content found. Expected frontmatter (---) or fenced yaml code blocks."

# pinup's size caps (the reference has none): real DESIGN.md files are a few hundred lines with
# a few KB of YAML, and these bounds keep every input, however it was made, to well under a
# second of work. Past one, the document gets one finding that says which limit it passed.
MAX_LINES = 50_000
MAX_YAML_CHARS = 256 * 1024
MAX_YAML_BLOCKS = 32


def js_trim(text: str) -> str:
    """JavaScript `trim()` (strips U+FEFF, keeps U+001C–U+001F)."""
    return text.strip(JS_WHITESPACE)


class Heading:
    """An H2 heading (plain class, not a dataclass: dataclasses costs `pinup lint` its import)."""

    __slots__ = ("text", "line", "end")

    def __init__(self, text: str, line: int, end: int) -> None:
        self.text = text
        self.line = line  # 1-based line of the heading's first line
        self.end = end  # 1-based line after the heading (exclusive end)


class ParseError:
    """A recoverable parse failure: the whole lint result is one warning."""

    __slots__ = ("code", "message", "line")

    def __init__(self, code: str, message: str, line: int | None = None) -> None:
        self.code = code  # NO_YAML_FOUND | YAML_PARSE_ERROR | DUPLICATE_SECTION | DOCUMENT_TOO_LARGE
        self.message = message
        self.line = line


class ParsedDocument:
    """What the parser hands the model builder."""

    def __init__(self, lines: list[str] | None = None) -> None:
        self.data: dict[str, Any] = {}
        self.key_lines: dict[str, int] = {}  # top-level key -> line
        self.keys: list[str] = []  # source-map order of top-level keys
        self.headings: list[Heading] = []
        self.lines: list[str] = lines if lines is not None else []
        self.body_start = 0  # 0-based index of the first line after the front matter
        self.first_block_line: int | None = None  # 1-based line where the first YAML block opens
        self.error: ParseError | None = None


def split_lines(text: str) -> list[str]:
    """Lines split on \\n, \\r\\n and lone \\r (as micromark and markdown-it do)."""
    return _LINE_SPLIT.split(text)


def find_front_matter(lines: list[str]) -> int | None:
    """Index of the closing fence line, or None when there is no front matter."""
    if not lines or not _FENCE.match(lines[0]):
        return None
    for index in range(1, len(lines)):
        if _FENCE.match(lines[index]):
            return index
    return None


_MD: Any = None


def _markdown() -> Any:
    global _MD
    if _MD is None:
        from markdown_it import MarkdownIt

        md = MarkdownIt("commonmark")
        md.disable("inline")  # headings are inline-parsed on their own; the rest never needs it
        _MD = md
    return _MD


def heading_text(md: Any, content: str, env: dict[str, Any]) -> str:
    """The text of an H2 as the reference extracts it: direct text children only, then trimmed."""
    children: list[Any] = []
    md.inline.parse(content, md, env, children)
    parts: list[str] = []
    depth = 0
    for token in children:
        kind = token.type
        if kind.endswith("_open"):
            depth += 1
        elif kind.endswith("_close"):
            depth -= 1
        elif depth == 0:
            if kind in ("text", "text_special", "code_inline", "html_inline"):
                parts.append(token.content)
            elif kind == "softbreak":
                parts.append("\n")
    return js_trim("".join(parts))


def parse_document(text: str) -> ParsedDocument:
    """Parse the whole document; YAML errors become `error`, never exceptions."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\x00" in text:
        text = text.replace("\x00", "\ufffd")  # CommonMark (micromark too) reads NUL as U+FFFD
    lines = split_lines(text)
    doc = ParsedDocument(lines=lines)
    if len(lines) > MAX_LINES:
        doc.error = ParseError(
            "DOCUMENT_TOO_LARGE",
            f"The document has {len(lines):,} lines; pinup reads at most "
            f"{MAX_LINES:,} (a pinup limit: split it or trim it).",
            MAX_LINES + 1,
        )
        return doc
    blocks: list[tuple[str, str, int]] = []  # (label, yaml text, line offset)
    close = find_front_matter(lines)
    if close is not None and sum(len(line) + 1 for line in lines[1:close]) > MAX_YAML_CHARS:
        doc.error = _too_much_yaml([("frontmatter", "x" * (MAX_YAML_CHARS + 1), 1)])
        return doc
    md_lines = lines
    if close is not None:
        # the block text keeps its original line endings (minus one leading/trailing line ending)
        starts = [0]
        for match in _LINE_SPLIT.finditer(text):
            starts.append(match.end())
        body_start = starts[1]
        body_end = starts[close] - len(_ending_before(text, starts[close]))
        yaml_text = text[body_start:body_end] if close > 1 else ""
        blocks.append(("frontmatter", yaml_text, 1))
        md_lines = [""] * (close + 1) + lines[close + 1 :]
        doc.body_start = close + 1
    scanned = _scan_simple_remembered(md_lines)
    if scanned is None:
        scanned = scan_markdown(md_lines)
    fences, headings = scanned
    endings = _lone_cr_endings(text)
    code_count = 0
    for lang, content, start in fences:
        if lang in ("yaml", "yml"):
            code_count += 1
            if endings is not None:
                content = _restore_endings(content, endings, start + 1)
            blocks.append((f"code block {code_count}", content, start + 1))
    doc.headings = [Heading(title, start + 1, end + 1) for title, start, end in headings if title]
    if not blocks:
        doc.error = ParseError("NO_YAML_FOUND", NO_YAML_MESSAGE, 1)
        return doc
    doc.first_block_line = blocks[0][2]
    _merge(doc, blocks)
    return doc


Fence = tuple[str, str, int]  # (lang, content, 0-based line of the opening fence)
HeadingSpan = tuple[str, int, int]  # (text, 0-based start line, 0-based end line, exclusive)


def scan_markdown(md_lines: list[str]) -> tuple[list[Fence], list[HeadingSpan]]:
    """Fences and H2 headings by a full CommonMark parse (markdown-it-py, CommonMark preset)."""
    md = _markdown()
    env: dict[str, Any] = {}
    tokens = md.parse("\n".join(md_lines), env)
    fences: list[Fence] = []
    headings: list[HeadingSpan] = []
    for index, token in enumerate(tokens):
        if token.type == "fence":
            info = token.info.strip()
            lang = info.split(None, 1)[0] if info else ""
            fences.append((lang, token.content, token.map[0] if token.map else 0))
        elif token.type == "heading_open" and token.tag == "h2":
            title = heading_text(md, tokens[index + 1].content, env)
            start, end = token.map or (0, 1)
            headings.append((title, start, end))
    return fences, headings


_SIMPLE_FENCE = re.compile(r"^(`{3,}|~{3,})(.*)\Z")
# Trailing spaces are stripped in code, not by a lazy `(.*?)[ ]*\Z`, which rescans a run of spaces
# from each of its positions; a closing sequence's spaces start where a run of spaces starts.
_SIMPLE_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ ]+(.*))?\Z")
_SIMPLE_CLOSING = re.compile(r"(?:^|(?<! )[ ]+)#+[ ]*\Z")
_SIMPLE_UNDERLINE = re.compile(r"^ {0,3}(?:=+|-+)[ ]*\Z")
_SIMPLE_LIST_ITEM = re.compile(r"^(?:[-+*]|[0-9]{1,9}[.)])( +)(.)")
_SIMPLE_NESTED_START = re.compile(r"^(?:[#>`~<]|(?:[-+*]|[0-9]{1,9}[.)])(?: |\Z))")
_SIMPLE_INLINE_SPECIAL = re.compile(r"[`*_\[\]!<>\\]|&[#a-zA-Z0-9]+;")


def scan_simple(md_lines: list[str]) -> tuple[list[Fence], list[HeadingSpan]] | None:
    """A fast scan for the plain documents most DESIGN.md files are; None means "use markdown-it".

    It accepts only lines whose CommonMark meaning is unambiguous without a full parser: no tabs,
    blockquotes, HTML, indented code, setext underlines, fences inside containers, or headings with
    inline markup. A differential test checks it agrees with `scan_markdown` wherever it answers.
    """
    fences: list[Fence] = []
    headings: list[HeadingSpan] = []
    index, count = 0, len(md_lines)
    if not count:
        return fences, headings
    previous_blank = True
    while index < count:
        line = md_lines[index]
        if "\t" in line or "\x00" in line:
            return None
        stripped = line.lstrip(" ")
        if not stripped:
            previous_blank = True
            index += 1
            continue
        indent = len(line) - len(stripped)
        if indent >= 4 or stripped[0] in "<>":
            return None  # indented code, HTML, blockquotes
        item = _SIMPLE_LIST_ITEM.match(stripped)
        if item and (len(item.group(1)) >= 5 or _SIMPLE_NESTED_START.match(stripped[item.start(2) :])):
            return None  # a list item that opens code, a heading, a fence, a quote or another list
        fence = _SIMPLE_FENCE.match(line)
        if fence:
            marker, info = fence.group(1), fence.group(2)
            if marker[0] == "`" and "`" in info:
                return None
            if "\\" in info or "&" in info:
                return None
            info = info.strip()
            lang = info.split(None, 1)[0] if info else ""
            close = re.compile(rf"^ {{0,3}}{re.escape(marker[0])}{{{len(marker)},}}[ ]*\Z")
            body: list[str] = []
            end = index + 1
            last = count - 1 if md_lines[-1] == "" else count  # a final line ending is not a line
            while end < last and not close.match(md_lines[end]):
                body.append(md_lines[end] + ("\n" if end < count - 1 else ""))
                end += 1
            if end >= last:
                return None  # an unclosed fence runs to the end: leave the details to markdown-it
            content = "".join(body)
            fences.append((lang, content, index))
            index = end + 1
            previous_blank = True
            continue
        if stripped[0] in "`~" and stripped.startswith(("```", "~~~")):
            return None  # an indented fence: its end depends on containers
        if _SIMPLE_UNDERLINE.match(line) and not previous_blank:
            return None  # a possible setext heading
        atx = _SIMPLE_ATX.match(line)
        if atx:
            if len(atx.group(1)) == 2:
                text = (atx.group(2) or "").rstrip(" ")
                text = _SIMPLE_CLOSING.sub("", text)
                if _SIMPLE_INLINE_SPECIAL.search(text):
                    return None
                headings.append((js_trim(text), index, index + 1))
            previous_blank = True
            index += 1
            continue
        if stripped[0] == "#" and stripped.startswith("##") and not stripped.startswith("#######"):
            return None  # `##Colors` and friends: let the full parser decide
        previous_blank = False
        index += 1
    return fences, headings


#: `scan_simple`'s answers by the text it scanned (the front matter blanked out), for the last few
#: texts up to `_SCANS_KEPT_CHARS`: a document linted again after a token edit (`pinup serve`)
#: has the same body, so its prose is scanned once. Lines hold no line break: joined, one key.
_SCANS: dict[str, tuple[list[Fence], list[HeadingSpan]] | None] = {}
_SCANS_KEPT = 32
_SCANS_KEPT_CHARS = 256 * 1024


def _scan_simple_remembered(md_lines: list[str]) -> tuple[list[Fence], list[HeadingSpan]] | None:
    """`scan_simple(md_lines)`; callers only read the lists it returns."""
    key = "\n".join(md_lines)
    if len(key) > _SCANS_KEPT_CHARS:
        return scan_simple(md_lines)
    if key in _SCANS:
        return _SCANS[key]
    return remember(_SCANS, key, scan_simple(md_lines), _SCANS_KEPT)


def _lone_cr_endings(text: str) -> list[str] | None:
    """Each line's original terminator, when the text has a lone CR (else None: nothing to restore)."""
    if "\r" not in text or not re.search(r"\r(?!\n)", text):
        return None
    return [match.group(0) for match in _LINE_SPLIT.finditer(text)]


def _restore_endings(content: str, endings: list[str], first_line: int) -> str:
    """A code block's text with its original line endings: the reference keeps a lone CR inside a
    fence, and its YAML parser does not break lines there."""
    parts = content.split("\n")
    out = []
    for index, part in enumerate(parts[:-1]):
        line = first_line + index
        out.append(part + (endings[line] if line < len(endings) else "\n"))
    out.append(parts[-1])
    return "".join(out)


def _ending_before(text: str, pos: int) -> str:
    if pos >= 2 and text[pos - 2 : pos] == "\r\n":
        return "\r\n"
    if pos >= 1 and text[pos - 1] in "\r\n":
        return text[pos - 1]
    return ""


def _too_much_yaml(blocks: list[tuple[str, str, int]]) -> ParseError | None:
    """The size caps on YAML, checked before any block is parsed."""
    if len(blocks) > MAX_YAML_BLOCKS:
        return ParseError(
            "DOCUMENT_TOO_LARGE",
            f"The document has {len(blocks)} YAML blocks; pinup reads at most {MAX_YAML_BLOCKS} (a pinup limit).",
            blocks[MAX_YAML_BLOCKS][2],
        )
    total = 0
    for label, yaml_text, offset in blocks:
        total += len(yaml_text)
        if total > MAX_YAML_CHARS:
            return ParseError(
                "DOCUMENT_TOO_LARGE",
                f"The YAML passes {MAX_YAML_CHARS // 1024} KB in {label}; "
                f"pinup reads at most {MAX_YAML_CHARS // 1024} KB of YAML (a pinup limit).",
                offset,
            )
    return None


def _merge(doc: ParsedDocument, blocks: list[tuple[str, str, int]]) -> None:
    owner: dict[str, str] = {}
    doc.error = _too_much_yaml(blocks)
    if doc.error is not None:
        return
    for label, yaml_text, offset in blocks:
        value = load_simple(yaml_text, offset)  # plain front matter, without loading the full reader
        try:
            if value is NOT_SIMPLE:
                from pinup.designmd.yamlread.read import load_block  # only when needed: it costs start-up

                value = load_block(yaml_text, offset)
        except YamlError as exc:
            line = exc.line + offset if exc.line is not None else offset
            doc.error = ParseError("YAML_PARSE_ERROR", exc.message, line)
            return
        if not value or not isinstance(value, (dict, list)):
            continue
        if isinstance(value, list):
            item_lines = getattr(value, "item_lines", [])
            key_lines = {str(i): item_lines[i] if i < len(item_lines) else offset for i in range(len(value))}
            value = {str(i): v for i, v in enumerate(value)}
        else:
            key_lines = dict(getattr(value, "key_lines", {}))
        for key in value:
            if key in owner:
                doc.error = ParseError(
                    "DUPLICATE_SECTION",
                    f"Section '{key}' is defined in both {owner[key]} and {label}.",
                    key_lines.get(key, offset),
                )
                return
            owner[key] = label
            doc.keys.append(key)
            doc.key_lines[key] = key_lines.get(key, offset)
        doc.data.update(value)
    # the merged object is a plain JS object too: integer-like keys enumerate first
    order = js_order(list(doc.data))
    doc.data = {k: doc.data[k] for k in order}
