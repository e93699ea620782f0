"""What every page builder reads: the lint report, its sections grouped by canonical name, options."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pinup.docsite.markdown import MarkdownCache

if TYPE_CHECKING:  # pragma: no cover
    from pinup.designmd.model import DesignSystem, LintReport, Section


class Sources:
    """A linted DESIGN.md plus build options, with prose looked up by canonical section."""

    def __init__(self, report: LintReport, allow_html: bool = False, source_name: str = "DESIGN.md") -> None:
        self.report = report
        self.allow_html = allow_html
        self.source_name = source_name
        self._by_canonical: dict[str, list[Section]] = {}
        self.cache = MarkdownCache(allow_html)
        for section in self.report.design.sections:
            if section.canonical:
                self._by_canonical.setdefault(section.canonical, []).append(section)

    @property
    def design(self) -> DesignSystem:
        return self.report.design

    def section_markdown(self, canonical: str) -> str:
        """The Markdown of every section with this canonical name (duplicates are kept, in order)."""
        return "\n\n".join(s.body for s in self._by_canonical.get(canonical, []))

    def section_html(self, canonical: str) -> str:
        return self.markdown(self.section_markdown(canonical))

    def markdown(self, text: str) -> str:
        return self.cache.html(text)

    @property
    def unknown_sections(self) -> list[Section]:
        return [s for s in self.design.sections if not s.canonical]
