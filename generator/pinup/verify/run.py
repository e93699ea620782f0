"""`pinup verify`'s whole run: render the approved variant and the implementation, compare, check each pin.

The verdict is a pixel count: the implementation matches when the share of pixels pixelmatch
finds different (anti-aliasing aside) is at most the threshold. SSIM and the pins are reported
beside it. A pin is followed by its selector, so an element that moved but looks the same is
"untouched", one whose pixels differ is "changed", and one the implementation lacks is "missing".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pinup.verify.approved import Approved, Pin
from pinup.verify.compare import compare, padded
from pinup.verify.render import DEFAULT_TIMEOUT, Rect, Renderer, Shot, Viewport
from pinup.verify.target import Target, VerifyError, file_target
from pinup.verify.verdict import PinResult, Verdict

#: the largest share of differing pixels that still counts as a match, unless --threshold says otherwise
DEFAULT_THRESHOLD = 0.01
#: a pinned region whose differing share is at most this is "untouched" (a few pixels of text rendering)
PIN_TOLERANCE = 0.005


def _box_rect(pin: Pin, width: int, height: int) -> Rect:
    x, y, w, h = pin.box
    return Rect.around(x * width, y * height, max(w * width, 1), max(h * height, 1))


def pin_regions(kind: str, shot: Shot, pins: list[Pin], viewport: Viewport) -> list[Rect]:
    """Where each pin points in a render of its variant: its selector's element, else its box.

    An HTML pin's box is a share of the frame the reviewer saw; an image pin's, of the image.
    `shot.rects` holds the rects of the pins that have a selector, in order.
    """
    frame = (shot.image.width, shot.image.height) if kind == "image" else (viewport.width, viewport.height)
    regions, at = [], 0
    for pin in pins:
        region = _box_rect(pin, *frame)
        if pin.selector:
            region = shot.rects[at] or region
            at += 1
        regions.append(region)
    return regions


def check_pins(approved: Approved, variant: Shot, page: Shot, viewport: Viewport) -> list[PinResult]:
    """Each pin of the approved variant, followed into the implementation by its selector."""
    width = max(variant.image.width, page.image.width)
    height = max(variant.image.height, page.image.height)
    left, right = padded(variant.image, width, height), padded(page.image, width, height)
    results, at = [], 0
    for pin, v_rect in zip(approved.pins, pin_regions(approved.kind, variant, approved.pins, viewport), strict=True):
        in_variant = in_page = None
        rect: Rect | None = v_rect
        if pin.selector:
            in_variant, in_page = variant.rects[at] is not None, page.rects[at] is not None
            rect = page.rects[at]
            at += 1
        if rect is None:
            crop = right.crop(v_rect.box())
            results.append(
                PinResult(pin, "missing", in_variant, False, v_rect, v_rect, 1.0, None, left.crop(v_rect.box()), crop)
            )
            continue
        before, after = left.crop(v_rect.box()), right.crop(rect.box())
        share = compare(before, after).share if before.size == after.size else 1.0
        moved = (rect.x - v_rect.x, rect.y - v_rect.y) if in_variant and in_page else None
        status = "changed" if share > PIN_TOLERANCE else "untouched"
        results.append(
            PinResult(
                pin, status, in_variant, in_page, v_rect, rect, share, moved if moved != (0, 0) else None, before, after
            )
        )
    return results


def verify(
    src: Path,
    store: Any,
    board: str,
    target: Target,
    *,
    variant: str | None = None,
    round_: int | None = None,
    threshold: float = DEFAULT_THRESHOLD,
    timeout: float = DEFAULT_TIMEOUT,
    report_dir: Path | None = None,
) -> Verdict:
    """Render, compare and (with `report_dir`) write the report; VerifyError when it cannot run."""
    import threading

    from pinup.verify.approved import approved as find_approved
    from pinup.verify.compare import MissingMaths, _libraries, check_installed

    try:
        check_installed()
    except MissingMaths as exc:
        raise VerifyError(str(exc)) from None
    chosen = find_approved(src, store, board, variant, round_)
    viewport = Viewport.of(chosen.device)
    selectors = [p.selector for p in chosen.pins if p.selector]
    # SciPy and scikit-image take about a second to import: do it while Chromium renders
    warm = threading.Thread(target=_libraries, name="pinup-verify-imports", daemon=True)
    warm.start()
    with Renderer() as renderer:
        left = renderer.shot(file_target(chosen.file), viewport, selectors, timeout)
        right = renderer.shot(target, viewport, selectors, timeout)
    warm.join()
    verdict = Verdict(
        approved=chosen,
        target=target,
        viewport=viewport,
        diff=compare(left.image, right.image),
        threshold=threshold,
        variant_image=left.image,
        image=right.image,
        pins=check_pins(chosen, left, right, viewport),
        cut=left.cut or right.cut,
    )
    if report_dir is not None:
        from pinup.verify.report import write_report

        try:
            verdict.report = write_report(verdict, report_dir)
        except OSError as exc:
            raise VerifyError(f"cannot write the report in {report_dir}: {exc.strerror or exc}") from None
    return verdict
