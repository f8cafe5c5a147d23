"""The filing and period asked, over one company's 10-K and 10-Qs in one index: "the most recent
10-Q", a quarter, "as of <date>" each read the filing asked for and its own column, never the annual
report's year; a date no filing closes on is not found."""

from __future__ import annotations

import pytest

from docqa.engine import Engine
from tests.filings import filing_html

APPLE = ("aapl-10-k-2024-11-01.html", "aapl-10-q-2023-07-01.html", "aapl-10-q-2025-03-29-filing/aapl-20250329.htm")


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    engine = Engine.open(tmp_path_factory.mktemp("apple") / "idx")
    report = engine.ingest([filing_html(name) for name in APPLE])
    assert [f.status for f in report.files] == ["indexed"] * 3, report
    return engine


def _cited(answer) -> set[str]:
    return {c.document for c in answer.citations}


def test_the_most_recent_10q_is_the_latest_quarterly_filing_not_the_annual_report(engine):
    answer = engine.ask("What was Apple's total net sales in its most recent 10-Q?")
    assert answer.found, answer.reason
    assert _cited(answer) == {"aapl-20250329.htm"}
    assert "Q2 fiscal 2025" in answer.text


def test_a_balance_as_of_a_date_reads_the_filing_that_closes_on_it(engine):
    answer = engine.ask("What were Apple's total assets as of July 1, 2023?")
    assert answer.found, answer.reason
    assert _cited(answer) == {"aapl-10-q-2023-07-01.html"}


def test_a_quarter_named_reads_that_quarters_filing(engine):
    answer = engine.ask("What was Apple's net income in the third quarter of fiscal 2023?")
    assert answer.found, answer.reason
    assert _cited(answer) == {"aapl-10-q-2023-07-01.html"}
    assert "Q3 fiscal 2023" in answer.text


def test_a_date_after_every_filing_is_not_found(engine):
    answer = engine.ask("What were Apple's total assets as of June 27, 2026?")
    assert not answer.found
    assert "2026-06-27" in answer.reason


def test_the_year_to_date_is_read_from_its_own_column_not_the_quarters(engine):
    quarter = engine.ask("What was Apple's net income for the three months ended July 1, 2023?")
    to_date = engine.ask("What was Apple's net income for the nine months ended July 1, 2023?")
    assert quarter.found and to_date.found, (quarter.reason, to_date.reason)
    assert _cited(quarter) == _cited(to_date) == {"aapl-10-q-2023-07-01.html"}
    assert quarter.figures[0].value < to_date.figures[0].value  # nine months hold more than one quarter
    assert "nine months to Q3 fiscal 2023" in to_date.text


@pytest.mark.parametrize("question, months", [
    ("What was revenue for the six months ended June 30, 2023?", 6),
    ("What was net income in the first nine months of fiscal 2023?", 9),
    ("What was H1 2024 revenue?", 6),
    ("What was operating income year to date as of the second quarter?", 0),
    ("What was revenue in the second quarter of 2023?", None),
    ("What was revenue for the three months ended June 30, 2023?", None),
])
def test_year_to_date_slot(question, months):
    from docqa.plan import build_plan

    assert build_plan(question, []).ytd_months == months
