"""A table continued over a page break takes its first page's column headings; nothing else does."""

from __future__ import annotations

from docqa.finance.table_continued import with_headers_continued
from docqa.finance.tables import Cell, Column, Row, StatementTable

BOX = (0.0, 0.0, 1.0, 1.0)


def _table(page: int, headers, xs, top: float = 50.0, title: str = "", unit=None) -> StatementTable:
    columns = tuple(Column(index=k, header=h, fiscal_year=int(h) if h.isdigit() else None,
                           period="year" if h.isdigit() else None, x0=x, x1=x + 24) for k, (h, x) in enumerate(zip(headers, xs)))
    row = Row(label="International", section="STELARA", bbox=BOX, indent=0,
              cells=tuple(Cell(value=1.0, raw="1", column=k, bbox=BOX) for k in range(len(headers))))
    return StatementTable(page=page, title=title, unit=unit, columns=columns, rows=(row,), bbox=(17.0, top, 552.0, 600.0))


def test_a_headless_table_opening_the_next_page_takes_the_headings_of_the_table_it_continues():
    # J&J's 2022 sales by product: headings on page 81, none on page 82, columns a few points apart
    first = _table(81, ["2022", "2021", "2020"], [243, 311, 380], top=70, title="Sales to Customers", unit="millions")
    after = _table(82, ["", "", ""], [247, 316, 386], top=47, title="PHARMACEUTICAL / Immunology")
    continued = with_headers_continued([first, after])[1]
    assert [c.fiscal_year for c in continued.columns] == [2022, 2021, 2020]
    assert continued.unit == "millions" and continued.title.startswith("Sales to Customers")


def test_a_table_with_headings_of_its_own_or_laid_out_otherwise_is_its_own():
    first = _table(81, ["2022", "2021", "2020"], [243, 311, 380], top=70)
    moved = _table(82, ["", "", ""], [200, 300, 450], top=47)
    fewer = _table(82, ["", ""], [247, 316], top=47)
    headed = _table(82, ["Shares", "Price", "Value"], [247, 316, 386], top=47)
    far = _table(83, ["", "", ""], [247, 316, 386], top=47)  # no table on the page before it
    for table in (moved, fewer, headed):
        assert with_headers_continued([first, table])[1] == table
    assert with_headers_continued([first, far])[1] == far
