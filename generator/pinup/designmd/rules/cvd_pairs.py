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
#: the names a role's word must equal whole; every other word must be one of the name's parts
_WHOLE = frozenset(("on-surface", "on-background"))
_PART_WORDS = frozenset(word for words in _ROLES.values() for word in words if word not in _WHOLE)
_VARIANTS = frozenset(("container", "tint", "hover", "active", "pressed", "focus", "disabled", "subtle", "muted", "bg"))


def _role_colors(model: Model, suffix: str) -> dict[str, tuple[str, CssColor]]:
    """Role -> the token that plays it in the mode `suffix` ('' or '-dark'): the shortest name holding
    one of the role's words, without `on-` (for error and success) or a state/container variant.

    One pass over the colours for every role (a name is split once, not once per role and variant),
    so the rule stays linear in the number of colours with a small constant."""
    best: dict[str, tuple[int, int, str]] = {}
    for name in model.colors:
        base = name[: -len(suffix)] if suffix and name.endswith(suffix) else (None if suffix else name)
        if base is None or base.endswith("-dark"):
            continue
        parts = base.split("-")
        if (_PART_WORDS.isdisjoint(parts) and base not in _WHOLE) or not _VARIANTS.isdisjoint(parts):
            continue  # most names: no role's word, so no role (one set test rather than one per word)
        plain = not base.startswith("on-")
        for role, words in _ROLES.items():
            for rank, word in enumerate(words):
                hit = base == word if word in _WHOLE else plain and word in parts
                if hit:
                    candidate = (rank, len(base), name)
                    if role not in best or candidate < best[role]:
                        best[role] = candidate
                    break
    return {role: (found[2], model.colors[found[2]]) for role, found in best.items()}


def check(model: Model) -> list[RawFinding]:
    """Pairs of colours that must stay apart (the error and success colours; the link colour and the
    text colour) that fall under ΔE_OK 0.10 with protanopia, deuteranopia or tritanopia simulated
    (Machado et al. 2009), though apart for typical vision. Each mode (`-dark` tokens) is checked."""
    from pinup.designmd.colordiff import delta_e_ok
    from pinup.designmd.cvd import MACHADO_2009, simulate

    findings: list[RawFinding] = []
    for suffix in ("", "-dark"):
        roles = _role_colors(model, suffix)
        for first_role, second_role in _PAIRS:
            first, second = roles.get(first_role), roles.get(second_role)
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
