"""The pydantic models of brand_refs/manifest.json (imported only when a manifest is validated)."""

from __future__ import annotations

from pydantic import BaseModel, Field, RootModel


class Brand(BaseModel):
    """One entry of brand_refs/manifest.json."""

    slug: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,63}$")
    name: str = Field(min_length=1)
    category: str = Field(min_length=1)
    description: str = ""


class BrandManifest(RootModel[list[Brand]]):
    """The manifest: a JSON list of brands, in display order."""
