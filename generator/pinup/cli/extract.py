"""`pinup extract`: draft a DESIGN.md from a rendered page or a board variant."""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

import click

#: exit status when the page could not be read (exit 1 is kept for "the draft has lint errors")
EXIT_CANNOT_RUN = 2


def _fail(message: str) -> NoReturn:
    click.echo(f"Error: {message}", err=True)
    raise SystemExit(EXIT_CANNOT_RUN)


def _variant_target(src: Path | None, board: str, variant: str) -> tuple[str, int]:
    """The file of `variant` on `board` and the width of the device it was made for."""
    from pinup.boards.context import DEVICE_WIDTHS
    from pinup.boards.spec import BoardError, load_board
    from pinup.workspace import WorkspaceNotFound, resolve

    try:
        workspace = resolve(src)
    except WorkspaceNotFound as exc:
        _fail(str(exc))
    folder = workspace.src / "boards" / board
    if not (folder / "board.yaml").is_file():
        names = sorted(p.parent.name for p in (workspace.src / "boards").glob("*/board.yaml"))
        _fail(f"no board {board!r} in {workspace.src}; boards: {', '.join(names) or 'none'}.")
    try:
        loaded = load_board(folder)
    except BoardError as exc:
        _fail(str(exc))
    spec = next((v for v in loaded.spec.variants if v.id == variant), None)
    if spec is None:
        _fail(
            f"board {board!r} has no variant {variant!r}; its variants: {', '.join(v.id for v in loaded.spec.variants)}."
        )
    if spec.kind != "html":
        _fail(f"variant {variant} of {board!r} is an image ({spec.file}); extract reads HTML pages only.")
    device = spec.device or loaded.spec.device or "desktop"
    return str(loaded.files[variant]), DEVICE_WIDTHS.get(device, 1440)


@click.command("extract")
@click.argument("target", required=False, metavar="PAGE_OR_URL")
@click.option("--board", default=None, metavar="SLUG", help="Draft from a variant of this board (with --variant).")
@click.option("--variant", default=None, metavar="ID", help="The board variant to draft from.")
@click.option("--src", type=click.Path(path_type=Path, file_okay=False), default=None, help="Workspace of --board.")
@click.option("--name", default=None, help="The design system's name (default: the page's title).")
@click.option(
    "--out",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Write the draft to this new file (never over an existing one); default: standard output.",
)
@click.option("--width", type=click.IntRange(200, 4000), default=None, help="Viewport width in px (default 1440).")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME", help="Also open this non-loopback host.")
@click.option("--timeout", type=click.FloatRange(1, 300), default=15.0, show_default=True, help="Seconds to load.")
def extract(
    target: str | None,
    board: str | None,
    variant: str | None,
    src: Path | None,
    name: str | None,
    out: Path | None,
    width: int | None,
    allow_hosts: tuple[str, ...],
    timeout: float,
) -> None:
    """Draft a DESIGN.md from PAGE_OR_URL (a local HTML file or a loopback URL), rendered in Chromium.

    Reads the computed styles of the page's visible elements and writes what it shows most as
    tokens (colours by role, the type scale, spacing, radii, components) and `##` sections saying
    what was inferred. `--board SLUG --variant ID` drafts from a board variant instead. Other hosts
    than 127.0.0.1/localhost only with --allow-host. Exit 0 when the draft was written, 2 when the
    page could not be read (with the reason).
    """
    from pinup.browser import BrowserError, page_address
    from pinup.designmd.lint import lint_text
    from pinup.extract.draft import draft_text
    from pinup.extract.infer import infer
    from pinup.extract.sample import sample_page

    device_width = 1440
    if board or variant:
        if target:
            _fail("give either PAGE_OR_URL or --board with --variant, not both.")
        if not (board and variant):
            _fail("--board and --variant go together: --board SLUG --variant ID.")
        target, device_width = _variant_target(src, board, variant)
    if not target:
        _fail("nothing to read: give PAGE_OR_URL, or --board SLUG --variant ID.")
    if out is not None and out.exists():
        _fail(f"{out} already exists; pinup never writes over a file. Choose another --out.")
    try:
        url = page_address(target, allow_hosts=allow_hosts)
        sample = sample_page(url, width=width or device_width, allow_hosts=allow_hosts, timeout_s=timeout)
    except BrowserError as exc:
        _fail(str(exc))
    if not sample.elements:
        _fail(f"{url} shows nothing to read styles from.")
    text = draft_text(infer(sample), name)
    report = lint_text(text)
    if out is None:
        click.echo(text, nl=False)
    else:
        from pinup_feedback.atomicfile import create_file

        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            create_file(out, text.encode("utf-8"), sync=True)
        except FileExistsError:
            _fail(f"{out} already exists; pinup never writes over a file. Choose another --out.")
        except OSError as exc:
            _fail(f"cannot write {out}: {exc.strerror or exc}.")
        click.echo(f"Wrote {out}", err=True)
    summary = report.summary
    click.echo(
        f"Draft of {len(sample.elements)} elements: {summary.errors} errors, {summary.warnings} warnings (pinup lint).",
        err=True,
    )
