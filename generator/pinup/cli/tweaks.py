"""`pinup tweaks apply`: write a reviewer's token tweaks into a copy of DESIGN.md and show the diff."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from pinup.workspace import SRC_HELP


@click.group("tweaks", context_settings={"help_option_names": ["-h", "--help"]})
def tweaks() -> None:
    """Use the design-token tweaks reviewers sent from a board's Tweak panel."""


def _record(src: str | None, store: str | None, feedback_id: str, board: str | None) -> tuple[Any, dict[str, Any]]:
    """(workspace, the stored record for an id, a unique id prefix, or `latest`)."""
    from pinup.serve.workspace import resolve
    from pinup_feedback.store.base import RecordNotFound
    from pinup_feedback.store.file import FileStore

    try:
        ws = resolve(src, store=store, must_exist=False)
    except FileNotFoundError as exc:
        raise click.ClickException(str(exc)) from None
    st = FileStore(ws.store)
    try:
        items = st.list(board)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    if feedback_id == "latest":
        with_tweaks = [i for i in items if st.read(i.key).get("tweaks")]
        if not with_tweaks:
            raise click.ClickException(f"no feedback with tweaks in {ws.store}")
        return ws, st.read(with_tweaks[-1].key)
    matches = [i for i in items if i.id == feedback_id or i.id.startswith(feedback_id)]
    if len(matches) > 1:
        raise click.ClickException(f"id prefix {feedback_id!r} matches {len(matches)} records; give more of it")
    if not matches:
        raise click.ClickException(f"no feedback with id {feedback_id!r} in {ws.store}")
    try:
        return ws, st.read(matches[0].key)
    except (RecordNotFound, ValueError):
        raise click.ClickException(f"feedback {feedback_id!r} cannot be read from {ws.store}") from None


@tweaks.command("apply")
@click.argument("feedback_id", metavar="FEEDBACK_ID|latest")
@click.option(
    "--out",
    "out_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Where to write the patched copy (default: DESIGN.tweaks-<id>.md beside DESIGN.md).",
)
@click.option("--board", metavar="SLUG", help="Only look at this board's feedback.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["markdown", "json"]),
    default="markdown",
    show_default=True,
    help="Format of the printed diff (as `pinup diff`).",
)
@click.option(
    "--src",
    type=click.Path(file_okay=False, path_type=str),
    help=SRC_HELP,
)
@click.option(
    "--store",
    type=click.Path(file_okay=False, path_type=str),
    help="Feedback store folder (default: <workspace>/.pinup/feedback).",
)
def apply(
    feedback_id: str, out_file: Path | None, board: str | None, fmt: str, src: str | None, store: str | None
) -> None:
    """Write FEEDBACK_ID's tweaks into a copy of DESIGN.md and print `pinup diff` of it.

    DESIGN.md itself is never changed; only the tweaked values' characters differ in the copy,
    so comments and formatting stay as written. Exit status as `pinup diff`: 1 when the copy
    lints worse than the original.
    """
    from pinup.designmd.diff import diff_texts, to_json, to_markdown
    from pinup.tweaks import TweakError, apply_tweaks

    ws, record = _record(src, store, feedback_id, board)
    changes = record.get("tweaks") or {}
    if not isinstance(changes, dict) or not changes:
        raise click.ClickException(f"feedback {record.get('id')} has no tweaks")
    design = ws.src / "DESIGN.md"
    try:
        original = design.read_text(encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"cannot read {design}: {exc.strerror or exc}") from None
    try:
        patched = apply_tweaks(original, {str(k): str(v) for k, v in changes.items()})
    except TweakError as exc:
        raise click.ClickException(f"{design}: {exc}") from None
    target = out_file or design.with_name(f"DESIGN.tweaks-{str(record.get('id'))[:8]}.md")
    if target.resolve() == design.resolve():
        raise click.ClickException("--out names DESIGN.md itself; the original is never overwritten")
    from pinup_feedback.atomicfile import replace_file

    try:
        replace_file(target, patched)
    except OSError as exc:
        raise click.ClickException(f"cannot write {target}: {exc.strerror or exc}") from None
    click.echo(
        f"wrote {target} ({len(changes)} token{'s' if len(changes) != 1 else ''} from feedback {record.get('id')})",
        err=True,
    )
    result = diff_texts(original, patched)
    sys.stdout.write(to_json(result) if fmt == "json" else to_markdown(result))
    sys.stdout.flush()
    sys.exit(1 if result["regression"] else 0)
