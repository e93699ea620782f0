"""board.yaml: a review board's source as plain classes, and its loader.

The loader reads YAML with ruamel's safe loader (no object construction), validates it against
the pydantic models of `pinup.boards.validate` (imported only then), turns every validation
problem into one message naming the file and line, and checks that each variant file resolves
(by realpath) inside the board folder, so a board can never pull `../../etc/passwd` into a built
site. What it accepted is kept as the plain classes below, in the process and in the build cache:
a build whose board.yaml files were validated before imports neither ruamel nor pydantic.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Literal

from pinup.designmd.memo import remember
from pinup.plain import REQUIRED, Plain
from pinup_feedback.records import BOARD_SLUG

Device = Literal["desktop", "tablet", "phone"]

#: variant file suffix -> kind shown on the board
VARIANT_KINDS: dict[str, str] = {
    ".html": "html",
    ".htm": "html",
    ".png": "image",
    ".jpg": "image",
    ".jpeg": "image",
    ".webp": "image",
    ".svg": "image",
}

#: image suffix -> MIME type, for data URIs and manifests
MIME_TYPES: dict[str, str] = {
    ".html": "text/html",
    ".htm": "text/html",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".webp": "image/webp",
    ".svg": "image/svg+xml",
}

VARIANT_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
SLUG = BOARD_SLUG


class BoardError(Exception):
    """A board source that cannot be used; the message names the file and line."""

    def __init__(self, path: Path, message: str, line: int | None = None) -> None:
        self.path = path
        self.line = line
        self.message = message
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {message}")


class VariantSpec(Plain):
    """One design variant on a board (`pinup.boards.validate.VariantSpec` checked it)."""

    FIELDS = (("id", REQUIRED), ("label", ""), ("file", REQUIRED), ("description", ""), ("device", None))
    __slots__ = tuple(name for name, _ in FIELDS)
    id: str
    label: str
    file: str
    description: str
    device: Device | None

    @property
    def kind(self) -> str:
        """'html' or 'image'."""
        return VARIANT_KINDS[Path(self.file).suffix.lower()]

    @property
    def mime(self) -> str:
        return MIME_TYPES[Path(self.file).suffix.lower()]


def duplicate_index(variants: list[VariantSpec]) -> int | None:
    """Index of the first variant whose id was already used, or None."""
    seen: set[str] = set()
    for index, variant in enumerate(variants):
        if variant.id in seen:
            return index
        seen.add(variant.id)
    return None


class RoundSpec(Plain):
    """An earlier round kept in `history` (written by `pinup generate`)."""

    FIELDS = (("round", REQUIRED), ("variants", list))
    __slots__ = tuple(name for name, _ in FIELDS)
    round: int
    variants: list[VariantSpec]


class BoardSpec(Plain):
    """The whole board.yaml, as validated (`pinup.boards.validate.BoardSpec`)."""

    FIELDS = (
        ("title", REQUIRED),
        ("brief", ""),
        ("round", 1),
        ("device", "desktop"),
        ("variants", REQUIRED),
        ("history", list),
    )
    __slots__ = tuple(name for name, _ in FIELDS)
    title: str
    brief: str
    round: int
    device: Device
    variants: list[VariantSpec]
    history: list[RoundSpec]

    def variant_ids(self) -> list[str]:
        return [v.id for v in self.variants]

    def manifest(self, slug: str) -> dict[str, Any]:
        """The board.json shape the feedback app validates variant ids against."""
        return {"board": slug, "title": self.title, "round": self.round, "variants": self.variant_ids()}


class Board(Plain):
    """A loaded board: its slug, folder, spec and the resolved variant files (made by `load_board`)."""

    FIELDS = (("slug", REQUIRED), ("folder", REQUIRED), ("spec", REQUIRED), ("files", REQUIRED))
    __slots__ = tuple(name for name, _ in FIELDS)
    slug: str
    folder: Path
    spec: BoardSpec
    #: variant id -> realpath of its file
    files: dict[str, Path]


def _line_of(tree: Any, loc: tuple[Any, ...]) -> int | None:
    """Best 1-based line for a pydantic error location in a ruamel round-trip tree."""
    line: int | None = None
    node = tree
    for key in loc:
        lc = getattr(node, "lc", None)
        if lc is None:
            break
        try:
            if isinstance(key, int) and isinstance(node, list):
                line = lc.item(key)[0] + 1
                node = node[key]
            elif isinstance(node, dict) and key in node:
                line = lc.key(key)[0] + 1
                node = node[key]
            else:
                break
        except (KeyError, IndexError, TypeError):
            break
    if line is None and getattr(tree, "lc", None) is not None:
        line = tree.lc.line + 1
    return line


def _positions(text: str) -> Any:
    """The round-trip tree, used only to find line numbers for error messages."""
    from ruamel.yaml import YAML

    try:
        return YAML(typ="rt").load(text)
    except Exception:  # noqa: BLE001 - only for line numbers; the safe load already succeeded
        return None


#: board.yaml text -> its validated spec, for this process: `pinup serve` rebuilds every board after
#: each edit of the workspace, and ruamel's pure-Python loader cost a third of a one-token rebuild
_PARSED: dict[str, BoardSpec] = {}
_PARSED_KEPT = 64


def parse_board_yaml(path: Path, text: str | None = None) -> BoardSpec:
    """Parse and validate board.yaml, raising BoardError with file and line.

    A text parsed before in this process is not read again: its spec is copied (deep, so a caller
    changing it changes no later build's); texts that fail are parsed each time, for their message.
    """
    if text is None:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise BoardError(path, f"cannot read board file: {exc}") from exc
    known = _PARSED.get(text)
    if known is None:
        from pinup.build import cached

        # validated specs are kept in the build cache too, by the text (plain objects: the cache's key
        # holds pinup's code, which includes the schema): a later build needs neither ruamel nor pydantic
        spec = cached(text.encode(), "board.yaml|plain", lambda: _parse(path, text), path)
        known = remember(_PARSED, text, spec, _PARSED_KEPT)
    return known.model_copy(deep=True)


def _parse(path: Path, text: str) -> BoardSpec:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    from pinup.boards.validate import BoardSpec as BoardModel
    from pinup.boards.validate import ValidationError, plain_spec

    try:
        data = YAML(typ="safe", pure=True).load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        raise BoardError(path, f"invalid YAML: {exc.problem or exc.context}", line) from exc
    except YAMLError as exc:
        raise BoardError(path, f"invalid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise BoardError(path, "board.yaml must be a mapping with title and variants", 1)
    try:
        spec = plain_spec(BoardModel.model_validate(data))
    except ValidationError as exc:
        tree = _positions(text)
        first = exc.errors()[0]
        loc = tuple(first["loc"])
        where = ".".join(str(p) for p in loc) or "(top level)"
        msg = first["msg"].removeprefix("Value error, ")
        extra = len(exc.errors()) - 1
        more = f" (and {extra} more problem{'s' if extra != 1 else ''})" if extra else ""
        raise BoardError(path, f"{where}: {msg}{more}", _line_of(tree, loc)) from exc
    dup = duplicate_index(spec.variants)
    if dup is not None:
        vid = spec.variants[dup].id
        line = _line_of(_positions(text), ("variants", dup, "id"))
        raise BoardError(path, f"variants.{dup}.id: variant id {vid!r} is used twice", line)
    return spec


def resolve_variant_file(folder: Path, variant: VariantSpec, board_file: Path) -> Path:
    """The variant's realpath, refused unless it is an existing file inside the board folder."""
    root = Path(os.path.realpath(folder))
    target = Path(os.path.realpath(root / variant.file))
    if target != root and root not in target.parents:
        raise BoardError(board_file, f"variant {variant.id}: file {variant.file!r} is outside the board folder")
    if not target.is_file():
        raise BoardError(board_file, f"variant {variant.id}: file {variant.file!r} does not exist")
    return target


def load_board(folder: Path) -> Board:
    """Load `<folder>/board.yaml` and resolve its current variant files."""
    board_file = folder / "board.yaml"
    slug = folder.name
    if not SLUG.match(slug):
        raise BoardError(board_file, f"board folder name {slug!r} is not a valid slug ([A-Za-z0-9_-], up to 64)")
    spec = parse_board_yaml(board_file)
    files = {v.id: resolve_variant_file(folder, v, board_file) for v in spec.variants}
    # every value is checked above (the slug, the validated spec, resolved paths)
    return Board(slug=slug, folder=folder, spec=spec, files=files)


def find_boards(src: Path) -> list[Path]:
    """Board folders under `<src>/boards/`, sorted by slug."""
    root = src / "boards"
    if not root.is_dir():
        return []
    return sorted(p.parent for p in root.glob("*/board.yaml") if p.is_file())
