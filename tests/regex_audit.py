"""Every regular expression the two packages compile, written out as JavaScript for the `recheck` analyser.

`recheck` (npm, the test tools) decides whether a backtracking matcher can take polynomial or
exponential time on a pattern, and gives an attack string. It reads JavaScript syntax, so each
Python pattern is parsed with the standard library's own parser and written back in JavaScript:
named groups, `\\A`/`\\Z`, scoped flags and verbose layout all come out right. Python's atomic
groups and possessive repeats have no JavaScript spelling; they become the usual emulation
`(?=(?<a>X))\\k<a>`, which behaves the same and which recheck measures with its fuzzer.

How a pattern is used matters as much as what it says: `re.search`, `finditer` and `sub` try every
start position (a run of digits before a mismatch costs n + (n-1) + ... steps), while `match` and
`fullmatch` try one. A pattern is checked with the sticky flag `y` (one start) only when every use
of it in the two packages is `.match(` or `.fullmatch(`.
"""

from __future__ import annotations

import ast
import importlib
import re
import re._constants as sre
import re._parser as sre_parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = (ROOT / "generator" / "pinup", ROOT / "functions" / "pinup_feedback")

#: the `re` functions whose first argument is a pattern, and where each takes `flags` positionally.
FLAG_POSITION = {
    "compile": 1,
    "search": 2,
    "match": 2,
    "fullmatch": 2,
    "findall": 2,
    "finditer": 2,
    "split": 3,
    "sub": 4,
    "subn": 4,
}
ONE_START = {"match", "fullmatch"}


@dataclass(frozen=True, slots=True)
class Site:
    """One pattern: where it is compiled, what it says, and whether it is only ever tried at one start."""

    where: str
    pattern: str | bytes
    flags: int
    one_start: bool


def _module_name(path: Path) -> str:
    base = path.relative_to(path.parents[len(path.relative_to(ROOT).parts) - 2])
    return ".".join(base.with_suffix("").parts).removesuffix(".__init__")


def source_files() -> list[Path]:
    return sorted(p for package in PACKAGES for p in package.rglob("*.py"))


def _flags(node: ast.expr | None) -> int:
    """The value of a flags argument written as `re.I | re.M` (the only way the packages write them)."""
    if node is None:
        return 0
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "re":
        return int(getattr(re, node.attr))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _flags(node.left) | _flags(node.right)
    raise ValueError(f"flags written as {ast.unparse(node)}")


def _re_call(node: ast.AST) -> str | None:
    """The `re` function a call names (`re.compile(...)` gives "compile"), else None."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "re"
        and node.func.attr in FLAG_POSITION
    ):
        return node.func.attr
    return None


def _uses(trees: dict[Path, ast.Module]) -> dict[str, set[str]]:
    """For each identifier, how it is used: the method called on it (`match`, `sub`...), or "other"
    when it is passed around, so that a pattern handed to `re.sub(NAME, ...)` counts as searched."""
    uses: dict[str, set[str]] = {}
    for tree in trees.values():
        called: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                target = node.func.value
                name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", None)
                if name is not None:
                    uses.setdefault(name, set()).add(node.func.attr)
                    called.add(id(target))
        for node in ast.walk(tree):
            if id(node) in called:
                continue
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                uses.setdefault(node.id, set()).add("other")
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                uses.setdefault(node.attr, set()).add("other")
    return uses


def _assigned_name(tree: ast.Module, call: ast.Call) -> str | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is call:
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if isinstance(target, ast.Name):
                return target.id
            if isinstance(target, ast.Attribute):
                return target.attr
    return None


def _owner(tree: ast.Module, call: ast.Call) -> str:
    """The innermost function holding `call`, or the module-level name it is assigned to."""
    functions = [
        f
        for f in ast.walk(tree)
        if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
        and f.lineno <= call.lineno <= (f.end_lineno or f.lineno)
    ]
    if functions:
        return max(functions, key=lambda f: f.lineno).name + "()"
    return _assigned_name(tree, call) or "<module>"


def collect() -> tuple[list[Site], list[str]]:
    """Every pattern in the two packages, and the call sites whose pattern is built at run time.

    Literal patterns are read from the source (`re.compile(r"...")`, `re.sub(r"...", ...)`);
    patterns built from pieces at import time are found among the modules' globals; what is left
    (a pattern made inside a function) is returned by file and argument, for the test to account for.
    """
    trees = {path: ast.parse(path.read_text(encoding="utf-8"), str(path)) for path in source_files()}
    uses = _uses(trees)

    def one_start(name: str | None) -> bool:
        return name is not None and bool(uses.get(name)) and uses[name] <= ONE_START

    sites: dict[tuple[str | bytes, int], Site] = {}
    dynamic: list[str] = []
    modules: set[str] = set()
    for path, tree in trees.items():
        rel = path.relative_to(ROOT)
        for node in ast.walk(tree):
            method = _re_call(node)
            if method is None:
                continue
            assert isinstance(node, ast.Call)
            where = f"{rel}:{node.lineno}"
            position = FLAG_POSITION[method]
            flags_node = next((k.value for k in node.keywords if k.arg == "flags"), None)
            if flags_node is None and len(node.args) > position:
                flags_node = node.args[position]
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str | bytes):
                name = _assigned_name(tree, node) if method == "compile" else None
                single = method in ONE_START or one_start(name)
                key = (first.value, _flags(flags_node))
                known = sites.get(key)
                sites[key] = Site(where, first.value, key[1], single and (known is None or known.one_start))
            else:  # named by file and function, not line, so an edit above it does not move it
                dynamic.append(f"{rel}: {_owner(tree, node)}")
                modules.add(_module_name(path))
    for module_name in sorted(modules):
        module = importlib.import_module(module_name)
        for name, value in vars(module).items():
            found = value.values() if isinstance(value, dict) else value if isinstance(value, tuple | list) else [value]
            for pattern in found:
                if isinstance(pattern, re.Pattern) and (pattern.pattern, pattern.flags & ~re.UNICODE) not in sites:
                    key = (pattern.pattern, pattern.flags & ~re.UNICODE)
                    sites[key] = Site(f"{module_name}.{name}", pattern.pattern, key[1], one_start(name))
    return list(sites.values()), dynamic


class Unsupported(ValueError):
    """A construct with no JavaScript counterpart recheck could read (a conditional group)."""


def _char(code: int) -> str:
    return chr(code) if chr(code).isascii() and (chr(code).isalnum() or chr(code) == "_") else f"\\u{{{code:x}}}"


_CATEGORIES = {
    sre.CATEGORY_DIGIT: r"\d",
    sre.CATEGORY_NOT_DIGIT: r"\D",
    sre.CATEGORY_SPACE: r"\s",
    sre.CATEGORY_NOT_SPACE: r"\S",
    sre.CATEGORY_WORD: r"\w",
    sre.CATEGORY_NOT_WORD: r"\W",
}


class _Writer:
    def __init__(self, referenced: set[int], multiline: bool, dotall: bool) -> None:
        self.referenced = referenced
        self.multiline = multiline
        self.dotall = dotall
        self.atomic = 0

    def seq(self, items: sre_parse.SubPattern | list[tuple[object, object]]) -> str:
        return "".join(self.op(op, av) for op, av in items)

    def op(self, op: object, av: object) -> str:
        if op is sre.LITERAL:
            return _char(av)
        if op is sre.NOT_LITERAL:
            return f"[^{_char(av)}]"
        if op is sre.ANY:
            return "[\\s\\S]" if self.dotall else "[^\\n]"  # JavaScript's `.` also stops at \r, \u2028, \u2029
        if op is sre.IN:
            return self.klass(av)
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            low, high, items = av
            body = f"(?:{self.seq(items)})"
            count = {(0, sre.MAXREPEAT): "*", (1, sre.MAXREPEAT): "+", (0, 1): "?"}.get((low, high))
            if count is None:
                count = f"{{{low},}}" if high is sre.MAXREPEAT else f"{{{low},{high}}}"
            text = body + count + ("?" if op is sre.MIN_REPEAT else "")
            return self.atomic_group(text) if op is sre.POSSESSIVE_REPEAT else text
        if op is sre.SUBPATTERN:
            group, add, _del, items = av
            dotall = self.dotall
            self.dotall = bool(add & re.DOTALL) or (dotall and not _del & re.DOTALL)
            body = self.seq(items)
            self.dotall = dotall
            return f"(?<g{group}>{body})" if group in self.referenced else f"(?:{body})"
        if op is sre.ATOMIC_GROUP:
            return self.atomic_group(self.seq(av))
        if op is sre.BRANCH:
            return "(?:" + "|".join(self.seq(branch) for branch in av[1]) + ")"
        if op is sre.AT:
            return self.at(av)
        if op in (sre.ASSERT, sre.ASSERT_NOT):
            direction, items = av
            kind = ("=" if op is sre.ASSERT else "!") if direction == 1 else ("<=" if op is sre.ASSERT else "<!")
            return f"(?{kind}{self.seq(items)})"
        if op is sre.GROUPREF:
            return f"\\k<g{av}>"
        raise Unsupported(f"{op} has no JavaScript counterpart")

    def atomic_group(self, body: str) -> str:
        self.atomic += 1
        return f"(?=(?<a{self.atomic}>{body}))\\k<a{self.atomic}>"

    def at(self, where: object) -> str:
        # with MULTILINE, Python's lines end at \n only (JavaScript's also at \r, \u2028, \u2029)
        ends = {
            sre.AT_BEGINNING: "(?<![^\\n])" if self.multiline else "^",
            sre.AT_END: "(?=\\n|(?![\\s\\S]))" if self.multiline else "$",
            sre.AT_BOUNDARY: "\\b",
            sre.AT_NON_BOUNDARY: "\\B",
            sre.AT_BEGINNING_STRING: "(?<![\\s\\S])" if self.multiline else "^",
            sre.AT_END_STRING: "(?![\\s\\S])" if self.multiline else "$",
        }
        return ends[where]

    def klass(self, items: list[tuple[object, object]]) -> str:
        out = []
        negate = ""
        for op, av in items:
            if op is sre.NEGATE:
                negate = "^"
            elif op is sre.LITERAL:
                out.append(_char(av))
            elif op is sre.RANGE:
                out.append(f"{_char(av[0])}-{_char(av[1])}")
            elif op is sre.CATEGORY:
                out.append(_CATEGORIES[av])
            else:
                raise Unsupported(f"{op} in a character class")
        return f"[{negate}{''.join(out)}]"


def _referenced(items: sre_parse.SubPattern | list[tuple[object, object]]) -> Iterator[int]:
    for op, av in items:
        if op is sre.GROUPREF:
            yield av
        elif isinstance(av, tuple | list):
            for part in av:
                if isinstance(part, sre_parse.SubPattern):
                    yield from _referenced(part)
                elif isinstance(part, list):
                    for inner in part:
                        if isinstance(inner, sre_parse.SubPattern):
                            yield from _referenced(inner)


def to_javascript(site: Site) -> tuple[str, str]:
    """The pattern and flags recheck should check for `site`."""
    text = site.pattern.decode("latin-1") if isinstance(site.pattern, bytes) else site.pattern
    tree = sre_parse.parse(text, site.flags)
    flags = tree.state.flags
    writer = _Writer(set(_referenced(tree)), bool(flags & re.MULTILINE), bool(flags & re.DOTALL))
    source = writer.seq(tree)
    js_flags = "u" + ("i" if flags & re.IGNORECASE else "")
    return source, js_flags + ("y" if site.one_start else "")
