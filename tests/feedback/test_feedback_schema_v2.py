"""schemaVersion 2: pins, tweaks and reopen, checked by shape and against the board manifest."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from feedback_helpers import body, stored

from pinup_feedback.schema import (
    FeedbackInvalid,
    FeedbackV1,
    FeedbackV2,
    Manifest,
    check_against_manifest,
    parse_feedback,
)

TWEAKABLES = [
    {"token": "colors.primary", "kind": "color", "label": "Primary colour", "value": "#1a73e8"},
    {"token": "rounded.md", "kind": "dimension", "label": "Radius", "value": "8px", "min": 0, "max": 32, "unit": "px"},
    {"token": "typography.body-md.fontSize", "kind": "dimension", "value": "16px", "min": 12, "max": 24},
    {"token": "spacing.scale", "kind": "number", "value": 1, "min": 0.5, "max": 2, "step": 0.1},
    {"token": "typography.body-md.fontFamily", "kind": "choice", "value": "Inter", "options": ["Inter", "Georgia"]},
]
MANIFEST = Manifest.model_validate({"board": "hero", "round": 1, "variants": ["A", "B", "C"], "tweakables": TWEAKABLES})


def pin(**overrides: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "p1",
        "variant": "B",
        "note": "The header is too tight",
        "severity": "major",
        "box": {"x": 0.1, "y": 0.2, "w": 0.5, "h": 0.1},
        "selector": '[data-pin="hero-title"]',
        "text": "Welcome",
        "html": "<h1>Welcome</h1>",
    }
    base.update(overrides)
    return base


def v2(**overrides: Any) -> dict[str, Any]:
    return body(schemaVersion=2, **overrides)


def errors_of(data: dict[str, Any], manifest: Manifest | None = MANIFEST) -> list[str]:
    with pytest.raises(FeedbackInvalid) as info:
        feedback = parse_feedback(data)
        if manifest is not None:
            check_against_manifest(feedback, manifest)
    return [e.path for e in info.value.errors]


def test_full_v2_body_is_valid_and_stored_as_sent() -> None:
    data = v2(
        pins=[
            pin(),
            pin(
                id="p2",
                variant="A",
                severity="nit",
                selector=None,
                text=None,
                html=None,
                box={"x": 0.5, "y": 0.9, "w": 0.5, "h": 0.1},
            ),
        ],
        tweaks={
            "colors.primary": "#0b57d0",
            "rounded.md": "12px",
            "typography.body-md.fontSize": "17px",
            "spacing.scale": 1.25,
            "typography.body-md.fontFamily": "Georgia",
        },
        reopen=[3, 1],
    )
    feedback = parse_feedback(data)
    assert isinstance(feedback, FeedbackV2)
    check_against_manifest(feedback, MANIFEST)
    stored_body = feedback.stored_body()
    assert stored_body["schemaVersion"] == 2 and stored_body["reopen"] == [3, 1]
    assert stored_body["pins"][0]["box"] == {"x": 0.1, "y": 0.2, "w": 0.5, "h": 0.1}
    assert stored_body["tweaks"]["spacing.scale"] == 1.25


def test_v2_defaults_and_v1_unchanged() -> None:
    feedback = parse_feedback({"schemaVersion": 2, "board": "hero", "round": 1})
    assert isinstance(feedback, FeedbackV2) and feedback.pins == [] and feedback.tweaks == {} and feedback.reopen == []
    old = parse_feedback(body())
    assert type(old) is FeedbackV1 and "pins" not in old.stored_body()
    for field in ("pins", "tweaks", "reopen"):  # v1 bodies cannot carry v2 fields
        assert errors_of(body(**{field: []}), None) == [field]


def test_box_edge_within_slack_is_accepted() -> None:
    parse_feedback(v2(pins=[pin(box={"x": 0.7, "y": 0.0, "w": 0.3000005, "h": 1.0})]))


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"box": {"x": -0.1, "y": 0, "w": 0.1, "h": 0.1}}, "pins.0.box.x"),
        ({"box": {"x": 0, "y": 1.5, "w": 0.1, "h": 0.1}}, "pins.0.box.y"),
        ({"box": {"x": 0.8, "y": 0, "w": 0.3, "h": 0.1}}, "pins.0.box"),
        ({"box": {"x": 0, "y": 0.95, "w": 0.1, "h": 0.1}}, "pins.0.box"),
        ({"box": {"x": 0, "y": 0, "w": 0.1}}, "pins.0.box.h"),
        ({"box": {"x": "0", "y": 0, "w": 0.1, "h": 0.1, "z": 1}}, "pins.0.box.z"),
        ({"selector": "a" * 1025}, "pins.0.selector"),
        ({"text": "t" * 201}, "pins.0.text"),
        ({"html": "h" * 801}, "pins.0.html"),
        ({"note": ""}, "pins.0.note"),
        ({"note": "   \n"}, "pins.0.note"),
        ({"note": "n" * 2001}, "pins.0.note"),
        ({"severity": "critical"}, "pins.0.severity"),
        ({"id": "has space"}, "pins.0.id"),
        ({"id": "x" * 41}, "pins.0.id"),
        ({"variant": "no/slash"}, "pins.0.variant"),
        ({"colour": "red"}, "pins.0.colour"),
    ],
)
def test_bad_pins_have_field_paths(change: dict[str, Any], path: str) -> None:
    assert path in errors_of(v2(pins=[pin(**change)]), None)


def test_pin_limits_and_unique_ids() -> None:
    assert errors_of(v2(pins=[pin(id=f"p{n}") for n in range(51)]), None) == ["pins"]
    parse_feedback(v2(pins=[pin(id=f"p{n}") for n in range(50)]))
    assert errors_of(v2(pins=[pin(), pin(id="p2"), pin()]), None) == ["pins.2.id"]


def test_unknown_pin_variant_is_refused_against_the_manifest() -> None:
    assert errors_of(v2(pins=[pin(), pin(id="p2", variant="Z")])) == ["pins.1.variant"]


@pytest.mark.parametrize(
    ("tweaks", "path"),
    [
        ({"colors.unknown": "#ffffff"}, "tweaks.colors.unknown"),
        ({"colors.primary": "blue"}, "tweaks.colors.primary"),
        ({"colors.primary": "#12345"}, "tweaks.colors.primary"),
        ({"colors.primary": 255}, "tweaks.colors.primary"),
        ({"rounded.md": "12"}, "tweaks.rounded.md"),
        ({"rounded.md": "1rem"}, "tweaks.rounded.md"),
        ({"rounded.md": "40px"}, "tweaks.rounded.md"),
        ({"typography.body-md.fontSize": "11px"}, "tweaks.typography.body-md.fontSize"),
        ({"spacing.scale": "1.2"}, "tweaks.spacing.scale"),
        ({"spacing.scale": 3}, "tweaks.spacing.scale"),
        ({"typography.body-md.fontFamily": "Comic Sans"}, "tweaks.typography.body-md.fontFamily"),
    ],
)
def test_bad_tweaks_against_the_manifest(tweaks: dict[str, Any], path: str) -> None:
    assert errors_of(v2(tweaks=tweaks)) == [path]


@pytest.mark.parametrize(
    ("tweaks", "path"),
    [
        ({"colors.primary": True}, "tweaks.colors.primary"),
        ({"colors.primary": None}, "tweaks.colors.primary"),
        ({"colors.primary": ["#fff"]}, "tweaks.colors.primary"),
        ({"colors.primary": "x" * 101}, "tweaks.colors.primary"),
        ({"primary": "#ffffff"}, "tweaks.primary.[key]"),
        ({"colors..primary": "#ffffff"}, "tweaks.colors..primary.[key]"),
    ],
)
def test_bad_tweak_shapes(tweaks: dict[str, Any], path: str) -> None:
    assert path in errors_of(v2(tweaks=tweaks), None)


def test_tweak_limits_and_no_tweakables() -> None:
    nine = {f"colors.c{n}": "#ffffff" for n in range(9)}
    assert errors_of(v2(tweaks=nine), None) == ["tweaks"]
    bare = Manifest(board="hero", round=1, variants=["A", "B"])
    assert bare.tweakables == []
    assert errors_of(v2(tweaks={"colors.primary": "#ffffff"}), bare) == ["tweaks.colors.primary"]


@pytest.mark.parametrize(
    ("reopen", "path"),
    [
        ([0], "reopen.0"),
        (["3"], "reopen.0"),
        ([1.0], "reopen.0"),
        ([True], "reopen.0"),
        (list(range(1, 52)), "reopen"),
        ([2, 5, 2], "reopen.2"),
    ],
)
def test_bad_reopen(reopen: list[Any], path: str) -> None:
    assert path in errors_of(v2(reopen=reopen), None)


def test_manifest_tweakables_are_read_leniently() -> None:
    m = Manifest.model_validate(
        {
            "board": "hero",
            "round": 1,
            "variants": ["A"],
            "tweakables": [{"token": "colors.primary", "kind": "color", "future": 1}],
        }
    )
    assert m.tweakables[0].token == "colors.primary"


# --- through the app -------------------------------------------------------------------------
def write_manifest(site: Path) -> None:
    (site / "boards" / "hero" / "board.json").write_text(
        json.dumps(
            {"board": "hero", "title": "Hero", "round": 1, "variants": ["A", "B", "C"], "tweakables": TWEAKABLES}
        )
    )


@pytest.mark.anyio
async def test_v2_submission_is_stored_next_to_v1_records(make_client, local_settings, site, store_dir) -> None:
    write_manifest(site)
    client = make_client(local_settings.model_copy(update={"mode": "hosted"}))
    r1 = await client.post("/api/feedback", json=body(clientId="reviewer-1"))
    assert r1.status_code == 200
    r2 = await client.post(
        "/api/feedback", json=v2(clientId="reviewer-2", pins=[pin()], tweaks={"colors.primary": "#0b57d0"}, reopen=[1])
    )
    assert r2.status_code == 200, r2.text
    records = stored(store_dir)
    assert [r["schemaVersion"] for r in records] == [1, 2]
    assert records[1]["pins"][0]["selector"] == '[data-pin="hero-title"]'
    assert records[1]["tweaks"] == {"colors.primary": "#0b57d0"} and "pins" not in records[0]


@pytest.mark.anyio
async def test_v2_errors_over_http_carry_field_paths(make_client, local_settings, site) -> None:
    write_manifest(site)
    client = make_client(local_settings)
    r = await client.post("/api/feedback", json=v2(pins=[pin(variant="Q", box={"x": 2, "y": 0, "w": 0, "h": 0})]))
    assert r.status_code == 422 and r.json()["error"] == "invalid_feedback"
    assert [e["path"] for e in r.json()["detail"]] == ["pins.0.box.x"]
    r = await client.post("/api/feedback", json=v2(pins=[pin(variant="Q")], tweaks={"colors.nope": "#fff"}))
    assert r.status_code == 422
    assert [e["path"] for e in r.json()["detail"]] == ["pins.0.variant", "tweaks.colors.nope"]
    assert r.json()["detail"][1]["loc"] == ["tweaks", "colors.nope"]


@pytest.mark.anyio
async def test_openapi_describes_both_versions(make_client, local_settings) -> None:
    client = make_client(local_settings)
    doc = (await client.get("/api/openapi.json")).json()
    schema = doc["paths"]["/api/feedback"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert schema["oneOf"] == [{"$ref": "#/components/schemas/Feedback"}, {"$ref": "#/components/schemas/FeedbackV2"}]
    components = doc["components"]["schemas"]
    assert components["FeedbackV2"]["properties"]["schemaVersion"]["const"] == 2
    assert components["FeedbackV2"]["properties"]["pins"]["maxItems"] == 50
    assert components["Pin"]["properties"]["selector"]["anyOf"][0]["maxLength"] == 1024
    assert {"Box", "Tweakable"} <= set(components)


def test_custom_words_travel_in_their_own_field() -> None:
    from pinup_feedback.schema import FeedbackInvalid, parse_feedback, regenerate_request

    body = {"schemaVersion": 2, "board": "b", "round": 1, "regenerated": True, "regenerateAction": "custom"}
    record = parse_feedback({**body, "regenerateText": "remix"}).stored_body()
    assert regenerate_request(record) == "remix" and record["regenerateAction"] == "custom"
    for bad in (body, {**body, "regenerateAction": "different", "regenerateText": "x"}):
        with pytest.raises(FeedbackInvalid):
            parse_feedback(bad)
    # v1 records keep their words in regenerateAction
    assert regenerate_request({"regenerateAction": "make it calmer"}) == "make it calmer"
