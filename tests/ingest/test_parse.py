from pathlib import Path

import pytest

from docqa.ingest.parse import ParseError, parse_pdf
from tests.conftest import SAMPLES, scanned_copy, shared_pdf


@pytest.fixture(scope="module")
def amazon():
    return parse_pdf(SAMPLES / "AMAZON_2017_10K.pdf")


def _find(pages, needle):
    return [(p.number, line) for p in pages for line in p.lines if needle in line.text]


def test_statement_row_keeps_label_and_figures_on_one_line(amazon):
    rows = _find(amazon.pages, "Total net sales")
    assert any("177,866" in line.text and "135,987" in line.text for _, line in rows), rows[:3]
    row = next(line for _, line in rows if "177,866" in line.text)
    assert row.is_table
    assert "  " in row.text  # cells stay visibly apart
    assert row.words and all(w.bbox[2] > w.bbox[0] for w in row.words)


def test_pages_are_one_based_and_complete(amazon):
    assert [p.number for p in amazon.pages] == list(range(1, len(amazon.pages) + 1))
    assert amazon.pages[0].number == 1 and "FORM 10-K" in amazon.pages[0].text.upper()


def test_running_headers_and_page_numbers_are_dropped():
    parsed = parse_pdf(shared_pdf("3M_2018_10K.pdf"))
    page = parsed.pages[59]  # the cash-flow statement, page 60
    assert page.lines[0].text != "Table of Contents"
    assert "Purchases of property, plant and equipment (PP&E)  (1,577)  (1,373)  (1,420)" in page.text
    assert not any(l.text.strip().isdigit() for l in page.lines[-2:])


def test_dotted_leaders_are_removed(amazon):
    assert not any("....." in line.text for p in amazon.pages for line in p.lines)


@pytest.mark.parametrize("kind, reason", [
    ("not_pdf", "not a PDF"),
    ("corrupt", "corrupt"),
    ("encrypted", "password"),
    ("empty", "empty file"),
])
def test_bad_files_raise_a_reason(bad_files, kind, reason):
    with pytest.raises(ParseError, match=reason):
        parse_pdf(bad_files[kind])


def test_zero_page_pdf(bad_files):
    with pytest.raises(ParseError, match="no pages|corrupt"):
        parse_pdf(bad_files["zero_pages"])


def test_scanned_page_is_flagged_without_ocr(tmp_path):
    parsed = parse_pdf(scanned_copy(tmp_path, dpi=60), ocr=False)
    assert parsed.pages[0].no_text
    assert any("without a text layer" in w for w in parsed.warnings)
