"""Where a workspace is, where its site is built, and what pinup remembers beside it.

One module so `pinup build`, `generate`, `serve`, `wait` and `feedback` agree, whatever the
current folder. A workspace is a folder holding DESIGN.md (and boards/). With no path given,
the nearest of these, from the current folder up, is used: a folder with a DESIGN.md, a built
site that records its workspace, `site_src/`, or the copy of the bundled example that
`pinup serve` makes (`pinup-example/site_src/`).

Its site lives in the output folder `pinup serve` last served (recorded in
`<workspace>/.pinup/workspace.json`, with the port), else in `site/` beside the workspace.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pinup_feedback.atomicfile import replace_file

DESIGN_FILE = "DESIGN.md"
DEFAULT_NAME = "site_src"
EXAMPLE_COPY = "pinup-example"
STATE_DIR = ".pinup"
STATE_FILE = "workspace.json"
BUILD_MANIFEST = ".pinup-build.json"

#: where a command given no workspace path looks (`find_workspace`), in the words its --help uses
NEAREST_WORKSPACE = "the nearest one from here up: a folder with a DESIGN.md, or its site_src/"
#: the help of a `--src`/`--workspace` option that defaults to the nearest workspace
SRC_HELP = f"Workspace folder (default: {NEAREST_WORKSPACE})."


class WorkspaceNotFound(FileNotFoundError):
    """No workspace where one was expected; the message says what to do."""


@dataclass(frozen=True, slots=True)
class Workspace:
    """A workspace (DESIGN.md + boards), its built site, and its feedback store."""

    src: Path
    out: Path
    store: Path

    @property
    def serve_json(self) -> Path:
        return self.out / "serve.json"


def is_workspace(folder: Path) -> bool:
    return (folder / DESIGN_FILE).is_file()


def _built_from(folder: Path) -> Path | None:
    """The workspace a built site in `folder` records (its build manifest's `src`)."""
    try:
        data = json.loads((folder / BUILD_MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    src = data.get("build", {}).get("src") if isinstance(data, dict) and isinstance(data.get("build"), dict) else None
    return Path(src) if isinstance(src, str) and is_workspace(Path(src)) else None


def find_workspace(cwd: Path | None = None) -> Path | None:
    """The nearest workspace from `cwd` up (see the module docstring), or None."""
    here = (cwd or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if is_workspace(folder):
            return folder
        built = _built_from(folder)
        if built is not None:
            return built.resolve()
        for child in (folder / DEFAULT_NAME, folder / EXAMPLE_COPY / DEFAULT_NAME):
            if is_workspace(child):
                return child
    return None


def bundled_example() -> Path:
    """The example workspace shipped with pinup (read-only in an installed wheel)."""
    from pinup.brands import BrandError, example_dir

    try:
        return example_dir()
    except BrandError as exc:
        raise WorkspaceNotFound(str(exc)) from None


def copy_example(cwd: Path | None = None) -> Path:
    """Copy the bundled example to `./pinup-example/site_src` (once) so feedback lands somewhere visible."""
    copy = (cwd or Path.cwd()) / EXAMPLE_COPY / DEFAULT_NAME
    if not is_workspace(copy):
        import shutil  # only here: a build never loads it

        shutil.copytree(
            bundled_example(), copy, ignore=shutil.ignore_patterns(STATE_DIR, "__pycache__"), dirs_exist_ok=True
        )
    return copy.resolve()


def default_src(*, create_example: bool = False, cwd: Path | None = None) -> Path:
    """The workspace for a command given no path; `create_example` (serve) copies the example if none."""
    found = find_workspace(cwd)
    if found is not None:
        return found
    if create_example:
        return copy_example(cwd)
    raise WorkspaceNotFound(
        "workspace not found: run inside a folder with a DESIGN.md (or its site_src/), or pass the workspace path"
    )


def read_state(src: Path) -> dict[str, Any]:
    """What pinup remembers about the workspace (`out`, `port`); {} when nothing."""
    try:
        data = json.loads((src / STATE_DIR / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_state(src: Path, **fields: Any) -> None:
    """Merge `fields` into `<workspace>/.pinup/workspace.json` (atomic replace)."""
    path = src / STATE_DIR / STATE_FILE
    data = {**read_state(src), **fields}
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_file(path, json.dumps(data, indent=2) + "\n")


def default_out(src: Path) -> Path:
    """The workspace's output folder: the one `pinup serve` recorded, else `site/` beside it."""
    recorded = read_state(src).get("out")
    if isinstance(recorded, str) and recorded:
        return Path(recorded)
    return src.parent / "site"


def recorded_port(src: Path) -> int | None:
    port = read_state(src).get("port")
    return port if isinstance(port, int) and 0 < port < 65536 else None


def resolve(
    src: str | Path | None,
    out: str | Path | None = None,
    store: str | Path | None = None,
    *,
    must_exist: bool = True,
    create_example: bool = False,
) -> Workspace:
    """The workspace for SRC (or the default), its output folder and its store, as absolute paths."""
    if src:
        src_path = Path(src).resolve()
    else:
        try:
            src_path = default_src(create_example=create_example)
        except WorkspaceNotFound:
            if must_exist:
                raise
            src_path = (Path.cwd() / DEFAULT_NAME).resolve()
    if must_exist and not src_path.is_dir():
        raise WorkspaceNotFound(f"workspace not found: {src_path} is not a folder")
    out_path = Path(out).resolve() if out else default_out(src_path).resolve()
    store_path = Path(store).resolve() if store else src_path / STATE_DIR / "feedback"
    return Workspace(src=src_path, out=out_path, store=store_path)
