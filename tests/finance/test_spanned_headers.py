"""Column headings printed once over several columns, and what a table says of itself without a title:
a year centred over the columns of parts, a year over groups of three, the names of the parts under a
unit's stub at a quarter of the page, a lead-in sentence over the periods, a quarterly results note's
"1st 2nd 3rd 4th Fiscal Year", a total printed without the word "Total". Real pages where the filings
print them, synthetic pages for one rule each."""

from __future__ import annotations

from docqa.finance.periods import Period, header_quarter
from docqa.finance.rowlookup import find_rows, measure_words_missing, score_row, sum_row
from docqa.finance.statements import read_tables
from docqa.finance.tables import Column, Row, StatementTable, with_centred_years, with_spanning_year

from .conftest import filing_page, line, num, page


def _with_row(tables, label):
    return next(t for t in tables if any(r.label == label for r in t.rows))


def test_a_year_centred_over_the_parts_dates_every_column():
    # Lockheed Martin 2022, p. 79: "Aeronautics | MFC | 2022 RMS | Space | Total" (the year over the middle)
    tables = [with_spanning_year(t) for t in read_tables(filing_page("LOCKHEEDMARTIN_2022_10K.pdf", 79))]
    table = next(t for t in tables if any(c.header == "RMS" and c.fiscal_year == 2022 for c in t.columns))
    assert [(c.header, c.fiscal_year) for c in table.columns] == [
        ("Aeronautics", 2022), ("MFC", 2022), ("RMS", 2022), ("Space", 2022), ("Total", 2022)]
    middle_east = next(r for r in table.rows if r.label == "Middle East")
    mfc = table.column_for(2022, part=lambda c: c.header == "MFC")
    assert middle_east.cell(mfc.index).raw == "1,858"


def _column(index: int, header: str, year: int | None = None, derived: bool = False) -> Column:
    return Column(index=index, header=header, fiscal_year=year, period="year" if year else None,
                  months=12 if year else None, derived=derived, x0=100.0 + 60 * index, x1=140.0 + 60 * index)


def _table(columns, *rows: tuple[str, list[str]]) -> StatementTable:
    from docqa.finance.tables import Cell
    from docqa.finance.cells import parse_value
    built = tuple(Row(label=label, cells=tuple(Cell(column=k, raw=raw, value=parse_value(raw), bbox=(0, 0, 1, 1))
                                               for k, raw in enumerate(raws)), bbox=(0, 10.0 * i, 1, 10.0 * i + 8),
                      indent=0.0)
                  for i, (label, raws) in enumerate(rows))
    return StatementTable(page=1, title="", columns=tuple(columns), rows=built, bbox=(0, 0, 600, 300))


def test_a_year_alone_over_the_middle_of_one_column_is_not_spread():
    # one dated column between two others that name no period: only a middle column dates them all,
    # and a table whose other columns carry periods of their own is left as read
    table = _table([_column(0, "2022", 2022), _column(1, "2021", 2021), _column(2, "Change", derived=True)],
                   ("Net sales", ["$ 10", "$ 9", "11 %"]))
    assert with_spanning_year(table) == table


def test_years_over_groups_of_three_date_their_neighbours_and_the_share_column_is_derived():
    # 3M 2022, p. 25: "Net Sales | % of Total | Operating Income" under "2022", again under "2021"
    table = _with_row(read_tables(filing_page("3M_2022_10K.pdf", 25)), "Health Care")
    spread = with_centred_years(table)
    dated = [(c.header, c.fiscal_year, c.derived) for c in spread.columns][:6]
    assert [d[1] for d in dated] == [2022, 2022, 2022, 2021, 2021, 2021]
    assert dated[1][2] and dated[4][2]   # "33.9 %" ... "100.0 %": the share of the total
    health = next(r for r in spread.rows if r.label == "Health Care")
    sales = spread.column_for(2022)
    assert health.cell(sales.index).raw == "8,421"


def test_names_under_a_unit_stub_head_the_columns_when_each_sits_over_a_figure():
    # Amcor's quarterly tables print their parts at a quarter of the page, under "Six Months Ended":
    # "($ in millions)  Flexibles  Rigid Packaging  Total  Flexibles  Rigid Packaging  Total"
    rights = (200, 280, 350, 430, 510, 580)
    lines = [line(100, ("Six Months Ended December 31,", 300)),
             line(112, ("2022", 240), ("2021", 470)),
             line(124, ("($ in millions)", 20), ("Flexibles", 160), ("Rigid Packaging", 220), ("Total", 320),
                  ("Flexibles", 395), ("Rigid Packaging", 455), ("Total", 550)),
             line(136, ("North America", 20), *(num(v, r) for v, r in zip(("2,198", "1,349", "3,547", "2,049", "1,238",
                                                                         "3,287"), rights))),
             line(148, ("Latin America", 20), *(num(v, r) for v, r in zip(("554", "414", "968", "507", "342", "849"),
                                                                         rights)))]
    table = _with_row(read_tables(page(*lines)), "Latin America")
    assert [c.header.split()[-1] for c in table.columns] == ["Flexibles", "Packaging", "Total",
                                                             "Flexibles", "Packaging", "Total"]
    assert table.columns[0].header.startswith("Six Months Ended December 31, 2022")


def test_a_lead_in_sentence_over_the_periods_is_the_title_not_a_heading():
    # Block 2020: "The following table summarizes the effects of share-based compensation ... (in thousands):"
    lines = [line(90, ("The following table summarizes the effects of share-based compensation (in thousands):", 20)),
             line(104, ("Year Ended December 31,", 400)),
             line(116, ("2020", 330), ("2019", 430), ("2018", 530)),
             line(128, ("Cost of revenue", 20), num("$ 368", 360), num("$ 155", 460), num("$ 97", 560)),
             line(140, ("Product development", 20), num("289,553", 360), num("210,840", 460), num("144,601", 560)),
             line(152, ("Total", 20), num("$ 397,500", 360), num("$ 297,863", 460), num("$ 216,881", 560))]
    table = _with_row(read_tables(page(*lines)), "Product development")
    assert "share-based compensation" in table.title
    assert [c.fiscal_year for c in table.columns] == [2020, 2019, 2018]
    match = find_rows([table], "share-based compensation product development")[0]
    assert match.row.cells[0].raw == "289,553"


def test_a_quarterly_results_note_reads_each_quarter_and_the_year():
    # Best Buy fiscal 2019, p. 90: "Quarter | 1st 2nd 3rd 4th Fiscal Year", a table per fiscal year
    tables = read_tables(filing_page("BESTBUY_2019_10K.pdf", 90))
    table = next(t for t in tables if any(c.header.endswith("4th") and c.fiscal_year == 2019 for c in t.columns))
    assert [(c.period, c.months) for c in table.columns] == [("quarter", 3)] * 4 + [("year", 12)]
    assert [header_quarter(c.header) for c in table.columns] == [1, 2, 3, 4, None]
    operating = next(r for r in table.rows if r.label.startswith("Operating income"))
    fourth = table.column_for_period(Period(2019, 4), quarter_hint=None)
    assert operating.cell(fourth.index).raw == "978"
    assert not any(r.label.startswith("Operating income") for r in _with_row(tables, "Canada").rows)


def test_a_last_row_that_adds_up_the_rows_above_is_their_total():
    table = _table([_column(0, "Flexibles", 2023), _column(1, "Total", 2023)],
                   ("North America", ["4,411", "7,156"]), ("Latin America", ["1,114", "1,909"]),
                   ("Europe", ["3,952", "3,952"]), ("Asia Pacific", ["1,677", "1,677"]),
                   ("Net sales", ["11,154", "14,694"]))
    assert sum_row(table).label == "Net sales"
    # the untitled table holds net sales: "Latin America" is Latin America's net sales
    assert score_row("net sales Latin America", table.rows[1], table) >= 0.9
    assert sum_row(_table([_column(0, "2023", 2023)], ("A", ["1"]), ("B", ["2"]), ("C", ["4"]))) is None


def test_a_short_name_in_parentheses_is_the_rows_name_too():
    table = _table([_column(0, "2022", 2022)], ("Average daily rate (ADR)", ["$ 260"]),
                   ("Revenue per available room (REVPAR)", ["$ 238"]))
    assert find_rows([table], "REVPAR")[0].row.label.startswith("Revenue per available room")


def test_the_measure_an_impact_is_on_is_not_what_the_table_holds():
    # 3M 2022, p. 64: "The business segment operating income impact of these restructuring charges ..."
    tables = read_tables(filing_page("3M_2022_10K.pdf", 64))
    table = next(t for t in tables if "impact of" in t.title)
    row = next(r for r in table.rows if r.label == "Safety and Industrial")
    assert measure_words_missing("Safety and Industrial operating income", row, table, table.columns[0].index)
    sales = _table([_column(0, "2022", 2022)], ("Safety and Industrial", ["$ 1,199"]))
    sales = sales.model_copy(update={"title": "Operating income by business segment"})
    assert not measure_words_missing("Safety and Industrial operating income", sales.rows[0], sales, 0)


def test_a_change_heading_over_the_last_two_columns_heads_only_them():
    # Verizon's operating statistics: "Increase/(Decrease)" printed over "2022 vs. 2021 | %", beside "2022 | 2021"
    rights = (300, 380, 470, 540)
    lines = [line(100, ("Increase/(Decrease)", 440)),
             line(112, ("Years Ended December 31,", 20), ("2022", 282), ("2021", 362), ("2022 vs. 2021", 420)),
             line(124, ("Fios internet", 20), *(num(v, r) for v, r in zip(("6,740", "6,541", "199", "3.0"), rights))),
             line(136, ("Fios video", 20), *(num(v, r) for v, r in zip(("3,234", "3,573", "(339)", "(9.5)"), rights))),
             line(148, ("Total broadband", 20), *(num(v, r) for v, r in zip(("7,900", "6,989", "911", "13.0"), rights)))]
    table = _with_row(read_tables(page(*lines)), "Fios internet")
    assert [(c.fiscal_year, c.derived) for c in table.columns[:2]] == [(2022, False), (2021, False)]
    fios = next(r for r in table.rows if r.label == "Fios internet")
    assert fios.cell(table.column_for(2022).index).raw == "6,740"


def test_a_products_name_leads_a_label_that_goes_on_with_what_it_treats():
    table = _table([_column(0, "2023", 2023)], ("Vyndaqel family ATTR-CM and polyneuropathy", ["782"]),
                   ("Revenue reserves and other adjustments", ["(12)"]))
    table = table.model_copy(update={"title": "Significant Product Revenues"})
    assert find_rows([table], "Vyndaqel family revenue")[0].row.label.startswith("Vyndaqel")
    # an ordinary line word leading a longer label is no product's name: the label is not read as it
    assert score_row("revenue", table.rows[1], table) < 0.9


def test_a_lead_in_wrapped_over_two_lines_is_the_title_and_the_short_name_it_defines_is_read():
    # 3M 2022, p. 73: "... A reconciliation of the beginning" / "and ending amount of gross unrecognized tax
    # benefits (UTB) is as follows:" over "Gross UTB Balance at January 1 ... Gross UTB Balance at December 31"
    lines = [line(60, ("The Company recognizes the amount of tax benefit that is realized. A reconciliation of the beginning", 20)),
             line(72, ("and ending amount of gross unrecognized tax benefits (UTB) is as follows:", 20)),
             line(90, ("(Millions)", 20), ("2022", 382), ("2021", 462), ("2020", 542)),
             line(102, ("Gross UTB Balance at January 1", 20), num("$ 1,071", 400), num("$ 1,113", 480), num("$ 1,167", 560)),
             line(114, ("Additions based on tax positions related to the current year", 20), num("115", 400), num("91", 480),
                  num("74", 560)),
             line(126, ("Gross UTB Balance at December 31", 20), num("$ 927", 400), num("$ 1,071", 480), num("$ 1,113", 560))]
    table = _with_row(read_tables(page(*lines)), "Gross UTB Balance at December 31")
    assert table.title.startswith("A reconciliation of the beginning and ending amount of gross unrecognized tax benefits")
    best = find_rows([table], "gross unrecognized tax benefits balance at end of year")[0]
    assert best.row.label == "Gross UTB Balance at December 31"


def test_the_heading_a_row_sits_under_says_more_of_it_than_the_title():
    # Walmart 2018, p. 87: a title naming both revenues and long-lived assets; "U.S. operations" under each heading
    table = _table([_column(0, "2018", 2018)], ("U.S. operations", ["$ 380,580"]), ("U.S. operations", ["$ 81,478"]))
    rows = (table.rows[0].model_copy(update={"section": "Revenues"}), table.rows[1].model_copy(update={"section": "Long-lived assets"}))
    table = table.model_copy(update={"rows": rows, "title": "Total revenues and long-lived assets, aggregated by U.S. and "
                                                             "non-U.S. operations, are as follows:"})
    assert find_rows([table], "long-lived assets U.S. operations")[0].row.cells[0].raw == "$ 81,478"
    assert find_rows([table], "revenues U.S. operations")[0].row.cells[0].raw == "$ 380,580"
