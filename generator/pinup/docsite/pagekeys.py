"""What each page is rendered from, as a hash: a rebuild keeps pages whose inputs did not change.

A one-token edit of a DESIGN.md changes a few pages (colours, components, downloads)
but the whole brand's fingerprint; hashing each page's model lets `write_pages` render
only the pages that differ. A page's key covers:
- its own model (pickled: every value the template can reach through `page`),
- the chrome every page shows (`CHROME`: the site fields the packaged templates read, of
  `site.problems` only what the banner shows (`BANNER`), and the navigation), checked
  against the templates by tests/docsite. A count nothing shows (a new lint warning) keeps
  every page but the ones whose own model holds it (the overview and the lint report),
- the template code (pinup's own files, by size and mtime) and the render options
  (`extra`, e.g. the boards link).
User templates (`--templates`) may read any field of the site, so with them every page
is rendered. A model that cannot be pickled gets no keys: its pages are always rendered.
"""

from __future__ import annotations

import hashlib
import pickle
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from pinup.docsite.models import SiteModel

#: the `site.*` fields the packaged templates read (besides `site.pages`, via the nav)
CHROME = ("name", "errors", "has_dark", "dark_default", "problems")
#: the fields of `site.problems` the packaged banner reads (`alert` is made of them)
BANNER = ("errors", "extended", "yaml_message", "yaml_line")


def _digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(8, "big"))
        h.update(part)
    return h.hexdigest()


def model_keys(site: SiteModel) -> dict[str, str]:
    """Page slug -> hash of its model and the site's chrome; {} when the model cannot be pickled."""
    try:
        shown = [getattr(site, name) for name in CHROME]
        shown[CHROME.index("problems")] = [getattr(site.problems, name) for name in BANNER]
        nav = [(p.slug, p.title, p.filename, p.template) for p in site.pages]
        chrome = pickle.dumps((shown, nav), protocol=4)
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
