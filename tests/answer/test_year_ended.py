"""A year asked by its end date ("the year ended June 30, 2023") is the year, also where a fourth-quarter
release closes on that date and prints the quarter beside the twelve months."""

from __future__ import annotations

import pytest

from docqa.engine import Engine
from tests.filings import filing_pdf


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    engine = Engine.open(tmp_path_factory.mktemp("release") / "idx")
    engine.ingest([filing_pdf("AMCOR_2023Q4_EARNINGS.pdf")])
    yield engine
    engine.close()


def test_the_year_ended_a_date_is_the_twelve_months_of_a_fourth_quarter_release(release):
    # Amcor's release prints three and twelve months ended June 30, 2023 side by side: R&D (25) and (101)
    answer = release.ask("What were Amcor's research and development expenses for the year ended June 30, 2023?")
    assert answer.found and "$101 million" in answer.text, answer.text
    answer = release.ask("What were Amcor's research and development expenses for the three months ended June 30, 2023?")
    assert answer.found and "$25 million" in answer.text, answer.text
