"""`pinup serve --generate`: run the next round when a reviewer asks for one.

Why: the reviewer should stay in the same tab while the round is made. The
feedback app calls `on_regenerate(record, boards)` after the request is stored;
this starts a background thread that runs the same `run_generation` as the CLI,
streams "generating variant k of n" over SSE (`boards.publish`), rebuilds the
site with the `rebuild` callable `pinup serve` passes in, and calls
`boards.reload(board, build)` so the open page refreshes itself (once: the
build's digest tells a page that already shows it to stay). On
failure it publishes `{"error": message}` (the board shows it with a retry
button); the stored feedback is untouched, so nothing collected is lost.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from pinup.boards.built import built_boards
from pinup.generate.client import ClientOptions, GenerationError

MODEL_ENV = "PINUP_GENERATE_MODEL"
COUNT_ENV = "PINUP_GENERATE_COUNT"


IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".svg")


def board_kind(src: Path, board: str) -> Literal["html", "image"]:
    """ "image" when every current variant of the board is an image, else "html"."""
    from pinup.generate.rounds import current_variants, read_board, resolve_board

    try:
        variants = current_variants(read_board(resolve_board(board, src)))
    except Exception:  # noqa: BLE001 - an unreadable board fails later with a clear message
        return "html"
    files = [str(v.get("file") or "").lower() for v in variants]
    return "image" if files and all(f.endswith(IMAGE_SUFFIXES) for f in files) else "html"


class Regenerator:
    """Holds the options and the per-board "already running" set."""

    def __init__(
        self,
        src: Path,
        site_out: Path,
        *,
        kind: Literal["html", "image"] | None = None,
        count: int = 3,
        model: str | None = None,
        size: str = "1024x1024",
        client: ClientOptions | None = None,
        rebuild: Callable[[], object],
        on_done: Callable[[str, Any], None] | None = None,
    ) -> None:
        self.src = Path(src)
        self.site_out = Path(site_out)
        self.kind = kind
        self.count = count
        self.model = model
        self.size = size
        self.client = client or ClientOptions()
        self.rebuild = rebuild
        self.on_done = on_done
        self._running: set[str] = set()
        self._guard = threading.Lock()
        self.threads: list[threading.Thread] = []

    def __call__(self, record: dict[str, Any], boards: Any) -> None:
        board = str(record.get("board") or "")
        with self._guard:
            if board in self._running:
                boards.publish(board, {"message": "a new round is already being generated"})
                return
            self._running.add(board)
        boards.set_status(
            board, "regenerating", message="starting generation", progress={"done": 0, "total": self.count}
        )
        thread = threading.Thread(target=self._work, args=(record, boards), name=f"pinup-generate-{board}", daemon=True)
        self.threads.append(thread)
        thread.start()

    def _work(self, record: dict[str, Any], boards: Any) -> None:
        from pinup.generate.runner import GenerateOptions, ProgressEvent, run_generation

        board = str(record["board"])
        result: Any = None
        try:

            def progress(event: ProgressEvent) -> None:
                done = event.k - 1 if event.stage in ("variant", "retry", "invalid") else event.k
                boards.publish(
                    board,
                    {
                        "status": "regenerating",
                        "message": event.message,
                        "progress": {
                            "done": max(done, 0),
                            "total": event.n,
                            "k": event.k,
                            "n": event.n,
                            "stage": event.stage,
                            "elapsed": round(event.elapsed, 1),
                            "tokens": event.usage.total_tokens,
                        },
                    },
                )

            options = GenerateOptions(
                board=board,
                src=self.src,
                count=self.count,
                kind=self.kind or board_kind(self.src, board),
                model=self.model,
                size=self.size,
                client=self.client,
                feedback=record,
            )
            result = run_generation(options, progress)
            boards.publish(board, {"status": "regenerating", "message": f"building round {result.round}"})
            try:
                self.rebuild()
            except Exception as exc:  # noqa: BLE001 - the round is on disk; say so
                raise GenerationError(
                    "build",
                    f"round {result.round} was written but the site build failed ({exc}); fix it and run `pinup build`",
                ) from None
            built = built_boards(self.site_out).get(board)
            boards.reload(board, built.build if built is not None else None)
        except GenerationError as exc:
            self._fail(boards, board, exc.message)
        except Exception as exc:  # noqa: BLE001 - any failure must reach the reviewer, not kill serve
            self._fail(boards, board, f"{type(exc).__name__}: {exc}")
        finally:
            with self._guard:
                self._running.discard(board)
            if self.on_done is not None:
                self.on_done(board, result)

    @staticmethod
    def _fail(boards: Any, board: str, message: str) -> None:
        # one state change carries the error: SSE subscribers get it as an event, and the board
        # keeps it for pollers of /api/progress until it regenerates, is done or reloads
        boards.set_status(board, "serving", message=f"generation failed: {message}", error=message)


def make_on_regenerate(
    src: Path,
    site_out: Path,
    *,
    kind: Literal["html", "image"] | None = None,
    count: int | None = None,
    model: str | None = None,
    size: str = "1024x1024",
    base_url: str | None = None,
    api_key_env: str = "OPENAI_API_KEY",
    timeout: float = 120.0,
    max_retries: int = 3,
    rebuild: Callable[[], object],
    on_done: Callable[[str, Any], None] | None = None,
) -> Regenerator:
    """The `Hooks.on_regenerate` callable for `pinup serve --generate`.

    `kind=None` keeps each board's kind: image boards get image variants. With no
    `model`/`count` given, $PINUP_GENERATE_MODEL and $PINUP_GENERATE_COUNT apply (serve
    has no generation flags), else the runner's defaults and 3 variants.

    `pinup serve --generate` checks the key first (`pinup.generate.client.resolve_key`)
    so a missing key is reported at start-up; if it goes missing later, the first
    regenerate reports it on the board.
    """
    client = ClientOptions(api_key_env=api_key_env, base_url=base_url, timeout=timeout, max_retries=max_retries)
    model = model or os.environ.get(MODEL_ENV) or None
    env_count = os.environ.get(COUNT_ENV, "").strip()
    if count is None:
        count = int(env_count) if env_count.isdigit() and 1 <= int(env_count) <= 26 else 3
    return Regenerator(
        src, site_out, kind=kind, count=count, model=model, size=size, client=client, rebuild=rebuild, on_done=on_done
    )
