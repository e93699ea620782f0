"""The board page's field limits, taken from the feedback schema so the page and the endpoint agree.

The schema module (pinup_feedback.schema) is the one source of truth: the build copies its
constants into the page (maxlength attributes and the config the script reads), so a limit
changed there changes every board at the next build.
"""

from __future__ import annotations

import os
from types import ModuleType

from pinup.buildcache import active

#: page field -> schema constant. Constants that an older schema lacks are simply left out.
_FIELDS: dict[str, str] = {
    "reviewer": "MAX_REVIEWER",
    "comment": "MAX_COMMENT",
    "overall": "MAX_OVERALL",
    "custom": "MAX_ACTION",
    "variants": "MAX_VARIANTS",
    "pins": "MAX_PINS",
    "pinNote": "MAX_NOTE",
    "pinText": "MAX_PIN_TEXT",
    "pinHtml": "MAX_PIN_HTML",
    "pinSelector": "MAX_SELECTOR",
    "tweaks": "MAX_TWEAKS",
    "reopen": "MAX_REOPEN",
}


def field_limits(schema: ModuleType | None = None) -> dict[str, int]:
    """{page field: max length or count} from the schema constants that exist."""
    if schema is None:
        from pinup_feedback import schema as loaded

        schema = loaded
    limits: dict[str, int] = {}
    for key, name in _FIELDS.items():
        value = getattr(schema, name, None)
        if isinstance(value, int) and not isinstance(value, bool):
            limits[key] = value
    return limits


def schema_version(schema: ModuleType | None = None) -> int:
    """The newest feedback schema version the endpoint accepts (2 once pins and tweaks exist)."""
    if schema is None:
        from pinup_feedback import schema as loaded

        schema = loaded
    versions = getattr(schema, "SCHEMAS", {1: None})
    return max(int(v) for v in versions)


def v2_fields(schema: ModuleType | None = None) -> list[str]:
    """Field names of the schema v2 body, [] while the endpoint has no v2 (the page then posts v1 only)."""
    if schema is None:
        from pinup_feedback import schema as loaded

        schema = loaded
    model = getattr(schema, "SCHEMAS", {}).get(2)
    return sorted(getattr(model, "model_fields", {})) if model is not None else []


def page_contract() -> tuple[dict[str, int], int, list[str]]:
    """`field_limits()`, `schema_version()` and `v2_fields()` of the installed feedback schema.

    Kept in the build cache by the schema module's bytes (it imports nothing else of the app): a
    build whose board pages were made before need not import the schema, and pydantic with it, to
    fill them in; a changed schema is a new key. A process that has the schema loaded already
    (`pinup serve`) asks it; either way once per build cache (a build renders every board with it).
    """
    cache = active()
    if cache.board_contract is None:
        cache.board_contract = _cached_contract()
    return cache.board_contract


def _cached_contract() -> tuple[dict[str, int], int, list[str]]:
    import sys
    from importlib.util import find_spec

    from pinup.sitecache import cached

    if "pinup_feedback.schema" in sys.modules:
        return _contract()
    found = find_spec("pinup_feedback.schema")
    if found is None or not found.origin or not os.path.isfile(found.origin):  # no source file: ask the module
        return _contract()
    with open(found.origin, "rb") as source:
        return cached(source.read(), "board-page-contract", _contract)


def _contract() -> tuple[dict[str, int], int, list[str]]:
    return field_limits(), schema_version(), v2_fields()
