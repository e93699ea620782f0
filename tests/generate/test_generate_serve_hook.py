"""The serve --generate hook, in-process: progress events, rebuild, reload, errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fake_openai import CHAT, IMAGES, FakeOpenAI, Reply, chat_body, error_body, page_html
from gen_helpers import load_yaml, snapshot, write_feedback

from pinup.generate.serve_hook import make_on_regenerate
from pinup_feedback.state import BoardStates

BOARD = "trail-home"


class RecordingStates(BoardStates):
    """The real BoardStates, keeping a copy of every event it fans out."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[dict[str, Any]] = []
        self.reloaded: list[str] = []
        self.on_reload(self.reloaded.append)

    def _fan_out(self, board: str, event: dict[str, Any]) -> None:
        self.events.append(dict(event))
        super()._fan_out(board, event)


def run_hook(workspace: Path, record: dict[str, Any], **kw: Any) -> tuple[RecordingStates, list[str]]:
    rebuilt: list[str] = []
    hook = make_on_regenerate(workspace, workspace.parent / "site", rebuild=lambda: rebuilt.append("built"), **kw)
    states = RecordingStates()
    hook(record, states)
    for thread in hook.threads:
        thread.join(timeout=60)
    return states, rebuilt


def regenerate_record(workspace: Path, action: str = "different") -> dict[str, Any]:
    return write_feedback(
        workspace, BOARD, {"regenerated": True, "regenerateAction": action}, "20261130T000001.000000Z"
    )


def test_hook_generates_publishes_progress_rebuilds_and_reloads(api_env: FakeOpenAI, workspace: Path) -> None:
    record = regenerate_record(workspace)
    states, rebuilt = run_hook(workspace, record)
    messages = [e.get("message") for e in states.events]
    for k in (1, 2, 3):
        assert f"generating variant {k} of 3" in messages
    progress = [e["progress"] for e in states.events if e.get("message") == "generating variant 2 of 3"][0]
    assert progress["done"] == 1 and progress["total"] == 3 and progress["tokens"] == 3000
    assert rebuilt == ["built"]
    assert states.reloaded == [BOARD]
    assert states.events[-1]["reload"] is True and states.status(BOARD) == "serving"
    assert load_yaml(workspace / "boards" / BOARD / "board.yaml")["round"] == 2
    assert [r.path for r in api_env.requests] == [CHAT] * 3


def test_hook_failure_publishes_an_error_and_loses_nothing(api_env: FakeOpenAI, workspace: Path) -> None:
    api_env.queue(Reply(401, error_body("bad key", "invalid_api_key")))
    record = regenerate_record(workspace)
    before = snapshot(workspace)
    states, rebuilt = run_hook(workspace, record)
    errors = [e for e in states.events if e.get("error")]
    assert len(errors) == 1 and "authentication failed" in errors[0]["error"]
    assert states.status(BOARD) == "serving" and states.reloaded == [] and rebuilt == []
    assert snapshot(workspace) == before  # the stored feedback and the board are untouched
    # the retry (a new regenerate request) works once the server behaves
    states, rebuilt = run_hook(workspace, record)
    assert states.reloaded == [BOARD]


def test_hook_keeps_an_image_board_an_image_board(api_env: FakeOpenAI, workspace: Path) -> None:
    record = write_feedback(
        workspace, "sighting-badge", {"regenerated": True, "regenerateAction": "different"}, "20261130T000001.000000Z"
    )
    states, _ = run_hook(workspace, record, count=2)
    assert [r.path for r in api_env.requests] == [IMAGES] * 2
    spec = load_yaml(workspace / "boards" / "sighting-badge" / "board.yaml")
    assert [v["file"] for v in spec["variants"]] == ["round-2/variants/a.png", "round-2/variants/b.png"]


def test_second_request_while_running_is_not_started_twice(api_env: FakeOpenAI, workspace: Path) -> None:
    record = regenerate_record(workspace)
    rebuilt: list[str] = []
    hook = make_on_regenerate(workspace, workspace.parent / "site", rebuild=lambda: rebuilt.append("x"), count=1)
    states = RecordingStates()
    api_env.queue(Reply(body=chat_body(page_html("slow")), delay=0.5))
    hook(record, states)
    hook(record, states)
    for thread in hook.threads:
        thread.join(timeout=60)
    assert len(hook.threads) == 1
    assert any(e.get("message") == "a new round is already being generated" for e in states.events)
    assert len(api_env.requests) == 1 and rebuilt == ["x"]


def test_build_failure_after_a_round_says_the_round_is_on_disk(api_env: FakeOpenAI, workspace: Path) -> None:
    record = regenerate_record(workspace)

    def broken_build() -> None:
        raise RuntimeError("template missing")

    hook = make_on_regenerate(workspace, workspace.parent / "site", rebuild=broken_build, count=1)
    states = RecordingStates()
    hook(record, states)
    for thread in hook.threads:
        thread.join(timeout=60)
    errors = [e["error"] for e in states.events if e.get("error")]
    assert errors and "round 2 was written but the site build failed (template missing)" in errors[0]
    assert (workspace / "boards" / BOARD / "round-2" / "variants" / "a.html").is_file()
    assert states.reloaded == [] and states.status(BOARD) == "serving"


def test_model_and_count_from_the_environment(
    api_env: FakeOpenAI,
    workspace: Path,
    monkeypatch,  # type: ignore[no-untyped-def]
) -> None:
    monkeypatch.setenv("PINUP_GENERATE_MODEL", "llama3.1")
    monkeypatch.setenv("PINUP_GENERATE_COUNT", "2")
    states, _ = run_hook(workspace, regenerate_record(workspace))
    assert [b["model"] for b in api_env.bodies()] == ["llama3.1", "llama3.1"]
    assert states.reloaded == [BOARD]


def test_hook_without_a_key_says_so_and_writes_nothing(
    api_env: FakeOpenAI,
    workspace: Path,
    monkeypatch,  # type: ignore[no-untyped-def]
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY")
    record = regenerate_record(workspace)
    before = snapshot(workspace)
    states, rebuilt = run_hook(workspace, record)
    errors = [e["error"] for e in states.events if e.get("error")]
    assert len(errors) == 1 and "no API key: set OPENAI_API_KEY" in errors[0]
    assert api_env.requests == [] and rebuilt == [] and states.reloaded == []
    assert snapshot(workspace) == before and states.status(BOARD) == "serving"


def test_hook_options_reach_the_api(api_env: FakeOpenAI, workspace: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """What `pinup serve --generate --model/--count/--base-url/--api-key-env` passes to the hook."""
    from fake_openai import free_port

    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{free_port()}/v1")  # nothing listens there
    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.setenv("GATEWAY_KEY", "gw-serve")
    states, _ = run_hook(
        workspace,
        regenerate_record(workspace),
        model="qwen2.5",
        count=2,
        base_url=api_env.base_url,
        api_key_env="GATEWAY_KEY",
        max_retries=0,
    )
    assert [b["model"] for b in api_env.bodies()] == ["qwen2.5", "qwen2.5"]
    assert {r.headers["authorization"] for r in api_env.requests} == {"Bearer gw-serve"}
    assert states.reloaded == [BOARD]


def test_the_reload_names_the_new_build(api_env: FakeOpenAI, workspace: Path) -> None:
    """An open page that already shows the rebuilt board (it heard `rebuilt` first) stays put."""
    site = workspace.parent / "site"

    def rebuild() -> None:
        manifest = {"board": BOARD, "round": 2, "variants": ["A", "B", "C"], "build": "00ff00ff00ff00ff"}
        (site / "boards" / BOARD).mkdir(parents=True, exist_ok=True)
        (site / "boards" / BOARD / "board.json").write_text(json.dumps(manifest))

    hook = make_on_regenerate(workspace, site, rebuild=rebuild)
    states = RecordingStates()
    hook(regenerate_record(workspace), states)
    for thread in hook.threads:
        thread.join(timeout=60)
    assert states.reloaded == [BOARD]
    assert states.events[-1]["reload"] is True and states.events[-1]["build"] == "00ff00ff00ff00ff"
