"""docqa.stats: exact counts over the full text, and recognising the questions that want them."""

from __future__ import annotations

from pathlib import Path

import pytest

from docqa.stats import count_term, document_stats
from docqa.plan.statistic import stats_question

PAGES = [
    "Amazon Web Services (AWS) grew.\nAWS  offers cloud\ncomputing services.",
    "Free cash flow rose. FREE CASH\nFLOW is a non-GAAP measure; free-cash-flow is not.",
    "Our self-\nservice tools and self-service kiosks. The AWS\u2019s team. AWSome is not AWS.",
    "$  1,234  \u2014  Nothing here",
]


def test_page_and_word_counts():
    stats = document_stats(PAGES, "X.pdf", None)
    assert stats.document == "X.pdf" and stats.pages == 4
    # "$" and the dash are not words; "1,234" is.
    assert stats.words == 10 + 14 + 14 + 3
    assert stats.term is None and stats.count is None and stats.pages_with_term == ()


def test_term_whole_word_case_insensitive():
    stats = document_stats(PAGES, "X.pdf", "aws")
    # AWS twice on page 1; "AWS's" and "AWS" on page 3, but not "AWSome".
    assert stats.count == 4 and stats.pages_with_term == (1, 3) and stats.term == "aws"


def test_phrase_across_line_breaks_and_spacing():
    assert document_stats(PAGES, "X.pdf", "cloud computing").count == 1
    stats = document_stats(PAGES, "X.pdf", "free cash flow")
    assert stats.count == 2 and stats.pages_with_term == (2,)  # the hyphenated form is another term


def test_hyphenated_term_broken_at_a_line_end():
    assert count_term(PAGES[2], "self-service") == 2


def test_quoted_term_and_curly_quotes():
    assert document_stats(PAGES, "X.pdf", "\u201cAWS\u201d").count == 4
    assert document_stats(PAGES, "X.pdf", "'cloud computing'").term == "cloud computing"


def test_absent_term():
    stats = document_stats(PAGES, "X.pdf", "blockchain")
    assert stats.count == 0 and stats.pages_with_term == ()


def test_regex_characters_are_literal():
    assert count_term("R&D spending (R&D) and U.S. sales; US.", "R&D") == 2
    assert count_term("R&D spending (R&D) and U.S. sales; US.", "U.S.") == 1
    assert count_term("a.b axb", "a.b") == 1


def test_on_a_real_filing():
    fitz = pytest.importorskip("fitz")
    pdf = Path(__file__).resolve().parents[1] / "samples" / "AMAZON_2017_10K.pdf"
    with fitz.open(pdf) as doc:
        pages = [page.get_text() for page in doc]
    stats = document_stats(pages, pdf.name, "AWS")
    assert stats.pages == 85 and stats.words > 30_000
    assert stats.count >= len(stats.pages_with_term) > 5
    assert all(1 <= p <= 85 for p in stats.pages_with_term)
    assert count_term(pages[stats.pages_with_term[0] - 1], "aws") >= 1


@pytest.mark.parametrize(
    "question, expected",
    [
        ("How many pages does Amazon's 2017 10-K have?", ("pages", None)),
        ("What is the page count of the Netflix 10-K?", ("pages", None)),
        ("How many words are in the 10-K?", ("words", None)),
        ("How many times is AWS mentioned in Amazon's 2017 10-K?", ("count", "AWS")),
        ("How many times does the word 'risk' appear in the 2017 annual report?", ("count", "risk")),
        ("How many times does Amazon's 10-K mention Prime?", ("count", "Prime")),
        ("How many times does Amazon mention AWS in the 10-K?", ("count", "AWS")),
        ("How often is \u201ccloud computing\u201d mentioned?", ("count", "cloud computing")),
        ("How many mentions of free cash flow are there in the 10-K?", ("count", "free cash flow")),
        ('Count the occurrences of "inventory" in the filing', ("count", "inventory")),
        ('number of times "Prime" appears', ("count", "Prime")),
        ("How many pages mention AWS?", ("count", "AWS")),
        ("What was revenue in 2017?", None),
        ("How many times did revenue grow in 2017?", None),
        ("How many employees does Amazon have?", None),
        ("How many segments does Amazon report?", None),
    ],
)
def test_stats_question(question, expected):
    assert stats_question(question) == expected
