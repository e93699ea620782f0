"""The downloads page: the DESIGN.md itself and every export, produced by `pinup.designmd.exporters`."""

from __future__ import annotations

from pinup.docsite.models import Download, DownloadsPage
from pinup.docsite.sources import Sources
from pinup.output import utf8

#: (format, file name, label, description)
EXPORTS: list[tuple[str, str, str, str]] = [
    (
        "dtcg",
        "tokens.json",
        "Design tokens (DTCG)",
        "W3C Design Tokens Community Group format; builds in Style Dictionary and Terrazzo.",
    ),
    (
        "css-vars",
        "tokens.css",
        "CSS custom properties",
        "Every token as a `--` variable on :root, with dark-mode blocks when the system has dark values.",
    ),
    (
        "json-tailwind",
        "tailwind.config.json",
        "Tailwind CSS v3 theme (JSON)",
        "A `theme.extend` object for tailwind.config.",
    ),
    ("css-tailwind", "tailwind.css", "Tailwind CSS v4 theme (CSS)", "An `@theme` block for Tailwind v4."),
]
_PREVIEW_CHARS = 4000


def build_downloads(src: Sources) -> DownloadsPage:
    files = [
        Download(
            label="DESIGN.md",
            filename="DESIGN.md",
            description="The source file this site was built from.",
            fmt="designmd",
            content=src.design.source.encode("utf-8"),
        )
    ]
    from pinup.designmd import exporters

    for fmt, filename, label, description in EXPORTS:
        item = Download(label=label, filename=filename, description=description, fmt=fmt)
        try:
            # the site uses pinup's additions: light/dark blocks where the format has them
            modes = fmt in exporters.MODE_FORMATS
            item.content = utf8(exporters.render(fmt, src.design, modes=modes))  # a YAML "\\ud800" too
        except exporters.ExportError as exc:
            item.error = f"{exc.code}: {exc.message}" if hasattr(exc, "code") else str(exc)
        files.append(item)
    for item in files:
        if item.content is not None:
            text = item.content.decode("utf-8", "replace")
            item.preview = text if len(text) <= _PREVIEW_CHARS else text[:_PREVIEW_CHARS] + "\n…"
    return DownloadsPage(slug="downloads", title="Downloads", template="downloads.html", files=files)
