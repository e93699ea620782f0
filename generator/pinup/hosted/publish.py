"""Upload a built site to S3: right headers on every object, and only what changed.

Why it is more than `aws s3 sync`: each object gets a Content-Type that browsers
accept for module scripts and fonts, a Cache-Control that matches how the file is
named (hashed assets are immutable, pages revalidate within a minute), local-only
files (serve.json, dotfiles, local feedback copies) never leave the machine, and
each board's manifest is written next to the hosted feedback so the Lambda can
check variant ids.

Change detection compares the local MD5 with the object's ETag from one
ListObjectsV2 pass (single-part uploads without SSE-KMS have ETag == MD5).
"""

from __future__ import annotations

import base64
import hashlib
import json
import mimetypes
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from pinup.hosted.aws import S3Location
from pinup_feedback.records import BOARD_SLUG_PATTERN

#: `name.<8 or more hex digits>.ext`, e.g. `app.3f9a1c2b.js`: content-addressed, so cacheable forever.
HASHED_NAME = re.compile(r"\.[0-9a-f]{8,}\.[A-Za-z0-9]+$")

CACHE_IMMUTABLE = "public, max-age=31536000, immutable"
CACHE_SHORT = "public, max-age=60, must-revalidate"
CACHE_DEFAULT = "public, max-age=300"

#: Explicit types: mimetypes differs between systems (e.g. .js, .webp, .woff2 are missing on some).
CONTENT_TYPES: dict[str, str] = {
    ".html": "text/html; charset=utf-8",
    ".htm": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".webp": "image/webp",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".avif": "image/avif",
    ".ico": "image/x-icon",
    ".json": "application/json",
    ".map": "application/json",
    ".webmanifest": "application/manifest+json",
    ".woff2": "font/woff2",
    ".woff": "font/woff",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
    ".xml": "application/xml",
    ".pdf": "application/pdf",
}

#: Files that only make sense on the machine that built or served the site.
LOCAL_ONLY_NAMES = frozenset({"serve.json"})
#: Agent-compatible local feedback copies inside board folders: reviewer text, never public.
LOCAL_FEEDBACK = re.compile(r"^feedback(-[A-Za-z0-9_.-]+)?\.json$")

Status = Literal["new", "changed", "unchanged"]
Kind = Literal["asset", "manifest", "data", "page"]
#: Upload order: a page goes live only after its assets and its board manifest.
UPLOAD_ORDER: tuple[Kind, ...] = ("asset", "manifest", "data", "page")


class BoardManifest(BaseModel):
    """The built `boards/<slug>/board.json`; extra keys are kept as they are."""

    model_config = ConfigDict(extra="allow")

    board: str = Field(pattern=BOARD_SLUG_PATTERN)
    title: str = ""
    round: int = 1
    variants: list[str]


@dataclass
class Upload:
    """One object to compare with S3 and perhaps put."""

    key: str
    rel: str
    data: bytes
    content_type: str
    cache_control: str
    kind: Kind
    status: Status = "new"

    @property
    def md5(self) -> str:
        return hashlib.md5(self.data, usedforsecurity=False).hexdigest()

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass
class PublishPlan:
    """Everything `publish` would do, computed without writing anything."""

    site: S3Location
    manifests: S3Location
    uploads: list[Upload] = field(default_factory=list)
    boards: list[str] = field(default_factory=list)

    @property
    def changed(self) -> list[Upload]:
        order = {k: i for i, k in enumerate(UPLOAD_ORDER)}
        todo = [u for u in self.uploads if u.status != "unchanged"]
        return sorted(todo, key=lambda u: (order[u.kind], u.key))

    @property
    def unchanged(self) -> list[Upload]:
        return [u for u in self.uploads if u.status == "unchanged"]


def content_type_for(name: str) -> str:
    """The Content-Type for a file name: explicit map first, then mimetypes, then octet-stream."""
    suffix = Path(name).suffix.lower()
    if suffix in CONTENT_TYPES:
        return CONTENT_TYPES[suffix]
    guessed, _ = mimetypes.guess_type(name, strict=False)
    if not guessed:
        return "application/octet-stream"
    if guessed.startswith("text/") and "charset" not in guessed:
        return f"{guessed}; charset=utf-8"
    return guessed


def cache_control_for(name: str) -> str:
    """Immutable for hashed names, revalidate-soon for HTML/JSON, a few minutes for the rest."""
    if HASHED_NAME.search(Path(name).name):
        return CACHE_IMMUTABLE
    if Path(name).suffix.lower() in {".html", ".htm", ".json", ".webmanifest"}:
        return CACHE_SHORT
    return CACHE_DEFAULT


def is_excluded(rel: str, *, include_results: bool = False) -> bool:
    """True for files that must never be uploaded (local state, dotfiles, reviewer text)."""
    parts = rel.split("/")
    name = parts[-1]
    if any(p.startswith(".") for p in parts) or name in LOCAL_ONLY_NAMES:
        return True
    in_board = len(parts) >= 3 and parts[0] == "boards"
    if in_board and LOCAL_FEEDBACK.match(name):
        return True
    if in_board and name == "results.html" and not include_results:
        return True
    return False


def _kind(rel: str) -> Kind:
    suffix = Path(rel).suffix.lower()
    if suffix in {".html", ".htm"}:
        return "page"
    if suffix == ".json":
        return "data"
    return "asset"


def iter_site_files(site: Path, *, include_results: bool = False) -> Iterable[tuple[str, Path]]:
    """(posix relative path, file) for every publishable file; symlinks leaving the site are skipped."""
    root = site.resolve()
    for path in sorted(site.rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(site).as_posix()
        if is_excluded(rel, include_results=include_results):
            continue
        real = path.resolve()
        if real != root and root not in real.parents:
            continue
        yield rel, path


def read_manifests(site: Path) -> list[BoardManifest]:
    """Every `boards/<slug>/board.json` of the built site, validated; a bad one is a clear error."""
    manifests: list[BoardManifest] = []
    boards = site / "boards"
    if not boards.is_dir():
        return manifests
    for path in sorted(boards.glob("*/board.json")):
        slug = path.parent.name
        try:
            manifest = BoardManifest.model_validate_json(path.read_bytes())
        except ValueError as exc:
            raise ValueError(f"{path}: not a board manifest: {exc}") from exc
        if manifest.board != slug:
            raise ValueError(f"{path}: board is {manifest.board!r} but the folder is {slug!r}")
        manifests.append(manifest)
    return manifests


def build_plan(
    site_dir: Path,
    site: S3Location,
    manifests: S3Location,
    *,
    include_results: bool = False,
) -> PublishPlan:
    """Collect every object to publish with its headers; statuses are filled in by `compare`."""
    plan = PublishPlan(site=site, manifests=manifests)
    for rel, path in iter_site_files(site_dir, include_results=include_results):
        plan.uploads.append(
            Upload(
                key=site.key(rel),
                rel=rel,
                data=path.read_bytes(),
                content_type=content_type_for(rel),
                cache_control=cache_control_for(rel),
                kind=_kind(rel),
            )
        )
    for manifest in read_manifests(site_dir):
        plan.boards.append(manifest.board)
        data = (json.dumps(manifest.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n").encode()
        rel = f"boards/{manifest.board}.json"
        plan.uploads.append(
            Upload(
                key=manifests.key(rel),
                rel=rel,
                data=data,
                content_type=CONTENT_TYPES[".json"],
                cache_control=CACHE_SHORT,
                kind="manifest",
            )
        )
    return plan


def remote_etags(client: Any, location: S3Location, *parts: str) -> dict[str, str]:
    """key -> ETag (quotes stripped) for every object under the location's prefix (joined with `parts`)."""
    etags: dict[str, str] = {}
    paginator = client.get_paginator("list_objects_v2")
    kwargs: dict[str, str] = {"Bucket": location.bucket}
    prefix = location.key(*parts)
    if prefix:
        kwargs["Prefix"] = prefix + "/"
    for page in paginator.paginate(**kwargs):
        for obj in page.get("Contents", []):
            etags[obj["Key"]] = str(obj.get("ETag", "")).strip('"')
    return etags


def compare(plan: PublishPlan, etags: dict[str, str]) -> PublishPlan:
    """Mark each upload new, changed or unchanged; a multipart ETag ("…-N") always counts as changed."""
    for upload in plan.uploads:
        etag = etags.get(upload.key)
        if etag is None:
            upload.status = "new"
        elif etag == upload.md5:
            upload.status = "unchanged"
        else:
            upload.status = "changed"
    return plan


def fetch_etags(client: Any, plan: PublishPlan) -> dict[str, str]:
    """ETags for the site location and, when it is elsewhere, the manifests under `<store prefix>/boards/`
    (never the feedback records next to them: fewer pages, and no need to list reviewer data)."""
    from botocore.exceptions import ClientError

    etags: dict[str, str] = {}
    listings: list[tuple[S3Location, tuple[str, ...]]] = [(plan.site, ())]
    if plan.manifests != plan.site:
        listings.append((plan.manifests, ("boards",)))
    for location, parts in listings:
        try:
            etags.update(remote_etags(client, location, *parts))
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") != "NoSuchBucket":
                raise
    return etags


def put(client: Any, bucket: str, upload: Upload) -> None:
    """One PutObject with the headers and a Content-MD5 so S3 rejects a corrupted body."""
    client.put_object(
        Bucket=bucket,
        Key=upload.key,
        Body=upload.data,
        ContentType=upload.content_type,
        CacheControl=upload.cache_control,
        ContentMD5=base64.b64encode(hashlib.md5(upload.data, usedforsecurity=False).digest()).decode(),
    )


def execute(
    client: Any,
    plan: PublishPlan,
    *,
    on_done: Callable[[Upload], None] | None = None,
    workers: int = 8,
) -> list[Upload]:
    """Upload the changed objects group by group (assets, manifests, data, pages), in parallel within a group."""
    from concurrent.futures import ThreadPoolExecutor

    done: list[Upload] = []
    changed = plan.changed
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for kind in UPLOAD_ORDER:
            group = [u for u in changed if u.kind == kind]
            bucket = plan.manifests.bucket if kind == "manifest" else plan.site.bucket
            for upload, _ in zip(group, pool.map(lambda u, b=bucket: put(client, b, u), group), strict=True):
                done.append(upload)
                if on_done is not None:
                    on_done(upload)
    return done


def public_urls(
    site: S3Location,
    boards: list[str],
    *,
    public_url: str | None = None,
    endpoint_url: str | None = None,
    region: str | None = None,
) -> list[str]:
    """Where people can open the site: the CloudFront/public base if given, else the S3 object URLs.

    `public_url` is the bucket root as CloudFront serves it (the stack's BoardsUrl), so a `--prefix`
    is appended, unless the URL already ends with it.
    """
    if public_url:
        base = public_url.rstrip("/") + "/"
        if site.prefix and not base.rstrip("/").endswith("/" + site.prefix):
            base += site.prefix + "/"
        return [base] + [f"{base}boards/{slug}/" for slug in boards]
    if endpoint_url:
        base = f"{endpoint_url.rstrip('/')}/{site.bucket}/"
    else:
        host = f"{site.bucket}.s3.{region}.amazonaws.com" if region else f"{site.bucket}.s3.amazonaws.com"
        base = f"https://{host}/"
    if site.prefix:
        base += site.prefix + "/"
    return [f"{base}index.html"] + [f"{base}boards/{slug}/index.html" for slug in boards]
