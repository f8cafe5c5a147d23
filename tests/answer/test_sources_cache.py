"""The tables of a filing kept from one question to the next: every question reads every table, whichever
tables an earlier question read first (answers once depended on the order questions were asked)."""

from __future__ import annotations

import json
from pathlib import Path

from docqa.answer.figures.reading.sources import Source, all_tables
from docqa.finance.tables import StatementTable
from docqa.store.base import StoredPage

FIXTURES = Path(__file__).resolve().parent.parent / "finance" / "fixtures"


def _tables(name: str) -> list[StatementTable]:
    return [StatementTable.model_validate(t) for t in json.loads((FIXTURES / f"{name}.json").read_text())["tables"]]


def test_a_table_an_earlier_question_read_first_is_still_read_by_the_next():
    first, second = _tables("cvs_pharmacy_services_2018")[0], _tables("mcdonalds_franchised_sales_2022")[0]
    pages = {first.page: StoredPage(document_id="doc-cache", number=first.page, width=612, height=792, tables=[first]),
             second.page: StoredPage(document_id="doc-cache", number=second.page, width=612, height=792, tables=[second])}
    # the first question reads one table first (its evidence page); the next question, none
    earlier = Source("X_10K.pdf", "doc-cache", [first], pages, fiscal_year=2018)
    later = Source("X_10K.pdf", "doc-cache", [], pages, fiscal_year=2018)
    assert {t.page for t in all_tables(earlier)} == {first.page, second.page}
    assert {t.page for t in all_tables(later)} == {first.page, second.page}
    # and a table read first is not read twice
    assert len(all_tables(earlier)) == 2
