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

import atexit
import base64
import gc
import json
import os
import signal
import sys
from typing import Any, BinaryIO


def _warm_up() -> None:
    """Import what most command lines import, so each child starts with it loaded."""
    import pinup.cli  # noqa: F401
    import pinup.cli.designmd  # noqa: F401
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

    Its SystemExit (or an uncaught exception) ends the child the way it ends a fresh
    `python -m pinup`: same exit status, traceback on stderr, atexit handlers run, stdio flushed.
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

    try:
        main()
        status = 0
    except BaseException as exc:  # noqa: BLE001 - handled as the interpreter would handle it
        status = _exit_status(exc)
    # Skip tearing down the interpreter's whole heap (the costly part of a child's exit here);
    # what a process's end shows is done: atexit handlers, then the streams flushed.
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)


def _exit_status(exc: BaseException) -> int:
    """The exit status `python -m pinup` has when `main` raises `exc`, printing what it prints."""
    if isinstance(exc, SystemExit):
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        print(exc.code, file=sys.stderr)
        return 1
    sys.excepthook(type(exc), exc, exc.__traceback__)
    if isinstance(exc, KeyboardInterrupt):  # as Python does: end by the signal itself
        sys.stderr.flush()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    return 1


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
    gc.freeze()  # children then leave these objects' pages shared instead of copying them in a collection
    serve(requests, replies)


if __name__ == "__main__":
    main()
