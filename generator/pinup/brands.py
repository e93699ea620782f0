"""Built-in brand references and the default example design system.

The data ships in two layouts: an installed wheel carries it under
`pinup/_data/` (pyproject force-include), while an editable or source checkout
reads the repository's `brand_refs/` and `site_src/` directly. Everything else
in pinup asks this module instead of guessing paths.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from pinup.brandmodel import Brand

PACKAGE_DIR = Path(__file__).resolve().parent
#: an installed wheel's data folder
DATA_DIR = PACKAGE_DIR / "_data"
#: generator/pinup -> generator -> repository root (source or editable install)
REPO_DIR = PACKAGE_DIR.parent.parent

#: environment variable that points at another brand_refs folder (for forks and tests)
BRAND_REFS_ENV = "PINUP_BRAND_REFS"
MANIFEST = "manifest.json"
DESIGN_FILE = "DESIGN.md"


class BrandError(Exception):
    """A brand that cannot be found or read; the message is meant for users."""


class UnknownBrandError(BrandError):
    """No brand with that slug; carries close matches to suggest."""

    def __init__(self, slug: str, suggestions: list[str]) -> None:
        self.slug = slug
        self.suggestions = suggestions
        hint = f" Did you mean: {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"Unknown brand '{slug}'.{hint} Run `pinup brands list` to see all brands.")


def __getattr__(name: str) -> Any:
    """`Brand` and `BrandManifest` load pydantic on first use (a gallery build with warm caches never needs it)."""
    if name in ("Brand", "BrandManifest"):
        from pinup import brandmodel

        return getattr(brandmodel, name)
    raise AttributeError(f"module 'pinup.brands' has no attribute {name!r}")


def _first_existing(candidates: list[Path], what: str) -> Path:
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    tried = ", ".join(str(c) for c in candidates)
    raise BrandError(f"Cannot find the {what} folder (looked in: {tried}).")


def brand_refs_dir() -> Path:
    """The folder holding `manifest.json` and `<slug>/DESIGN.md`."""
    override = os.environ.get(BRAND_REFS_ENV)
    if override:
        return _first_existing([Path(override)], "brand references")
    return _first_existing([DATA_DIR / "brand_refs", REPO_DIR / "brand_refs"], "brand references")


def example_dir() -> Path:
    """The default example workspace (`site_src/`), shipped with the package."""
    return _first_existing([DATA_DIR / "site_src", REPO_DIR / "site_src"], "example workspace")


def example_design_path() -> Path:
    """The example DESIGN.md that `pinup init` uses when no brand is given."""
    return example_dir() / DESIGN_FILE


def load_manifest(root: Path | None = None) -> list[Brand]:
    """Every brand listed in manifest.json, validated."""
    folder = root or brand_refs_dir()
    path = folder / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BrandError(f"Cannot read {path}: {exc.strerror or exc}") from exc
    except json.JSONDecodeError as exc:
        raise BrandError(f"{path}:{exc.lineno}: invalid JSON: {exc.msg}") from exc
    from pydantic import ValidationError

    from pinup.brandmodel import BrandManifest

    try:
        return BrandManifest.model_validate(data).root
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise BrandError(f"{path}: invalid manifest at {where or 'top level'}: {first['msg']}") from exc


def suggest(slug: str, brands: list[Brand] | None = None) -> list[str]:
    """Slugs (or names) that look like what the user typed."""
    import difflib  # only for a slug that is not there: not on a build's path

    brands = load_manifest() if brands is None else brands
    wanted = slug.lower().strip()
    by_key = {b.slug: b.slug for b in brands} | {b.name.lower(): b.slug for b in brands}
    close = difflib.get_close_matches(wanted, list(by_key), n=5, cutoff=0.5)
    prefix = [b.slug for b in brands if wanted and (b.slug.startswith(wanted) or wanted in b.slug)]
    seen: list[str] = []
    for key in [*prefix, *(by_key[c] for c in close)]:
        if key not in seen:
            seen.append(key)
    return seen[:3]


def get_brand(slug: str) -> Brand:
    """The manifest entry for a slug (also accepts the brand's name, any case)."""
    brands = load_manifest()
    wanted = slug.strip().lower()
    for brand in brands:
        if brand.slug == wanted or brand.name.lower() == wanted:
            return brand
    raise UnknownBrandError(slug, suggest(slug, brands))


def brand_design_path(slug: str) -> Path:
    """Path to a brand's DESIGN.md; the slug is checked against the manifest first."""
    brand = get_brand(slug)
    path = brand_refs_dir() / brand.slug / DESIGN_FILE
    if not path.is_file():
        raise BrandError(f"Brand '{brand.slug}' is listed but {path} is missing.")
    return path
