"""Resource limits shared by every path that rasterises a page (evidence images, OCR).

A PDF's page can be as large as 14,400 x 14,400 points (200 inches square) in a file of a few
hundred bytes; rendered at 2x zoom that is 830 million pixels (2.5 GB of RGB). The scale is
lowered so that width x height stays within ``Settings.max_render_pixels``; a page that could only
be shown as a smear (its short side under ``MIN_SIDE_PX`` pixels) is refused with a reason.
"""

from __future__ import annotations

import math

MIN_SIDE_PX = 16


class PageTooLarge(ValueError):
    """A page whose shape cannot be rendered within the pixel limit at any useful scale."""


def max_render_pixels() -> int:
    from docqa.config import Settings

    return Settings().max_render_pixels


def capped_scale(width_pt: float, height_pt: float, scale: float, max_pixels: int | None = None) -> float:
    """``scale`` (pixels per point), lowered so that the rendered page has at most ``max_pixels``."""
    limit = max_pixels if max_pixels is not None else max_render_pixels()
    width_pt, height_pt = abs(width_pt), abs(height_pt)
    if width_pt <= 0 or height_pt <= 0:
        return scale
    if (width_pt * scale) * (height_pt * scale) <= limit:
        return scale
    # floor to 4 decimals so rounding up never pushes the product over the limit
    return math.floor(math.sqrt(limit / (width_pt * height_pt)) * 10_000) / 10_000


def check_renderable(width_pt: float, height_pt: float, scale: float, page: int | None = None) -> None:
    if min(abs(width_pt), abs(height_pt)) * scale < MIN_SIDE_PX:
        where = f"page {page} " if page is not None else "the page "
        raise PageTooLarge(
            f"{where}is {abs(width_pt):,.0f} x {abs(height_pt):,.0f} points ({abs(width_pt) / 72:,.0f} x "
            f"{abs(height_pt) / 72:,.0f} inches): too large to render within the "
            f"{max_render_pixels() / 1e6:,.0f}-megapixel limit (DOCQA_MAX_RENDER_PIXELS)")


def capped_dpi(width_pt: float, height_pt: float, dpi: int, max_pixels: int | None = None) -> int:
    """The dpi to rasterise a page at (for OCR), lowered to keep within the pixel limit."""
    scale = capped_scale(width_pt, height_pt, dpi / 72.0, max_pixels)
    return max(1, min(dpi, int(scale * 72.0)))


__all__ = ["MIN_SIDE_PX", "PageTooLarge", "capped_dpi", "capped_scale", "check_renderable", "max_render_pixels"]
