"""`pinup serve` watches the workspace, rebuilds what changed, and tells every open page.

Why: an edit to DESIGN.md, a board or a template should show in the browser without a command.
`watchfiles` groups a burst of saves into one batch (it yields once no change came for `step`
ms, and a batch that arrives while a build runs waits for the next one), so an editor's storm
of writes costs a few rebuilds, not hundreds. The build is incremental (the OutputWriter skips
unchanged outputs). A failed build is printed and sent to the pages (`build_error`); the last
good site keeps being served. A workspace deleted under the server stops the watcher with one
clear line, never a crash loop.

Only the source folders are watched, each on its own (`watched_folders`): not the feedback store
(`.pinup/feedback`, where every submission writes several files), other dot folders, caches or
the site. A recursive watch of the workspace made the kernel queue an event per store write and
the watcher wake for each: a quarter of the server's CPU per submission under load. A folder
created later is added by watching again, then building once more for what it received meanwhile.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pinup.boards.built import built_boards
from pinup.buildcache import BuildCache
from pinup.serve.restyle import PageShapes
from pinup.serve.workspace import Workspace, build

if TYPE_CHECKING:  # pragma: no cover
    from pinup_feedback.state import BoardStates

IGNORED_NAMES = {"__pycache__", "node_modules"}
IGNORED_SUFFIXES = ("~", ".swp", ".swx", ".tmp", ".part")


class WorkspaceFilter:
    """Only workspace sources: no dot folders (.pinup, .git), caches, editor temp files, or the site."""

    def __init__(self, ws: Workspace) -> None:
        self.src = ws.src
        self.out = ws.out
        self.dot_prefix = os.path.join(str(ws.src), ".")

    def __call__(self, change: Any, path: str) -> bool:
        if path.startswith(self.dot_prefix):  # a dot file or folder at the top: the commonest case, kept cheap
            return False
        p = Path(path)
        if p == self.out or self.out in p.parents:
            return False
        try:
            parts = p.relative_to(self.src).parts
        except ValueError:
            return False
        if any(part.startswith(".") or part in IGNORED_NAMES for part in parts):
            return False
        return not p.name.endswith(IGNORED_SUFFIXES)


def watched_folders(ws: Workspace) -> list[str]:
    """The workspace's folders a source can be in: the workspace and every folder below it, but
    no dot folder, cache (`IGNORED_NAMES`), the site or the feedback store, nor what they hold."""
    skip = {os.path.realpath(ws.out), os.path.realpath(ws.store)}
    found: list[str] = []
    seen: set[str] = set()
    for folder, dirs, _files in os.walk(ws.src, followlinks=True):
        real = os.path.realpath(folder)
        if real in seen or real in skip:  # a link loop, or a folder that is not sources
            dirs[:] = []
            continue
        seen.add(real)
        found.append(folder)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in IGNORED_NAMES)
    return found


def _new_folders(changes: set[tuple[Any, str]], watched: set[str]) -> bool:
    """True when a batch added a folder (a new board, a round's variants; or one deleted and made
    again, whose old watch went with it) or holds one that is not watched yet."""
    from watchfiles import Change

    return any((change == Change.added or path not in watched) and os.path.isdir(path) for change, path in changes)


class Watcher:
    """A thread that rebuilds `ws` after changes and reports to `boards` and `say` (stderr)."""

    #: `step_ms`: how long a burst must be quiet to end. watchfiles looks once a step, so every edit
    #: waits one to two steps before its build: the largest share of a token edit's way to the
    #: page (bench/serve_reload.py). An editor's save (write, rename) takes far less than a step;
    #: a save spread wider is built twice, the second at once (changes made during a build are one
    #: batch). The price is one wake-up per step while idle.
    def __init__(
        self,
        ws: Workspace,
        boards: BoardStates,
        say: Callable[[str], None],
        *,
        step_ms: int = 10,
        cache: BuildCache | None = None,
    ) -> None:
        self.ws = ws
        self.cache = cache or BuildCache()  # every rebuild's: each keeps what the next one needs
        self.boards = boards
        self.say = say
        self.step_ms = step_ms
        self.stop_event = threading.Event()
        self.shapes = PageShapes(ws.out)  # tells a change of styles only from one a page must reload for
        self.thread = threading.Thread(target=self.run, name="pinup-watch", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stop_event.set()

    def join(self, timeout: float) -> None:
        """Let a rebuild under way finish: a thread still running Python while the interpreter
        shuts down can crash the process on its way out."""
        if self.thread.is_alive():
            self.thread.join(timeout)

    def run(self) -> None:
        from watchfiles import watch

        catch_up = False  # a folder was added: build once more when its watch is up
        self.shapes.prime()
        try:
            while not self.stop_event.is_set():
                folders = watched_folders(self.ws)
                if not folders:  # the workspace is gone
                    break
                watched = set(folders)
                for changes in watch(
                    *folders,
                    watch_filter=WorkspaceFilter(self.ws),
                    stop_event=self.stop_event,
                    step=self.step_ms,
                    debounce=1600,
                    raise_interrupt=False,
                    recursive=False,
                    ignore_permission_denied=True,
                    rust_timeout=1000,  # an empty batch each second: a workspace removed while the
                    yield_on_timeout=True,  # watch was being set up (no event) is still noticed
                ):
                    if not self._workspace_present():
                        return
                    if changes or catch_up:
                        catch_up = False
                        self.rebuild(len(changes))
                    if changes and _new_folders(changes, watched):
                        catch_up = True  # what the new folder got before it is watched
                        break
        except Exception as exc:  # noqa: BLE001 - the watcher must never take the server down
            if self._workspace_present():
                self.say(f"SERVE_WATCH_STOPPED: {type(exc).__name__}: {exc}; restart pinup serve to watch again")
        self._workspace_present()

    def _workspace_present(self) -> bool:
        if self.ws.src.is_dir() or self.stop_event.is_set():  # a missing DESIGN.md alone is a build error
            return True
        message = (
            f"the workspace {self.ws.src} was removed; still serving the last build. "
            "Restore it and restart pinup serve to rebuild."
        )
        self.say(f"SERVE_WORKSPACE_GONE: {message}")
        self.boards.build_failed(message)
        self.stop_event.set()
        return False

    def rebuild(self, changes: int) -> None:
        """One incremental build; on success a `rebuilt` event (naming the changes a page takes in
        place: `restyled`), a reload for boards whose round changed."""
        from pinup.buildoptions import BuildError

        started = time.perf_counter()
        before = built_boards(self.ws.out)
        try:
            result = build(self.ws, self.cache)
        except BuildError as exc:
            self._failed(str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - any build bug is reported, the last good site stays
            self._failed(f"{type(exc).__name__}: {exc}")
            return
        pages = [p for p in result.changed if p.endswith(".html")]
        self.say(
            f"SERVE_REBUILT: {len(result.changed)} files changed ({changes} paths edited) "
            f"in {time.perf_counter() - started:.2f}s"
        )
        restyled = self.shapes.restyled(result.changed)
        if result.changed or self.boards.build_error is not None:  # nothing new: no page needs to hear of it
            self.boards.rebuilt(result.build_id, pages, restyled)
        for slug, now in built_boards(self.ws.out).items():
            was = before.get(slug)
            if was is None or was.round != now.round:  # same round: the `rebuilt` event covers it
                self.boards.reload(slug, now.build)

    def _failed(self, message: str) -> None:
        self.shapes.forget()
        self.say(f"SERVE_BUILD_ERROR: {message} (still serving the last good build)")
        self.boards.build_failed(message)
