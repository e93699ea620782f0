"""`pinup feedback handoff --zip`: the hand-off and everything it points at, in one archive.

What goes in: `handoff.md` and `handoff.json` (as `pinup feedback handoff` prints them, reviewer
text quoted as data), the picked variant's files (an HTML page with the files it links to
inside its board folder, or the image), DESIGN.md with the reviewer's tweaks applied and
`DESIGN.diff.md` (`pinup diff` of the original against it), and `pins/pin-N.png`, each open
pin's region of its variant rendered by Chromium. Entries are sorted and stamped with one fixed
time and mode, so the same inputs always give the same bytes.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import zipfile
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

#: every entry's timestamp: the earliest a ZIP can hold, so nothing of when it was made leaks in
FIXED_TIME = (1980, 1, 1, 0, 0, 0)
#: pixels of context around a pin's region in its crop
CROP_MARGIN = 16
#: Each run is taken whole (`*+`, `++`): handing spaces back and forth between them found nothing new
#: and was cubic in a run of spaces; a target stops at `(` too, so `url(url(url(...` is scanned once.
_CSS_URL = re.compile(r"""url\(\s*+(['"]?)([^'"()]++)\1\s*+\)|@import\s++(['"])([^'"]++)\3""")
_LINK_ATTRS = frozenset({"src", "href", "poster", "data"})
#: a tweak value that may be written into DESIGN.md: one line, no markup characters
_PLAIN_VALUE = re.compile(r"^[^\x00-\x1f\x7f-\x9f\u2028\u2029`<>\[\]{}\\]{1,100}$")


class HandoffZipError(Exception):
    """The archive cannot be made; the message says why."""


@dataclass(slots=True)
class Archive:
    """The archive's entries (name -> bytes), written sorted by `write`."""

    entries: dict[str, bytes] = field(default_factory=dict)

    def add(self, name: str, content: bytes | str) -> None:
        self.entries[name] = content.encode("utf-8") if isinstance(content, str) else content

    def write(self, path: Path) -> None:
        import io

        from pinup_feedback.atomicfile import replace_file

        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for name in sorted(self.entries):
                info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
                archive.writestr(info, self.entries[name], compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_file(path, buffer.getvalue())


class _Links(HTMLParser):
    """The relative URLs an HTML page loads or links to (src, href, srcset, inline CSS url())."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._in_style = tag == "style"
        for name, value in attrs:
            if not value:
                continue
            if name in _LINK_ATTRS:
                self.urls.append(value)
            elif name == "srcset":
                self.urls += [part.strip().split(" ")[0] for part in value.split(",") if part.strip()]
            elif name == "style":
                self.urls += css_urls(value)

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.urls += css_urls(data)


def css_urls(text: str) -> list[str]:
    return [m.group(2) or m.group(4) for m in _CSS_URL.finditer(text)]


def _local(url: str) -> str | None:
    """The path of a relative URL to a file of the page's own, or None (absolute, data:, #fragment)."""
    parts = urlsplit(url.strip())
    if parts.scheme or parts.netloc or not parts.path or parts.path.startswith("/"):
        return None
    return unquote(parts.path)


def variant_files(folder: Path, first: Path) -> list[Path]:
    """`first` and every file it links to (and their CSS links), as long as they are inside `folder`."""
    root = Path(os.path.realpath(folder))
    found: list[Path] = []
    queue = [Path(os.path.realpath(first))]
    while queue:
        path = queue.pop(0)
        if path in found or not path.is_file() or root not in path.parents:
            continue
        found.append(path)
        suffix = path.suffix.lower()
        if suffix not in (".html", ".htm", ".css", ".svg"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if suffix == ".css":
            urls = css_urls(text)
        else:
            parser = _Links()
            parser.feed(text)
            urls = parser.urls
        for url in urls:
            rel = _local(url)
            if rel is not None:
                queue.append(Path(os.path.realpath(path.parent / rel)))
    return sorted(found, key=lambda p: p.relative_to(root).as_posix())


def _round_variants(board: Any, round_: int | None) -> list[Any]:
    variants = list(board.spec.variants)
    if round_ is not None and round_ != board.spec.round:
        past = [r for r in board.spec.history if r.round == round_]
        if past and past[0].variants:
            variants = list(past[0].variants)
    return variants


def _pins_of(items: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """The pins among `items` that mark a region, by variant."""
    from pinup.verify.approved import Pin

    by_variant: dict[str, list[Pin]] = {}
    for item in items:
        pin = item.get("pin") or {}
        if item.get("kind") == "pin" and item.get("variant") and pin.get("box"):
            box = pin["box"]
            by_variant.setdefault(str(item["variant"]), []).append(
                Pin(
                    n=int(item["n"]),
                    note=str(item.get("text") or ""),
                    severity=item.get("severity"),
                    selector=pin.get("selector") or None,
                    box=(float(box["x"]), float(box["y"]), float(box["w"]), float(box["h"])),
                )
            )
    return by_variant


def _crops(renderer: Any, target: Any, viewport: Any, kind: str, pins: list[Any]) -> dict[str, bytes]:
    """`pins/pin-N.png` for each of `pins`: its region in a render of `target`, with a margin."""
    from pinup.verify.report import png
    from pinup.verify.run import pin_regions

    shot = renderer.shot(target, viewport, [p.selector for p in pins if p.selector])
    crops: dict[str, bytes] = {}
    for pin, region in zip(pins, pin_regions(kind, shot, pins, viewport), strict=True):
        box = (
            max(0, region.x - CROP_MARGIN),
            max(0, region.y - CROP_MARGIN),
            min(shot.image.width, region.x + region.w + CROP_MARGIN),
            min(shot.image.height, region.y + region.h + CROP_MARGIN),
        )
        if box[2] > box[0] and box[3] > box[1]:
            crops[f"pins/pin-{pin.n}.png"] = png(shot.image.crop(box))
    return crops


def pin_crops(board: Any, variants: list[Any], items: list[dict[str, Any]]) -> dict[str, bytes]:
    """`pins/pin-N.png` for each open pin on one of `variants`: its region (with some context), rendered."""
    from pinup.boards.spec import BoardError, resolve_variant_file
    from pinup.verify.render import Renderer, Viewport
    from pinup.verify.target import VerifyError, file_target

    by_variant = _pins_of(items)
    wanted = [v for v in variants if v.id in by_variant]
    if not wanted:
        return {}
    crops: dict[str, bytes] = {}
    try:
        with Renderer() as renderer:
            for variant in wanted:
                try:
                    path = resolve_variant_file(board.folder, variant, board.folder / "board.yaml")
                except BoardError:
                    continue  # an earlier round's file that is gone: the hand-off still lists the pin
                viewport = Viewport.of(variant.device or board.spec.device)
                crops.update(_crops(renderer, file_target(path), viewport, variant.kind, by_variant[variant.id]))
    except VerifyError as exc:
        raise HandoffZipError(f"cannot render the pins' crops: {exc}") from None
    return crops


def live_pin_crop(app_url: str, item: dict[str, Any]) -> bytes | None:
    """The crop of a pin placed on a running app's page during `pinup review`: that page (the pin's
    path on the app) rendered again at the reviewer's window size. None when the app does not answer
    or is not on this machine."""
    from urllib.parse import urljoin

    from pinup.verify.render import Renderer, Viewport
    from pinup.verify.target import VerifyError, url_target

    pins = _pins_of([item]).get(str(item.get("variant")), [])
    if not pins:
        return None
    pin = item.get("pin") or {}
    size = pin.get("viewport") or {}
    width, height = int(size.get("w") or 1440), int(size.get("h") or 900)
    viewport = Viewport("live", max(200, min(width, 4000)), max(200, min(height, 4000)))
    try:
        target = url_target(urljoin(app_url, str(pin.get("path") or "/")))
        with Renderer() as renderer:
            return _crops(renderer, target, viewport, "html", pins).get(f"pins/pin-{pins[0].n}.png")
    except VerifyError:
        return None


def _design(src: Path, tweaks: dict[str, str]) -> tuple[str, str, list[str]] | None:
    """(DESIGN.md with `tweaks` applied, `pinup diff` of it as Markdown, the tokens left out), or None.

    A value goes into DESIGN.md only when it is one line of plain characters (a colour, a length, a
    font list) and its token exists there: reviewers write these values, and a line break or markup
    in one must not become a line of DESIGN.md. The hand-off lists every tweak, quoted, either way.
    """
    from pinup.designmd.diff import diff_texts, to_markdown
    from pinup.tweaks import TweakError, apply_tweaks

    design = src / "DESIGN.md"
    try:
        original = design.read_text(encoding="utf-8")
    except OSError:
        return None
    patched, skipped = original, []
    for token, value in sorted(tweaks.items()):
        if not _PLAIN_VALUE.match(value):
            skipped.append(token)
            continue
        try:
            patched = apply_tweaks(patched, {token: value})
        except TweakError:
            skipped.append(token)
    return patched, to_markdown(diff_texts(original, patched)), skipped


def build_zip(src: Path, record: dict[str, Any], data: dict[str, Any], markdown: str) -> Archive:
    """The archive's entries for the hand-off `data` of `record` (see the module docstring)."""
    from pinup.boards.spec import BoardError, load_board, resolve_variant_file
    from pinup.handoff import quote

    archive = Archive()
    data = json.loads(json.dumps(data))  # a copy: the archive names its own file paths
    board_dir = src / "boards" / str(record.get("board"))
    board = None
    if (board_dir / "board.yaml").is_file():
        try:
            board = load_board(board_dir)
        except BoardError as exc:
            raise HandoffZipError(str(exc)) from None
    variants = _round_variants(board, record.get("round")) if board is not None else []
    picked = [v for v in variants if v.id == record.get("preferred")]
    files: list[str] = []
    if board is not None and picked:
        try:
            first = resolve_variant_file(board.folder, picked[0], board_dir / "board.yaml")
        except BoardError as exc:
            raise HandoffZipError(str(exc)) from None
        root = Path(os.path.realpath(board.folder))
        for path in variant_files(board.folder, first):
            name = posixpath.join("variant", path.relative_to(root).as_posix())
            archive.add(name, path.read_bytes())
            files.append(name)
        if data.get("preferredVariant"):
            data["preferredVariant"]["file"] = posixpath.join("variant", first.relative_to(root).as_posix())
    tweaks = {str(k): str(v) for k, v in (record.get("tweaks") or {}).items()}
    design = _design(src, tweaks)
    skipped = design[2] if design is not None else sorted(tweaks)
    if design is not None:
        archive.add("DESIGN.md", design[0])
        archive.add("DESIGN.diff.md", design[1])
    if board is not None:
        for name, content in pin_crops(board, variants, data["items"]).items():
            archive.add(name, content)
    listing = sorted({*archive.entries, "handoff.md", "handoff.json"})
    data["archive"] = {"files": listing, "variantFiles": files, "tweaksNotApplied": skipped}
    archive.add("handoff.json", json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    lines = ["", "## Files in this archive", ""]
    lines += [f"- {quote(name)}" for name in listing]
    if skipped:
        lines += ["", "Tweaks not written into DESIGN.md (not a plain value, or no such token there):"]
        lines += [f"- {quote(token)}" for token in skipped]
    archive.add("handoff.md", markdown.rstrip("\n") + "\n" + "\n".join(lines) + "\n")
    return archive
