"""Segment notes: columns headed by the parts' names, row blocks dated by headings, and a line of
years with change columns ("2015-2014") as a header. Synthetic pages pin each layout rule."""

from __future__ import annotations

from docqa.finance.statements import read_tables
from docqa.finance.tables import Column

from .conftest import line, page

X = (300.0, 360.0, 420.0, 480.0)   # right-aligned figures end near these


def _row(y: float, label: str, *figures: str):
    return line(y, (label, 40.0), *((f, x - 4.4 * len(f)) for f, x in zip(figures, X)))


def _segment_note():
    return page(
        line(80, ("Segment information (in millions)", 40.0)),
        line(100, ("Pharmacy", 282.0), ("Retail/", 342.0), ("Corporate/", 380.0), ("Consolidated", 440.0)),
        line(110, ("Services", 282.0), ("LTC", 350.0), ("Other", 402.0), ("Totals", 452.0)),
        line(125, ("2018:", 40.0)),
        _row(138, "Total revenues", "134,128", "83,989", "606", "194,579"),
        _row(150, "Operating income (loss)", "4,699", "620", "(805)", "4,021"),
        line(165, ("2017:", 40.0)),
        _row(178, "Total revenues", "130,601", "79,398", "16", "184,786"),
        _row(190, "Operating income (loss)", "4,657", "6,558", "(936)", "9,538"),
    )


def test_columns_without_periods_are_headed_by_the_names_printed_over_them():
    tables = read_tables(_segment_note())
    assert [c.header for c in tables[0].columns] == ["2018 Pharmacy Services", "2018 Retail/ LTC",
                                                    "2018 Corporate/ Other", "2018 Consolidated Totals"]


def test_each_dated_row_block_is_a_table_of_its_year():
    tables = read_tables(_segment_note())
    assert [(t.columns[0].fiscal_year, [r.label for r in t.rows]) for t in tables] == [
        (2018, ["Total revenues", "Operating income (loss)"]), (2017, ["Total revenues", "Operating income (loss)"])]
    # The whole company's figure is the Consolidated column's; a segment's is its own column's.
    assert tables[0].column_for(2018).index == 3
    retail = tables[0].column_for(2018, part=lambda c: "Retail" in c.header)
    assert tables[0].rows[1].cell(retail.index).value == 620


def test_a_line_of_years_with_change_columns_starts_a_table():
    tables = read_tables(page(
        line(80, ("Revenue (dollars in millions)", 40.0)),
        line(100, ("Fiscal", 282.0), ("Fiscal", 342.0), ("% Change", 392.0)),
        line(110, ("2015", 282.0), ("2014", 342.0), ("2015-2014", 392.0)),
        _row(125, "Subscription", "3,223.9", "2,076.6", "55 %"),
        _row(137, "Product", "1,125.1", "1,627.8", "(31)%"),
        _row(149, "Total revenue", "4,795.5", "4,147.1", "16 %"),
    ))
    assert len(tables) == 1
    columns: tuple[Column, ...] = tables[0].columns
    assert [(c.fiscal_year, c.derived) for c in columns[:2]] == [(2015, False), (2014, False)]
    assert columns[2].derived


def test_a_quarterly_data_note_dated_by_day_and_month_reads_its_quarters_in_order():
    from docqa.finance.periods import Period

    tables = read_tables(page(
        line(60, ("NOTE 19. SELECTED QUARTERLY FINANCIAL DATA (unaudited)", 40.0)),
        line(78, ("2015", 361.0)),
        line(90, ("(in thousands)", 40.0), ("Quarter Ended", 343.0)),
        line(102, ("February 27", 272.0), ("May 29", 338.0), ("August 28", 384.0), ("November 27", 436.0)),
        _row(116, "Revenue", "1,109,181", "1,162,158", "1,217,768", "1,306,404"),
        _row(128, "Net income", "84,888", "147,493", "174,465", "222,705"),
    ))
    assert len(tables) == 1
    table = tables[0]
    assert [c.fiscal_year for c in table.columns] == [2015] * 4
    fourth = table.column_for_period(Period(2015, 4))
    assert table.rows[0].cell(fourth.index).value == 1306404
    assert table.column_for(2015) is None or table.column_for(2015).period == "quarter"   # no year's figure


def test_a_heading_over_each_run_of_years_heads_every_column_of_its_run():
    # "Net Revenue" centred over three years, "Long-Lived Assets" over two: the heading is printed
    # once, over the middle of its run, and must reach every column under it.
    x5 = (280.0, 340.0, 400.0, 460.0, 520.0)

    def row(y, label, *figures):
        return line(y, (label, 40.0), *((f, x - 4.4 * len(f)) for f, x in zip(figures, x5)))

    tables = read_tables(page(
        line(80, ("Net revenue and long-lived assets by country (in millions)", 40.0)),
        line(100, ("Net Revenue", 310.0), ("Long-Lived Assets", 440.0)),
        line(112, ("2021", 262.0), ("2020", 322.0), ("2019", 382.0), ("2021", 442.0), ("2020", 502.0)),
        row(126, "United States", "44,545", "40,800", "38,644", "36,324", "36,657"),
        row(138, "Mexico", "4,580", "3,924", "4,190", "1,720", "1,708"),
    ))
    assert [c.header for c in tables[0].columns] == [
        "Net Revenue 2021", "Net Revenue 2020", "Net Revenue 2019", "Long-Lived Assets 2021", "Long-Lived Assets 2020"]
    assets = tables[0].column_for(2021, part=lambda c: "Assets" in c.header)
    assert tables[0].rows[1].cell(assets.index).value == 1720


def test_a_name_printed_beside_the_years_over_the_labels_names_the_table():
    # Walmart's fiscal 2023 annual report, Note 13: the name sits on the line of years, over the labels.
    tables = read_tables(page(
        line(80, ("(Amounts in millions)", 40.0), ("Fiscal Years Ended January 31,", 300.0)),
        line(100, ("Walmart International net sales by market", 40.0), ("2023", 282.0), ("2022", 342.0)),
        _row(114, "Canada", "22,300", "21,773"),
        _row(126, "China", "14,711", "13,852"),
    ))
    assert "Walmart International net sales by market" in tables[0].title
    assert "Fiscal" not in tables[0].title and "millions" not in tables[0].title


def test_a_total_printed_first_under_its_heading_leaves_the_heading_over_the_rows_after_it():
    # CVS 2018 p. 272: "Pharmacy claims processed:" then "Total", "Pharmacy network", "Mail choice"
    tables = read_tables(page(
        line(80, ("Pharmacy Services segment (in millions)", 40.0)),
        line(100, ("2018", 282.0), ("2017", 342.0)),
        _row(115, "Total revenues", "134,128", "130,601"),
        line(130, ("Pharmacy claims processed:", 40.0)),
        _row(143, "Total", "1,889.8", "1,781.9"),
        _row(155, "Pharmacy network", "1,601.4", "1,516.7"),
        _row(167, "Mail choice", "288.4", "265.2"),
    ))
    rows = {r.label: r.section for r in tables[0].rows}
    assert rows["Total"] == rows["Pharmacy network"] == rows["Mail choice"] == "Pharmacy claims processed:"


def test_a_total_that_names_another_thing_closes_its_own_block_not_the_heading():
    # Verizon 2022 p. 29: "Connections ('000):" over "Wireless retail postpaid ... Total wireless retail",
    # then "Fios internet", "Fios video": all connections
    tables = read_tables(page(
        line(80, ("Operating Revenues and Selected Operating Statistics", 40.0)),
        line(100, ("2022", 282.0), ("2021", 342.0)),
        _row(115, "Total Operating Revenues", "103,506", "95,300"),
        line(130, ("Connections (‘000):", 40.0)),
        _row(143, "Wireless retail postpaid", "91,856", "91,543"),
        _row(155, "Total wireless retail", "114,520", "115,395"),
        _row(167, "Fios video", "3,234", "3,573"),
        line(182, ("Current assets:", 40.0)),
        _row(195, "Cash", "10", "12"),
        _row(207, "Total current assets", "30", "32"),
        _row(219, "Goodwill", "40", "41"),
    ))
    rows = {r.label: r.section for r in tables[0].rows}
    assert rows["Fios video"] == rows["Total wireless retail"] == "Connections (‘000):"
    assert rows["Cash"] == "Current assets:" and rows["Goodwill"] is None
