"""Fixtures for the feedback app tests: a built-looking site, settings, an httpx ASGI client."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from feedback_helpers import RELOAD_TOKEN, make_site

from pinup_feedback.app import Hooks, create_app
from pinup_feedback.settings import Settings


@pytest.fixture()
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture()
def site(tmp_path: Path) -> Path:
    return make_site(tmp_path, {"hero": (1, ["A", "B", "C"]), "cards": (2, ["X", "Y"])})


@pytest.fixture()
def store_dir(tmp_path: Path) -> Path:
    return tmp_path / "store"


@pytest.fixture()
def local_settings(site: Path, store_dir: Path) -> Settings:
    return Settings(mode="local", store=str(store_dir), site_dir=site, reload_token=RELOAD_TOKEN, log_requests=False)


ClientFactory = Callable[..., httpx.AsyncClient]


@pytest.fixture()
async def make_client() -> AsyncIterator[ClientFactory]:
    """Build an app from settings and return an httpx client bound to it (closed afterwards)."""
    clients: list[httpx.AsyncClient] = []

    def factory(
        settings: Settings, *, hooks: Hooks | None = None, client_host: str = "127.0.0.1", **kwargs: Any
    ) -> httpx.AsyncClient:
        app = create_app(settings, hooks=hooks, **kwargs)
        transport = httpx.ASGITransport(app=app, client=(client_host, 50000))
        client = httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8765")
        client.app = app  # type: ignore[attr-defined]
        clients.append(client)
        return client

    yield factory
    for client in clients:
        await client.aclose()
