"""pinup_feedback.atomicfile: a file is replaced whole or not at all, by concurrent writers too."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import pinup
import pinup_feedback
from pinup_feedback.atomicfile import TEMP_PATTERN, replace_file, temp_name


def _temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_replaces_the_contents_and_returns_the_new_files_stat(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_text("old contents, longer than the new ones\n", encoding="utf-8")
    st = replace_file(path, "néw\n")
    assert path.read_bytes() == "néw\n".encode()
    now = os.stat(path)
    assert (st.st_ino, st.st_size, st.st_mtime_ns) == (now.st_ino, now.st_size, now.st_mtime_ns)
    replace_file(str(path), b"\x00bytes")
    assert path.read_bytes() == b"\x00bytes"
    assert _temps(tmp_path) == []


def test_a_new_file_follows_the_umask_and_a_private_one_is_owner_only(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        replace_file(tmp_path / "shared", "x")
        replace_file(tmp_path / "serve.json", "secret", private=True)
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "shared").st_mode) == 0o644
    assert stat.S_IMODE(os.stat(tmp_path / "serve.json").st_mode) == 0o600
    assert _temps(tmp_path) == []


def test_temporary_names_are_what_the_start_up_sweep_removes(tmp_path: Path) -> None:
    """A killed writer's temporary file is found by `remove_stale_temps` (the feedback app's start-up)."""
    from pinup_feedback.store.durable import remove_stale_temps

    name = temp_name("page.html")
    match = re.match(TEMP_PATTERN, name)
    assert match is not None and int(match.group(1)) == os.getpid() and name.startswith(".page.html.")
    assert temp_name("page.html") != name
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    left = tmp_path / name.replace(f".{os.getpid()}.", f".{int(dead.stdout)}.")
    left.write_text("half a page")
    mine = tmp_path / name
    mine.write_text("being written")
    assert remove_stale_temps(tmp_path) == [left]
    assert mine.exists()


def test_a_failed_replacement_keeps_the_old_file_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    # the rename fails: the target is a folder with something in it
    folder = tmp_path / "taken"
    folder.mkdir()
    (folder / "inside").write_text("kept")
    with pytest.raises(OSError):
        replace_file(folder, "x")
    assert (folder / "inside").read_text() == "kept"
    assert _temps(tmp_path) == []


def test_a_write_that_fails_halfway_keeps_the_old_file(tmp_path: Path) -> None:
    """A real short disk: the process may not write files over 4 KiB (RLIMIT_FSIZE), so os.write fails."""
    path = tmp_path / "manifest.json"
    path.write_text("the previous build's manifest")
    script = (
        "import resource, signal, sys\n"
        "from pinup_feedback.atomicfile import replace_file\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))\n"
        "try:\n"
        "    replace_file(sys.argv[1], b'y' * 100_000)\n"
        "except OSError as exc:\n"
        "    print(exc.errno)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "27"  # EFBIG
    assert path.read_text() == "the previous build's manifest"
    assert _temps(tmp_path) == []


def test_a_file_or_link_at_the_temporary_name_is_left_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Created exclusively: a link planted at the next temporary name is neither followed nor removed."""
    victim = tmp_path / "victim"
    victim.write_text("must not change")
    path = tmp_path / "cursor"
    path.write_text("old")
    draws = iter([b"\x01\x02\x03\x04", b"\x01\x02\x03\x04"])
    real = os.urandom
    monkeypatch.setattr(os, "urandom", lambda n: next(draws, None) or real(n))
    planted = tmp_path / temp_name(path.name)  # the name replace_file will try first
    os.symlink(victim, planted)
    replace_file(path, "new")
    assert path.read_text() == "new"
    assert victim.read_text() == "must not change"
    assert os.readlink(planted) == str(victim)
    assert _temps(tmp_path) == [planted.name]


def test_durable_syncs_the_file_before_the_rename_and_the_folder_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[tuple[str, bool]] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append((os.readlink(f"/proc/self/fd/{fd}"), (tmp_path / "board.yaml").exists()))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    replace_file(tmp_path / "board.yaml", "rounds: 2\n", durable=True)
    assert [re.match(TEMP_PATTERN, os.path.basename(name)) is not None for name, _ in synced] == [True, False]
    assert [(os.path.dirname(synced[0][0]), synced[0][1]), synced[1]] == [(str(tmp_path), False), (str(tmp_path), True)]
    synced.clear()
    replace_file(tmp_path / "cache.json", "{}")
    assert synced == []


WRITER = """
import sys
from pinup_feedback.atomicfile import replace_file
path, tag = sys.argv[1], sys.argv[2]
for i in range(150):
    size = 1000 + (i * 7919) % 60000
    replace_file(path, (tag * size).encode())
"""


def test_concurrent_writers_never_show_a_reader_a_torn_file(tmp_path: Path) -> None:
    """Threads and processes replace one file while a reader checks every version it sees is whole."""
    path = tmp_path / "shared.txt"
    replace_file(path, "s" * 10)
    stop = threading.Event()
    seen: list[int] = []
    torn: list[str] = []

    def read() -> None:
        while not stop.is_set():
            data = path.read_text()
            if not data or data != data[0] * len(data):
                torn.append(data[:40])
            seen.append(len(data))

    def write(tag: str) -> None:
        for i in range(150):
            replace_file(path, tag * (1000 + (i * 7919) % 60000))

    reader = threading.Thread(target=read)
    reader.start()
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), tag]) for tag in "PQ"]
    threads = [threading.Thread(target=write, args=(tag,)) for tag in "abc"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [p.wait() for p in procs] == [0, 0]
    stop.set()
    reader.join()
    assert torn == []
    assert len(seen) > 10
    assert _temps(tmp_path) == []


def test_every_file_pinup_replaces_goes_through_replace_file() -> None:
    """No second tmp-and-rename in either package: a rename elsewhere must say why it is not one."""
    allowed = {
        ("pinup/generate/rounds.py", "os.rename(tmp, final)"),  # a whole round folder put in place, not a file
    }
    found = set()
    for package in (Path(pinup.__file__).parent, Path(pinup_feedback.__file__).parent):
        for source in package.rglob("*.py"):
            rel = source.relative_to(package.parent).as_posix()
            if rel == "pinup_feedback/atomicfile.py":
                continue
            pattern = r"\bos\.(?:replace|rename)\([^)]*\)|\.(?:replace|rename)\((?:self\.)?\w+\)"
            for match in re.finditer(pattern, source.read_text()):
                found.add((rel, match.group(0)))
    assert found == allowed
