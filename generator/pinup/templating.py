"""The one Jinja2 environment recipe for every page pinup renders (site, boards, results, gallery).

One `--templates DIR` rule: a template named `NAME` of area `AREA` is looked up as
`DIR/AREA/NAME`, then in the package. The design-system site (area `site`) also
accepts `DIR/NAME`, as it always has. Static assets follow the same rule under
`assets/` (`DIR/AREA/assets/NAME`, and `DIR/assets/NAME` for the site). Every area
also sees the shared templates as `shared/NAME` (`DIR/shared/NAME` first): the base
page `shared/page.html` that all pages extend, and `shared/assets.html`'s link macros.
Autoescape is always on and undefined names are errors, so a template typo fails the
build instead of rendering an empty string. Templates are `pinup.templating_template`'s
class: they print with the same text as MarkupSafe's `escape` without a `Markup` per
string, and check their files once per build (`new_build`), not on every lookup.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from pinup.buildcache import active

if TYPE_CHECKING:  # pragma: no cover
    from jinja2 import Environment

#: the area whose overrides may also sit at the top of the --templates folder
SITE = "site"
#: the area every other area can read as `shared/NAME` (the base page and its macros)
SHARED = "shared"
PACKAGE_TEMPLATES = Path(__file__).resolve().parent / "templates"
#: environments a build cache keeps (the oldest made goes first)
ENVIRONMENTS_KEPT = 16


def override_dirs(area: str, templates: str | Path | None) -> list[Path]:
    """Folders of `--templates DIR` that may override `area`'s templates, best first."""
    if not templates:
        return []
    root = Path(templates)
    return [root / area, root] if area == SITE else [root / area]


def environment(area: str, package_dir: str, templates: str | None = None) -> Environment:
    """A cached environment: the user's overrides for `area` first, then `package_dir`, then `shared/`.

    Kept in the build cache per (area, folder, templates), so `pinup serve`'s rebuilds reuse compiled
    templates (a template whose file changed is read again on the next build:
    `templating_template.new_build`).
    """
    made: dict[tuple[str, str, str | None], Environment] = active().templates
    key = (area, package_dir, templates)
    env = made.get(key)
    if env is None:
        if len(made) >= ENVIRONMENTS_KEPT:
            del made[next(iter(made))]
        env = made[key] = _environment(area, package_dir, templates)
    return env


def _environment(area: str, package_dir: str, templates: str | None) -> Environment:
    from jinja2 import BaseLoader, ChoiceLoader, Environment, FileSystemLoader, PrefixLoader, StrictUndefined

    from pinup.templating_template import template_class
    from pinup.usercache import bytecode_cache

    loaders: list[BaseLoader] = [FileSystemLoader(str(d)) for d in override_dirs(area, templates)]
    loaders.append(FileSystemLoader(package_dir))
    shared = [str(d) for d in override_dirs(SHARED, templates)] + [str(PACKAGE_TEMPLATES / SHARED)]
    loaders.append(PrefixLoader({SHARED: FileSystemLoader(shared)}))
    env = Environment(
        loader=ChoiceLoader(loaders),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=StrictUndefined,
        bytecode_cache=bytecode_cache(),
    )
    env.template_class = template_class()
    return env


def asset_override(area: str, name: str, templates: str | Path | None) -> bytes | None:
    """The user's replacement for a packaged static asset, or None."""
    for folder in override_dirs(area, templates):
        candidate = folder / "assets" / name
        if candidate.is_file():
            return candidate.read_bytes()
    return None


def packaged_file(path: Path) -> bytes:
    """A file shipped with pinup (a static asset), read once per process and again if edited.

    A gallery writes the same site assets for every brand and every board page inlines the board's
    CSS and JS: one `stat` instead of a read each time."""
    return _packaged(str(path), path.stat().st_mtime_ns)


@lru_cache(maxsize=64)
def _packaged(path: str, _mtime_ns: int) -> bytes:
    return Path(path).read_bytes()
