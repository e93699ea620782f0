"""`pinup serve`: the built site plus the feedback app (local mode) on uvicorn, with the agent protocol.

The agent protocol is plain text so any harness can drive it: `SERVE_STARTED: …` and
`SERVE_BROWSER_OPENED: …`/`SERVE_BROWSER_MANUAL: …` on stderr, one JSON line per feedback
on stdout, serve.json beside the site while running, and exit codes (0 after the final
submit with --exit-on-submit, 1 on --timeout).

Across restarts: the port is the one the workspace used before when it is free (open tabs
reconnect), the feedback ledger and each board's closed/pending state are rebuilt from the
store, and the watcher (unless --no-watch) rebuilds the site after edits and tells open pages.
"""

from __future__ import annotations

import json
import os
import queue
import secrets
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TextIO

from pinup.buildcache import BuildCache
from pinup.serve import servefile
from pinup.serve.archive import archive_stale
from pinup.serve.workspace import Workspace, board_slugs
from pinup.workspace import recorded_port, write_state

if TYPE_CHECKING:  # pragma: no cover
    import uvicorn

    from pinup.serve.gate import BuildGate
    from pinup.serve.watch import Watcher
    from pinup_feedback.state import BoardStates

EXIT_OK = 0
EXIT_TIMEOUT = 1


class _Stopped(BaseException):
    """SIGINT/SIGTERM after uvicorn's graceful shutdown."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@dataclass(frozen=True)
class ServeOptions:
    host: str = "127.0.0.1"
    port: int = 0
    board: str | None = None
    open_browser: bool = True
    timeout: float = 600.0  # seconds without a final submit; 0 = never
    exit_on_submit: bool = False
    on_regenerate: Callable[[dict[str, Any], BoardStates], None] | None = None
    allow_hosts: tuple[str, ...] = ()  # Host names served besides the loopback ones (and a bound address)
    watch: bool = True  # rebuild after workspace edits and tell open pages
    frame_origins: tuple[str, ...] = ()  # other origins the pages may frame (`pinup review`'s app proxy)


def _utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _url_host(host: str) -> str:
    if host in ("0.0.0.0", "::", ""):
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host


def _can_open_browser() -> bool:
    """Only a graphical browser: a console browser would take over the agent's terminal."""
    if os.environ.get("BROWSER"):
        return True
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


class ServeSession:
    """One run of `pinup serve`: start, report, wait for feedback or timeout, clean up."""

    def __init__(
        self,
        ws: Workspace,
        options: ServeOptions,
        *,
        stdout: TextIO | None = None,
        stderr: TextIO | None = None,
        cache: BuildCache | None = None,
    ) -> None:
        self.ws = ws
        self.options = options
        #: what each rebuild keeps for the next (the start-up build's, when the caller made one)
        self.cache = cache or BuildCache()
        self.stdout = stdout or sys.stdout
        self.stderr = stderr or sys.stderr
        self.exit_code = EXIT_OK
        self.token = secrets.token_urlsafe(32)
        self.info: servefile.ServeInfo | None = None
        self._wake = threading.Event()
        self._final_seen = False
        self._deadline: float | None = None
        self._stopping = False
        self._server: uvicorn.Server | None = None
        self._boards: BoardStates | None = None
        self._watcher: Watcher | None = None
        self._lifecycle: Any = None  # the app's items lifecycle, once the app exists
        self._port = options.port
        self._lock = threading.Lock()
        self._failed = False
        self._lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()  # no lock and condition per put
        self._writer = threading.Thread(target=self._write_lines, name="pinup-stdout", daemon=True)

    # --- output -----------------------------------------------------------------------------
    def _err(self, line: str) -> None:
        with self._lock:
            print(line, file=self.stderr, flush=True)

    def _out(self, line: str) -> None:
        """Queue a stdout line; a writer thread prints it, so a slow pipe never stalls the event loop."""
        self._lines.put(line)

    def _write_lines(self) -> None:
        """Print the queued lines in order; the lines queued meanwhile go out in one write and flush."""
        while True:
            batch: list[str] = []
            line = self._lines.get()
            while line is not None:
                batch.append(line)
                try:
                    line = self._lines.get_nowait()
                except queue.Empty:
                    break
            if batch:
                with self._lock:
                    try:
                        print("\n".join(batch), file=self.stdout, flush=True)
                    except (OSError, ValueError):  # stdout closed by the caller: keep serving
                        pass
            if line is None:
                return

    def _drain_stdout(self) -> None:
        self._lines.put(None)
        self._writer.join(timeout=5)

    # --- hooks from the feedback app --------------------------------------------------------
    def on_feedback(self, record: dict[str, Any]) -> None:
        """Print the record as one JSON line; arm exit-on-submit; push the timeout back."""
        self._out(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
        mine = self.options.board is None or record.get("board") == self.options.board
        if record.get("kind") == "final" and mine:
            self._final_seen = True
            if self.options.exit_on_submit:
                self._err(f"SERVE_DONE: final feedback {record.get('id')} for board {record.get('board')}")
                self._stopping = True
        self._restart_timeout()
        self._wake.set()

    def _restart_timeout(self) -> None:
        self._deadline = time.monotonic() + self.options.timeout if self.options.timeout > 0 else None

    # --- lifecycle --------------------------------------------------------------------------
    def _board_url(self, port: int) -> str:
        base = f"http://{_url_host(self.options.host)}:{port}"
        slugs = board_slugs(self.ws)
        board = self.options.board or (slugs[0] if len(slugs) == 1 else None)
        return f"{base}/boards/{board}/" if board else f"{base}/boards/"

    def make_app(self, boards: BoardStates | None = None) -> BuildGate:
        from pinup_feedback.app import Hooks, create_app
        from pinup_feedback.settings import Settings
        from pinup_feedback.state import BoardStates

        settings = Settings(
            mode="local",
            store=str(self.ws.store),
            site_dir=self.ws.out,
            reload_token=self.token,
            default_board=self.options.board,
            log_requests=False,
            rate_limit=0,
            allowed_hosts=(
                *self.options.allow_hosts,
                *([_url_host(self.options.host)] if self.options.host not in ("0.0.0.0", "::", "") else []),
            ),
            frame_origins=self.options.frame_origins,
        )
        from pinup.output import build_info
        from pinup.serve.gate import BuildGate
        from pinup.serve.live import LiveReload

        self._boards = boards = BoardStates() if boards is None else boards
        boards.site_version = str(build_info(self.ws.out).get("id") or "")
        hooks = Hooks(on_feedback=self.on_feedback, on_regenerate=self.options.on_regenerate)
        app = create_app(settings, hooks=hooks, boards=boards)
        self._restore(app.state.ctx, boards)
        self._lifecycle = app.state.ctx.lifecycle
        return BuildGate(LiveReload(app, lambda: boards.site_version), self.ws.out)

    def _restore(self, ctx: Any, boards: BoardStates) -> None:
        """The promises of earlier sessions: receipts from the store, then closed/pending per board."""
        ctx.ledger.rebuild_from(ctx.store)
        for board in board_slugs(self.ws):
            try:
                manifest = ctx.manifests.get(board)
            except Exception:  # noqa: BLE001 - an unreadable manifest is reported when it is used
                continue
            if manifest is None:
                continue
            if ctx.ledger.final_for(board, manifest.round) is not None:
                boards.set_status(board, "done", message="feedback received")
            elif ctx.ledger.pending_for(board, manifest.round) is not None:
                boards.set_status(board, "regenerating", message="another round was requested")

    def _bound_port(self) -> int:
        """The port uvicorn bound (port 0 picks a free one)."""
        for server in getattr(self._server, "servers", []) or []:
            for sock in server.sockets:
                return int(sock.getsockname()[1])
        return self._port

    def _announce(self, port: int) -> None:
        url = self._board_url(port)
        self.info = servefile.ServeInfo(
            port=port,
            pid=os.getpid(),
            url=url,
            token=self.token,
            board=self.options.board,
            startedAt=_utc_now(),
            site=str(self.ws.out),
            store=str(self.ws.store),
            src=str(self.ws.src),
        )
        servefile.write(self.ws.serve_json, self.info)
        write_state(self.ws.src, out=str(self.ws.out), port=port)  # the next start reuses both
        self._err(f"SERVE_STARTED: port={port} url={url} board={self.options.board or '*'}")
        opened = False
        if self.options.open_browser and _can_open_browser():
            try:
                import webbrowser

                opened = webbrowser.open(url, new=2)
            except Exception:  # noqa: BLE001 - any failure means "open it yourself"
                opened = False
        self._err(f"SERVE_BROWSER_OPENED: url={url}" if opened else f"SERVE_BROWSER_MANUAL: url={url}")

    def _supervise(self, server: uvicorn.Server, boards: BoardStates) -> None:
        """Runs beside uvicorn: announce once started, then enforce the timeout and exit-on-submit."""
        while not server.started and not server.should_exit and not self._failed:
            time.sleep(0.02)
        if server.should_exit or self._failed:
            return
        self._announce(self._bound_port())
        if self.options.watch:
            from pinup.serve.watch import Watcher

            self._watcher = Watcher(self.ws, boards, self._err, cache=self.cache)
            self._watcher.start()
        self._restart_timeout()
        while not server.should_exit:
            if self._stopping:
                time.sleep(0.3)  # let the acknowledged response reach the browser first
                self.stop(EXIT_OK)
                return
            deadline = self._deadline
            if deadline is not None and not self._final_seen and time.monotonic() >= deadline:
                self._err(
                    f"SERVE_TIMEOUT: no final feedback within {self.options.timeout:g}s; exiting "
                    "(use --timeout 0 to serve without a limit)"
                )
                self.stop(EXIT_TIMEOUT)
                return
            wait = 0.5 if deadline is None else max(0.05, min(0.5, deadline - time.monotonic()))
            self._wake.wait(wait)
            self._wake.clear()
        boards.close()  # a signal stopped uvicorn: end SSE streams so it exits promptly

    def stop(self, code: int) -> None:
        self.exit_code = code
        if self._watcher is not None:
            self._watcher.stop()
        if self._boards is not None:
            self._boards.close()  # ends SSE streams so uvicorn can shut down promptly
        if self._server is not None:
            self._server.should_exit = True

    def _install_signals(self) -> dict[int, Any]:
        """uvicorn re-raises SIGINT/SIGTERM after its graceful shutdown; turn that into an
        exception so serve.json is still removed (the default SIGTERM action would kill us first)."""
        import signal

        if threading.current_thread() is not threading.main_thread():
            return {}

        def handler(signum: int, _frame: Any) -> None:
            raise _Stopped(signum)

        return {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}

    @staticmethod
    def _restore_signals(previous: dict[int, Any]) -> None:
        import signal

        for sig, old in previous.items():
            signal.signal(sig, old)

    def run(self) -> int:
        import uvicorn

        moved = archive_stale(self.ws.out, self.ws.src / ".pinup" / "archive")
        for path in moved:
            self._err(f"SERVE_ARCHIVED: {path}")
        from pinup_feedback.state import BoardStates

        boards = BoardStates()
        app = self.make_app(boards)
        from pinup.serve.ports import choose_port

        choice = choose_port(self.options.host, self.options.port, recorded_port(self.ws.src))
        if choice.note:
            self._err(choice.note)
        self._port = choice.port
        # uvicorn binds the socket itself: handing it a pre-bound socket made keep-alive responses
        # wait ~40 ms each (Nagle + delayed ACK) on Linux.
        config = uvicorn.Config(
            app,
            host=self.options.host,
            port=choice.port,
            log_level="error",
            lifespan="off",
            timeout_graceful_shutdown=3,
            access_log=False,
            # a client reusing a keep-alive connection just as the server closes it gets no answer
            # at all; a long idle timeout makes that race rare under load (browsers keep ~5 min)
            timeout_keep_alive=75,
            # nothing sits in front of a local server: X-Forwarded-For from a local client is not trusted
            proxy_headers=False,
        )
        self._server = server = uvicorn.Server(config)
        supervisor = threading.Thread(target=self._supervise, args=(server, boards), name="pinup-serve", daemon=True)
        supervisor.start()
        self._writer.start()
        previous = self._install_signals()
        from pinup_feedback.heap import freeze_startup_heap

        freeze_startup_heap()
        try:
            server.run()
        except _Stopped as stopped:
            self.exit_code = 128 + stopped.signum
        except SystemExit:  # uvicorn could not bind (it logged why)
            self._failed = True
            raise OSError(f"could not listen on {self.options.host}:{self._port}") from None
        finally:
            self._restore_signals(previous)
            if self._watcher is not None:
                self._watcher.stop()
            if self._boards is not None:
                self._boards.close()
            if self._watcher is not None:
                self._watcher.join(10.0)
            if self._lifecycle is not None:
                self._lifecycle.wait_idle(5.0)  # numbering of the last submissions finishes before we exit
            servefile.remove(self.ws.serve_json, os.getpid())
            self._drain_stdout()  # every acknowledged record's line is out before we exit
        return self.exit_code
