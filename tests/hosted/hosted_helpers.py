"""Helpers for the hosted tests: API Gateway v2 events, a Lambda context, a fresh handler, a fake HTTP API."""

from __future__ import annotations

import asyncio
import base64
import importlib.util
import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Self
from urllib.parse import urlsplit

REPO_ROOT = Path(__file__).resolve().parents[2]


class LambdaContext:
    """The attributes Mangum and our logging read from a Lambda context object."""

    function_name = "pinup-feedback"
    function_version = "$LATEST"
    memory_limit_in_mb = 256
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:pinup-feedback"

    def __init__(self) -> None:
        self.aws_request_id = uuid.uuid4().hex

    def get_remaining_time_in_millis(self) -> int:
        return 9000


def v2_event(
    method: str, path: str, body: dict[str, Any] | str | None, headers: dict[str, str], source_ip: str, query: str = ""
) -> dict[str, Any]:
    """An API Gateway HTTP API (payload format 2.0) event, as the gateway sends it."""
    raw = body if isinstance(body, str) or body is None else json.dumps(body)
    request_id = uuid.uuid4().hex[:16]
    base_headers = {
        "host": "abc123.execute-api.us-east-1.amazonaws.com",
        "user-agent": "Mozilla/5.0",
        "x-forwarded-for": source_ip,
        "x-forwarded-proto": "https",
        "x-forwarded-port": "443",
    }
    if raw is not None:
        base_headers.update({"content-type": "application/json", "content-length": str(len(raw.encode()))})
    return {
        "version": "2.0",
        "routeKey": f"{method} {path}",
        "rawPath": path,
        "rawQueryString": query,
        "headers": {**base_headers, **{k.lower(): v for k, v in headers.items()}},
        "requestContext": {
            "accountId": "123456789012",
            "apiId": "abc123",
            "domainName": "abc123.execute-api.us-east-1.amazonaws.com",
            "domainPrefix": "abc123",
            "requestId": request_id,
            "routeKey": f"{method} {path}",
            "stage": "$default",
            "time": "30/Nov/2026:01:00:00 +0000",
            "timeEpoch": 1795999200000,
            "http": {
                "method": method,
                "path": path,
                "protocol": "HTTP/1.1",
                "sourceIp": source_ip,
                "userAgent": "Mozilla/5.0",
            },
        },
        "body": raw,
        "isBase64Encoded": False,
    }


def fresh_handler_module() -> Any:
    """Execute pinup_feedback/lambda_handler.py anew with the current environment (as a cold start does).

    Same effect as importlib.reload, but into a private module object, so other tests that imported
    `pinup_feedback.lambda_handler` keep the handler they configured.
    """
    import pinup_feedback

    path = Path(pinup_feedback.__file__).with_name("lambda_handler.py")
    spec = importlib.util.spec_from_file_location("pinup_feedback._lambda_handler_e2e", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def invoke(handler: Any, event: dict[str, Any]) -> dict[str, Any]:
    """Call the Lambda handler as the runtime does: on a thread with its own event loop.

    Mangum uses the thread's current loop; in the main thread that may be Playwright's running loop
    (the session-wide browser fixture), so the call must not happen there.
    """
    result: dict[str, Any] = {}

    def run() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            result["response"] = handler(event, LambdaContext())
        except BaseException as exc:  # re-raised in the caller
            result["error"] = exc
        finally:
            asyncio.set_event_loop(None)
            loop.close()

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(timeout=60)
    if "error" in result:
        raise result["error"]
    return result["response"]  # type: ignore[no-any-return]


def response_body(response: dict[str, Any]) -> bytes:
    raw = response.get("body") or ""
    return base64.b64decode(raw) if response.get("isBase64Encoded") else raw.encode()


class LoopbackServer:
    """A threaded HTTP server on an OS-picked 127.0.0.1 port; subclasses pass their request handler."""

    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> Self:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)


class FakeHttpApi(LoopbackServer):
    """A stand-in for the deployed HTTP API on 127.0.0.1: CORS exactly as infra/template.yaml configures
    it (preflight answered by the gateway, Access-Control-Allow-Origin added for allowed origins), then
    every other request turned into a payload-v2 event for the Lambda handler, one at a time."""

    ALLOW_HEADERS = "content-type,x-pinup-board-token"
    ALLOW_METHODS = "GET,POST,OPTIONS"

    def __init__(self, handler: Any, allow_origins: list[str]) -> None:
        self.handler = handler
        self.allow_origins = set(allow_origins)
        self.events: list[dict[str, Any]] = []
        self.preflights: list[tuple[str, bool]] = []  # (origin, allowed)
        self.lock = threading.Lock()
        api = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _cors(self) -> None:
                origin = self.headers.get("Origin")
                if origin and origin in api.allow_origins:
                    self.send_header("Access-Control-Allow-Origin", origin)
                    self.send_header("Vary", "Origin")

            def do_OPTIONS(self) -> None:  # noqa: N802 - preflight never reaches the Lambda
                self.send_response(204)
                origin = self.headers.get("Origin")
                api.preflights.append((str(origin), origin in api.allow_origins))
                if origin in api.allow_origins:
                    self._cors()
                    self.send_header("Access-Control-Allow-Methods", api.ALLOW_METHODS)
                    self.send_header("Access-Control-Allow-Headers", api.ALLOW_HEADERS)
                    self.send_header("Access-Control-Max-Age", "600")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def _invoke(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode() if length else None
                parts = urlsplit(self.path)
                headers = {k.lower(): v for k, v in self.headers.items()}
                event = v2_event(self.command, parts.path, body, headers, self.client_address[0], parts.query)
                with api.lock:  # one request per Lambda instance, as on AWS
                    api.events.append(event)
                    response = invoke(api.handler, event)
                data = response_body(response)
                self.send_response(int(response["statusCode"]))
                for name, value in (response.get("headers") or {}).items():
                    if not name.lower().startswith("access-control-") and name.lower() not in {
                        "content-length",
                        "connection",
                    }:
                        self.send_header(name, value)
                self._cors()
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = _invoke  # noqa: N815
            do_POST = _invoke  # noqa: N815

        super().__init__(Handler)


def build_example(
    tmp_path: Path, aws_env: dict[str, str], *, secret: str, api_url: str
) -> tuple[Path, Path, dict[str, str]]:
    """Copy the bundled example workspace to `tmp_path/ws` and `pinup build --api-url` it into `tmp_path/site`.

    Returns (workspace, site, env): env is the CLI's environment, free of the shell's PINUP_ and AWS_
    variables apart from the fake credentials and the board secret.
    """
    import os
    import shutil

    workspace = tmp_path / "ws"
    shutil.copytree(REPO_ROOT / "site_src", workspace, ignore=shutil.ignore_patterns(".pinup", "__pycache__"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PINUP_", "AWS_"))}
    env.update(aws_env)
    env["PINUP_BOARD_SECRET"] = secret
    site = tmp_path / "site"
    run_pinup("build", str(workspace), "--out", str(site), "--api-url", api_url, env=env, cwd=tmp_path)
    return workspace, site, env


def make_buckets(s3: Any, *, versioned: bool = False) -> tuple[str, str]:
    """A fresh boards bucket and feedback bucket in moto (the feedback one versioned if asked)."""
    suffix = uuid.uuid4().hex[:8]
    boards_bucket, feedback_bucket = f"pinup-boards-{suffix}", f"pinup-feedback-{suffix}"
    s3.create_bucket(Bucket=boards_bucket)
    s3.create_bucket(Bucket=feedback_bucket)
    if versioned:
        s3.put_bucket_versioning(Bucket=feedback_bucket, VersioningConfiguration={"Status": "Enabled"})
    return boards_bucket, feedback_bucket


def publish(
    site: Path, bucket: str, store: str, *, endpoint: str, public_url: str, env: dict[str, str], cwd: Path
) -> str:
    """`pinup publish` the built site to moto; returns what it printed."""
    args = ["publish", str(site), "--bucket", bucket, "--store", store, "--endpoint-url", endpoint]
    return str(run_pinup(*args, "--public-url", public_url, env=env, cwd=cwd).stdout)


def run_pinup(*args: str, env: dict[str, str], cwd: Path, ok: bool = True) -> Any:
    """Run the real `pinup` CLI (python -m pinup) in a subprocess."""
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "pinup", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    if ok:
        assert result.returncode == 0, f"pinup {' '.join(args)}\n{result.stdout}\n{result.stderr}"
    return result


class FakeCloudFront(LoopbackServer):
    """A stand-in for the boards distribution on 127.0.0.1: signed reads from the private bucket (as OAC
    does), the directory-index rewrite of the template's CloudFront Function, and the object's own
    Content-Type and Cache-Control passed through to the browser."""

    def __init__(self, s3: Any, bucket: str) -> None:
        self.s3, self.bucket = s3, bucket
        self.requests: list[tuple[str, int, str]] = []
        edge = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802
                from botocore.exceptions import ClientError

                uri = urlsplit(self.path).path
                if uri.endswith("/"):
                    uri += "index.html"
                elif "." not in uri.rsplit("/", 1)[-1]:
                    uri += "/index.html"
                try:
                    obj = edge.s3.get_object(Bucket=edge.bucket, Key=uri.lstrip("/"))
                except ClientError:
                    edge.requests.append((uri, 403, ""))
                    self.send_response(403)  # S3 without ListBucket answers 403 for a missing key
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                data = obj["Body"].read()
                edge.requests.append((uri, 200, obj.get("ContentType", "")))
                self.send_response(200)
                self.send_header("Content-Type", obj.get("ContentType", "application/octet-stream"))
                if obj.get("CacheControl"):
                    self.send_header("Cache-Control", obj["CacheControl"])
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        super().__init__(Handler)
