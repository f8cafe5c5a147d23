"""The whole company asked: a row of a table by segment is read after the company's own tables."""

from __future__ import annotations

from docqa.answer.figures.reading.printed_rows import RowMeasure
from docqa.answer.figures.reading.sources import Source
from docqa.finance.periods import Period
from docqa.plan.measures import gross_of
from docqa.finance.tables import Cell, Column, Row, StatementTable
from docqa.types import StatementKind

BOX = (0.0, 0.0, 1.0, 1.0)
YEAR = Column(index=0, header="Year Ended December 31, 2020", fiscal_year=2020, period="year",
              period_end="2020-12-31", months=12, x0=0, x1=1)


def _table(title: str, label: str, value: float, page: int, statement=None, section=None) -> StatementTable:
    row = Row(label=label, section=section, cells=(Cell(value=value, raw=f"{value:,.0f}", column=0, bbox=BOX),), bbox=BOX, indent=0)
    return StatementTable(page=page, title=title, statement=statement, unit="thousands", columns=(YEAR,),
                          rows=(row,), bbox=BOX)


def test_a_segments_row_printed_as_asked_is_not_the_companys_figure():
    by_segment = _table("Net Revenues by Segment", "Casino revenue", 728254, 44)
    income = _table("Consolidated Statements of Operations", "Casino", 2871720, 65, StatementKind.INCOME, "Revenues")
    source = Source("MGM_10K.pdf", "m", [by_segment, income], {})
    got = RowMeasure("casino revenues", kinds=frozenset({"amount"})).evaluate([source], Period(2020))
    assert got is not None and got.value == 2871720
    # A part asked (a scoped question sets the source's part): the segment's table is read as it ranks.
    part = Source("MGM_10K.pdf", "m", [by_segment, income], {}, part=lambda c: True)
    assert RowMeasure("casino revenues", kinds=frozenset({"amount"})).evaluate([part], Period(2020)).value == 728254


def test_an_amount_asked_before_a_deduction_is_not_the_line_net_of_it():
    # EPI Holdings 2022 annual report: "Sales of petroleum, net of royalties 30,932" in the income
    # statement's notes column, "Sales of petroleum 39,821 / Less: Royalties (8,889)" in its revenue note.
    net = _table("Consolidated Statement of Profit or Loss", "Sales of petroleum, net of royalties", 30932, 86,
                 StatementKind.INCOME)
    gross = _table("5. Revenue", "Sales of petroleum", 39821, 122)
    source = Source("EPI_2022.pdf", "e", [net, gross], {})
    asked = gross_of("What were EPI's sales of petroleum before deducting royalties in 2020?")
    assert [g.deducted for g in asked] == ["royalties"]
    got = RowMeasure("sales petroleum deducting royalties", gross_of=asked).evaluate([source], Period(2020))
    assert got is not None and got.value == 39821
    assert "before royalties" in got.label
    assert RowMeasure("sales petroleum net royalties").evaluate([source], Period(2020)).value == 30932


def test_the_line_item_words_leave_out_a_plural_owner_and_a_day_before_its_month():
    from docqa.answer.figures.reading.line_item_words import leaf_text

    text = "What were EPI Holdings' sales of petroleum for the year ended 31 December 2022"
    assert "31" not in leaf_text(text).split() and "Holdings" not in leaf_text(text)
    assert "petroleum" in leaf_text(text)


def test_a_legal_form_after_the_companys_name_is_no_word_of_the_line_item():
    from docqa.answer.figures.reading.line_item_words import leaf_text

    words = frozenset({"epi"})
    assert leaf_text("What non-current assets did EPI Holdings have in Canada", words) == "non-current assets Canada"
    assert "holdings" in leaf_text("What were the total holdings of bitcoin", words).lower()
