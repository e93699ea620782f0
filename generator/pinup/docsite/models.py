"""Page models: slotted dataclasses holding everything a template needs, nothing it must compute.

Templates stay logic-free and overridable (`--templates DIR`), the MkDocs plugin
renders the same models, and tests can check a page's content without parsing
HTML. Fields typed `str` that end in `_html` are already safe HTML (rendered by
markdown-it with raw HTML escaped, or built by pinup); everything else is user
text that the templates escape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pinup.docsite.problems import Problems


class Model:
    """The base of every page model: slotted dataclasses that pickle (page keys, the site cache) and compare by value."""

    __slots__ = ()


@dataclass(slots=True)
class Page(Model):
    """One page of the site. `slug` names it in links (`colors` -> colors.html)."""

    slug: str
    title: str
    template: str
    prose_html: str = ""

    @property
    def filename(self) -> str:
        return f"{self.slug}.html"


# --- overview ---------------------------------------------------------------------------------


@dataclass(slots=True)
class Stat(Model):
    """One figure on the overview (how many colours, type levels, spacing steps), linking to its page."""

    label: str
    value: int
    slug: str


@dataclass(slots=True)
class Cover(Model):
    """The overview's first screen, built from the brand's own tokens."""

    strip: list[tuple[str, str]] = field(default_factory=list)  # (token name, hex) of the palette
    display_style: str = ""  # sanitised declarations of the display level (family, weight, tracking)
    display_level: str = ""  # which typography level set the title
    action_style: str = ""  # shape and type of the primary button (colours come from the theme)
    action_component: str = ""  # the component it is drawn from, e.g. `button-primary`


@dataclass(slots=True)
class OverviewPage(Page):
    """The first page: the brand's name, description and cover, its figures, and the lint summary."""

    name: str = ""
    description: str = ""
    version: str = ""
    preamble_html: str = ""
    stats: list[Stat] = field(default_factory=list)
    errors: int = 0
    warnings: int = 0
    infos: int = 0
    theme_notes: list[str] = field(default_factory=list)
    has_dark: bool = False
    cover: Cover = field(default_factory=Cover)
    dark_default: bool = False
    yaml_message: str = ""  # the front matter could not be read: no tokens, no stats to show
    yaml_line: int | None = None


# --- colors -------------------------------------------------------------------------------------


@dataclass(slots=True)
class Swatch(Model):
    """A colour token with every representation the page offers to copy."""

    name: str
    anchor: str
    raw: str
    hex: str
    rgb: str
    oklch: str
    css_var: str
    ref: str
    role: str = ""
    line: int | None = None
    alpha: float | None = None
    label_on: str = "#000000"  # text colour that reads on this swatch (for the specimen only)


@dataclass(slots=True)
class ContrastCell(Model):
    """One cell of the contrast matrix: a text colour on a surface colour, with its WCAG level."""

    fg: str
    bg: str
    ratio: float
    level: str  # "AAA" | "AA" | "AA Large" | "Fail"

    @property
    def ratio_text(self) -> str:
        return f"{self.ratio:.2f}:1"


@dataclass(slots=True)
class ContrastMatrix(Model):
    """Text-like colours (rows) against surface-like colours (columns)."""

    rows: list[Swatch]
    cols: list[Swatch]
    cells: list[list[ContrastCell]]


@dataclass(slots=True)
class ContrastPair(Model):
    """A pairing the DESIGN.md intends: `on-X` on `X`, or text on a page surface."""

    fg: Swatch
    bg: Swatch
    ratio: float
    level: str
    why: str  # "on its fill", "text on the page", ...

    @property
    def ratio_text(self) -> str:
        return f"{self.ratio:.2f}:1"


@dataclass(slots=True)
class ColorFamily(Model):
    """Colours that belong together (`primary`, `on-primary`, `primary-hover`, ...), shown as a ramp."""

    name: str
    title: str
    swatches: list[Swatch]


@dataclass(slots=True)
class ColorMode(Model):
    """A set of swatches shown together: "Light", "Dark" (from `*-dark` tokens)."""

    key: str
    title: str
    swatches: list[Swatch]
    matrix: ContrastMatrix | None = None
    families: list[ColorFamily] = field(default_factory=list)
    pairs: list[ContrastPair] = field(default_factory=list)


@dataclass(slots=True)
class ColorsPage(Page):
    """The colours page: the palette of each mode, contrast checks and colour-vision simulations."""

    modes: list[ColorMode] = field(default_factory=list)
    simulations: list[tuple[str, str, str]] = field(default_factory=list)  # (key, label, feColorMatrix values)


# --- typography ---------------------------------------------------------------------------------


@dataclass(slots=True)
class TypeLevel(Model):
    """One typography level, with its specimen style and the CSS rule to copy."""

    name: str
    anchor: str
    style: str  # inline CSS declarations (sanitised)
    css: str  # the CSS rule shown and copied
    props: list[tuple[str, str]]
    line: int | None = None


@dataclass(slots=True)
class FontNote(Model):
    """How one family the DESIGN.md names is shown: embedded from `fonts/`, or a fallback stack."""

    family: str
    embedded: str  # "fonts/Inter.woff2" when embedded, "" otherwise
    fallback: str  # the CSS stack used when it is not embedded (or not yet loaded)
    levels: list[str] = field(default_factory=list)


@dataclass(slots=True)
class TypographyPage(Page):
    """The typography page: every level as a specimen, and notes on the fonts they use."""

    levels: list[TypeLevel] = field(default_factory=list)
    fonts: list[FontNote] = field(default_factory=list)
    sample: str = "The quick brown fox jumps over the lazy dog 0123456789"


# --- layout, shapes, elevation ------------------------------------------------------------------


@dataclass(slots=True)
class ScaleStep(Model):
    """A spacing or radius token drawn to scale."""

    name: str
    anchor: str
    css: str
    px: float | None
    percent: float  # of the largest step, for bars
    ref: str
    css_var: str
    line: int | None = None


@dataclass(slots=True)
class ScalePage(Page):
    """The spacing or the rounded page: each step of the scale drawn to size."""

    steps: list[ScaleStep] = field(default_factory=list)
    kind: str = "spacing"  # "spacing" | "rounded"


@dataclass(slots=True)
class ShadowSample(Model):
    """One elevation token drawn as a card with its shadow."""

    name: str
    value: str  # sanitised box-shadow


@dataclass(slots=True)
class ElevationPage(Page):
    """The elevation page: every shadow token on a card."""

    samples: list[ShadowSample] = field(default_factory=list)


# --- components ---------------------------------------------------------------------------------


@dataclass(slots=True)
class PropRow(Model):
    """One property of a component: as written, as resolved, and whether a variant inherits it."""

    name: str
    raw: str
    resolved: str
    swatch: str | None = None  # hex when the value is a colour
    inherited: bool = False


@dataclass(slots=True)
class ComponentVariant(Model):
    """One state or variant of a component, drawn as a live specimen on its stage."""

    name: str
    anchor: str
    label: str
    element: str  # "button" | "input" | "span" | "div" | "code" | "hr" | "a"
    style: str
    stage: str  # background of the stage behind the specimen
    dark: bool
    props: list[PropRow]
    line: int | None = None


@dataclass(slots=True)
class ComponentGroup(Model):
    """A component and its variants, with what the prose says of it and snippets to copy."""

    name: str
    anchor: str
    variants: list[ComponentVariant]
    usage: str = ""  # the Components prose that describes it (plain text)
    html: str = ""  # a copyable HTML snippet
    css: str = ""  # a copyable CSS snippet: the base rule and one rule per state


@dataclass(slots=True)
class ComponentsPage(Page):
    """The components page: every component group."""

    groups: list[ComponentGroup] = field(default_factory=list)


# --- do's and don'ts ----------------------------------------------------------------------------


@dataclass(slots=True)
class GuidancePage(Page):
    """The do's and don'ts page, from the DESIGN.md's guidance sections."""

    dos: list[str] = field(default_factory=list)  # inline HTML
    donts: list[str] = field(default_factory=list)
    notes_html: str = ""


# --- downloads ------------------------------------------------------------------------------------


@dataclass(slots=True)
class Download(Model):
    """One export offered on the downloads page (its bytes, or why it could not be made)."""

    label: str
    filename: str
    description: str
    fmt: str
    content: bytes | None = None
    error: str | None = None
    preview: str = ""

    @property
    def size(self) -> str:
        n = len(self.content or b"")
        return f"{n} B" if n < 1024 else f"{n / 1024:.1f} KB"


@dataclass(slots=True)
class DownloadsPage(Page):
    """The downloads page: the token exports in every format."""

    files: list[Download] = field(default_factory=list)


# --- lint -------------------------------------------------------------------------------------------


@dataclass(slots=True)
class FindingRow(Model):
    """One lint finding, linked to the page and anchor it is about."""

    severity: str
    path: str
    message: str
    rule: str
    line: int | None
    page: str
    anchor: str


@dataclass(slots=True)
class LintPage(Page):
    """The lint page: the reference linter's findings, then pinup's own checks."""

    findings: list[FindingRow] = field(default_factory=list)  # the reference linter's
    extended: list[FindingRow] = field(default_factory=list)  # pinup's own checks (`lint --extended`)
    errors: int = 0
    warnings: int = 0
    infos: int = 0


# --- unknown sections and token groups -------------------------------------------------------------


@dataclass(slots=True)
class GenericRow(Model):
    """One key and value of a token group pinup has no page of its own for."""

    key: str
    value: str
    swatch: str | None = None


@dataclass(slots=True)
class GenericGroup(Model):
    """A token group pinup has no page of its own for, shown as a table."""

    name: str
    anchor: str
    rows: list[GenericRow]


@dataclass(slots=True)
class GenericSection(Model):
    """A prose section of the DESIGN.md that no other page shows."""

    heading: str
    anchor: str
    html: str
    line: int | None = None


@dataclass(slots=True)
class ExtrasPage(Page):
    """The extras page: sections and token groups that no other page shows."""

    sections: list[GenericSection] = field(default_factory=list)
    groups: list[GenericGroup] = field(default_factory=list)


# --- the site -----------------------------------------------------------------------------------


@dataclass(slots=True)
class SearchEntry(Model):
    """One entry of the site's search index: where it leads and the text it matches."""

    title: str
    page: str
    anchor: str
    kind: str
    text: str


@dataclass(slots=True)
class SiteModel(Model):
    """Every page of one design system, plus what the chrome needs."""

    name: str
    pages: list[Page]
    search: list[SearchEntry]
    errors: int = 0
    warnings: int = 0
    has_dark: bool = False
    dark_default: bool = False  # pages open in the dark theme (the DESIGN.md says dark is its default)
    extra: dict[str, Any] = field(default_factory=dict)
    problems: Problems = field(default_factory=Problems)  # drives the alert banner on every page
    #: page slug -> a hash of its model (`pinup.docsite.pagekeys`): a page whose model and
    #: chrome did not change is kept from the previous build instead of rendered again
    page_keys: dict[str, str] = field(default_factory=dict)

    def page(self, slug: str) -> Page | None:
        return next((p for p in self.pages if p.slug == slug), None)
