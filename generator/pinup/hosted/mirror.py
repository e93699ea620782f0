"""Read a board's records from a local store, or from a hosted one through its local mirror.

Why a mirror: GETting every object of a hosted board on each `pinup results` cost what is stored,
not what is new. `pinup.hosted.pull` copies only what is new into a folder kept for that store
(the same create-only layout as the local store, with the pull's cursor beside it), and results
read that folder. The mirror holds only the hosted store's records, never the workspace's own
local feedback, so hosted results count what reviewers sent to the hosted board and nothing else.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from pinup.hosted.aws import S3Location, is_s3_url, parse_s3_url
from pinup.hosted.records import LoadedRecords, check_board, load_local


def mirror_dir(src: Path | None, location: S3Location) -> Path:
    """`<src>/.pinup/hosted/<digest of the store URL>`, or under the user's cache folder without a
    workspace; one folder per hosted store, so two stores never mix."""
    from pinup.usercache import cache_root

    digest = hashlib.sha256(location.url.encode()).hexdigest()[:16]
    base = Path(src) / ".pinup" if src is not None and Path(src).is_dir() else cache_root()
    return base / "hosted" / digest


def load_records(
    store: str | Path,
    board: str,
    *,
    src: Path | None = None,
    endpoint_url: str | None = None,
    region: str | None = None,
) -> LoadedRecords:
    """All records of `board` in `store`: a directory, or s3://bucket/prefix pulled (what is new)
    into its mirror and read from there."""
    if not is_s3_url(str(store)):
        return load_local(Path(store), board)
    from pinup.hosted.aws import s3_client
    from pinup.hosted.pull import pull

    location = parse_s3_url(str(store))
    into = mirror_dir(src, location)
    pull(s3_client(endpoint_url, region), location, into, boards=(check_board(board),))
    return load_local(into, board)
