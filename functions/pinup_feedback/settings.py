"""Settings for the feedback app, from the CLI (`pinup serve`) or the environment (Lambda).

A plain pydantic model, not pydantic-settings: one less package in the Lambda bundle, and the
five environment variables are read explicitly in `from_env` so bad values fail loudly at start.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator


class SettingsError(ValueError):
    """A setting is missing or malformed; the message names the variable."""


class Settings(BaseModel):
    """Everything `create_app` needs. Local mode serves the site; hosted mode is the Lambda."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    mode: Literal["local", "hosted"] = "local"
    store: str = Field(".pinup/feedback", description="directory path or s3://bucket/prefix")
    site_dir: Path | None = Field(None, description="local: static site served at / and manifests source")
    allowed_origins: tuple[str, ...] = ()
    cors_in_app: bool | None = Field(
        None, description="Starlette CORSMiddleware on; default: on in local mode, off in hosted (gateway does CORS)"
    )
    board_secret: str | None = None
    max_body: int = Field(65536, ge=256, le=10 * 1024 * 1024)
    rate_limit: int = Field(30, ge=0, le=100000, description="requests per minute per client and board; 0 = off")
    exit_on_submit: bool = False
    reload_token: str | None = Field(None, description="local: bearer token for POST /api/reload (from serve.json)")
    default_board: str | None = None
    endpoint_url: str | None = Field(None, description="S3-compatible endpoint; AWS_ENDPOINT_URL also works")
    client_salt: str | None = Field(None, description="salt for the client hash; default derives from the secret")
    retry_after: int = Field(5, ge=1, le=3600, description="Retry-After seconds on 503")
    sse_heartbeat: float = Field(15.0, gt=0, le=300)
    manifest_ttl: float = Field(30.0, ge=0, description="seconds a manifest read from the store is cached")
    log_requests: bool = True
    allowed_hosts: tuple[str, ...] = Field(
        (), description="local: Host names served besides 127.0.0.1, localhost and [::1] (name or name:port; * = any)"
    )
    body_timeout: float = Field(10.0, gt=0, le=300, description="seconds a request body may take to arrive (408)")
    frame_origins: tuple[str, ...] = Field(
        (), description="local: origins the site's pages may frame besides their own (`pinup review`'s app proxy)"
    )

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: object) -> object:
        if isinstance(value, str):
            value = [v.strip() for v in value.split(",") if v.strip()]
        return value

    @field_validator("allowed_hosts", mode="before")
    @classmethod
    def _split_hosts(cls, value: object) -> object:
        if isinstance(value, str):
            value = [v.strip() for v in value.split(",") if v.strip()]
        return value

    @field_validator("allowed_hosts")
    @classmethod
    def _check_hosts(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        from .limits import split_host

        for host in value:
            if host != "*" and split_host(host) is None:
                raise ValueError(f"host {host!r} must look like name or name:port (IPv6 in brackets)")
        return value

    @field_validator("allowed_origins")
    @classmethod
    def _check_origins(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for origin in value:
            if origin != "*" and (not origin.startswith(("http://", "https://")) or origin.endswith("/")):
                raise ValueError(f"origin {origin!r} must look like https://host[:port] (no path) or be *")
        return value

    @field_validator("store")
    @classmethod
    def _check_store(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("store is empty")
        if value.startswith("s3://") and len(value) <= 5:
            raise ValueError("store s3:// needs a bucket: s3://bucket/prefix")
        return value

    @model_validator(mode="after")
    def _mode_rules(self) -> Settings:
        if self.mode == "hosted" and self.exit_on_submit:
            raise ValueError("hosted mode never exits on submit")
        return self

    @property
    def cors_enabled(self) -> bool:
        """CORS lives in ONE place: here in local/dev mode, the API gateway when deployed."""
        return self.mode == "local" if self.cors_in_app is None else self.cors_in_app

    @property
    def is_s3(self) -> bool:
        return self.store.startswith("s3://")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Hosted settings from PINUP_* variables (the Lambda's configuration)."""
        env = os.environ if environ is None else environ
        raw: dict[str, object] = {"mode": env.get("PINUP_MODE", "hosted")}
        names = {
            "PINUP_STORE": "store",
            "PINUP_ALLOWED_ORIGINS": "allowed_origins",
            "PINUP_BOARD_SECRET": "board_secret",
            "PINUP_MAX_BODY": "max_body",
            "PINUP_RATE_LIMIT": "rate_limit",
            "PINUP_CLIENT_SALT": "client_salt",
            "PINUP_CORS_IN_APP": "cors_in_app",
            "PINUP_SITE_DIR": "site_dir",
        }
        for var, field in names.items():
            value = env.get(var)
            if value is not None and value != "":
                raw[field] = value
        if "store" not in raw:
            raise SettingsError("PINUP_STORE is not set (s3://bucket/prefix or a directory)")
        endpoint = env.get("PINUP_ENDPOINT_URL") or env.get("AWS_ENDPOINT_URL_S3") or env.get("AWS_ENDPOINT_URL")
        if endpoint:
            raw["endpoint_url"] = endpoint
        try:
            return cls.model_validate(raw)
        except ValidationError as exc:
            inverse = {v: k for k, v in names.items()}
            problems = "; ".join(
                f"{inverse.get(str(e['loc'][0]), e['loc'][0]) if e['loc'] else 'settings'}: {e['msg']}"
                for e in exc.errors(include_url=False)
            )
            raise SettingsError(f"bad pinup_feedback settings: {problems}") from None
