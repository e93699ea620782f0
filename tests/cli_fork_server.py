"""A warm `python -m pinup` that forks one child per command line (run by tests/cli_runner.py).

Why: a fresh `pinup` process spends most of its time starting Python and importing, and the
conformance tests run hundreds of them. This process imports the CLI once; for each request it forks,
and the child becomes `python -m pinup ARGS` with its own stdin, stdout and stderr (real file
descriptors, not a tty), its own environment, working folder and exit status, exactly as a fresh
process would have them, minus the start-up. The fork happens in this single-threaded process,
never inside pytest's.

Protocol: one JSON line per request on stdin, {"args", "input" (base64 or null), "env", "cwd",
"timeout"}; one JSON line back, {"code", "stdout", "stderr"} (base64), `code` negative for a signal
as in `subprocess`.
"""

from __future__ import annotations

import base64
import json
import os
import signal
import sys
from typing import Any, BinaryIO


def _warm_up() -> None:
    """Import what most command lines import, so each child starts with it loaded."""
    import pinup.cli  # noqa: F401
    import pinup.cli.lintrun  # noqa: F401
    import pinup.designmd.lint  # noqa: F401
    import pinup.designmd.report  # noqa: F401


def _memfd(name: str, data: bytes = b"") -> int:
    fd = os.memfd_create(name)
    if data:
        os.write(fd, data)
        os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _read_all(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks)


def _become_pinup(request: dict[str, Any], fds: tuple[int, int, int], protocol: tuple[int, int]) -> None:
    """In the child: take the request's stdio, environment and folder, then run the CLI's `main`.

    Its SystemExit (or an uncaught exception) leaves the interpreter the way it leaves a fresh
    `python -m pinup`: same exit status, traceback on stderr, atexit handlers and stdio flushed.
    """
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    for fd in protocol:
        os.close(fd)
    if request.get("timeout"):
        signal.alarm(max(1, int(request["timeout"])))
    os.environ.clear()
    os.environ.update(request["env"])
    os.chdir(request["cwd"])
    sys.path[0] = os.getcwd()  # as `python -m` sets it
    sys.argv = [os.path.join(os.path.dirname(sys.modules["pinup"].__file__ or ""), "__main__.py"), *request["args"]]
    from pinup.cli import main

    main()
    raise SystemExit(0)


def serve(requests: BinaryIO, replies: BinaryIO) -> None:
    """Answer requests until stdin closes."""
    protocol = (requests.fileno(), replies.fileno())
    for line in requests:
        if not line.strip():
            continue
        request = json.loads(line)
        data = base64.b64decode(request["input"]) if request.get("input") is not None else b""
        stdin = _memfd("stdin", data)
        stdout, stderr = _memfd("stdout"), _memfd("stderr")
        pid = os.fork()
        if pid == 0:
            _become_pinup(request, (stdin, stdout, stderr), protocol)
        os.close(stdin)
        _, status = os.waitpid(pid, 0)
        reply = {
            "code": os.waitstatus_to_exitcode(status),
            "stdout": base64.b64encode(_read_all(stdout)).decode("ascii"),
            "stderr": base64.b64encode(_read_all(stderr)).decode("ascii"),
        }
        replies.write(json.dumps(reply).encode() + b"\n")
        replies.flush()


def main() -> None:
    # The protocol gets its own descriptors; 0, 1 and 2 are the children's to take.
    requests = os.fdopen(os.dup(0), "rb")
    replies = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.close(devnull)
    _warm_up()
    serve(requests, replies)


if __name__ == "__main__":
    main()
