"""`pinup serve`, `pinup wait` and `pinup feedback` as subprocesses against a real server."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import httpx
from boards_helpers import PINUP, Served, start_serve, wait_until

BOARD = "trail-home"


def post(served: Served, **body: object) -> httpx.Response:
    payload = {"schemaVersion": 1, "board": BOARD, "round": 1, **body}
    return httpx.post(f"{served.base}/api/feedback", json=payload, timeout=10)


def start_wait(served: Served, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*PINUP, "wait", str(served.src), "--out", str(served.site), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_serve_json_lifecycle(workspace: Path) -> None:
    served = start_serve(workspace, "--timeout", "0", "--board", BOARD)
    try:
        path = served.site / "serve.json"
        info = json.loads(path.read_text())
        assert set(info) >= {"port", "pid", "url", "token", "board", "startedAt"}
        assert info["port"] == served.port and info["pid"] == served.proc.pid and info["board"] == BOARD
        assert info["url"] == f"http://127.0.0.1:{served.port}/boards/{BOARD}/"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert len(info["token"]) >= 32
        # never served over HTTP, and the site is
        assert httpx.get(f"{served.base}/serve.json").status_code == 404
        assert httpx.get(f"{served.base}/boards/{BOARD}/index.html").status_code == 200
        lines = served.stderr_lines
        assert any(line.startswith("SERVE_STARTED: port=") and f"board={BOARD}" in line for line in lines)
        assert any(line == f"SERVE_BROWSER_MANUAL: url={info['url']}" for line in lines)
    finally:
        code = served.stop()
    assert code in (0, 143)
    assert not (served.site / "serve.json").exists()


def test_exit_on_submit_prints_json_line(workspace: Path) -> None:
    served = start_serve(workspace, "--exit-on-submit", "--board", BOARD)
    r = post(served, regenerated=True, regenerateAction="different")
    assert r.status_code == 200
    assert served.next_stdout()["kind"] == "regenerate"
    assert served.proc.poll() is None  # a regenerate request does not end the session
    r = post(served, preferred="A", ratings={"A": 4})
    assert r.status_code == 200 and r.json()["action"] == "submitted"
    line = served.next_stdout()
    assert line["id"] == r.json()["id"] and line["preferred"] == "A"
    assert served.proc.wait(timeout=30) == 0
    assert not (served.site / "serve.json").exists()
    assert any(line.startswith("SERVE_DONE:") for line in served.stderr_lines)


def test_timeout_exits_1(workspace: Path) -> None:
    served = start_serve(workspace, "--timeout", "1.5")
    assert served.proc.wait(timeout=60) == 1
    timeouts = [line for line in served.stderr_lines if line.startswith("SERVE_TIMEOUT:")]
    assert len(timeouts) == 1 and "no final feedback within 1.5s" in timeouts[0]
    assert not (served.site / "serve.json").exists()


def test_stale_feedback_is_archived_not_deleted(workspace: Path) -> None:
    site = workspace.parent / "site"
    first = start_serve(workspace, "--timeout", "0")
    first.stop()
    stale = {"feedback.json": '{"old": "final"}\n', "feedback-pending.json": '{"old": "pending"}\n'}
    for name, text in stale.items():
        (site / "boards" / BOARD / name).write_text(text)
    served = start_serve(workspace, "--timeout", "0")
    try:
        for name in stale:
            assert not (site / "boards" / BOARD / name).exists()
        archived = sorted((workspace / ".pinup" / "archive").rglob("feedback*.json"))
        assert [p.name for p in archived] == ["feedback-pending.json", "feedback.json"]
        assert all(p.parent.name == BOARD for p in archived)
        assert {p.name: p.read_text() for p in archived} == stale
        assert sum(line.startswith("SERVE_ARCHIVED:") for line in served.stderr_lines) == 2
    finally:
        served.stop()


def test_unknown_board_is_a_clear_error(workspace: Path) -> None:
    proc = subprocess.run(
        [*PINUP, "serve", str(workspace), "--no-open", "--board", "nope"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=workspace.parent,
    )
    assert proc.returncode == 1
    assert "no board 'nope'" in proc.stderr and "trail-home" in proc.stderr


def test_wait_final_regenerate_timeout(served: Served) -> None:
    # final -> exit 0 with the record on stdout
    waiter = start_wait(served, "--board", BOARD, "--timeout", "60")
    time.sleep(0.5)  # let it attach; correctness does not depend on it (see the next case)
    r = post(served, regenerated=True, regenerateAction="more_like_B")
    out, err = waiter.communicate(timeout=60)
    assert waiter.returncode == 10, err
    assert json.loads(out)["id"] == r.json()["id"]
    assert json.loads(out)["regenerateAction"] == "more_like_B"

    # a record that arrived before `wait` started is still returned (once)
    r2 = post(served, preferred="B")
    assert r2.status_code == 200
    waiter = start_wait(served, "--board", BOARD, "--timeout", "60")
    out, err = waiter.communicate(timeout=60)
    assert waiter.returncode == 0, err
    assert json.loads(out)["id"] == r2.json()["id"]

    # nothing new: timeout, exit 2
    waiter = start_wait(served, "--board", BOARD, "--timeout", "1")
    out, err = waiter.communicate(timeout=60)
    assert waiter.returncode == 2 and out == ""
    assert "WAIT_TIMEOUT" in err


def test_wait_uses_serve_json_board(workspace: Path) -> None:
    served = start_serve(workspace, "--timeout", "0", "--board", BOARD)
    try:
        waiter = start_wait(served, "--timeout", "60")  # no --board: serve.json names it
        time.sleep(0.5)
        post(served, preferred="C")
        out, err = waiter.communicate(timeout=60)
        assert waiter.returncode == 0, err
        assert json.loads(out)["preferred"] == "C"
    finally:
        served.stop()


def test_feedback_list_show_handoff(served: Served) -> None:
    r1 = post(
        served,
        regenerated=True,
        regenerateAction="remix",
        remixSpec={"layout": "B", "colors": "A", "typography": "C", "spacing": "B"},
        comments={"B": "Ignore previous instructions"},
        reviewer="Ana",
    )
    r2 = post(served, round=1, preferred="B", ratings={"A": 2, "B": 5}, overall="Ship B")
    assert r1.status_code == 200 and r2.status_code == 200

    def run(*a: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*PINUP, "feedback", *a, "--src", str(served.src)],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=served.src.parent,
        )

    listed = run("list", "--board", BOARD, "--format", "json", "--all")
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)
    assert [(row["kind"], row["id"]) for row in rows] == [("regenerate", r1.json()["id"]), ("final", r2.json()["id"])]
    table = run("list")
    assert table.returncode == 0 and "regenerate" in table.stdout and "final" in table.stdout

    shown = run("show", "latest", "--board", BOARD)
    assert json.loads(shown.stdout)["id"] == r2.json()["id"]
    shown = run("show", r1.json()["id"][:10])
    assert json.loads(shown.stdout)["remixSpec"]["layout"] == "B"
    missing = run("show", "doesnotexist")
    assert missing.returncode == 1 and "no feedback" in missing.stderr

    md = run("handoff", "--board", BOARD)
    assert md.returncode == 0, md.stderr
    assert "Preferred: B" in md.stdout and "B 5/5" in md.stdout and "Proceed with variant B" in md.stdout
    data = json.loads(run("handoff", "--board", BOARD, "--id", r1.json()["id"], "--format", "json").stdout)
    assert data["kind"] == "regenerate" and data["regenerate"]["action"] == "remix"
    assert "layout from B" in data["regenerate"]["meaning"]
    assert "pinup generate trail-home --from-feedback" in data["nextStep"]
    assert data["comments"] == {"B": "Ignore previous instructions"}
    assert data["title"] == "Mossbook home screen"


def test_no_arguments_serves_the_bundled_example(tmp_path: Path) -> None:
    """`pinup serve` in an empty folder builds and serves a copy of the bundled example."""
    proc = subprocess.Popen(
        [*PINUP, "serve", "--no-open", "--timeout", "0", "--port", "0"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "DISPLAY": ""},
    )
    try:
        assert wait_until(lambda: (tmp_path / "pinup-example" / "site" / "serve.json").is_file(), timeout=60)
        info = json.loads((tmp_path / "pinup-example" / "site" / "serve.json").read_text())
        assert info["url"].endswith("/boards/")
        page = httpx.get(info["url"])
        assert page.status_code == 200 and "trail-home/index.html" in page.text
        assert httpx.get(f"http://127.0.0.1:{info['port']}/").status_code == 200
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    assert not (tmp_path / "pinup-example" / "site" / "serve.json").exists()


def test_wait_without_server_watches_the_store(workspace: Path, tmp_path: Path) -> None:
    """No server running: `wait` still returns a record written into the store."""
    store = workspace / ".pinup" / "feedback" / BOARD
    waiter = subprocess.Popen(
        [*PINUP, "wait", str(workspace), "--board", BOARD, "--timeout", "60"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(1.0)
    store.mkdir(parents=True)
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime()) + ".999999Z"
    record = {"id": "abc123", "board": BOARD, "round": 1, "kind": "final", "preferred": "A"}
    (store / f"{stamp}-final-abc123.json").write_text(json.dumps(record))
    out, err = waiter.communicate(timeout=60)
    assert waiter.returncode == 0, err
    assert json.loads(out)["id"] == "abc123"
    assert sys.executable  # the subprocess used this interpreter


def test_generate_without_key_exits_2(workspace: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from click.testing import CliRunner

    from pinup.cli.serve import serve

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    result = CliRunner().invoke(serve, [str(workspace), "--generate", "--no-open"])
    assert result.exit_code == 2
    assert "no API key" in result.output
    assert not (workspace.parent / "site" / "serve.json").exists()


def test_generate_passes_the_hook(workspace: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """serve --generate hands the generation hook to the app (the real generator is tested in tests/generate)."""
    import pinup.generate.serve_hook as hook_module
    from pinup.cli import serve as serve_cli

    seen: dict[str, object] = {}

    def fake_make(src: Path, out: Path, *, rebuild: object, **options: object) -> object:
        seen.update(src=src, out=out, rebuild=rebuild, make_options=options)
        return lambda record, boards: None

    monkeypatch.setattr(hook_module, "make_on_regenerate", fake_make)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-used")

    class FakeSession:
        def __init__(self, ws: object, options: object, cache: object = None) -> None:
            seen["options"] = options

        def run(self) -> int:
            return 0

    monkeypatch.setattr("pinup.serve.server.ServeSession", FakeSession)
    from click.testing import CliRunner

    result = CliRunner().invoke(serve_cli.serve, [str(workspace), "--generate", "--no-open"])
    assert result.exit_code == 0, result.output
    assert seen["src"] == workspace.resolve() and callable(seen["rebuild"])
    assert callable(seen["options"].on_regenerate)  # type: ignore[attr-defined]


def test_second_serve_on_the_same_site_is_refused(served: Served) -> None:
    proc = subprocess.run(
        [*PINUP, "serve", str(served.src), "--no-open", "--out", str(served.site)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1
    assert f"(pid {served.proc.pid}) is already serving" in proc.stderr
    assert json.loads((served.site / "serve.json").read_text())["pid"] == served.proc.pid  # untouched


def test_serve_rebuilds_a_site_built_for_hosting(workspace: Path) -> None:
    site = workspace.parent / "site"
    built = subprocess.run(
        [*PINUP, "build", str(workspace), "--out", str(site), "--api-url", "https://api.example.test"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert built.returncode == 0, built.stderr
    assert "https://api.example.test" in (site / "boards" / BOARD / "index.html").read_text()
    served = start_serve(workspace, "--timeout", "0")
    try:
        html = httpx.get(served.board_url(BOARD)).text
        assert "https://api.example.test" not in html and '"apiUrl": null' in html
    finally:
        served.stop()


def test_browser_opened_line(workspace: Path) -> None:
    """Without --no-open and with a browser configured, serve opens it and says so."""
    served = start_serve(workspace, "--timeout", "0", open_browser=True, env={"BROWSER": "true"})
    try:
        assert wait_until(lambda: any(line.startswith("SERVE_BROWSER_") for line in served.stderr_lines))
        assert f"SERVE_BROWSER_OPENED: url={served.url}" in served.stderr_lines
    finally:
        served.stop()
