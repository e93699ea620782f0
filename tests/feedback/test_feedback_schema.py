"""The v1 schema, the manifest check and the settings: pure functions, no app."""

from __future__ import annotations

import threading
import time

import pytest
from feedback_helpers import body

from pinup_feedback.schema import FeedbackInvalid, FeedbackV1, Manifest, check_against_manifest, parse_feedback
from pinup_feedback.settings import Settings, SettingsError
from pinup_feedback.state import BoardStates


def paths(exc: FeedbackInvalid) -> list[str]:
    return [e.path for e in exc.errors]


def test_minimal_and_full_bodies() -> None:
    fb = parse_feedback({"schemaVersion": 1, "board": "hero", "round": 1})
    assert fb.kind == "final" and fb.ratings == {} and fb.clientId is None
    fb = parse_feedback(body(regenerated=True, regenerateAction="make it warmer"))
    assert fb.kind == "regenerate"
    assert "website" not in fb.stored_body()


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"schemaVersion": "1"}, "schemaVersion"),
        ({"schemaVersion": True}, "schemaVersion"),
        ({"round": 0}, "round"),
        ({"round": 1.5}, "round"),
        ({"round": "1"}, "round"),
        ({"regenerated": "yes"}, "regenerated"),
        ({"ratings": {"A": 3.5}}, "ratings.A"),
        ({"ratings": {"bad id!": 3}}, "ratings.bad id!.[key]"),
        ({"clientId": "x" * 65}, "clientId"),
        ({"reviewer": "r" * 101}, "reviewer"),
        ({"comments": {"A": "c" * 5001}}, "comments.A"),
        ({"regenerateAction": "x" * 2001, "regenerated": True}, "regenerateAction"),
        ({"website": "filled"}, "website"),
        ({"pins": []}, "pins"),
    ],
)
def test_invalid_fields_have_paths(change: dict, path: str) -> None:
    with pytest.raises(FeedbackInvalid) as info:
        parse_feedback(body(**change))
    assert path in paths(info.value)


@pytest.mark.parametrize(
    "change",
    [
        {"regenerated": True, "regenerateAction": None},
        {"regenerated": False, "regenerateAction": "different"},
        {"regenerated": True, "regenerateAction": "remix"},
        {"regenerated": True, "regenerateAction": "different", "remixSpec": {"layout": "A"}},
        {"regenerated": True, "regenerateAction": "remix", "remixSpec": {}},
        {"regenerated": True, "regenerateAction": "more_like_"},
    ],
)
def test_regenerate_rules(change: dict) -> None:
    with pytest.raises(FeedbackInvalid):
        parse_feedback(body(**change))


def test_manifest_check_names_every_bad_reference() -> None:
    manifest = Manifest(board="hero", round=2, variants=["A", "B"])
    fb = parse_feedback(
        body(
            round=1,
            preferred="C",
            ratings={"A": 1, "D": 2},
            comments={"E": "x"},
            regenerated=True,
            regenerateAction="remix",
            remixSpec={"layout": "A", "colors": "F"},
        )
    )
    with pytest.raises(FeedbackInvalid) as info:
        check_against_manifest(fb, manifest)
    assert paths(info.value) == ["round", "preferred", "ratings.D", "comments.E", "remixSpec.colors"]
    ok = parse_feedback(
        body(round=2, preferred="A", ratings={"B": 4}, comments={}, regenerated=True, regenerateAction="more_like_B")
    )
    check_against_manifest(ok, manifest)
    bad = parse_feedback(
        body(round=2, preferred="A", ratings={}, comments={}, regenerated=True, regenerateAction="more_like_Q")
    )
    with pytest.raises(FeedbackInvalid) as info:
        check_against_manifest(bad, manifest)
    assert paths(info.value) == ["regenerateAction"]


def test_manifest_ignores_extra_keys() -> None:
    m = Manifest.model_validate({"board": "hero", "round": 1, "variants": ["A"], "title": "T", "extra": 1})
    assert m.variants == ["A"]


def test_json_schema_forbids_unknown_fields() -> None:
    schema = FeedbackV1.model_json_schema()
    assert schema["additionalProperties"] is False
    assert schema["properties"]["schemaVersion"]["const"] == 1


def test_settings_from_env() -> None:
    s = Settings.from_env(
        {
            "PINUP_STORE": "s3://b/p",
            "PINUP_ALLOWED_ORIGINS": "https://a.example, https://b.example",
            "PINUP_BOARD_SECRET": "k",
            "PINUP_MAX_BODY": "2048",
            "PINUP_RATE_LIMIT": "5",
            "AWS_ENDPOINT_URL": "http://127.0.0.1:9",
        }
    )
    assert s.mode == "hosted" and s.is_s3 and s.max_body == 2048 and s.rate_limit == 5
    assert s.allowed_origins == ("https://a.example", "https://b.example")
    assert s.endpoint_url == "http://127.0.0.1:9" and s.cors_enabled is False
    assert Settings(store="x").cors_enabled is True
    assert Settings.from_env({"PINUP_STORE": "/tmp/x", "PINUP_CORS_IN_APP": "1"}).cors_enabled is True


@pytest.mark.parametrize(
    ("env", "names"),
    [
        ({}, "PINUP_STORE"),
        ({"PINUP_STORE": "s3://"}, "PINUP_STORE"),
        ({"PINUP_STORE": "/x", "PINUP_MAX_BODY": "lots"}, "PINUP_MAX_BODY"),
        ({"PINUP_STORE": "/x", "PINUP_MAX_BODY": "10"}, "PINUP_MAX_BODY"),
        ({"PINUP_STORE": "/x", "PINUP_RATE_LIMIT": "-1"}, "PINUP_RATE_LIMIT"),
        ({"PINUP_STORE": "/x", "PINUP_ALLOWED_ORIGINS": "boards.example.com"}, "PINUP_ALLOWED_ORIGINS"),
        ({"PINUP_STORE": "/x", "PINUP_ALLOWED_ORIGINS": "https://x.example/"}, "PINUP_ALLOWED_ORIGINS"),
    ],
)
def test_bad_settings_name_the_variable(env: dict, names: str) -> None:
    with pytest.raises(SettingsError, match=names):
        Settings.from_env(env)


def test_hosted_never_exits() -> None:
    with pytest.raises(ValueError, match="never exits"):
        Settings(mode="hosted", store="x", exit_on_submit=True)


def test_board_states_wait_for_from_another_thread() -> None:
    boards = BoardStates()
    assert boards.status("hero") == "serving"
    result: list[str] = []
    waiter = threading.Thread(target=lambda: result.append(boards.wait_for("hero", "done", timeout=10)))
    waiter.start()
    time.sleep(0.05)
    boards.set_status("hero", "regenerating")
    boards.reload("hero")
    assert result == []
    boards.set_status("hero", "done")
    waiter.join(10)
    assert result == ["done"]
    with pytest.raises(TimeoutError):
        boards.wait_for("cards", timeout=0.05)
    with pytest.raises(ValueError):
        boards.set_status("hero", "finished")  # type: ignore[arg-type]


def test_reload_listeners_and_snapshot() -> None:
    boards = BoardStates()
    seen: list[str] = []
    boards.on_reload(seen.append)
    boards.set_status("hero", "regenerating", message="working", progress={"pct": 50})
    assert boards.snapshot("hero") == {
        "board": "hero",
        "status": "regenerating",
        "message": "working",
        "progress": {"pct": 50},
    }
    boards.reload("hero")
    assert seen == ["hero"] and boards.snapshot("hero") == {"board": "hero", "status": "serving"}


def test_token_bucket_refills_per_minute() -> None:
    from pinup_feedback.ratelimit import RateLimiter

    now = [1000.0]
    limiter = RateLimiter(6, clock=lambda: now[0])  # 6 a minute: one token every 10 s
    assert [limiter.check("c", "hero") for _ in range(6)] == [0] * 6
    assert limiter.check("c", "hero") == 10
    assert limiter.check("c", "cards") == 0 and limiter.check("d", "hero") == 0
    now[0] += 5
    assert limiter.check("c", "hero") == 5
    now[0] += 5
    assert limiter.check("c", "hero") == 0
    assert RateLimiter(0).check("c", "hero") == 0


def test_token_bucket_memory_is_bounded() -> None:
    from pinup_feedback.ratelimit import RateLimiter

    limiter = RateLimiter(1, max_keys=10)
    for n in range(100):
        limiter.check(f"client-{n}", "hero")
    assert len(limiter._buckets) == 10
