"""The export formats, in one list: the exporters, the CLI (its check and help) and the docs read it.

A module of its own, outside `pinup.designmd.exporters`, so `pinup lint` can import the
CLI without loading any exporter.
"""

from __future__ import annotations

#: format -> exporter module, in the order the reference lists them in its INVALID_FORMAT message.
MODULES: dict[str, str] = {
    "css-tailwind": "tailwind_css",
    "json-tailwind": "tailwind_json",
    "tailwind": "tailwind_json",
    "dtcg": "dtcg",
    "css-vars": "css_vars",
}
#: every `pinup export --format` value.
FORMATS: tuple[str, ...] = tuple(MODULES)
#: formats whose output is JSON (lone surrogates are escaped as JSON.stringify does).
JSON_FORMATS: frozenset[str] = frozenset({"json-tailwind", "tailwind", "dtcg"})
#: formats that `--modes` changes (json-tailwind has no place for mode values).
MODE_FORMATS: frozenset[str] = frozenset({"css-tailwind", "css-vars", "dtcg"})
