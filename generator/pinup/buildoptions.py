"""What `pinup build` is asked to do: the options every builder below it reads, typed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


class BuildError(Exception):
    """A build that cannot start or finish (missing workspace, unwritable output)."""


@dataclass(slots=True)
class BuildOptions:
    """What `pinup build` was asked to do (shared with the boards and hosted builders)."""

    src: Path = Path("site_src")
    out: Path = Path("site")
    clean: bool = False
    strict: bool = False
    allow_html: bool = False
    fonts: str = "system"  # "system" | "google"
    templates: Path | None = None
    inline: bool = False
    api_url: str | None = None
    store: str | None = None
    endpoint_url: str | None = None  # S3-compatible endpoint for an s3:// `store`
    results: bool = False  # also write results pages from the feedback store (implied by `store`)

    def __post_init__(self) -> None:
        self.src = Path(self.src)
        self.out = Path(self.out)
        if self.templates is not None:
            self.templates = Path(self.templates)
        if self.fonts not in ("system", "google"):
            raise BuildError(f"--fonts must be 'system' or 'google', not {self.fonts!r}")
        if self.store:
            self.results = True
