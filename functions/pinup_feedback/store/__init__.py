"""Feedback stores: `FileStore` (local disk) and `S3Store` (hosted). `open_store` picks one."""

from __future__ import annotations

from pathlib import Path

from .base import FeedbackStore, RecordNotFound, StoredItem, StoreError, StoreUnavailable

__all__ = ["FeedbackStore", "RecordNotFound", "StoredItem", "StoreError", "StoreUnavailable", "open_store"]


def open_store(
    spec: str | Path, *, manifests_dir: str | Path | None = None, endpoint_url: str | None = None
) -> FeedbackStore:
    """`s3://bucket/prefix` -> S3Store (botocore loaded on first use); anything else -> FileStore."""
    text = str(spec)
    if text.startswith("s3://"):
        from .s3 import S3Store

        return S3Store.from_url(text, endpoint_url=endpoint_url)
    from .file import FileStore

    return FileStore(text, manifests_dir=manifests_dir)
