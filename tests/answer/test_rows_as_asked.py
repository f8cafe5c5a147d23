"""Rows read as the question asks them: every word asked printed around the row; a roll-forward's
balance of the day asked in the column of the part asked; a statement's line before a segment's row
printed in the question's words; the words naming the line, not the company, the date or a verb."""

from __future__ import annotations

from docqa.answer.figures.reading.line_item_words import leaf_text, line_words
from docqa.answer.figures.reading.measures import MetricMeasure
from docqa.answer.figures.reading.printed_rows import PrintedAsAsked, RowMeasure
from docqa.answer.figures.reading.sources import Source
from docqa.finance.lexicon import load_lexicon
from docqa.finance.periods import FiscalCalendar, Period
from docqa.finance.rowlookup import score_row
from docqa.finance.tables import Cell, Column, Row, StatementTable
from docqa.plan import build_plan
from docqa.types import StatementKind

BOX = (0.0, 0.0, 1.0, 1.0)


def _row(label: str, *values: float, section: str | None = None) -> Row:
    cells = tuple(Cell(value=v, raw=f"{v:,.0f}", column=k, bbox=BOX) for k, v in enumerate(values))
    return Row(label=label, section=section, cells=cells, bbox=BOX, indent=0)


def _column(k: int, header: str, year: int | None = None) -> Column:
    return Column(index=k, header=header, fiscal_year=year, period="year" if year else None, x0=k, x1=k + 1)


def _table(title: str, columns, rows, page=1, statement=None) -> StatementTable:
    return StatementTable(page=page, title=title, statement=statement, unit="millions", columns=tuple(columns),
                          rows=tuple(rows), bbox=BOX)


def test_a_word_asked_that_nothing_around_the_row_prints_rules_the_row_out():
    # McDonald's revenue by segment: "International Operated Markets 11,297.0" is no goodwill
    revenue = _table("Segment and Geographic Information", [_column(0, "2022", 2022)],
                     [_row("International Operated Markets", 11297.0, section="Revenues")])
    assert score_row("goodwill international operated markets segment", revenue.rows[0], revenue) == 0.0
    assert score_row("revenues international operated markets segment", revenue.rows[0], revenue) > 0.9


def test_a_roll_forward_by_part_reads_the_balance_of_the_day_asked_in_the_parts_column():
    # Amcor's goodwill by segment: the columns are parts, the rows dated balances
    columns = [_column(0, "Flexibles Segment"), _column(1, "Rigid Packaging Segment"), _column(2, "Total")]
    rows = [_row("Balance as of June 30, 2022", 4307, 978, 5285), _row("Foreign currency translation", 16, -3, 13),
            _row("Balance as of June 30, 2023", 4391, 975, 5366)]
    table = _table("Note 10 - Goodwill and Other Intangible Assets", columns, rows)
    source = Source("AMCOR_2023_10K.pdf", "a", [table], {}, calendar=FiscalCalendar.from_period_end("2023-06-30", 2023))
    rigid = RowMeasure("Rigid Packaging segment goodwill").evaluate([source], Period(2023))
    assert rigid is not None and rigid.value == 975
    assert RowMeasure("goodwill").evaluate([source], Period(2023)).value == 5366
    assert RowMeasure("goodwill").evaluate([source], Period(2022)).value == 5285
    assert RowMeasure("goodwill").evaluate([source], Period(2021)) is None


def test_the_statements_line_before_a_segments_row_printed_in_the_questions_words():
    # Best Buy: "SG&A 638" in the International segment's table of the MD&A; the income statement
    # prints "Selling, general and administrative expenses 7,970"
    segment = _table("International Segment Performance Summary", [_column(0, "2023", 2023)], [_row("SG&A", 638)])
    income = _table("Consolidated Statements of Earnings", [_column(0, "2023", 2023)],
                    [_row("Selling, general and administrative expenses", 7970)], page=40, statement=StatementKind.INCOME)
    source = Source("BESTBUY_2023_10K.pdf", "b", [income, segment], {})
    sga = load_lexicon().metric("sga")
    asked = PrintedAsAsked(RowMeasure("SG&A", asked="SG&A", stands_for=sga, exact=True), MetricMeasure(sga))
    assert asked.evaluate([source], Period(2023)).value == 7970
    # a row printed in the question's words on the statement itself is the one asked
    boeing = _table("Consolidated Statements of Operations", [_column(0, "2022", 2022)],
                    [_row("Cost of products", 51000), _row("Cost of services", 9000), _row("Total costs", 60000)],
                    statement=StatementKind.INCOME)
    cogs = load_lexicon().metric("cost_of_revenue")
    services = PrintedAsAsked(RowMeasure("cost of services", stands_for=cogs, exact=True), MetricMeasure(cogs))
    assert services.evaluate([Source("BOEING.pdf", "x", [boeing], {})], Period(2022)).value == 9000


def test_a_verb_tying_the_item_to_a_place_is_left_out_unless_a_label_prints_it():
    table = _table("Goodwill by reportable segment", [_column(0, "2022", 2022)], [_row("Digital Experience", 8500)])
    source = Source("ADOBE_2022_10K.pdf", "a", [table], {})
    plan = build_plan("How much goodwill sat in Adobe's Digital Experience segment at the end of fiscal 2022?", [])
    assert plan.linking == ("sat",)
    assert "sat" not in line_words(plan, [source], frozenset({"adobe"})).split()
    printed = _table("Amounts payable to suppliers", [_column(0, "2022", 2022)], [_row("Interest payable to banks", 3)])
    plan = build_plan("What was interest payable to banks in 2022?", [])
    kept = line_words(plan, [Source("X.pdf", "x", [printed], {})], frozenset())
    assert plan.linking == () or "payable" in kept.split()


def test_a_day_written_after_its_month_is_no_word_of_the_line():
    assert leaf_text("Adobe property and equipment net in APAC as of dec 2 2022", frozenset({"adobe"})) == \
        "property and equipment net APAC"
    assert leaf_text("revenue in May 2023") == "revenue"


def test_a_share_printed_as_a_percentage_is_read_and_never_divided_by_an_amount():
    # NeoGenomics' clinical revenue by payer: "Commercial insurance payers 17 %", revenue in thousands
    from docqa.answer.figures.reading.asked import asked_measures
    from docqa.answer.figures.reading.composition import compose_measures

    payers = _table("Clinical revenue by payer", [_column(0, "2022", 2022)],
                    [Row(label="Commercial insurance payers", cells=(Cell(value=17, raw="17 %", column=0, bbox=BOX),),
                         bbox=BOX, indent=0)])
    income = _table("Consolidated Statements of Operations", [_column(0, "2022", 2022)],
                    [_row("Net clinical revenue", 509728)], statement=StatementKind.INCOME)
    source = Source("NEO_10K.pdf", "n", [income, payers], {})
    plan = build_plan("What share of NeoGenomics' net clinical revenue in 2022 came from commercial insurance payers?", [])
    asked = asked_measures(plan.reading)
    compose_measures(plan, asked, frozenset({"neogenomics"}), leaf_text(plan.line_clause, frozenset({"neogenomics"})))
    values = [v for m in asked.measures if (v := m.evaluate([source], Period(2022))) is not None]
    assert values and values[0].value == 17 and values[0].kind == "percent_points"


def test_the_answers_label_states_every_word_the_row_lacks():
    from docqa.finance.rowlookup import words_beyond_label

    row = _row("Balance as of June 30, 2023", 975)
    assert words_beyond_label("Rigid Packaging segment goodwill", row) == "Rigid Packaging segment goodwill"
    assert words_beyond_label("goodwill Digital Experience segment", _row("Digital Experience", 8500)) == "goodwill"


def test_where_the_question_points_and_a_numeric_date_are_no_words_of_the_line():
    assert leaf_text("From the tax note, Walmart's total current tax provision for fiscal 2020",
                     frozenset({"walmart"})) == "total current tax provision"
    assert leaf_text("AES's noncurrent operating lease liabilities as of 12/31/2021", frozenset({"aes"})) == \
        "noncurrent operating lease liabilities"


def test_a_balance_struck_on_a_day_is_that_balance_whatever_the_day():
    table = _table("Goodwill as allocated by segment of business", [_column(0, "MedTech"), _column(1, "Total")],
                   [_row("Goodwill at January 2, 2022", 14856, 35246), _row("Goodwill at January 1, 2023", 25863, 45231)])
    assert score_row("goodwill MedTech segment", table.rows[1], table) >= 0.95
    source = Source("JNJ.pdf", "j", [table], {}, calendar=FiscalCalendar.from_period_end("2023-01-01", 2022))
    assert RowMeasure("goodwill").evaluate([source], Period(2022)).value == 45231


def test_the_fiscal_year_and_politeness_are_no_words_of_the_line():
    assert leaf_text("Costco FY2021 total revenue of its United States Operations segment", frozenset({"costco"})) == \
        "total revenue United States Operations segment"
    assert leaf_text("Canadian Operations operating income for fiscal 2021 at Costco, please.", frozenset({"costco"})) == \
        "Canadian Operations operating income"


def test_a_phrase_of_measure_words_only_still_names_its_row():
    # Creative Media & Community Trust: "Total segment net operating income" under the lending block
    table = _table("The net operating income (loss) of the Company's segments", [_column(0, "2022", 2022)],
                   [_row("Segment net operating income—lending", 6380, section="Lending:"),
                    _row("Total segment net operating income", 46824, section="Lending:")])
    got = RowMeasure("total segment net operating income").evaluate([Source("CMCT.pdf", "c", [table], {})], Period(2022))
    assert got is not None and got.value == 46824


def test_rev_is_revenue_in_a_tables_title():
    table = _table("The following summarizes revenues by geographic area:", [_column(0, "2021", 2021)],
                   [_row("Developed Europe", 18336), _row("Emerging Markets", 20701), _row("Revenues", 81288)])
    got = RowMeasure("rev Developed Europe").evaluate([Source("PFE.pdf", "p", [table], {})], Period(2021))
    assert got is not None and got.value == 18336


def test_a_line_printed_as_asked_reads_the_words_in_their_order():
    # "cost of services" asked: "Services cost of ..." or "Other cost of services" is not it
    income = _table("Statements of Operations", [_column(0, "2022", 2022)],
                    [_row("Other cost of services", 10), _row("Cost of products", 51000), _row("Cost of services", 9000)],
                    statement=StatementKind.INCOME)
    cogs = load_lexicon().metric("cost_of_revenue")
    services = PrintedAsAsked(RowMeasure("cost of services", stands_for=cogs, exact=True), MetricMeasure(cogs))
    assert services.evaluate([Source("BOEING.pdf", "x", [income], {})], Period(2022)).value == 9000


def test_words_after_the_item_that_narrow_it_are_its_qualifiers():
    from docqa.answer.figures.reading.line_item_words import qualifiers
    from docqa.plan.measures import narrowed_by

    def narrowed(question: str) -> list[str]:
        (m,) = [m for m in load_lexicon().match(question) if m.key == "capex"]
        return qualifiers(question, m, frozenset({"corn"}), narrowed=dict(narrowed_by(question, (m,))).get(m.span))

    # "for pollution control", "required under binding contractual obligations": a part of capital expenditures
    assert {"pollution", "control"} <= set(narrowed("What were Corning's capital expenditures for pollution control in 2021?"))
    assert "binding" in set(narrowed("What capital expenditures were required under legal and binding contractual obligations?"))
    # the year, the company or the frame after "for" narrow nothing
    assert narrowed("What were Corning's capital expenditures for fiscal 2021?") == []
    assert narrowed("What were the capital expenditures for Corning in 2021?") == []
    assert narrowed("What were capital expenditures for the year?") == []
    assert narrowed("Were capital expenditures for the twelve months ended June 30, 2023 higher?") == []
    assert narrowed("Did capital expenditures for the year to 31 March 2022 rise compared with the year before?") == []


def _first_value(question: str, source: Source, company: str, year: int):
    from docqa.answer.figures.reading.asked import asked_measures
    from docqa.answer.figures.reading.composition import compose_measures

    plan = build_plan(question, [])
    asked = asked_measures(plan.reading)
    words = frozenset({company})
    compose_measures(plan, asked, words, leaf_text(plan.line_clause or plan.main_clause, words))
    return next((v for m in asked.measures if (v := m.evaluate([source], Period(year))) is not None), None)


def test_words_that_run_on_from_a_line_item_name_another_line():
    # Nike FY2023: the cash-flow statement's "Dividends paid" and the accrued liabilities note's
    # "Dividends payable"; Verizon's debt note: "Long-term debt maturing within one year" beside the
    # balance sheet's long-term debt; Corning: "Accruals for capital expenditures" among non-cash items
    cash = _table("Consolidated Statements of Cash Flows", [_column(0, "2023", 2023)],
                  [_row("Dividends paid", -2012), _row("Additions to property, plant and equipment", -969)],
                  page=62, statement=StatementKind.CASH_FLOW)
    balance = _table("Consolidated Balance Sheets", [_column(0, "2023", 2023)],
                     [_row("Long-term debt", 8927)], page=60, statement=StatementKind.BALANCE)
    note = _table("Accrued liabilities", [_column(0, "2023", 2023)],
                  [_row("Dividends payable", 529), _row("Long-term debt maturing within one year", 500),
                   _row("Accruals for capital expenditures", 357)], page=71)
    source = Source("NIKE_2023_10K.pdf", "n", [balance, cash, note], {})
    assert _first_value("What was Nike's dividends payable in fiscal 2023?", source, "nike", 2023).value == 529
    assert _first_value("What was Nike's long-term debt maturing within one year in fiscal 2023?",
                        source, "nike", 2023).value == 500
    assert _first_value("What were Nike's accruals for capital expenditures in fiscal 2023?", source, "nike", 2023).value == 357
    # the item alone, or with the question's own frame around it, is still the statement's line
    assert _first_value("How much did Nike pay in dividends in fiscal 2023?", source, "nike", 2023).value == 2012
    assert _first_value("What was Nike's long-term debt at the end of fiscal 2023, in USD millions?",
                        source, "nike", 2023).value == 8927
    # words naming another line that no row prints: no figure, never the item's
    assert _first_value("What were Nike's dividends receivable from affiliates in fiscal 2023?", source, "nike", 2023) is None


def test_a_bracketed_aside_printed_over_a_row_places_the_item_there():
    # Nike FY2023: the balance sheet's "Property, plant and equipment, net 5,081" and, in the income tax
    # note, "Property, plant and equipment (276)" under "Deferred tax liabilities:"
    balance = _table("Consolidated Balance Sheets", [_column(0, "2023", 2023)],
                     [_row("Property, plant and equipment, net", 5081)], page=61, statement=StatementKind.BALANCE)
    taxes = _table("Deferred tax assets and liabilities", [_column(0, "2023", 2023)],
                   [_row("Inventories", 110, section="Deferred tax assets:"),
                    _row("Property, plant and equipment", -276, section="Deferred tax liabilities:")], page=77)
    source = Source("NIKE_2023_10K.pdf", "n", [balance, taxes], {})
    asked = "What was Nike's property, plant and equipment (deferred tax liabilities) in fiscal 2023?"
    assert _first_value(asked, source, "nike", 2023).value == -276
    # an aside no row prints only restates the item: the statement's line
    restated = "What was Nike's property, plant and equipment (fixed assets) in fiscal 2023?"
    assert _first_value(restated, source, "nike", 2023).value == 5081
