"""Headings whose text layer splits words ("Cash Flow s", "LIQUIDI TY") read as printed; nothing else moves."""

import fitz
import pytest

from docqa.ingest.letterspacing import merge_fragments, merge_rows, narrow_gaps, page_vocabulary
from docqa.ingest.parse import _clean_words, _columns, _rows, parse_page
from docqa.types import Word
from tests.filings import filing_pages


@pytest.fixture(scope="module")
def three_m():
    """3M's 2018 10-K: its pages by their number in the filing."""
    with filing_pages("3M_2018_10K.pdf") as page:
        yield page


def _raw_rows(page: fitz.Page):
    """The page's rows as parse.py builds them, before the merge."""
    return _columns(_rows(_clean_words(page.get_text("words", sort=False))), page.rect.width)


def _text(row) -> str:
    return " ".join(w[4] for w in row)


@pytest.mark.parametrize("number, before, after", [
    (60, "Consolidated Statement of Cash Flow s", "Consolidated Statement of Cash Flows"),
    (43, "FINANCIAL CONDITION AND LIQUIDI TY", "FINANCIAL CONDITION AND LIQUIDITY"),
    (56, "Consolidated Statement of Incom e", "Consolidated Statement of Income"),
])
def test_split_heading_is_read_as_printed(three_m, number, before, after):
    raw = [_text(r) for r in _raw_rows(three_m(number))]
    assert before in raw  # PyMuPDF still splits it: the test is about our fix, not a changed library
    texts = [line.text for line in parse_page(three_m(number), number).lines]
    assert after in texts
    assert before not in texts


def test_joined_word_keeps_the_union_of_its_boxes(three_m):
    page = three_m(60)
    raw = next(r for r in _raw_rows(page) if _text(r).endswith("Flow s"))
    flow, s = raw[-2], raw[-1]
    line = next(l for l in parse_page(page, 60).lines if l.text == "Consolidated Statement of Cash Flows")
    assert line.words[-1].text == "Flows"
    assert line.words[-1].bbox == (flow[0], min(flow[1], s[1]), s[2], max(flow[3], s[3]))
    assert len(line.words) == len(raw) - 1


@pytest.mark.parametrize("number", [43, 60])
def test_only_the_heading_changes_on_its_page(three_m, number):
    """Every other row (prose paragraphs, statement rows with "$" and figures) is left as it was."""
    rows = _raw_rows(three_m(number))
    merged = merge_rows(rows)
    changed = [(_text(a), _text(b)) for a, b in zip(rows, merged) if a is not b]
    assert len(changed) == 1, changed
    assert len(merged) == len(rows)
    prose = [k for k, r in enumerate(rows) if len(r) >= 12 and all(w[4][0].isalpha() for w in r)]
    assert prose  # both pages hold paragraphs: each of their rows comes back untouched
    assert all(merged[k] is rows[k] for k in prose)
    texts = [line.text for line in parse_page(three_m(number), number).lines]
    if number == 60:
        assert "Purchases of property, plant and equipment (PP&E)  (1,577)  (1,373)  (1,420)" in texts


def test_gap_evidence_is_required_even_when_the_page_prints_the_join(three_m):
    """A row whose gaps are all alike stays as it is, whatever the vocabulary holds."""
    page = three_m(60)
    row = next(r for r in _raw_rows(page) if _text(r) == "Cash Flows from Operating Activities")
    words = [Word(text=w[4], bbox=w[:4]) for w in row]
    vocabulary = page_vocabulary(w[4] for r in _raw_rows(page) for w in r) | {"cashflows", "flowsfrom", "fromoperating"}
    assert merge_fragments(words, vocabulary) == tuple(words)


def test_kerned_space_before_a_capital_is_a_real_space():
    """Fonts kern the space before "A" to ~0.78 of its width: "Divestitures and Asset Sales" stays."""
    with filing_pages("CVSHEALTH_2022_10K.pdf") as pages:
        page = pages(148)
        rows = _raw_rows(page)
        assert any("and Asset" in _text(r) for r in rows)
        texts = [line.text for line in parse_page(page, 148).lines]
    assert any("Divestitures and Asset Sales" in t for t in texts)
    assert not any("andAsset" in t for t in texts)


def test_figures_and_dollar_signs_are_never_glued(three_m):
    """A narrow gap between "$" and a figure, or between figures, is not a broken word."""
    page = three_m(60)
    row = next(r for r in _raw_rows(page) if _text(r).startswith("Purchases of property"))
    words = [Word(text=w[4], bbox=w[:4]) for w in row]
    # pull every figure up against its left neighbour: the row's gaps now say "broken word"
    squeezed = [words[0]]
    for w in words[1:]:
        prev = squeezed[-1]
        if not w.text[0].isalpha():
            width = w.bbox[2] - w.bbox[0]
            w = Word(text=w.text, bbox=(prev.bbox[2] + 0.3, w.bbox[1], prev.bbox[2] + 0.3 + width, w.bbox[3]))
        squeezed.append(w)
    vocabulary = {"(pp&e)(1,577)", "(1,577)(1,373)", "(pp&e)", "equipment(pp&e)"}
    assert merge_fragments(squeezed, vocabulary) == tuple(squeezed)


def test_a_narrow_gap_alone_does_not_join_words_the_page_never_prints(three_m):
    """The page is the dictionary: a narrow gap between two real words ("Cash Flow") stays a space."""
    page = three_m(60)
    row = next(r for r in _raw_rows(page) if _text(r).endswith("Flow s"))
    words = [Word(text=w[4], bbox=w[:4]) for w in row]
    # "Cash" pushed against "Flow": narrow, but "cashflow" is not a word on the page
    cash, flow = words[-3], words[-2]
    shift = flow.bbox[0] - cash.bbox[2] - 0.5
    words[-3] = Word(text=cash.text, bbox=(cash.bbox[0] + shift, cash.bbox[1], cash.bbox[2] + shift, cash.bbox[3]))
    vocabulary = page_vocabulary(w[4] for r in _raw_rows(page) for w in r)
    assert "cashflow" not in vocabulary
    merged = [w.text for w in merge_fragments(words, vocabulary)]
    assert "CashFlow" not in merged and "CashFlows" not in merged
    assert merged[-1] == "Flows"


@pytest.mark.parametrize("name, number, words", [
    ("3M_2022_10K.pdf", 62, "There were no divestitures"),
    ("GENERALMILLS_2022_10K.pdf", 18, "RESULTS OF OPERATIONS"),
])
def test_narrow_real_space_stays_when_the_page_never_prints_the_join(name, number, words):
    """These rows have a gap as narrow as a broken word's ("were^no", "OF^OPERATIONS"): only the
    page's vocabulary ("wereno" is printed nowhere) keeps them apart."""
    with filing_pages(name) as pages:
        page = pages(number)
        row = next(r for r in _raw_rows(page) if words in _text(r))
        assert narrow_gaps(row)  # the gap evidence alone would join them
        texts = [line.text for line in parse_page(page, number).lines]
    assert any(words in t for t in texts)


def test_a_sentence_opening_with_a_capital_letter_word_stays_apart():
    """"A summary" has a narrow (kerned) space after "A": a lone capital before a lower-case word is
    a sentence opening, even were the join printed on the page."""
    with filing_pages("ADOBE_2015_10K.pdf") as pages:
        rows = _raw_rows(pages(51))
    row = next(r for r in rows if _text(r).startswith("A summary of our cash flows"))
    assert narrow_gaps(row) and narrow_gaps(row)[0] == 0  # the gap after "A" reads as a break
    words = [Word(text=w[4], bbox=w[:4]) for w in row]
    vocabulary = page_vocabulary(w[4] for r in rows for w in r) | {"asummary"}
    assert merge_fragments(words, vocabulary) == tuple(words)
