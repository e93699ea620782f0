"""Build review boards: `src/boards/<slug>/board.yaml` -> `out/boards/<slug>/index.html`.

Each board page is self-contained (its CSS and JS are inlined; variant files are
copied next to it, or inlined as data URIs with `--inline`) so it works from a
static host, from `pinup serve`, and opened straight from disk.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pinup.boards.spec import Board, BoardError, VariantSpec, find_boards, load_board, resolve_variant_file

if TYPE_CHECKING:  # pragma: no cover
    from jinja2 import Environment

    from pinup.boards.context import RoundView, VariantView
    from pinup.buildoptions import BuildOptions
    from pinup.output import FileSink

PACKAGE = Path(__file__).resolve().parent.parent
TEMPLATES = PACKAGE / "templates" / "board"
STATIC = PACKAGE / "static" / "board"
SECRET_ENV = "PINUP_BOARD_SECRET"
#: the page's scripts, inlined in this order (board.js first: the others use what it exposes)
SCRIPTS = ("board.js", "layout.js", "pins.js", "tweaks.js", "items.js", "rounds.js", "attach.js", "start.js")
#: names the build or the server write in a board's folder; a variant may not take them
#: stands in for the build id while the page is rendered; the id is a digest of that page (build_id)
BUILD_PLACEHOLDER = "pinup-build-id-pending"
RESERVED = {"index.html", "board.json", "results.html", "results.csv", "feedback.json", "feedback-pending.json"}


def board_token(secret: str, slug: str) -> str:
    """hex(HMAC-SHA256(secret, slug)): what the hosted endpoint expects in X-Pinup-Board-Token."""
    return hmac.new(secret.encode("utf-8"), slug.encode("utf-8"), hashlib.sha256).hexdigest()


def _env(options: BuildOptions) -> Environment:
    """The board area's environment (`pinup.templating`: `DIR/board/NAME`, then the packaged templates)."""
    from pinup.templating import environment

    custom = options.templates
    return environment("board", str(TEMPLATES), str(custom) if custom else None)


def _static(name: str) -> str:
    """A packaged board asset (`packaged_file`: every board page inlines them)."""
    from pinup.templating import packaged_file

    return packaged_file(STATIC / name).decode("utf-8")


def with_agent(html: str) -> str:
    """The variant's HTML with the pin/tweak agent script added just before </body> (or at the end).

    The agent talks to the board over postMessage only, so the iframe sandbox stays closed.
    """
    script = '<script data-pinup-agent="1">\n' + _static("agent.js") + "\n</script>\n"
    index = html.lower().rfind("</body>")
    if index == -1:
        return html + "\n" + script
    return html[:index] + script + html[index:]


def _variant_views(board: Board, inline: bool) -> tuple[list[VariantView], dict[str, str | bytes]]:
    """Views for the template and the files to write (rel path under the board -> HTML text or image bytes).

    An image is read once here: the build id hashes the same bytes the writer writes.
    """
    views: list[VariantView] = []
    copies: dict[str, str | bytes] = {}
    for v in board.spec.variants:
        views.append(_view(board, v, board.files[v.id], inline, copies, agent=True))
    return views, copies


def _view(
    board: Board, v: VariantSpec, source: Path, inline: bool, copies: dict[str, str | bytes], *, agent: bool
) -> VariantView:
    """One variant's view; its file goes into `copies` (HTML gets the pin agent when `agent`)."""
    from pinup.boards.context import DEVICE_WIDTHS, VariantView

    device = v.device or board.spec.device
    rel = Path(os.path.normpath(v.file)).as_posix()
    src, srcdoc = rel, None
    if inline and v.kind == "html":
        text = source.read_text(encoding="utf-8", errors="replace")
        src, srcdoc = "", with_agent(text) if agent else text
    elif inline:
        src = f"data:{v.mime};base64," + base64.b64encode(source.read_bytes()).decode("ascii")
    else:
        if rel.lower() in RESERVED:
            raise BoardError(board.folder / "board.yaml", f"variant {v.id}: file name {rel!r} is reserved")
        if rel in copies:
            pass  # an earlier round showing the same file as this one: written once, with the agent
        elif v.kind == "html":
            text = source.read_text(encoding="utf-8", errors="replace")
            copies[rel] = with_agent(text) if agent else text
        else:
            copies[rel] = source.read_bytes()
    return VariantView(
        id=v.id,
        label=v.label,
        description=v.description,
        kind=v.kind,
        src=src,
        srcdoc=srcdoc,
        device=device,
        width=DEVICE_WIDTHS[device],
    )


def _history_views(board: Board, inline: bool, copies: dict[str, str | bytes]) -> list[RoundView]:
    """Earlier rounds, oldest first, with the files they show that are still in the board's folder.

    Why: reviewers compare a new round with what they saw before, and a published board has no
    other copy of those files. A round whose file is gone shows the rest of its variants.
    """
    from pinup.boards.context import RoundView

    rounds: list[RoundView] = []
    for past in sorted(board.spec.history, key=lambda r: r.round):
        views = []
        for v in past.variants:
            try:
                source = resolve_variant_file(board.folder, v, board.folder / "board.yaml")
            except BoardError:
                continue
            views.append(_view(board, v, source, inline, copies, agent=False))
        pick = past.pick if past.pick in {v.id for v in views} else None
        rounds.append(RoundView(round=past.round, variants=views, pick=pick))
    return rounds


def render_board(
    board: Board, design: Any, options: BuildOptions, *, theme: str | None = None
) -> tuple[str, dict[str, str | bytes], dict[str, Any]]:
    """The board page HTML, the variant files to write, and the manifest.

    `theme`: the design's `theme_css`, when the caller renders several pages of one design."""
    from pinup.boards.context import BoardConfig, BoardPage, RoundView, site_name
    from pinup.boards.limits import page_contract
    from pinup.theme import theme_css
    from pinup.tweaks import tweakables

    inline = options.inline
    api_url = options.api_url or None
    views, copies = _variant_views(board, inline)
    history = _history_views(board, inline, copies)
    secret = os.environ.get(SECRET_ENV) or ""
    token = board_token(secret, board.slug) if api_url and secret else None
    tweaks = tweakables(design)
    controls = [t.model_dump(exclude_none=True) for t in tweaks]  # as the manifest and the page script hold them
    limits, max_schema, v2 = page_contract()
    config = BoardConfig(
        board=board.slug,
        title=board.spec.title,
        round=board.spec.round,
        variants=board.spec.variant_ids(),
        apiUrl=api_url,
        token=token,
        maxSchemaVersion=max_schema,
        v2Fields=v2,
        limits=limits,
        tweakables=controls,
        kinds={v.id: v.kind for v in board.spec.variants},
        build=BUILD_PLACEHOLDER,
        rounds=[r.manifest() for r in history],
        current=RoundView(round=board.spec.round, variants=views).manifest()["variants"] if history else [],
    )
    page = BoardPage(
        slug=board.slug,
        title=board.spec.title,
        brief=board.spec.brief,
        round=board.spec.round,
        device=board.spec.device,
        variants=views,
        config=config,
        theme_css=theme if theme is not None else theme_css(design),
        board_css=_static("board.css"),
        board_js="\n".join(_static(name) for name in SCRIPTS),
        site_name=site_name(design),
        history_rounds=[r.round for r in board.spec.history],
        history=history,
        limits=limits,
        tweakables=tweaks,
        print_css=_static("print.css"),
    )
    html = _env(options).get_template("board.html.j2").render(page=page, config=config.to_json_dict())
    manifest = {**board.spec.manifest(board.slug), "tweakables": controls}
    manifest["build"] = build = build_id(html, copies, manifest)
    return html.replace(BUILD_PLACEHOLDER, build), copies, manifest


def build_id(html: str, copies: dict[str, str | bytes], manifest: dict[str, Any]) -> str:
    """A digest of everything the built board shows: the page, its variant files and its manifest.

    Why: a reload that names the build a page already shows changes nothing for that page, so the
    page ignores it (an agent's `pinup build` reloads the board, and its own `reload_board` after it
    must not reload the reviewer's tab a second time). The same sources always give the same id.
    """
    digest = hashlib.sha256(html.encode("utf-8"))
    for rel in sorted(copies):
        source = copies[rel]
        digest.update(b"\0" + rel.encode("utf-8") + b"\0")
        digest.update(source.encode("utf-8") if isinstance(source, str) else source)
    digest.update(json.dumps(manifest, sort_keys=True).encode("utf-8"))
    return digest.hexdigest()[:16]


def render_index(boards: list[Board], design: Any, options: BuildOptions, *, theme: str | None = None) -> str:
    """The boards index page (only what each board.yaml says, and the theme)."""
    from pinup.boards.context import BoardsIndexPage, BoardSummary, site_name
    from pinup.theme import theme_css

    summaries = [
        BoardSummary(
            slug=b.slug,
            title=b.spec.title,
            brief=b.spec.brief,
            round=b.spec.round,
            variant_count=len(b.spec.variants),
            kinds=" + ".join(sorted({v.kind.upper() for v in b.spec.variants})),
        )
        for b in boards
    ]
    page = BoardsIndexPage(
        boards=summaries,
        theme_css=theme if theme is not None else theme_css(design),
        board_css=_static("board.css"),
        site_name=site_name(design),
        show_results=options.results and not options.api_url,
    )
    return _env(options).get_template("index.html.j2").render(page=page)


def load_all(src: Path) -> list[Board]:
    """Every board under src/boards, or BoardError for the first bad one."""
    return [load_board(folder) for folder in find_boards(src)]


def build_boards(
    src: Path,
    out: Path,
    design: Any,
    options: BuildOptions,
    writer: FileSink,
    *,
    shown: str | None = None,
    theme: str | None = None,
) -> list[Path]:
    """Render every board page, copy its variants, write its manifest and the boards index.

    Returns the paths of the boards' files (pages, manifests, copied variants, the index). Raises
    BoardError (file and line in the message) for a bad board.yaml, before any board is written.
    `shown`: what the pages show of the DESIGN.md (`pinup.boards.reuse.shown_fingerprint`); with
    it, a board whose inputs did not change since the previous build is kept without rendering.
    `theme`: the design's `theme_css`, when the caller worked it out already.
    """
    from pinup.boards import reuse
    from pinup.theme import theme_css

    src, out = Path(src), Path(out)
    folders = find_boards(src)
    if not folders:
        return []
    common = None if shown is None else reuse.common_fingerprint(shown, options)
    api_url = options.api_url or None
    secret = os.environ.get(SECRET_ENV) or ""
    written: list[Path] = []
    todo: list[tuple[Path, str]] = []  # (folder, fingerprint) of the boards to render
    for folder in folders:
        token = board_token(secret, folder.name) if api_url and secret else None
        fingerprint = None if common is None else reuse.board_fingerprint(folder, common, token)
        kept = None if fingerprint is None else writer.reuse(_group(folder.name), fingerprint)
        if kept is None:
            todo.append((folder, fingerprint or ""))
        else:
            written.extend(out / str(rel) for rel in _files(kept))
    boards = {folder: load_board(folder) for folder, _ in todo}  # every bad board.yaml fails the build first
    for folder, fingerprint in todo:
        board = boards[folder]
        theme = theme if theme is not None else theme_css(design)  # the same for every page of this build
        html, copies, manifest = render_board(board, design, options, theme=theme)
        base = f"boards/{board.slug}"
        files = [f"{base}/index.html", *(f"{base}/{rel}" for rel in copies), f"{base}/board.json"]
        with writer.group(_group(board.slug), fingerprint, {"files": files}):
            writer.write_text(f"{base}/index.html", html)
            for rel, source in copies.items():
                if isinstance(source, str):
                    writer.write_text(f"{base}/{rel}", source)
                else:
                    writer.write_bytes(f"{base}/{rel}", source)
            writer.write_text(f"{base}/board.json", json.dumps(manifest, indent=2) + "\n")
        written.extend(out / rel for rel in files)
    index = None if common is None else reuse.index_fingerprint(folders, common)
    if index is None or writer.reuse("boards/index", index) is None:
        every = [boards.get(folder) or load_board(folder) for folder in folders]
        with writer.group("boards/index", index or ""):
            writer.write_text("boards/index.html", render_index(every, design, options, theme=theme))
    written.append(out / "boards" / "index.html")
    return written


def _group(slug: str) -> str:
    """The output group of one board's files (named inside its folder: see `OutputWriter.reuse`)."""
    return f"boards/{slug}/board"


def _files(meta: dict[str, object]) -> list[str]:
    files = meta.get("files")
    return [str(rel) for rel in files] if isinstance(files, list) else []


__all__ = ["BoardError", "board_token", "build_boards", "load_all", "render_board", "render_index"]
