"""The S3 store against moto, in-process (mock_aws) and in server mode over real HTTP."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from lambda_helpers import BUCKET, all_keys, feedback_body, record

from pinup_feedback.app import create_app
from pinup_feedback.settings import Settings
from pinup_feedback.store import open_store
from pinup_feedback.store.base import RecordExists, RecordNotFound, StoreUnavailable
from pinup_feedback.store.s3 import S3Store


@pytest.fixture()
def inprocess() -> Iterator[Any]:
    from moto import mock_aws

    with mock_aws():
        import boto3

        client = boto3.client("s3", region_name="us-east-1")
        client.create_bucket(Bucket=BUCKET)
        yield client


@pytest.fixture(params=["mock_aws", "server"])
def s3(request: pytest.FixtureRequest) -> Iterator[tuple[S3Store, Any]]:
    """The same store checks in both moto modes."""
    if request.param == "mock_aws":
        client = request.getfixturevalue("inprocess")
        yield S3Store(BUCKET, "team/pinup"), client
    else:
        endpoint, client = request.getfixturevalue("s3_server")
        yield S3Store.from_url(f"s3://{BUCKET}/team/pinup/", endpoint_url=endpoint), client


def test_create_only_layout_encryption_and_content_type(s3: tuple[S3Store, Any]) -> None:
    store, client = s3
    rec = record()
    key = store.save(rec)
    day = rec["receivedAt"][:10].replace("-", "/")
    assert key.startswith(f"team/pinup/feedback/hero/{day}/") and key.endswith(f"-final-{rec['id']}.json")
    head = client.head_object(Bucket=BUCKET, Key=key)
    assert head["ContentType"] == "application/json"
    assert head["ServerSideEncryption"] == "AES256"
    assert json.loads(client.get_object(Bucket=BUCKET, Key=key)["Body"].read()) == rec


def test_no_overwrite_if_none_match_is_honoured(s3: tuple[S3Store, Any]) -> None:
    store, client = s3
    rec = record()
    key = store.save(rec)
    etag = client.head_object(Bucket=BUCKET, Key=key)["ETag"]
    with pytest.raises(RecordExists):
        store.save({**rec, "preferred": "A", "overall": "overwritten?"})
    assert client.head_object(Bucket=BUCKET, Key=key)["ETag"] == etag  # checked with head_object too
    assert json.loads(client.get_object(Bucket=BUCKET, Key=key)["Body"].read())["overall"] == rec["overall"]
    # raw proof that moto (like S3) refuses a conditional put on an existing key
    from botocore.exceptions import ClientError

    with pytest.raises(ClientError) as info:
        client.put_object(Bucket=BUCKET, Key=key, Body=b"{}", IfNoneMatch="*")
    assert info.value.response["Error"]["Code"] == "PreconditionFailed"


def test_listing_reading_manifest_and_claims(s3: tuple[S3Store, Any]) -> None:
    store, client = s3
    recs = [record("hero"), record("cards", kind="regenerate"), record("hero")]
    for rec in recs:
        store.save(rec)
    client.put_object(Bucket=BUCKET, Key="team/pinup/feedback/hero/notes.txt", Body=b"x")
    assert store.claim("hero/r1/abc.json", {"id": "1"}) is None
    assert store.claim("hero/r1/abc.json", {"id": "2"}) == {"id": "1"}
    assert [i.id for i in store.list("hero")] == [recs[0]["id"], recs[2]["id"]]
    assert sorted(i.id for i in store.list()) == sorted(r["id"] for r in recs)
    assert {i.kind for i in store.list("cards")} == {"regenerate"}
    assert store.read(recs[1]["id"]) == recs[1]
    assert store.read(store.list("cards")[0].key) == recs[1]
    with pytest.raises(RecordNotFound):
        store.read("f" * 32)
    assert store.read_manifest("hero") is None
    client.put_object(
        Bucket=BUCKET,
        Key="team/pinup/boards/hero.json",
        Body=json.dumps({"board": "hero", "round": 3, "variants": ["A", "B"]}).encode(),
    )
    manifest = store.read_manifest("hero")
    assert manifest is not None and manifest.round == 3


def test_many_writers_many_objects(s3: tuple[S3Store, Any]) -> None:
    from concurrent.futures import ThreadPoolExecutor

    store, client = s3
    recs = [record() for _ in range(40)]
    with ThreadPoolExecutor(8) as pool:
        keys = list(pool.map(store.save, recs))
    assert len(set(keys)) == 40
    assert all_keys(client, "team/pinup/feedback/hero/") == sorted(keys)


def test_open_store_picks_s3_and_the_client_is_made_once(inprocess: Any) -> None:
    store = open_store(f"s3://{BUCKET}/p")
    assert isinstance(store, S3Store) and store.prefix == "p"
    store.save(record())
    client = store.client
    store.save(record())
    assert store.client is client


# --- injected failures ------------------------------------------------------------------------
class FakeRaw:
    def __init__(self, body: bytes) -> None:
        self.body = body

    def stream(self, **_: Any) -> Iterator[bytes]:
        yield self.body


def failing(status: int, code: str, calls: list[str]) -> Any:
    """A botocore before-send hook answering every PutObject with an S3 error document."""
    from botocore.awsrequest import AWSResponse

    body = f"<Error><Code>{code}</Code><Message>injected</Message></Error>".encode()

    def hook(request: Any, **_: Any) -> Any:
        calls.append(request.url)
        return AWSResponse(request.url, status, {"content-type": "application/xml"}, FakeRaw(body))

    return hook


@pytest.fixture()
def no_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the retries, drop the sleeps between them."""
    from botocore.retries import standard

    monkeypatch.setattr(standard.ExponentialBackoff, "delay_amount", lambda self, context: 0)


@pytest.mark.parametrize(
    ("status", "code", "attempts"),
    [
        (503, "SlowDown", 4),  # throttling: retried
        (500, "InternalError", 4),  # server error: retried
        (400, "Throttling", 4),  # throttling by error code
        (403, "AccessDenied", 1),  # not transient: botocore does not retry, still 503 to the client
    ],
)
@pytest.mark.anyio
async def test_failures_are_retried_then_503_with_nothing_acknowledged(
    s3_server: tuple[str, Any], no_backoff: None, status: int, code: str, attempts: int
) -> None:
    endpoint, client = s3_server
    store = S3Store(BUCKET, "p", endpoint_url=endpoint, max_attempts=4)
    calls: list[str] = []
    store.client.meta.events.register("before-send.s3.PutObject", failing(status, code, calls))
    with pytest.raises(StoreUnavailable):
        store.save(record())
    assert len(calls) == attempts
    settings = Settings(mode="hosted", store=f"s3://{BUCKET}/p", log_requests=False, retry_after=7)
    app = create_app(settings, store=store)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="https://api.example") as http:
        r = await http.post("/api/feedback", json=feedback_body())
    assert r.status_code == 503 and r.headers["retry-after"] == "7"
    assert r.json()["error"] == "store_unavailable" and "id" not in r.json()
    assert all_keys(client) == []


@pytest.mark.anyio
async def test_a_transient_failure_then_success_is_one_object(s3_server: tuple[str, Any], no_backoff: None) -> None:
    endpoint, client = s3_server
    store = S3Store(BUCKET, "p", endpoint_url=endpoint)
    calls: list[str] = []
    hook = failing(500, "InternalError", calls)

    def once(request: Any, **kw: Any) -> Any:
        return hook(request, **kw) if not calls else None

    store.client.meta.events.register("before-send.s3.PutObject", once)
    settings = Settings(mode="hosted", store=f"s3://{BUCKET}/p", log_requests=False)
    app = create_app(settings, store=store)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="https://api.example") as http:
        r = await http.post("/api/feedback", json=feedback_body(clientId=None))
    assert r.status_code == 200 and len(calls) == 1
    [key] = all_keys(client, "p/feedback/hero/")
    assert key.endswith(f"-final-{r.json()['id']}.json")


@pytest.mark.anyio
async def test_hosted_replay_across_instances_via_s3_claims(s3_server: tuple[str, Any]) -> None:
    endpoint, client = s3_server
    settings = Settings(mode="hosted", store=f"s3://{BUCKET}/p", endpoint_url=endpoint, log_requests=False)
    b = feedback_body()
    ids = []
    for _ in range(2):  # two "Lambda instances": fresh app, fresh memory
        app = create_app(settings)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="https://api.x") as http:
            r = await http.post("/api/feedback", json=b)
            assert r.status_code == 200
            ids.append(r.json()["id"])
            r = await http.post("/api/feedback", json={**b, "overall": "different"})
            assert r.status_code == 409
    assert ids[0] == ids[1]
    assert len(all_keys(client, "p/feedback/hero/")) == 1


def test_manifest_access_denied_means_no_manifest(s3_server: tuple[str, Any]) -> None:
    """S3 answers 403 for a missing key when the role may not list it: shape-only validation then."""
    from botocore.awsrequest import AWSResponse

    endpoint, _ = s3_server
    store = S3Store(BUCKET, "p", endpoint_url=endpoint)
    body = b"<Error><Code>AccessDenied</Code><Message>denied</Message></Error>"

    def deny(request: Any, **_: Any) -> Any:
        return AWSResponse(request.url, 403, {"content-type": "application/xml"}, FakeRaw(body))

    store.client.meta.events.register("before-send.s3.GetObject", deny)
    assert store.read_manifest("hero") is None
    with pytest.raises(StoreUnavailable):
        store.read(f"p/feedback/hero/2026/11/30/20261130T001500.000000Z-final-{'a' * 32}.json")


@pytest.mark.anyio
async def test_a_failing_manifest_read_is_503_too(s3_server: tuple[str, Any], no_backoff: None) -> None:
    """The manifest GET is on the request path: S3 trouble there is retried, then 503, nothing stored."""
    endpoint, client = s3_server
    store = S3Store(BUCKET, "p", endpoint_url=endpoint, max_attempts=3)
    calls: list[str] = []
    store.client.meta.events.register("before-send.s3.GetObject", failing(503, "SlowDown", calls))
    settings = Settings(mode="hosted", store=f"s3://{BUCKET}/p", log_requests=False)
    app = create_app(settings, store=store)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="https://api.example") as http:
        r = await http.post("/api/feedback", json=feedback_body())
    assert r.status_code == 503 and r.headers["retry-after"] == "5" and r.json()["error"] == "store_unavailable"
    assert len(calls) == 3 and all("/p/boards/hero.json" in url for url in calls)
    assert all_keys(client) == []
