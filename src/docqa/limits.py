"""Resource limits: what every path that rasterises a page (evidence images, OCR) keeps within, and
how long a value taken from a request may be, or be when an error message shows it.

A PDF's page can be as large as 14,400 x 14,400 points (200 inches square) in a file of a few
hundred bytes; rendered at 2x zoom that is 830 million pixels (2.5 GB of RGB). The scale is
lowered so that width x height stays within ``Settings.limits.max_render_pixels``; a page that could only
be shown as a smear (its short side under ``MIN_SIDE_PX`` pixels) is refused with a reason.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MIN_SIDE_PX = 16
# A document name or id in a request (REST `document`, `documents`, `company`): longer than any file
# name a file system allows (255 bytes), so nothing real is refused.
MAX_NAME_CHARS = 500
# An error message that shows a value from the request shows at most this much of it: a 1 MB
# `document` was sent back whole in its 404.
ECHO_CHARS = 80


class PageTooLarge(ValueError):
    """A page whose shape cannot be rendered within the pixel limit at any useful scale."""


def max_render_pixels() -> int:
    from docqa.config import Settings

    return Settings().limits.max_render_pixels


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


def clipped(value: object, limit: int = ECHO_CHARS) -> str:
    """``value`` as an error message shows it: cut to ``limit`` characters, its length said when cut."""
    text = str(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def shown(value: object, limit: int = ECHO_CHARS) -> str:
    """``value`` quoted (repr'd) as an error message shows it, cut to ``limit`` characters."""
    text = str(value)
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text):,} characters)"


@dataclass(frozen=True)
class HtmlLimits:
    """What reading one HTML filing may cost (ingest.html): a 50 MB single-table file once took
    5.7 GB, and a 6,137-page one was laid out in full before the page limit refused it."""

    max_bytes: int        # a larger file is refused before it is read (DOCQA_MAX_HTML_MB)
    max_table_cells: int  # a table's cells past this are skipped, with a warning (DOCQA_MAX_TABLE_CELLS)
    max_cells: int        # the filing's cells, facts and contexts: reading stops past this (DOCQA_MAX_HTML_CELLS)
    max_pages: int        # refused while reading once its pages pass this (DOCQA_MAX_PAGES)

    @classmethod
    def from_settings(cls, settings=None) -> HtmlLimits:
        from docqa.config import Settings

        s = (settings if settings is not None else Settings()).limits
        return cls(max_bytes=s.max_html_mb * 1024 * 1024, max_table_cells=s.max_table_cells,
                   max_cells=s.max_html_cells, max_pages=s.max_pages)


def capped_dpi(width_pt: float, height_pt: float, dpi: int, max_pixels: int | None = None) -> int:
    """The dpi to rasterise a page at (for OCR), lowered to keep within the pixel limit."""
    scale = capped_scale(width_pt, height_pt, dpi / 72.0, max_pixels)
    return max(1, min(dpi, int(scale * 72.0)))


__all__ = ["ECHO_CHARS", "HtmlLimits", "MAX_NAME_CHARS", "MIN_SIDE_PX", "PageTooLarge", "capped_dpi", "capped_scale",
           "check_renderable", "clipped", "max_render_pixels", "shown"]
