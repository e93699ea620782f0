"""Small S3 helpers shared by publish, pull and results: store URLs and one configured client."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse


@dataclass(frozen=True)
class S3Location:
    """A bucket and a key prefix without leading or trailing slashes ("" for the bucket root)."""

    bucket: str
    prefix: str = ""

    def key(self, *parts: str) -> str:
        """Join the prefix and `parts` into an object key."""
        cleaned = [p.strip("/") for p in (self.prefix, *parts) if p and p.strip("/")]
        return "/".join(cleaned)

    @property
    def url(self) -> str:
        return f"s3://{self.bucket}/{self.prefix}" if self.prefix else f"s3://{self.bucket}"


def is_s3_url(value: str | None) -> bool:
    return bool(value) and str(value).startswith("s3://")


def parse_s3_url(value: str) -> S3Location:
    """Parse `s3://bucket/prefix`; raise ValueError on anything else."""
    parsed = urlparse(value)
    if parsed.scheme != "s3" or not parsed.netloc:
        raise ValueError(f"not an s3:// URL: {value!r}")
    return S3Location(bucket=parsed.netloc, prefix=clean_prefix(parsed.path))


def clean_prefix(prefix: str | None) -> str:
    """Normalise a key prefix: no leading/trailing slashes, no empty or dot segments."""
    if not prefix:
        return ""
    parts = [p for p in prefix.strip().split("/") if p]
    if any(p in (".", "..") for p in parts):
        raise ValueError(f"invalid key prefix: {prefix!r}")
    return "/".join(parts)


def s3_client(endpoint_url: str | None = None, region: str | None = None) -> Any:
    """An S3 client with standard retries; `endpoint_url` falls back to AWS_ENDPOINT_URL.

    botocore itself reads AWS_ENDPOINT_URL(_S3), so passing None keeps that behaviour.
    """
    from botocore.config import Config

    from pinup_feedback.store.boto_session import new_session

    config = Config(
        retries={"mode": "standard", "max_attempts": 5}, s3={"addressing_style": "path"} if endpoint_url else None
    )
    return new_session().create_client(
        "s3", endpoint_url=endpoint_url or None, region_name=region or None, config=config
    )


def describe_error(exc: BaseException) -> str:
    """A one-line, secret-free description of a botocore failure for a ClickException."""
    from botocore.exceptions import ClientError, EndpointConnectionError, NoCredentialsError

    if isinstance(exc, NoCredentialsError):
        return "no AWS credentials found (set AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY)"
    if isinstance(exc, EndpointConnectionError):
        return f"cannot reach the S3 endpoint: {exc}"
    if isinstance(exc, ClientError):
        err = exc.response.get("Error", {})
        return f"S3 said {err.get('Code', '?')}: {err.get('Message', '')}".rstrip(": ")
    return str(exc)
