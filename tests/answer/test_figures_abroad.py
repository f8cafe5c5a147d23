"""Figures asked of filings nobody tuned on (practice set): the company the question names and not
another that shares its short name, the group's bottom line under IFRS wording, and no stand-in row
that is another measure ("Revenue Reserves" is no revenue).

Pages cut from the practice PDFs (cover, auditor's report, statements), so the index builds in
seconds; the cut keeps what the filer's name and periods are read from.
"""

from __future__ import annotations

import pytest

from tests.filings import cut_filing

PAGES = {
    "0c0faea14d108e1617f2d6d2a7c1aae04eb88fe0.pdf": (1, 2, 3, 31, 32, 33, 34),   # Odyssey Gold Ltd
    "31e16caf2a6d45fb9cc41fb158b49933df4895f7.pdf": (1, 2, 3, 4, 5, 8),          # Odyssey Group Holdings, Inc.
    "84749ef5c2bbf2a302b6614f31727a95bf29f309.pdf": (1, 2, 3, 32, 39, 40),          # Baker Steel Resources Trust
    "e2850fff8d9dee77f3a6520d0b1aba46adddc2c0.pdf": (1, 2, 3, 14, 15, 16),       # Benjamin Hornigold Ltd
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    from docqa import Engine

    folder = tmp_path_factory.mktemp("abroad-pdfs")
    pdfs = []
    for name, pages in PAGES.items():
        pdfs.append(cut_filing(name, pages, folder / name))
    engine = Engine.open(tmp_path_factory.mktemp("abroad-index"), dense=False)
    engine.ingest(pdfs)
    # The filers as the metadata reads them from the cut pages (asserted: without them nothing below means anything).
    companies = {(d.meta.company or "").casefold() for d in engine.documents()}
    assert {"odyssey gold ltd", "odyssey group holdings, inc.", "baker steel resources trust limited"} <= companies
    yield engine
    engine.close()


def _source_of(answer) -> set[str]:
    return {c.document for c in answer.citations}


def test_two_filers_called_odyssey_answer_for_the_one_named(engine):
    gold = engine.ask("What were Odyssey Gold Limited's total assets at the end of fiscal 2022?")
    assert gold.found and _source_of(gold) == {"0c0faea14d108e1617f2d6d2a7c1aae04eb88fe0.pdf"}
    assert "12,778,147" in gold.text
    group = engine.ask("What was Odyssey Group Holdings, Inc.'s net cash from operating activities in 2022?")
    assert group.found and _source_of(group) == {"31e16caf2a6d45fb9cc41fb158b49933df4895f7.pdf"}


def test_an_ifrs_bottom_line_is_net_income(engine):
    answer = engine.ask("What was Benjamin Hornigold's net loss for fiscal 2022?")
    assert answer.found and "1,239,019" in answer.text
    assert "investment activities" not in " ".join(c.quote for c in answer.citations)


def test_a_reserve_named_revenue_is_no_revenue(engine):
    answer = engine.ask("What was Baker Steel Resources Trust Limited's revenue in 2022?")
    # Neither the statement row "Revenue Reserves" nor the note's sentence quoting them answers it.
    assert answer.verification in ("not_found", "passages"), answer.text
    assert not answer.figures
