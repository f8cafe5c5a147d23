from pathlib import Path

import pytest

import fitz

from docqa.ingest.parse import ParseError, is_garbled, parse_pdf
from tests.conftest import SAMPLES, scanned_copy
from tests.filings import filing, filing_pages


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
    cut = filing("3M_2018_10K.pdf")
    parsed = parse_pdf(cut.path)
    page = parsed.pages[cut.index(60)]  # the cash-flow statement, page 60 of the filing
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


# --------------------------------------------------------------------------- garbled text layers (issue 10)

GARBLED = ("(,\x1c*+ &%* 2>DC C85B5 'A>GH $1C5A91;B 1=4 ->C9=7 .8H 494 A5359E5 1 =>C935 A571A49=7 C85 1E19;129;9CH >6 "
           "?A>GH <1C5A91;B >= C85 =F97HCFG 5B8 C: CFDCF5H9 !CJ9FB5B79 *FCDCG5@ @97H=CB =F97HCF (CA=B99G IFF9BH").split()
SHIFTED = ("=F97HCFG 5B8 C: H<9 CFDCF5H9 7CAACB GHC7? IB89F@M=B; 5K5F8G K=@@ 5779@9F5H9 CF 8=F97HCF "
           "J9GH98 CJ9F H<F99 MP5FG 9L97IH=J9 C::=79F =G H9FA=B5H98 K=H<CIH 75IG9").split()


@pytest.mark.parametrize("words", [GARBLED, SHIFTED])
def test_words_of_random_glyphs_are_garbled(words):
    assert is_garbled(words)


@pytest.mark.parametrize("text", [
    "Net sales increased 20% to $177.9 billion in 2017, compared with $136.0 billion in 2016, driven by growth in AWS.",
    "Le chiffre d'affaires du Groupe a progressé de 12 % pour atteindre 4,2 milliards d'euros au cours de l'exercice.",
    "Der Konzernumsatz stieg im Geschäftsjahr 2022 um 12 % auf 4,2 Mrd. Euro; das Ergebnis je Aktie betrug 1,20 Euro.",
    "Total assets  $  1,577  $  1,373  (1,420)  —  10-K  FY2022  Q3  3M  NYSE  GAAP  EBITDA  IFRS  HKFRS  £'000",
    "Purchases of property, plant and equipment (PP&E) ........ (1,577) (1,373) (1,420) . . . . . . . . . . . .",
])
def test_real_text_in_any_language_or_a_table_is_not_garbled(text):
    assert not is_garbled(text.split())


def test_short_text_is_not_judged():
    assert not is_garbled(["Annual", "Report", "2022"])
    assert not is_garbled([])


def _garbled_pdf(path: Path) -> Path:
    doc = fitz.open()
    page = doc.new_page()
    for i in range(0, len(SHIFTED), 6):
        page.insert_text((72, 72 + 14 * i), " ".join(SHIFTED[i : i + 6]), fontsize=10)
    doc.save(path)
    doc.close()
    return path


def test_a_garbled_page_is_flagged_not_indexed_without_ocr(tmp_path):
    parsed = parse_pdf(_garbled_pdf(tmp_path / "garbled.pdf"), ocr=False)
    page = parsed.pages[0]
    assert page.lines == () and page.no_text
    assert any("garbled text layer" in w for w in parsed.warnings)


def test_mongodb_report_text_layer_is_detected_as_garbled():
    with filing_pages("7792e23f8a40fb9461dbc26f417b0fb948f54f46.pdf") as page:
        flags = [is_garbled([w[4] for w in page(n).get_text("words")]) for n in range(4, 14)]
    assert len(flags) == 10 and all(flags)


def test_real_filing_pages_are_not_garbled():
    doc = fitz.open(SAMPLES / "AMAZON_2017_10K.pdf")
    try:
        assert not any(is_garbled([w[4] for w in page.get_text("words")]) for page in doc)
    finally:
        doc.close()


def test_bidirectional_marks_print_nothing_and_are_dropped_from_words():
    # Corning's 2020 geographic table prints its heading "Long-lived" over "\u200eassets (2)(3)": a word led
    # by the mark read as no word, and the column's heading lost "assets"
    from docqa.ingest.parse import _clean_words
    raw = [(0, 0, 10, 5, "Long-lived"), (0, 6, 10, 11, "\u200eassets"), (20, 6, 30, 11, "(2)(3)\u200f"),
           (40, 6, 50, 11, "\u202a3,597\u202c")]
    assert [w[4] for w in _clean_words(raw)] == ["Long-lived", "assets", "(2)(3)", "3,597"]
