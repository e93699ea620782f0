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
from starlette.types import Message, Receive, Scope, Send

from .context import Context, Hooks, ManifestCache
from .errors import ApiError, error_response
from .intake import Intake
from .lifecycle import Lifecycle
from .limits import BodyChecks, HostGuard, OriginGuard
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
    """405 keeps the `Allow` header the router computed (RFC 9110 requires it)."""
    allow = dict(getattr(exc, "headers", None) or {})
    return error_response(405, "method_not_allowed", request.method, allow)


class SiteFiles:
    """Local mode: the built site at /, read-only; dotfiles and serve.json are never served."""

    def __init__(self, directory: Path, frames: tuple[str, ...] = ()) -> None:
        from starlette.staticfiles import StaticFiles

        self.files = StaticFiles(directory=directory, html=True, follow_symlink=False)
        self.frames = frames

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        parts = [p for p in scope["path"].split("/") if p]
        if any(p.startswith(".") for p in parts) or (parts and parts[-1] == "serve.json"):
            await error_response(404, "not_found", scope["path"][:200])(scope, receive, send)
            return
        # no 304s: a 304 carries no body to hash, and its bare CSP would replace the cached page's,
        # blocking the page's inline scripts on every reload
        headers = [
            (k, v) for k, v in scope.get("headers", []) if k.lower() not in (b"if-none-match", b"if-modified-since")
        ]
        # a page's script hashes matter only where it is a document: a script's fetch() of it (a page
        # taking new styles in place) gets the policy without them, at none of the parsing's cost
        fetched = dict(scope.get("headers", [])).get(b"sec-fetch-dest") == b"empty"
        await self.files(
            {**scope, "headers": headers},
            receive,
            with_security_headers(send, variant_file(parts), self.frames, hash_scripts=not fetched),
        )


#: the files of a board folder that are pinup's own (the board builder reserves these names);
#: anything else there is a variant's file
BOARD_PAGES = ("index.html", "results.html", "results.csv", "board.json", "feedback.json", "feedback-pending.json")


def variant_file(parts: list[str]) -> bool:
    """A file under boards/<slug>/ that is not the board or its results: a variant's, sandboxed
    by its CSP even when opened on its own, as it is in the board's frame."""
    return len(parts) >= 3 and parts[0] == "boards" and not (len(parts) == 3 and parts[2] in BOARD_PAGES)


def with_security_headers(
    send: Send, sandbox: bool = False, frames: tuple[str, ...] = (), *, hash_scripts: bool = True
) -> Send:
    """Add the CSP (hashing an HTML page's inline scripts, so the page is held until complete),
    nosniff and no-referrer to every site response (`sandbox`: a variant's file; `hash_scripts`
    False: a response no browser runs as a page, whose policy allows no inline script at all)."""
    from .csp import STATIC_HEADERS, policy

    held: list[Message] = []

    def start(message: Message, html: str | None) -> Message:
        headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"content-security-policy"]
        headers += [(k.lower().encode(), v.encode()) for k, v in STATIC_HEADERS.items()]
        headers.append((b"content-security-policy", policy(html, sandbox=sandbox, frames=frames).encode()))
        return {**message, "headers": headers}

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            ctype = dict(message.get("headers", [])).get(b"content-type", b"")
            if ctype.startswith(b"text/html") and hash_scripts:
                held.append(message)
                return
            await send(start(message, None))
            return
        if held and message["type"] == "http.response.body":
            held.append(message)
            if message.get("more_body", False):
                return
            body = b"".join(m.get("body", b"") for m in held[1:])
            from starlette.concurrency import run_in_threadpool

            # hashing parses the whole page: beside the event loop, so the other requests under way
            # (another tab taking new styles, an event stream) are answered meanwhile
            await send(await run_in_threadpool(start, held[0], body.decode("utf-8", "replace")))
            await send({"type": "http.response.body", "body": body})
            held.clear()
            return
        await send(message)

    return wrapped


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


def sweep_temps(settings: Settings) -> None:
    """Temp files a crash (kill -9) left in the store or beside the agent copies go at start-up."""
    from .store.durable import remove_stale_temps

    roots = [Path(settings.store)]
    if settings.site_dir is not None:
        roots.append(Path(settings.site_dir) / "boards")
    removed = remove_stale_temps(*roots)
    if removed:
        log_event("stale_temps_removed", count=len(removed))


def create_app(
    settings: Settings,
    *,
    hooks: Hooks | None = None,
    store: FeedbackStore | None = None,
    boards: BoardStates | None = None,
    inline_io: bool = False,
) -> Starlette:
    """Build the app. `store`/`boards` may be passed in (tests, `pinup serve`); else made from settings.

    `inline_io` runs store calls on the event loop: only for a host that sends one request at a
    time (the Lambda handler)."""
    local = settings.mode == "local"
    if settings.log_requests:
        configure_logging()
    store = store if store is not None else make_store(settings)
    if local and not settings.is_s3:
        sweep_temps(settings)
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
        lifecycle=Lifecycle(store),
        inline_io=inline_io,
    )
    boards.on_reload(ctx.ledger.reset_board)

    routes: list[BaseRoute] = list(api_routes(local))
    if local and settings.site_dir is not None:
        routes.append(Mount("/", app=SiteFiles(Path(settings.site_dir), settings.frame_origins), name="site"))

    middleware: list[Middleware] = []
    if settings.cors_enabled and settings.allowed_origins:
        from starlette.middleware.cors import CORSMiddleware

        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=list(settings.allowed_origins),
                allow_methods=["GET", "POST"],
                allow_headers=CORS_HEADERS,
                max_age=600,
            )
        )
    if local:  # the Lambda sits behind an API gateway that owns its host names
        middleware.insert(0, Middleware(HostGuard, allowed=settings.allowed_hosts))
    if settings.log_requests:  # off (pinup serve): not even a pass-through layer per request
        middleware.append(Middleware(AccessLog, hasher=hasher))
    middleware += [
        Middleware(OriginGuard, allowed=settings.allowed_origins),
        Middleware(BodyChecks, max_body=settings.max_body, timeout=settings.body_timeout),
    ]
    app = Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers={ApiError: api_error, 404: not_found, 405: method_not_allowed, 500: server_error},
    )
    app.state.ctx = ctx
    app.state.intake = Intake(ctx)
    app.state.boards = boards
    app.state.store = store
    app.state.settings = settings
    return app
