"""`create_app(settings, *, hooks=None)`: the one Starlette app behind `pinup serve` and the Lambda."""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount
from starlette.types import Receive, Scope, Send

from .context import Context, Hooks, ManifestCache
from .errors import ApiError, error_response
from .limits import BodyLimit, OriginGuard, RequireJSON
from .logs import AccessLog, ClientHasher, configure_logging, log_event
from .ratelimit import RateLimiter
from .routes import api_routes
from .settings import Settings
from .state import BoardStates
from .store import FeedbackStore, open_store

__all__ = ["Hooks", "create_app"]

CORS_HEADERS = ["content-type", "x-pinup-board-token", "authorization", "x-request-id"]


async def api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    request.scope.setdefault("state", {})["error"] = exc.code
    return error_response(exc.status, exc.code, exc.detail, exc.headers)


async def server_error(request: Request, exc: Exception) -> Response:
    log_event("unhandled", error=type(exc).__name__, path=request.url.path)
    return error_response(500, "internal_error", "unexpected server error")


async def not_found(request: Request, exc: Exception) -> Response:
    return error_response(404, "not_found", request.url.path[:200])


async def method_not_allowed(request: Request, exc: Exception) -> Response:
    return error_response(405, "method_not_allowed", request.method)


class SiteFiles:
    """Local mode: the built site at /, read-only; dotfiles and serve.json are never served."""

    def __init__(self, directory: Path) -> None:
        from starlette.staticfiles import StaticFiles

        self.files = StaticFiles(directory=directory, html=True, follow_symlink=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        parts = [p for p in scope["path"].split("/") if p]
        if any(p.startswith(".") for p in parts) or (parts and parts[-1] == "serve.json"):
            await error_response(404, "not_found", scope["path"][:200])(scope, receive, send)
            return
        await self.files(scope, receive, send)


def client_salt(settings: Settings) -> str | None:
    """A stable salt when a secret exists (hashes comparable across instances), else per process."""
    if settings.client_salt:
        return settings.client_salt
    if settings.board_secret:
        return hmac.new(settings.board_secret.encode(), b"pinup-client-salt", hashlib.sha256).hexdigest()
    return None


def make_store(settings: Settings) -> FeedbackStore:
    manifests = Path(settings.site_dir) / "boards" if settings.site_dir is not None else None
    return open_store(settings.store, manifests_dir=manifests, endpoint_url=settings.endpoint_url)


def create_app(settings: Settings, *, hooks: Hooks | None = None, store: FeedbackStore | None = None,
               boards: BoardStates | None = None) -> Starlette:
    """Build the app. `store`/`boards` may be passed in (tests, `pinup serve`); else made from settings."""
    local = settings.mode == "local"
    if settings.log_requests:
        configure_logging()
    store = store if store is not None else make_store(settings)
    boards = boards if boards is not None else BoardStates()
    hasher = ClientHasher(client_salt(settings))
    ctx = Context(
        settings=settings,
        store=store,
        boards=boards,
        hooks=hooks or Hooks(),
        limiter=RateLimiter(settings.rate_limit),
        hasher=hasher,
        manifests=ManifestCache(store, 0.0 if local else settings.manifest_ttl),
    )
    boards.on_reload(ctx.ledger.reset_board)

    routes: list[BaseRoute] = list(api_routes(local))
    if local and settings.site_dir is not None:
        routes.append(Mount("/", app=SiteFiles(Path(settings.site_dir)), name="site"))

    middleware: list[Middleware] = []
    if settings.cors_enabled and settings.allowed_origins:
        from starlette.middleware.cors import CORSMiddleware

        middleware.append(Middleware(
            CORSMiddleware, allow_origins=list(settings.allowed_origins), allow_methods=["GET", "POST"],
            allow_headers=CORS_HEADERS, max_age=600,
        ))
    middleware += [
        Middleware(AccessLog, hasher=hasher, enabled=settings.log_requests),
        Middleware(OriginGuard, allowed=settings.allowed_origins),
        Middleware(RequireJSON),
        Middleware(BodyLimit, max_body=settings.max_body),
    ]
    app = Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers={ApiError: api_error, 404: not_found, 405: method_not_allowed, 500: server_error},
    )
    app.state.ctx = ctx
    app.state.boards = boards
    app.state.store = store
    app.state.settings = settings
    return app
