"""The reference CLI (`@google/design.md` from node_modules) as a test oracle, one node process a session.

`tests/reference_batch.mjs` loads the CLI once and answers one run per request; every answer is
cached by its arguments, so modules that ask for the same run share it. Its fidelity to a fresh
`design.md` process is itself tested (tests/test_reference_oracle.py).
"""

from __future__ import annotations

import json
import subprocess
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
BATCH = HERE / "reference_batch.mjs"


@dataclass(frozen=True)
class RefRun:
    """What the reference CLI printed for one run, and its exit status."""

    stdout: str
    stderr: str
    returncode: int


class ReferenceOracle:
    """Runs `design.md ARGS...` in one long-lived node process, caching each run by its arguments."""

    def __init__(self, cli: Path) -> None:
        self.cli = cli
        self.cache: dict[tuple[str, ...], RefRun] = {}
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[str] | None = None

    def _worker(self) -> subprocess.Popen[str]:
        if self._proc is None or self._proc.poll() is not None:
            self._proc = subprocess.Popen(
                ["node", str(BATCH), str(self.cli)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                bufsize=1,
            )
        return self._proc

    def _ask(self, args: tuple[str, ...]) -> RefRun:
        proc = self._worker()
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(list(args)) + "\n")
        proc.stdin.flush()
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the reference batch runner stopped (exit {proc.wait()}) on {args}")
        reply = json.loads(line)
        return RefRun(reply["stdout"], reply["stderr"], int(reply["code"]))

    def __call__(self, *args: str) -> RefRun:
        key = tuple(args)
        with self._lock:
            if key not in self.cache:
                self.cache[key] = self._ask(key)
            return self.cache[key]

    def many(self, calls: Iterable[Sequence[str]]) -> list[RefRun]:
        """Every run in `calls`, in order (one node process serves them all)."""
        return [self(*call) for call in calls]

    def close(self) -> None:
        if self._proc is not None:
            if self._proc.stdin is not None:
                self._proc.stdin.close()
            self._proc.wait(timeout=30)
            if self._proc.stdout is not None:
                self._proc.stdout.close()
            self._proc = None
