"""tests/nodetools.py lays out its node/npm links safely when several processes do it at once (xdist)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import nodetools

HERE = Path(__file__).resolve().parent


def test_replacing_a_link_never_leaves_it_missing(tmp_path: Path) -> None:
    """Writers swap the link between two targets while a reader checks it is always there."""
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("a")
    b.write_text("b")
    link = tmp_path / "bin" / "node"
    link.parent.mkdir()
    link.symlink_to(a)
    errors: list[BaseException] = []
    missing = 0
    done = threading.Event()

    def write(target: Path) -> None:
        try:
            for _ in range(300):
                nodetools._replace_link(link, target)
        except BaseException as exc:  # noqa: B036  (reported below, with the writer's name)
            errors.append(exc)

    def read() -> None:
        nonlocal missing
        while not done.is_set():
            missing += not os.path.lexists(link)

    reader = threading.Thread(target=read)
    reader.start()
    writers = [threading.Thread(target=write, args=(t,)) for t in (a, b, a, b)]
    for w in writers:
        w.start()
    for w in writers:
        w.join()
    done.set()
    reader.join()
    assert errors == [] and missing == 0
    assert Path(os.readlink(link)) in (a, b)
    assert sorted(p.name for p in link.parent.iterdir()) == ["node"], "no temporary link is left behind"


def test_workers_laying_out_the_wheel_links_at_once_all_succeed(tmp_path: Path) -> None:
    """Four processes start on an empty folder together (as xdist's workers do); all get working links."""
    folder = tmp_path / "node-bin"
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import nodetools, pathlib;"
        "print(nodetools._wheel_node_dir(pathlib.Path(sys.argv[2])))"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", code, str(HERE), str(folder)], stdout=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    outs = [p.communicate(timeout=60)[0].strip() for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0]
    assert outs == [str(folder)] * 4
    assert sorted(p.name for p in folder.iterdir()) == ["node", "npm", "npx"]
    assert nodetools.node_major(str(folder / "node")) is not None
    assert (nodetools.node_major(str(folder / "node")) or 0) >= nodetools.MIN_MAJOR
