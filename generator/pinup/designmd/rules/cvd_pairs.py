"""cvd-pair: colours meant to differ (error and success, a link and the text around it) that look
alike with protanopia, deuteranopia or tritanopia."""

from __future__ import annotations

from pinup.designmd.builder import Model, RawFinding
from pinup.designmd.colors import CssColor
from pinup.designmd.jsnum import to_fixed

#: below this OKLab distance after simulation, two colours are hard to tell apart at a glance
#: (about five just-noticeable differences; red and green status colours land at 0.03-0.09 for deuteranopia)
MINIMUM_DELTA_E = 0.10
#: role -> words a colour token's name may hold for it, the first listed preferred
_ROLES = {
    "error": ("error", "danger", "destructive", "negative", "critical"),
    "success": ("success", "positive", "valid"),
    "link": ("link",),
    "text": ("on-surface", "on-background", "text", "foreground", "body"),
}
_PAIRS = (("error", "success"), ("link", "text"))
_VARIANTS = ("container", "tint", "hover", "active", "pressed", "focus", "disabled", "subtle", "muted", "bg")


def _role_color(model: Model, role: str, suffix: str) -> tuple[str, CssColor] | None:
    """The token that plays `role` in the mode `suffix` ('' or '-dark'): the shortest name holding one
    of the role's words, without `on-` (for error and success) or a state/container variant."""
    candidates: list[tuple[int, int, str]] = []
    for name in model.colors:
        base = name[: -len(suffix)] if suffix and name.endswith(suffix) else (None if suffix else name)
        if base is None or base.endswith("-dark") or any(v in base.split("-") for v in _VARIANTS):
            continue
        for rank, word in enumerate(_ROLES[role]):
            if word in ("on-surface", "on-background"):
                hit = base == word
            else:
                hit = word in base.split("-") and not base.startswith("on-")
            if hit:
                candidates.append((rank, len(base), name))
                break
    if not candidates:
        return None
    name = min(candidates)[2]
    return name, model.colors[name]


def check(model: Model) -> list[RawFinding]:
    """Pairs of colours that must stay apart (the error and success colours; the link colour and the
    text colour) that fall under ΔE_OK 0.10 with protanopia, deuteranopia or tritanopia simulated
    (Machado et al. 2009), though apart for typical vision. Each mode (`-dark` tokens) is checked."""
    from pinup.designmd.colordiff import delta_e_ok
    from pinup.designmd.cvd import MACHADO_2009, simulate

    findings: list[RawFinding] = []
    for suffix in ("", "-dark"):
        for first_role, second_role in _PAIRS:
            first, second = _role_color(model, first_role, suffix), _role_color(model, second_role, suffix)
            if first is None or second is None or delta_e_ok(first[1], second[1]) < MINIMUM_DELTA_E:
                continue
            lost = [
                (kind, distance)
                for kind in MACHADO_2009
                if (distance := delta_e_ok(simulate(first[1], kind), simulate(second[1], kind))) < MINIMUM_DELTA_E
            ]
            if not lost:
                continue
            how = ", ".join(f"{kind} (ΔE_OK {to_fixed(distance, 3)})" for kind, distance in lost)
            findings.append(
                RawFinding(
                    "warning",
                    f"colors.{first[0]}",
                    f"'{first[0]}' ({first[1].hex}) and '{second[0]}' ({second[1].hex}) look alike with {how}, "
                    f"under {to_fixed(MINIMUM_DELTA_E, 2)}; make them differ in lightness as well as hue, or never let "
                    "colour alone tell them apart (add an icon, an underline or a label).",
                )
            )
    return findings
