"""What `pinup verify` compares against the variant: a URL (checked before any request) or a local file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from pinup.boards.spec import VARIANT_KINDS
from pinup.browser import is_loopback

#: host names that always mean this machine; any other name could resolve elsewhere


class VerifyError(Exception):
    """`pinup verify` could not run (exit code 2); `str()` is the one sentence a person reads."""


@dataclass(slots=True, frozen=True)
class Target:
    """A page to render: a URL, or a local file that is an HTML page or an image."""

    #: what the page is called in messages and the report: the URL, or the file's path
    name: str
    #: the URL Chromium opens (http(s):// or file://); "" for an image, which is rendered from `image`
    url: str
    kind: str  # "html" | "image"
    #: an image's file (rendered into a page of its own)
    image: Path | None = None
    #: hosts the page may load from besides the loopback ones (a URL's own host when it was allowed)
    hosts: tuple[str, ...] = ()


def url_target(url: str, allow_hosts: tuple[str, ...] = ()) -> Target:
    """A URL to verify: http(s) only, and loopback unless its host is named in `allow_hosts`."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        parts.port  # noqa: B018 - a bad port raises here, not in Chromium
    except ValueError as exc:
        raise VerifyError(f"{url} is not a URL pinup can open: {exc}") from None
    if parts.scheme not in ("http", "https") or not host:
        raise VerifyError(f"{url} is not an http:// or https:// URL; give a local page with --file instead")
    allowed = {h.lower().rstrip(".") for h in allow_hosts}
    if not is_loopback(host) and host.lower().rstrip(".") not in allowed:
        raise VerifyError(
            f"{url} is not on this machine, so it was not opened; pinup verify opens loopback URLs only, "
            f"unless you allow the host: --allow-host {host}"
        )
    return Target(name=url, url=url, kind="html", hosts=tuple(sorted(allowed)))


def file_target(path: Path) -> Target:
    """A local HTML page or image to verify."""
    kind = VARIANT_KINDS.get(path.suffix.lower())
    if kind is None:
        known = ", ".join(sorted(VARIANT_KINDS))
        raise VerifyError(f"{path} is neither an HTML page nor an image pinup can render ({known})")
    if not path.is_file():
        raise VerifyError(f"{path} does not exist or is not a file")
    resolved = path.resolve()
    if kind == "image":
        return Target(name=str(path), url="", kind="image", image=resolved)
    return Target(name=str(path), url=resolved.as_uri(), kind="html")
