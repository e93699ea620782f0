"""Changed outputs are written over in place, except where that would reach another file, and
never while `pinup serve` is sending them (the writer and reader protocol of pinup.overwrites)."""

from __future__ import annotations

import errno
import os
import threading
import time
from pathlib import Path

import pytest
from package_helpers import overwriting

from pinup import overwrites
from pinup.output import MANIFEST, OutputWriter


def _build(out: Path, files: dict[str, str]) -> OutputWriter:
    with OutputWriter(out) as writer:
        for rel, text in files.items():
            writer.write_text(rel, text)
    return writer


def test_a_hard_linked_output_is_replaced_and_the_other_name_keeps_its_content(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _build(out, {"a.html": "one"})
    snapshot = tmp_path / "snapshot.html"
    os.link(out / "a.html", snapshot)  # `cp -al`: a snapshot of the site sharing its files
    _build(out, {"a.html": "two"})
    assert (out / "a.html").read_text() == "two"
    assert snapshot.read_text() == "one"
    assert (out / "a.html").stat().st_ino != snapshot.stat().st_ino


def test_a_fifo_where_an_output_was_is_replaced_without_waiting_for_a_reader(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _build(out, {"a.html": "one"})
    (out / "a.html").unlink()
    os.mkfifo(out / "a.html")  # opening it to write would wait for a reader forever
    _build(out, {"a.html": "two"})
    assert (out / "a.html").is_file() and (out / "a.html").read_text() == "two"


def test_a_write_that_fails_removes_the_file_and_the_next_build_writes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    _build(out, {"a.html": "one", "b.html": "bee"})
    real_write = os.write

    def full_disk(fd: int, data: bytes) -> int:
        if bytes(data[:3]) == b"two":
            real_write(fd, bytes(data[:1]))  # part of it reached the file, as on a full disk
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full_disk)
    with pytest.raises(OSError, match="No space"), OutputWriter(out) as writer:
        writer.write_text("a.html", "two")
    monkeypatch.undo()
    assert not (out / "a.html").exists()  # neither version: what is left must not pass for one
    assert not overwriting(str(out.resolve()))  # the failed build let readers go on
    writer = _build(out, {"a.html": "two", "b.html": "bee"})
    assert (out / "a.html").read_text() == "two" and writer.written == 1
    assert (out / MANIFEST).is_file()


def test_readers_wait_while_a_build_overwrites_and_the_build_waits_for_readers_under_way(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _build(out, {"a.html": "one"})
    folder = str(out.resolve())
    assert overwrites.start_reading(folder)  # a response being sent
    done = threading.Event()

    def rebuild() -> None:
        _build(out, {"a.html": "two"})
        done.set()

    builder = threading.Thread(target=rebuild)
    builder.start()
    time.sleep(0.3)
    assert not done.is_set() and (out / "a.html").read_text() == "one"  # the build waits for the response
    assert not overwrites.start_reading(folder)  # and from now on new readers wait for the build
    overwrites.stop_reading(folder)
    builder.join(10)
    assert done.is_set() and (out / "a.html").read_text() == "two"
    assert overwrites.start_reading(folder)
    overwrites.stop_reading(folder)


def test_a_build_that_writes_nothing_over_never_holds_readers(tmp_path: Path) -> None:
    out = tmp_path / "out"
    folder = str(out.resolve())
    with OutputWriter(out) as writer:
        writer.write_text("a.html", "new file")
        assert not overwriting(folder)  # created, not overwritten: nothing to hold
    with OutputWriter(out) as writer:
        writer.write_text("a.html", "new file")  # unchanged: skipped
        assert not overwriting(folder)
        writer.write_text("a.html", "changed")
        assert overwriting(folder)
    assert not overwriting(folder)
