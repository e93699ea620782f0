"""A failed `pinup serve --generate` round is visible to boards that poll /api/progress, not only over SSE."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from feedback_helpers import RELOAD_TOKEN, body, make_site

from pinup_feedback.app import Hooks
from pinup_feedback.state import BoardStates

ROOT = Path(__file__).resolve().parents[2]
BOARD = "trail-home"
UNSET_KEY = "PINUP_TEST_KEY_THAT_IS_NEVER_SET"


def test_error_is_kept_while_serving_and_cleared_by_the_next_state() -> None:
    boards = BoardStates()
    events: list[dict[str, Any]] = []
    boards._fan_out = lambda board, event: events.append(event)  # type: ignore[method-assign]
    boards.set_status("hero", "regenerating", message="working")
    boards.set_status("hero", "serving", message="generation failed: boom", error="boom")
    assert boards.snapshot("hero") == {
        "board": "hero",
        "status": "serving",
        "message": "generation failed: boom",
        "error": "boom",
    }
    assert events[-1]["error"] == "boom" and events[-1]["status"] == "serving"
    boards.publish("hero", {"message": "still here"})
    boards.set_status("hero", "serving")  # a plain "serving" keeps the error
    assert boards.snapshot("hero")["error"] == "boom"
    boards.set_status("hero", "regenerating")  # the retry starts: the old error goes
    assert "error" not in boards.snapshot("hero")
    boards.publish("hero", {"error": "again"})  # the contract's publish({"error": ...}) records it too
    boards.set_status("hero", "serving")
    assert boards.snapshot("hero")["error"] == "again"
    boards.reload("hero")
    assert boards.snapshot("hero") == {"board": "hero", "status": "serving"}
    boards.set_status("hero", "serving", error="x")
    boards.set_status("hero", "done")
    assert "error" not in boards.snapshot("hero")


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    dest = tmp_path / "site_src"
    shutil.copytree(ROOT / "site_src", dest, ignore=shutil.ignore_patterns(".pinup", "__pycache__"))
    return dest


@pytest.mark.anyio
async def test_generate_hook_failure_reaches_the_progress_poll(
    make_client, workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pinup.generate.serve_hook import make_on_regenerate

    monkeypatch.delenv(UNSET_KEY, raising=False)
    site = make_site(tmp_path, {BOARD: (1, ["A", "B", "C"])})
    rebuilt: list[str] = []
    hook = make_on_regenerate(workspace, site, api_key_env=UNSET_KEY, rebuild=lambda: rebuilt.append("x"))
    from pinup_feedback.settings import Settings

    settings = Settings(
        mode="local", store=str(tmp_path / "store"), site_dir=site, reload_token=RELOAD_TOKEN, log_requests=False
    )
    client = make_client(settings, hooks=Hooks(on_regenerate=hook))
    request = body(board=BOARD, preferred=None, ratings={}, comments={}, regenerated=True, regenerateAction="different")
    r = await client.post("/api/feedback", json=request)
    assert r.status_code == 200 and r.json()["action"] == "regenerate"
    for thread in hook.threads:
        thread.join(timeout=60)
    assert len(hook.threads) == 1 and rebuilt == []

    progress = (await client.get(f"/api/progress?board={BOARD}")).json()
    assert progress["status"] == "serving"  # the status values stay serving|regenerating|done
    assert UNSET_KEY in progress["error"] and progress["message"].startswith("generation failed: ")
    assert progress["round"] == 1

    # the next round arrives (reload): the error is gone
    r = await client.post("/api/reload", json={"board": BOARD}, headers={"authorization": f"Bearer {RELOAD_TOKEN}"})
    assert r.status_code == 200
    assert (await client.get(f"/api/progress?board={BOARD}")).json() == {
        "board": BOARD,
        "status": "serving",
        "round": 1,
    }
