"""What the board templates receive: plain dataclasses, so templates stay logic-free."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

DEVICE_WIDTHS: dict[str, int] = {"phone": 375, "tablet": 768, "desktop": 1440}


def site_name(design: Any) -> str:
    """The name the board pages give the design system."""
    return (getattr(design, "name", None) or "pinup").strip() or "pinup"


@dataclass(frozen=True, slots=True)
class VariantView:
    """One variant as the page shows it."""

    id: str
    label: str
    description: str
    kind: str  # "html" | "image"
    src: str  # relative URL or data: URI ("" when srcdoc is used)
    srcdoc: str | None  # inline HTML (with --inline)
    device: str
    width: int

    @property
    def title(self) -> str:
        return f"Variant {self.id}: {self.label}" if self.label else f"Variant {self.id}"


@dataclass(frozen=True, slots=True)
class RoundView:
    """An earlier round as the board's round history shows it: read-only, its variants side by side."""

    round: int
    variants: list[VariantView]
    #: the variant reviewers preferred in that round, if known
    pick: str | None = None

    def manifest(self) -> dict[str, Any]:
        """What the page's script needs to compare this round with the current one."""
        return {
            "round": self.round,
            "pick": self.pick,
            "variants": [
                {"id": v.id, "label": v.label, "kind": v.kind, "src": v.src, "srcdoc": v.srcdoc, "width": v.width}
                for v in self.variants
            ],
        }


@dataclass(frozen=True, slots=True)
class BoardConfig:
    """The JSON the page script reads from #board-config."""

    board: str
    title: str
    round: int
    variants: list[str]
    apiUrl: str | None = None
    token: str | None = None
    progressTimeoutMs: int = 300_000
    pollIntervalMs: int = 2_000
    schemaVersion: int = 1
    #: the newest schema the endpoint takes; the page posts it only when pins, tweaks or reopen are present
    maxSchemaVersion: int = 1
    #: the v2 body's field names (empty before the endpoint has v2)
    v2Fields: list[str] = field(default_factory=list)
    #: field limits copied from the feedback schema (see pinup.boards.limits)
    limits: dict[str, int] = field(default_factory=dict)
    #: the Tweak panel's controls (also in board.json as `tweakables`)
    tweakables: list[dict[str, Any]] = field(default_factory=list)
    #: variant id -> "html" | "image"
    kinds: dict[str, str] = field(default_factory=dict)
    #: the digest of this build of the board (also in board.json as `build`); a reload naming it is a no-op
    build: str = ""
    #: earlier rounds, oldest first (`RoundView.manifest`), and the current variants in the same shape
    rounds: list[dict[str, Any]] = field(default_factory=list)
    current: list[dict[str, Any]] = field(default_factory=list)

    def to_json_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class BoardPage:
    """Everything the board page template renders."""

    slug: str
    title: str
    brief: str
    round: int
    device: str
    variants: list[VariantView]
    config: BoardConfig
    theme_css: str
    board_css: str
    board_js: str
    site_name: str
    history_rounds: list[int] = field(default_factory=list)
    #: earlier rounds, oldest first, each viewable read-only and comparable with this one
    history: list[RoundView] = field(default_factory=list)
    devices: dict[str, int] = field(default_factory=lambda: dict(DEVICE_WIDTHS))
    limits: dict[str, int] = field(default_factory=dict)
    tweakables: list[Any] = field(default_factory=list)
    print_css: str = ""  # static/board/print.css, inlined with media="print"


@dataclass(frozen=True, slots=True)
class BoardSummary:
    """One row of the boards index."""

    slug: str
    title: str
    brief: str
    round: int
    variant_count: int
    kinds: str


@dataclass(frozen=True, slots=True)
class BoardsIndexPage:
    """The boards index: a card per board, in the brand's theme."""

    boards: list[BoardSummary]
    theme_css: str
    board_css: str
    site_name: str
    #: link each board's results page (local builds only: hosted results hold reviewer text and are not published)
    show_results: bool = False
