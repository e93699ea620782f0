"""`pinup serve`'s stdout: one JSON line per record, in order, all out before it exits.

The lines are queued by the event loop and printed by one writer thread, which sends the lines
queued meanwhile in one write; a reader must still see whole lines in the order they came.
"""

from __future__ import annotations

import io
import json
import threading
from pathlib import Path

from pinup.serve.server import ServeOptions, ServeSession
from pinup.workspace import Workspace


def test_records_come_out_as_whole_lines_in_order_and_all_before_exit(tmp_path: Path) -> None:
    out = io.StringIO()
    ws = Workspace(src=tmp_path / "ws", out=tmp_path / "site", store=tmp_path / "ws" / ".pinup" / "feedback")
    session = ServeSession(ws, ServeOptions(open_browser=False, watch=False), stdout=out, stderr=io.StringIO())
    session._writer.start()
    records = [{"id": f"r{n}", "board": "b", "kind": "regenerate", "note": "é \n"} for n in range(2000)]
    half = threading.Thread(target=lambda: [session.on_feedback(r) for r in records[:1000]])
    half.start()
    half.join()
    for record in records[1000:]:
        session.on_feedback(record)
    session._drain_stdout()
    assert not session._writer.is_alive()
    lines = out.getvalue().split("\n")
    assert lines[-1] == ""  # ends with a newline
    assert [json.loads(line) for line in lines[:-1]] == records
