"""`pinup ARGS` for tests that check only what a command prints and returns, without a fresh Python each.

One warm process a session (tests/cli_fork_server.py) forks a child per command line; the child has
its own stdin, stdout, stderr, environment, folder and exit status, so the result is what
`subprocess.run([sys.executable, "-m", "pinup", ...], capture_output=True)` returns. Tests of the
entry point itself (imports, start-up, signals, a tty) keep running real processes
(tests/designmd/test_designmd_cli.py, test_designmd_imports.py). Its fidelity is tested in
tests/test_cli_runner.py.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

SERVER = Path(__file__).resolve().parent / "cli_fork_server.py"


class ForkedCli:
    """Runs `pinup` command lines as forks of one warm interpreter, one at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None

    def _server(self) -> subprocess.Popen[bytes]:
        if self._proc is None or self._proc.poll() is not None:
            self.close()
            self._proc = subprocess.Popen(
                [sys.executable, str(SERVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=dict(os.environ)
            )
        return self._proc

    def run(
        self,
        *args: str,
        input: bytes | None = None,
        env: dict[str, str] | None = None,
        cwd: Path | str | None = None,
        timeout: float = 120,
    ) -> subprocess.CompletedProcess[bytes]:
        """`pinup ARGS` with `env` added to this process's environment; raises TimeoutExpired like run()."""
        request = {
            "args": list(args),
            "input": None if input is None else base64.b64encode(input).decode("ascii"),
            "env": {**os.environ, **(env or {})},
            "cwd": str(cwd or os.getcwd()),
            "timeout": timeout,
        }
        with self._lock:
            proc = self._server()
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(json.dumps(request).encode() + b"\n")
            proc.stdin.flush()
            line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the pinup fork server stopped (exit {self._server_exit()}) on {args}")
        reply = json.loads(line)
        cmd = [sys.executable, "-m", "pinup", *args]
        out, err = base64.b64decode(reply["stdout"]), base64.b64decode(reply["stderr"])
        if reply["code"] == -14:  # SIGALRM: the child's alarm(timeout) went off
            raise subprocess.TimeoutExpired(cmd, timeout, out, err)
        return subprocess.CompletedProcess(cmd, reply["code"], out, err)

    def _server_exit(self) -> int | None:
        return None if self._proc is None else self._proc.wait(timeout=30)

    def close(self) -> None:
        """Stop the server and close its pipes."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.stdin is not None:
            proc.stdin.close()
        proc.wait(timeout=30)
        if proc.stdout is not None:
            proc.stdout.close()


_shared = ForkedCli()


def run_forked(
    *args: str, input: bytes | None = None, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[bytes]:
    """`pinup ARGS` through the session's fork server (the signature of helpers' `run_pinup`)."""
    return _shared.run(*args, input=input, env=env, timeout=timeout)


def close_shared() -> None:
    _shared.close()
