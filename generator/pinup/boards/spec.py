"""board.yaml: a review board's source as slotted dataclasses, its schema, and its loader.

The loader reads YAML with ruamel's safe loader (no object construction), validates it against
these dataclasses with pydantic (`TypeAdapter`: the constraints sit in the fields' `Annotated`
types), turns every validation problem into one message naming the file and line, and checks
that each variant file resolves (by realpath) inside the board folder, so a board can never pull
`../../etc/passwd` into a built site. What it accepted is kept in the process and in the build
cache: a build whose board.yaml files were validated before imports no YAML loader and builds
no validator. Unknown keys are ignored.
"""

from __future__ import annotations

import copy
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, ConfigDict, Field

from pinup.buildcache import active
from pinup.designmd.memo import remember
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


def _id_shape(value: Any) -> Any:
    """A variant id as written: a short name, or a number YAML read as an int."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or not VARIANT_ID.match(value):
        raise ValueError("variant id must match [A-Za-z0-9_-]{1,32}")
    return value


def _file_shape(value: str) -> str:
    if not value.strip():
        raise ValueError("file must not be empty")
    if os.path.isabs(value) or value.startswith(("/", "\\")):
        raise ValueError("file must be relative to the board folder")
    suffix = Path(value).suffix.lower()
    if suffix not in VARIANT_KINDS:
        allowed = " ".join(sorted({s for s in VARIANT_KINDS if s != ".htm"}))
        raise ValueError(f"file type {suffix or '(none)'} is not supported (use {allowed})")
    return value


VariantId = Annotated[str, BeforeValidator(_id_shape)]
VariantFile = Annotated[str, AfterValidator(_file_shape)]
RoundNumber = Annotated[int, Field(ge=1)]
#: what pydantic is told of these classes: unknown keys are ignored, a field's docstring is its description
SPEC_CONFIG = ConfigDict(extra="ignore", use_attribute_docstrings=True)


@dataclass(slots=True, kw_only=True)
class VariantSpec:
    """One design variant on a board."""

    __pydantic_config__ = SPEC_CONFIG

    id: VariantId
    """[A-Za-z0-9_-]{1,32}, unique on the board."""
    label: str = ""
    file: VariantFile
    """Relative to the board folder."""
    description: str = ""
    device: Device | None = None

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


@dataclass(slots=True, kw_only=True)
class RoundSpec:
    """An earlier round kept in `history` (written by `pinup generate`)."""

    __pydantic_config__ = SPEC_CONFIG

    round: RoundNumber
    variants: list[VariantSpec] = field(default_factory=list)
    pick: str | None = None
    """The variant reviewers preferred in that round, when one was (the board compares it first)."""


@dataclass(slots=True, kw_only=True)
class BoardSpec:
    """The whole board.yaml."""

    __pydantic_config__ = SPEC_CONFIG

    title: Annotated[str, Field(min_length=1)]
    brief: str = ""
    round: RoundNumber = 1
    device: Device = "desktop"
    variants: Annotated[list[VariantSpec], Field(min_length=1)]
    history: list[RoundSpec] = field(default_factory=list)

    def variant_ids(self) -> list[str]:
        return [v.id for v in self.variants]

    def manifest(self, slug: str) -> dict[str, Any]:
        """The board.json shape the feedback app validates variant ids against."""
        return {"board": slug, "title": self.title, "round": self.round, "variants": self.variant_ids()}


def _history_before_current(spec: BoardSpec) -> BoardSpec:
    for past in spec.history:
        if past.round >= spec.round:
            raise ValueError(f"history round {past.round} is not before the current round {spec.round}")
        if past.pick is not None and past.variants and past.pick not in {v.id for v in past.variants}:
            ids = ", ".join(v.id for v in past.variants)
            raise ValueError(f"history round {past.round}: pick {past.pick!r} is not one of its variants ({ids})")
    return spec


#: what a board.yaml is validated as (the validator is built the first time one is read)
CheckedBoardSpec = Annotated[BoardSpec, AfterValidator(_history_before_current)]


@dataclass(slots=True)
class Board:
    """A loaded board: its slug, folder, spec and the resolved variant files (made by `load_board`)."""

    slug: str
    folder: Path
    spec: BoardSpec
    files: dict[str, Path]
    """Variant id -> realpath of its file."""


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


#: board.yaml texts whose validated specs a build cache keeps (`BuildCache.board_specs`): `pinup serve`
#: rebuilds every board after each edit of the workspace, and ruamel's pure-Python loader cost a third
#: of a one-token rebuild
_PARSED_KEPT = 64


def parse_board_yaml(path: Path, text: str | None = None) -> BoardSpec:
    """Parse and validate board.yaml, raising BoardError with file and line.

    A text parsed before with this build cache is not read again: its spec is copied (deep, so a caller
    changing it changes no later build's); texts that fail are parsed each time, for their message.
    """
    if text is None:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise BoardError(path, f"cannot read board file: {exc}") from exc
    parsed: dict[str, BoardSpec] = active().board_specs
    known = parsed.get(text)
    if known is None:
        from pinup.sitecache import cached

        # validated specs are kept in the build cache too, by the text (the cache's key holds pinup's
        # code, which includes the schema): a later build needs no YAML loader and no validator
        spec = cached(text.encode(), "board.yaml|spec", lambda: _parse(path, text), path)
        known = remember(parsed, text, spec, _PARSED_KEPT)
    return copy.deepcopy(known)


def _parse(path: Path, text: str) -> BoardSpec:
    from pydantic import TypeAdapter, ValidationError
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

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
        spec: BoardSpec = TypeAdapter(CheckedBoardSpec).validate_python(data)
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
