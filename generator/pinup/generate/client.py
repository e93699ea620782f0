"""A careful wrapper around the official `openai` client.

Why: the API is rate limited and billed per request, so pinup sends strictly one
request at a time (a process-wide lock), retries 429 and 5xx itself (honouring
`Retry-After` up to a cap, with `max_retries=0` on the SDK so nothing retries
behind our back), puts a timeout on every call, and turns SDK exceptions into
messages a person can act on.
"""

from __future__ import annotations

import email.utils
import os
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from openai.types.chat import ChatCompletionMessageParam

#: Strictly one request at a time in this process: every API call holds it.
REQUEST_LOCK = threading.Lock()

DEFAULT_KEY_ENV = "OPENAI_API_KEY"


class GenerationError(Exception):
    """A failure with a message meant for people (no traceback needed)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class MissingKeyError(GenerationError):
    """No API key: the CLI exits 2 and writes nothing."""


@dataclass
class ClientOptions:
    """Where and how to call the API; never holds the key itself."""

    api_key_env: str = DEFAULT_KEY_ENV
    base_url: str | None = None
    timeout: float = 120.0
    max_retries: int = 3
    retry_cap: float = 60.0
    backoff_base: float = 1.0

    def resolved_base_url(self) -> str | None:
        return self.base_url or os.environ.get("OPENAI_BASE_URL") or None


@dataclass
class Usage:
    """Token counts of one call (or a sum of calls)."""

    input_tokens: int = 0
    output_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.input_tokens + other.input_tokens, self.output_tokens + other.output_tokens)

    def as_dict(self) -> dict[str, int]:
        return {
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "total_tokens": self.total_tokens,
        }


@dataclass
class CallResult:
    """What one API call returned, in a cacheable shape."""

    text: str = ""
    b64: str | None = None
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    attempts: int = 1

    def to_cache(self) -> dict[str, Any]:
        return {"text": self.text, "b64": self.b64, "usage": self.usage.as_dict(), "model": self.model}

    @classmethod
    def from_cache(cls, data: dict[str, Any]) -> CallResult:
        usage = data.get("usage") or {}
        return cls(
            text=str(data.get("text") or ""),
            b64=data.get("b64"),
            usage=Usage(int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0))),
            model=str(data.get("model") or ""),
            attempts=0,
        )


#: Called before each retry sleep: (attempt, wait_seconds, reason).
RetryCallback = Callable[[int, float, str], None]


def resolve_key(api_key_env: str = DEFAULT_KEY_ENV) -> str:
    """The API key from the named environment variable, or MissingKeyError."""
    key = os.environ.get(api_key_env, "").strip()
    if not key:
        raise MissingKeyError(
            "no_key",
            f"no API key: set {api_key_env}"
            + ("" if api_key_env != DEFAULT_KEY_ENV else " (or name another variable with --api-key-env)"),
        )
    return key


def parse_retry_after(headers: Any) -> float | None:
    """Seconds to wait from `retry-after-ms` / `Retry-After` (seconds or HTTP date)."""
    if headers is None:
        return None
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        parsed = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None  # neither seconds nor an HTTP date: our own backoff applies
    return max(0.0, parsed.timestamp() - time.time())


class Client:
    """Sequential, retrying access to chat completions and image generation."""

    def __init__(
        self,
        options: ClientOptions,
        *,
        sleep: Callable[[float], None] = time.sleep,
        on_retry: RetryCallback | None = None,
    ) -> None:
        import openai

        self.options = options
        self._sleep = sleep
        self.on_retry = on_retry
        self._openai = openai.OpenAI(
            api_key=resolve_key(options.api_key_env),
            base_url=options.resolved_base_url(),
            timeout=options.timeout,
            max_retries=0,
        )

    def close(self) -> None:
        """Close the HTTP connection pool (a long-running `pinup serve` makes one client per round)."""
        self._openai.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def base_url(self) -> str:
        return str(self._openai.base_url)

    def chat(self, model: str, messages: list[ChatCompletionMessageParam], **params: Any) -> CallResult:
        """One chat completion; the text of the first choice and its usage."""

        def call() -> CallResult:
            response = self._openai.chat.completions.create(
                model=model,
                messages=messages,
                timeout=self.options.timeout,
                **params,
            )
            choices = response.choices or []
            text = (choices[0].message.content or "") if choices else ""
            usage = response.usage
            return CallResult(
                text=text,
                usage=Usage(
                    int(getattr(usage, "prompt_tokens", 0) or 0), int(getattr(usage, "completion_tokens", 0) or 0)
                ),
                model=response.model or model,
            )

        return self._call(call, model)

    def image(self, model: str, prompt: str, size: str) -> CallResult:
        """One generated image, returned as base64 (never fetched from a URL)."""

        def call() -> CallResult:
            extra: dict[str, Any] = {}
            if model.startswith("dall-e"):
                extra["response_format"] = "b64_json"
            response = self._openai.images.generate(
                model=model, prompt=prompt, size=size, n=1, timeout=self.options.timeout, **extra
            )
            data = response.data or []
            b64 = data[0].b64_json if data else None
            if not b64:
                raise GenerationError("bad_response", "the images API returned no base64 image (b64_json)")
            usage = response.usage
            return CallResult(
                b64=b64,
                usage=Usage(int(getattr(usage, "input_tokens", 0) or 0), int(getattr(usage, "output_tokens", 0) or 0)),
                model=model,
            )

        return self._call(call, model)

    def _backoff(self, attempt: int) -> float:
        base: float = self.options.backoff_base * (2**attempt)
        cap: float = self.options.retry_cap
        return min(cap, base + random.uniform(0, self.options.backoff_base / 2))

    def _call(self, call: Callable[[], CallResult], model: str) -> CallResult:
        """Run `call` under the lock, retrying what is worth retrying."""
        import openai

        with REQUEST_LOCK:
            attempt = 0
            while True:
                try:
                    result = call()
                    result.attempts = attempt + 1
                    return result
                except openai.APIStatusError as exc:
                    status = exc.status_code
                    retryable = (status == 429 and exc.code != "insufficient_quota") or status >= 500
                    if not retryable or attempt >= self.options.max_retries:
                        raise self._explain(exc, model, attempt) from None
                    wait = parse_retry_after(exc.response.headers)
                    wait = self._backoff(attempt) if wait is None else min(wait, self.options.retry_cap)
                    reason = f"HTTP {status}"
                except openai.APIConnectionError as exc:  # includes APITimeoutError
                    if attempt >= self.options.max_retries:
                        raise self._explain(exc, model, attempt) from None
                    wait = self._backoff(attempt)
                    reason = "timeout" if isinstance(exc, openai.APITimeoutError) else "connection error"
                if self.on_retry is not None:
                    self.on_retry(attempt + 1, wait, reason)
                self._sleep(wait)
                attempt += 1

    def _explain(self, exc: Exception, model: str, attempt: int) -> GenerationError:
        """Map an SDK exception to a clear message naming what to fix."""
        import openai

        where = self.base_url
        tries = f" after {attempt + 1} attempt{'s' if attempt else ''}"
        detail = _api_message(exc)
        if isinstance(exc, openai.AuthenticationError):
            return GenerationError(
                "authentication",
                f"authentication failed: {where} rejected the API key from ${self.options.api_key_env}{detail}",
            )
        if isinstance(exc, openai.PermissionDeniedError):
            return GenerationError(
                "permission", f"permission denied: this API key may not use model {model!r} at {where}{detail}"
            )
        if _is_model_error(exc):
            return GenerationError(
                "model_not_found", f"model not found: {model!r} is not available at {where} (try --model){detail}"
            )
        if isinstance(exc, openai.NotFoundError):
            return GenerationError(
                "not_found",
                f"not found: {where} has no such endpoint (HTTP 404); check --base-url, which usually ends in /v1"
                f"{detail}",
            )
        if isinstance(exc, openai.RateLimitError):
            if exc.code == "insufficient_quota":
                return GenerationError("quota", f"quota exhausted: the account behind this key has no credit{detail}")
            return GenerationError(
                "rate_limit", f"rate limit exhausted: still HTTP 429{tries}; try again later{detail}"
            )
        if isinstance(exc, openai.APITimeoutError):
            return GenerationError(
                "timeout", f"timeout: no answer from {where} within {self.options.timeout:g}s{tries} (raise --timeout)"
            )
        if isinstance(exc, openai.APIConnectionError):
            return GenerationError("connection", f"cannot connect to {where}{tries} (check --base-url)")
        if isinstance(exc, openai.APIStatusError):
            if exc.status_code >= 500:
                return GenerationError("server", f"server error: HTTP {exc.status_code} from {where}{tries}{detail}")
            return GenerationError("request", f"request rejected: HTTP {exc.status_code} from {where}{detail}")
        return GenerationError("unknown", f"{type(exc).__name__}: {exc}")


def _is_model_error(exc: Exception) -> bool:
    """A 4xx that is about the model: OpenAI's code, or a 404 whose message names the model."""
    import openai

    if not isinstance(exc, openai.APIStatusError) or exc.status_code >= 500 or exc.status_code in (401, 403, 429):
        return False
    if exc.code in ("model_not_found", "model_not_available"):
        return True
    message = _api_message(exc).lower()
    return exc.status_code == 404 and "model" in message


def _api_message(exc: Exception) -> str:
    body = getattr(exc, "body", None)
    message = None
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict):
            message = inner.get("message")
    if not message:
        return ""
    return f" ({str(message)[:300]})"
