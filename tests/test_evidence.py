"""docqa.evidence: a real filing page rendered with the quote (or the figures) boxed."""

from __future__ import annotations

import hashlib
from pathlib import Path

import fitz
import numpy as np
import pytest

from docqa.evidence import HIGHLIGHT_RGB, locate_quote, render_evidence
from docqa.ingest.parse import ParseError
from docqa.types import Figure

PDF = Path(__file__).resolve().parents[1] / "samples" / "AMAZON_2017_10K.pdf"
PAGE = 38  # consolidated statements of operations
NET_INCOME_Y = (393.4, 403.7)    # the "Net income" row, PDF points
NET_SALES_Y = (160.5, 170.9)     # the "Total net sales" row
ROW_X = (18.9, 588.0)


def pixels(png: bytes) -> np.ndarray:
    pix = fitz.Pixmap(png)
    return np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)[:, :, :3]


def highlight_mask(png: bytes) -> np.ndarray:
    return np.all(pixels(png) == np.array(HIGHLIGHT_RGB, dtype=np.uint8), axis=2)


def highlight_rows(png: bytes, zoom: float = 2.0) -> tuple[float, float]:
    """The vertical extent (PDF points) of the highlight colour in the image."""
    ys = np.nonzero(highlight_mask(png).any(axis=1))[0]
    return ys.min() / zoom, ys.max() / zoom


def assert_boxed(image, y_range, x_range=ROW_X) -> None:
    mask = highlight_mask(image.png)
    assert mask.sum() > 200, "no highlight outline drawn"
    top, bottom = highlight_rows(image.png, image.zoom)
    assert y_range[0] - 6 <= top <= y_range[0] and y_range[1] <= bottom <= y_range[1] + 6
    xs = np.nonzero(mask.any(axis=0))[0] / image.zoom
    assert x_range[0] - 6 <= xs.min() <= x_range[0] + 1 and x_range[1] - 1 <= xs.max() <= x_range[1] + 6


@pytest.fixture(scope="module")
def plain() -> bytes:
    return render_evidence(PDF, PAGE, []).png


def test_unboxed_render_has_no_highlight(plain):
    assert highlight_mask(plain).sum() == 0
    pix = fitz.Pixmap(plain)
    assert (pix.width, pix.height) == (1224, 1584)  # 612 x 792 points at zoom 2


def test_quote_as_stored_is_boxed(plain):
    image = render_evidence(PDF, PAGE, ["Net income  $  596  $  2,371  $  3,033"])
    assert image.used == "quote" and len(image.boxes) == 1
    assert_boxed(image, NET_INCOME_Y)
    # The fill is translucent: the row's text is still there, darker than the box around it.
    row = pixels(image.png)[int(NET_INCOME_Y[0] * 2) : int(NET_INCOME_Y[1] * 2), 40:110]
    assert row.min() < 100
    # Outside the box the page is untouched.
    before, after = pixels(plain), pixels(image.png)
    assert np.array_equal(before[:700], after[:700]) and np.array_equal(before[850:], after[850:])


@pytest.mark.parametrize(
    "quote",
    [
        "Net income $596 $2,371 $3,033",          # search_for fails: the '$' is glued
        "net income: 596; 2,371; 3,033",          # punctuation the page does not have
        "Net income (in millions) 3,033",         # label words and a figure: the table-row fallback
    ],
)
def test_quote_fallbacks_find_the_row(quote):
    image = render_evidence(PDF, PAGE, [quote])
    assert image.used == "quote"
    assert_boxed(image, NET_INCOME_Y)


def test_several_quotes_several_boxes():
    image = render_evidence(PDF, PAGE, ["Total net sales  107,006  135,987  177,866",
                                        "Net income  $  596  $  2,371  $  3,033"])
    assert image.used == "quote" and len(image.boxes) == 2


def test_quote_on_two_lines_of_prose():
    with fitz.open(PDF) as doc:
        page = doc[2]
        rects = locate_quote(page, "operate; co-sourced and outsourced")
    assert len(rects) == 2  # one box per line of the hyphenated phrase


def test_unplaceable_quote_falls_back_to_figures():
    figure = Figure(name="Total net sales", value=177866, text="177,866", scale=1e6, unit="USD", period="2017",
                    page=PAGE)
    image = render_evidence(PDF, PAGE, ["a sentence that is not on this page"], figures=[figure])
    assert image.used == "figures" and len(image.boxes) == 1
    assert_boxed(image, NET_SALES_Y, x_range=(559.4, 587.9))


def test_figure_by_its_bbox():
    figure = Figure(name="Net income", value=3033, text="3,033", bbox=(560.0, 393.4, 588.0, 403.7), page=PAGE)
    image = render_evidence(PDF, PAGE, [], figures=[figure])
    assert image.used == "figures" and image.boxes[0][0] == pytest.approx(558.0)
    assert_boxed(image, NET_INCOME_Y, x_range=(560.0, 588.0))


def test_figures_of_another_page_and_computed_figures_are_not_boxed():
    figures = [Figure(name="Gross margin", value=37.07, text="37.07%", unit="%", computed=True),
               Figure(name="Net income", value=3033, text="3,033", page=12)]
    image = render_evidence(PDF, PAGE, ["not here at all"], figures=figures)
    assert image.used == "none" and image.boxes == []
    assert highlight_mask(image.png).sum() == 0


def test_given_boxes_are_the_last_resort():
    image = render_evidence(PDF, PAGE, ["not here at all"], boxes=[(18.9, 160.5, 588.0, 170.9)])
    assert image.used == "boxes"
    assert_boxed(image, NET_SALES_Y)


def test_zoom_scales_the_image():
    image = render_evidence(PDF, PAGE, ["Net income  $  596  $  2,371  $  3,033"], zoom=1.0)
    pix = fitz.Pixmap(image.png)
    assert (pix.width, pix.height) == (612, 792)
    assert highlight_mask(image.png).sum() > 50


def test_the_file_is_not_changed():
    digest = hashlib.sha256(PDF.read_bytes()).hexdigest()
    render_evidence(PDF, PAGE, ["Net income  $  596  $  2,371  $  3,033"])
    assert hashlib.sha256(PDF.read_bytes()).hexdigest() == digest


def test_bad_page_and_bad_file(tmp_path):
    with pytest.raises(ValueError, match="pages 1-85"):
        render_evidence(PDF, 86, [])
    with pytest.raises(ValueError, match="pages 1-85"):
        render_evidence(PDF, 0, [])
    not_pdf = tmp_path / "x.pdf"
    not_pdf.write_text("hello")
    with pytest.raises(ParseError):
        render_evidence(not_pdf, 1, [])
