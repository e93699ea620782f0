"""What each page is rendered from, as a hash: a rebuild keeps pages whose inputs did not change.

A one-token edit of a DESIGN.md changes a few pages (colours, components, downloads)
but the whole brand's fingerprint; hashing each page's model lets `write_pages` render
only the pages that differ. A page's key covers:
- its own model (pickled: every value the template can reach through `page`),
- the chrome every page shows: a `Chrome` record, which is all the packaged templates get as
  `site` (`pinup.docsite.render`), so the key covers whatever they read by construction. Of the
  lint problems it holds what the banner shows (`Banner`); a count nothing shows (a new lint
  warning) keeps every page but the ones whose own model holds it (the overview and the lint
  report),
- the template code (pinup's own files, by size and mtime) and the render options
  (`extra`, e.g. the boards link).
User templates (`--templates`) get the whole site model as `site`, so with them every page
is rendered. A model that cannot be pickled gets no keys: its pages are always rendered.
"""

from __future__ import annotations

import hashlib
import pickle
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from pinup.docsite.models import SiteModel


@dataclass(frozen=True, slots=True)
class Banner:
    """What the lint banner on every page shows of the DESIGN.md's problems."""

    errors: int = 0
    extended: int = 0
    yaml_message: str = ""  # first line of the front-matter problem, "" when it was read
    yaml_line: int | None = None

    @property
    def alert(self) -> bool:
        """Whether every page shows the banner."""
        return bool(self.errors or self.extended or self.yaml_message)


@dataclass(frozen=True, slots=True)
class Chrome:
    """What every page of a site shows around its own content: the packaged templates' `site`."""

    name: str
    errors: int
    has_dark: bool
    dark_default: bool
    problems: Banner
    #: (slug, title) of every page, in the navigation's order
    nav: tuple[tuple[str, str], ...]


def chrome_of(site: SiteModel) -> Chrome:
    """The chrome of `site`'s pages."""
    found = site.problems
    return Chrome(
        name=site.name,
        errors=site.errors,
        has_dark=site.has_dark,
        dark_default=site.dark_default,
        problems=Banner(
            errors=found.errors, extended=found.extended, yaml_message=found.yaml_message, yaml_line=found.yaml_line
        ),
        nav=tuple((p.slug, p.title) for p in site.pages),
    )


def _digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(8, "big"))
        h.update(part)
    return h.hexdigest()


def model_keys(site: SiteModel) -> dict[str, str]:
    """Page slug -> hash of its model and the site's chrome; {} when the model cannot be pickled."""
    try:
        chrome = pickle.dumps(chrome_of(site), protocol=4)
        return {p.slug: _digest(chrome, pickle.dumps(p, protocol=4)) for p in site.pages}
    except Exception:  # an unpicklable value: no keys, every page is rendered
        return {}


def render_key(site: SiteModel, slug: str, *, code: str, options: str) -> str | None:
    """The key of page `slug` rendered by pinup's templates (code fingerprint `code`) with `options`.

    None (always render) when the model has no key for it.
    """
    model = site.page_keys.get(slug)
    if model is None:
        return None
    return _digest(model.encode(), code.encode(), options.encode())
