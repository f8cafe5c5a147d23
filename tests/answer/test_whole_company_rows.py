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


def test_a_noun_asked_of_a_line_item_is_no_word_of_its_balance():
    from docqa.answer.figures.reading.line_item_words import qualifiers
    from docqa.finance.lexicon import load_lexicon

    from docqa.plan.measures import nouns_of

    def words(question: str, key: str) -> list[str]:
        m = next(m for m in load_lexicon().match(question) if m.key == key)
        return qualifiers(question, m, frozenset(), dict(nouns_of(question, (m,))).get(m.span))

    # Swiss Water 2022: "an impairment of plant and equipment" is the impairment, not the PP&E balance
    assert words("How large an impairment of plant and equipment did Swiss Water record in 2022?", "ppe_net") == ["impairment"]
    # ... while the words that only measure a line ask the line
    assert words("What was the amount of revenue in 2022?", "revenue") == []
    assert words("What was the balance of total assets at year end?", "total_assets") == []


def test_a_roll_forwards_balance_is_read_at_the_year_asked_in_the_segments_column():
    # Amcor's 2023 10-K, note 10: goodwill by reportable segment, segments across, balances by date down.
    header = ("Flexibles Segment", "Rigid Packaging Segment", "Total")
    columns = tuple(Column(index=k, header=h, fiscal_year=2023, period="year", months=12, x0=k, x1=k + 1)
                    for k, h in enumerate(header))

    def row(label: str, *values: float, y: float) -> Row:
        return Row(label=label, cells=tuple(Cell(value=v, raw=f"{v:,.0f}", column=k, bbox=BOX) for k, v in enumerate(values)),
                   bbox=(0.0, y, 1.0, y + 0.01), indent=0)

    table = StatementTable(page=72, title="Note 10 - Goodwill and Other Intangible Assets", statement=None,
                           unit="millions", columns=columns, bbox=BOX,
                           rows=(row("Balance as of June 30, 2022", 4307, 978, 5285, y=0.1),
                                 row("Acquisitions and acquisition adjustments", 98, 0, 98, y=0.2),
                                 row("Balance as of June 30, 2023", 4391, 975, 5366, y=0.3)))
    source = Source("AMCOR_2023_10K.pdf", "a", [table], {})
    got = RowMeasure("goodwill Rigid Packaging segment").evaluate([source], Period(2023))
    assert got is not None and got.value == 975   # not the opening balance (978), printed first


def test_the_verb_a_did_question_asks_with_is_no_word_of_the_line():
    from docqa.answer.figures.reading.line_item_words import leaf_text
    from docqa.plan.measures import without_asked_verb

    def line(question: str, words: frozenset[str] = frozenset()) -> str:
        return leaf_text(without_asked_verb(question), words)

    assert line("How much operating income did 3M's Safety and Industrial segment make in 2022?",
                frozenset({"3m"})) == "operating income Safety and Industrial segment"
    assert line("What net sales did Amazon attribute to Germany for 2019?", frozenset({"amazon"})) == "net sales Germany"
    # an object after the verb is the line's own word
    assert "shares" in line("How much did the company spend repurchasing shares in fiscal 2018?")
