"""The real `openai` client, through pinup's wrapper, against the fake server."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from fake_openai import CHAT, IMAGES, FakeOpenAI, Reply, chat_body, error_body, image_body, page_html

from pinup.generate.client import Client, ClientOptions, GenerationError, MissingKeyError, parse_retry_after

MESSAGES = [{"role": "system", "content": "rules"}, {"role": "user", "content": "make a page"}]


_OPENED: list[Client] = []


@pytest.fixture(autouse=True)
def close_clients() -> Iterator[None]:
    """Every client a test opened is closed after it, so no pooled connection outlives its test."""
    yield
    while _OPENED:
        _OPENED.pop().close()


def opened(client: Client) -> Client:
    _OPENED.append(client)
    return client


def make_client(fake: FakeOpenAI, sleeps: list[float] | None = None, **kw: object) -> Client:
    opts = ClientOptions(base_url=fake.base_url, **kw)  # type: ignore[arg-type]
    return opened(Client(opts, sleep=(sleeps.append if sleeps is not None else lambda s: None)))


def test_chat_request_shape(api_env: FakeOpenAI) -> None:
    api_env.queue(Reply(body=chat_body(page_html("Hi"), prompt_tokens=11, completion_tokens=22)))
    result = make_client(api_env).chat("gpt-4.1-mini", MESSAGES)
    assert len(api_env.requests) == 1
    rec = api_env.requests[0]
    assert rec.path == CHAT
    assert rec.body["model"] == "gpt-4.1-mini"
    assert rec.body["messages"] == MESSAGES
    assert rec.headers["authorization"] == "Bearer sk-test-not-a-real-key"
    assert "stream" not in rec.body or rec.body["stream"] is False
    assert "<h1>Hi</h1>" in result.text
    assert (result.usage.input_tokens, result.usage.output_tokens) == (11, 22)
    assert result.attempts == 1


def test_images_request_shape(api_env: FakeOpenAI) -> None:
    api_env.queue(Reply(body=image_body(input_tokens=7, output_tokens=70)))
    result = make_client(api_env).image("gpt-image-1", "a trail app", "1536x1024")
    rec = api_env.requests[0]
    assert rec.path == IMAGES
    assert rec.body["model"] == "gpt-image-1"
    assert rec.body["prompt"] == "a trail app"
    assert rec.body["size"] == "1536x1024"
    assert rec.body["n"] == 1
    assert "response_format" not in rec.body  # gpt-image-1 always answers base64
    assert result.b64 and result.usage.output_tokens == 70


def test_closing_the_client_closes_its_connections(api_env: FakeOpenAI) -> None:
    with make_client(api_env) as client:
        client.chat("m", MESSAGES)
        assert api_env.open_connections(settle=0) == 1  # kept alive for the next request
    assert api_env.open_connections() == 0


def test_key_comes_from_named_variable(api_env: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY")
    with pytest.raises(MissingKeyError):
        make_client(api_env)
    monkeypatch.setenv("MY_GATEWAY_KEY", "gw-123")
    make_client(api_env, api_key_env="MY_GATEWAY_KEY").chat("m", MESSAGES)
    assert api_env.requests[0].headers["authorization"] == "Bearer gw-123"


def test_429_with_retry_after_then_success(api_env: FakeOpenAI) -> None:
    api_env.queue(Reply(429, error_body("slow down", "rate_limit_exceeded"), {"Retry-After": "2"}))
    sleeps: list[float] = []
    result = make_client(api_env, sleeps).chat("m", MESSAGES)
    assert sleeps == [2.0]
    assert len(api_env.requests) == 2
    assert result.attempts == 2


def test_retry_after_is_capped(api_env: FakeOpenAI) -> None:
    api_env.queue(Reply(429, error_body("slow down"), {"Retry-After": "3600"}))
    sleeps: list[float] = []
    make_client(api_env, sleeps, retry_cap=5.0).chat("m", MESSAGES)
    assert sleeps == [5.0]


def test_500_is_retried_with_backoff(api_env: FakeOpenAI) -> None:
    api_env.queue(Reply(500, error_body("boom", type_="server_error")), Reply(503, error_body("busy")))
    sleeps: list[float] = []
    result = make_client(api_env, sleeps, backoff_base=0.5).chat("m", MESSAGES)
    assert len(api_env.requests) == 3 and result.attempts == 3
    assert len(sleeps) == 2 and 0.5 <= sleeps[0] < sleeps[1]


def test_500_forever_gives_a_clear_error(api_env: FakeOpenAI) -> None:
    api_env.queue(*[Reply(500, error_body("boom")) for _ in range(3)])
    with pytest.raises(GenerationError) as info:
        make_client(api_env, [], max_retries=2).chat("m", MESSAGES)
    assert info.value.code == "server"
    assert "HTTP 500" in info.value.message and "after 3 attempts" in info.value.message
    assert len(api_env.requests) == 3


def test_rate_limit_exhausted(api_env: FakeOpenAI) -> None:
    api_env.queue(*[Reply(429, error_body("slow"), {"Retry-After": "0"}) for _ in range(2)])
    with pytest.raises(GenerationError) as info:
        make_client(api_env, [], max_retries=1).chat("m", MESSAGES)
    assert info.value.code == "rate_limit" and "rate limit exhausted" in info.value.message


def test_insufficient_quota_is_not_retried(api_env: FakeOpenAI) -> None:
    api_env.queue(Reply(429, error_body("You exceeded your current quota", "insufficient_quota")))
    with pytest.raises(GenerationError) as info:
        make_client(api_env, []).chat("m", MESSAGES)
    assert info.value.code == "quota"
    assert len(api_env.requests) == 1


@pytest.mark.parametrize(
    ("status", "code", "words"),
    [
        (401, "authentication", "authentication failed"),
        (403, "permission", "permission denied"),
        (400, "request", "request rejected: HTTP 400"),
        (404, "not_found", "has no such endpoint (HTTP 404); check --base-url"),
    ],
)
def test_errors_are_named_plainly(api_env: FakeOpenAI, status: int, code: str, words: str) -> None:
    api_env.queue(Reply(status, error_body("nope")))
    with pytest.raises(GenerationError) as info:
        make_client(api_env, []).chat("gpt-nope", MESSAGES)
    assert info.value.code == code
    assert words in info.value.message
    assert "sk-test" not in info.value.message
    assert len(api_env.requests) == 1  # never retried


def test_timeout_then_success(api_env: FakeOpenAI) -> None:
    import time

    api_env.queue(Reply(body=chat_body(page_html("late")), delay=5.0))
    sleeps: list[float] = []

    def real_sleep(seconds: float) -> None:  # the server needs a moment to see the disconnect
        sleeps.append(seconds)
        time.sleep(seconds)

    client = opened(Client(ClientOptions(base_url=api_env.base_url, timeout=0.5, backoff_base=0.2), sleep=real_sleep))
    result = client.chat("m", MESSAGES)
    assert len(sleeps) == 1
    assert result.attempts == 2 and "Fake" in result.text
    assert api_env.requests[0].disconnected  # the client gave up on the slow one


def test_timeout_gives_a_clear_error(api_env: FakeOpenAI) -> None:
    api_env.queue(Reply(body=chat_body("x"), delay=5.0))
    with pytest.raises(GenerationError) as info:
        make_client(api_env, [], timeout=0.5, max_retries=0).chat("m", MESSAGES)
    assert info.value.code == "timeout" and "within 0.5s" in info.value.message


def test_connection_refused_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from fake_openai import free_port

    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    client = opened(
        Client(ClientOptions(base_url=f"http://127.0.0.1:{free_port()}/v1", max_retries=1), sleep=lambda s: None)
    )
    with pytest.raises(GenerationError) as info:
        client.chat("m", MESSAGES)
    assert info.value.code == "connection" and "cannot connect" in info.value.message


def test_calls_from_many_threads_never_overlap(api_env: FakeOpenAI) -> None:
    api_env.queue(*[Reply(body=chat_body(page_html(str(i))), delay=0.15) for i in range(6)])
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            make_client(api_env).chat("m", MESSAGES)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(api_env.requests) == 6
    assert not api_env.overlaps


def test_the_fake_does_detect_overlap(fake_openai: FakeOpenAI) -> None:
    """Control: bypassing pinup's lock, parallel calls are caught by the fake."""
    import openai

    fake_openai.queue(*[Reply(body=chat_body("x"), delay=0.3) for _ in range(3)])
    raw = openai.OpenAI(api_key="k", base_url=fake_openai.base_url, max_retries=0)
    threads = [
        threading.Thread(target=lambda: raw.chat.completions.create(model="m", messages=MESSAGES)) for _ in range(3)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert fake_openai.overlaps
    fake_openai.overlaps.clear()  # expected here; the fixture would fail otherwise


def test_parse_retry_after_forms() -> None:
    assert parse_retry_after({"retry-after": "3"}) == 3.0
    assert parse_retry_after({"retry-after-ms": "1500"}) == 1.5
    assert parse_retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0
    assert parse_retry_after({}) is None
    assert parse_retry_after({"retry-after": "soon"}) is None  # unreadable: the client's own backoff


def test_5xx_honours_retry_after_too(api_env: FakeOpenAI) -> None:
    api_env.queue(
        Reply(503, error_body("busy", type_="server_error"), {"Retry-After": "4"}),
        Reply(502, error_body("bad gateway"), {"retry-after-ms": "250"}),
    )
    sleeps: list[float] = []
    result = make_client(api_env, sleeps, backoff_base=10.0).chat("m", MESSAGES)
    assert sleeps == [4.0, 0.25]  # the server's wait, not the (much longer) backoff
    assert result.attempts == 3


def test_image_calls_time_out_too(api_env: FakeOpenAI) -> None:
    api_env.queue(Reply(body=image_body(), delay=5.0))
    with pytest.raises(GenerationError) as info:
        make_client(api_env, [], timeout=0.5, max_retries=0).image("gpt-image-1", "p", "1024x1024")
    assert info.value.code == "timeout" and "within 0.5s" in info.value.message
    assert api_env.requests[0].path == IMAGES


@pytest.mark.parametrize(
    "reply",
    [
        Reply(404, error_body("The model `gpt-nope` does not exist", "model_not_found")),  # OpenAI
        Reply(404, error_body('model "gpt-nope" not found, try pulling it first', None, "api_error")),  # Ollama
        Reply(400, error_body("Unknown model", "model_not_found")),  # some gateways
    ],
)
def test_model_errors_are_named_whatever_the_server(api_env: FakeOpenAI, reply: Reply) -> None:
    api_env.queue(reply)
    with pytest.raises(GenerationError) as info:
        make_client(api_env, []).chat("gpt-nope", MESSAGES)
    assert info.value.code == "model_not_found"
    assert info.value.message.startswith("model not found: 'gpt-nope' is not available at")
