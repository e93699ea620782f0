"""Image attachments through the Lambda handler into moto S3: behind the same board token, limits and
rate limit as a submission; stored create-only without metadata; bad files refused by name."""

from __future__ import annotations

import json

import pytest
from attachment_images import has_metadata, noisy_png, photo
from lambda_helpers import BUCKET, all_keys, feedback_body
from test_lambda_handler import KINDS, TOKEN, body_of, lambda_env  # noqa: F401 - lambda_env is a fixture

from pinup_feedback.attachments import MAX_BYTES

PREFIX = "hosted/feedback/hero/attachments/"


def upload(invoke, kind: str, data: bytes, name: str, ctype: str = "image/png", headers=None):  # type: ignore[no-untyped-def]
    return invoke(
        kind,
        "POST",
        "/api/attachments",
        body=data,
        query=f"board=hero&name={name}",
        headers={"content-type": ctype, **(TOKEN if headers is None else headers)},
    )


@pytest.mark.parametrize("kind", KINDS)
def test_an_attachment_lands_in_s3_bare_and_the_record_names_it(lambda_env, kind: str) -> None:  # noqa: F811
    load, client = lambda_env
    invoke = load()
    r = upload(invoke, kind, photo(), "shot.png")
    assert r["statusCode"] == 201, body_of(r)
    file = body_of(r)["file"]
    [key] = all_keys(client, PREFIX)
    assert key == "hosted/feedback/hero/" + file
    obj = client.get_object(Bucket=BUCKET, Key=key)
    assert obj["ContentType"] == "image/png" and obj["ServerSideEncryption"] == "AES256"
    assert not has_metadata(obj["Body"].read())

    body = feedback_body(schemaVersion=2, attachments=[{"name": "shot.png", "file": file, "variant": "A"}])
    r = invoke(kind, "POST", "/api/feedback", body=body, headers=TOKEN)
    assert r["statusCode"] == 200, body_of(r)
    [record_key] = [k for k in all_keys(client, "hosted/feedback/hero/") if k.endswith(".json")]
    record = json.loads(client.get_object(Bucket=BUCKET, Key=record_key)["Body"].read())
    assert record["attachments"] == [{"name": "shot.png", "file": file, "variant": "A"}]


@pytest.mark.parametrize(
    ("name", "ctype", "data", "status", "says"),
    [
        ("notes.png", "image/png", b"just text, no image", 415, "is not a PNG, JPEG or WebP image"),
        ("shot.jpg", "image/jpeg", None, 415, "is named as JPEG but is a PNG image"),
        ("shot.png", "image/webp", None, 415, "is sent as image/webp but is a PNG image"),
        ("huge.png", "image/png", "big", 413, "is over 2 MB"),
    ],
)
def test_a_bad_attachment_is_refused_by_name_and_nothing_lands(lambda_env, name, ctype, data, status, says) -> None:  # noqa: F811
    load, client = lambda_env
    invoke = load()
    content = photo() if data is None else noisy_png(MAX_BYTES + 1) if data == "big" else data
    r = upload(invoke, "apigw_v2", content, name, ctype)
    assert r["statusCode"] == status
    detail = body_of(r)["detail"]
    assert detail["file"] == name and says in detail["msg"]
    assert all_keys(client, "hosted/feedback/") == []


def test_uploads_need_the_token_and_share_the_rate_limit(lambda_env) -> None:  # noqa: F811
    load, client = lambda_env
    invoke = load(PINUP_RATE_LIMIT="2")
    assert upload(invoke, "apigw_v2", photo(), "a.png", headers={})["statusCode"] == 403
    assert all_keys(client, "hosted/feedback/") == []
    codes = [upload(invoke, "apigw_v2", photo(), "a.png")["statusCode"] for _ in range(2)]
    assert codes[-1] == 429  # the refused one above counted too
    r = invoke("apigw_v2", "POST", "/api/feedback", body=feedback_body(), headers=TOKEN)
    assert r["statusCode"] == 429


def test_a_submission_naming_an_image_never_uploaded_is_refused(lambda_env) -> None:  # noqa: F811
    load, client = lambda_env
    invoke = load()
    missing = "attachments/" + "a" * 64 + ".png"
    body = feedback_body(schemaVersion=2, attachments=[{"name": "ghost.png", "file": missing}])
    r = invoke("apigw_v2", "POST", "/api/feedback", body=body, headers=TOKEN)
    assert r["statusCode"] == 422 and "ghost.png" in body_of(r)["detail"][0]["msg"]
    assert all_keys(client, "hosted/feedback/") == []
