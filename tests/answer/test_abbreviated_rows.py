"""A line or a part asked by a short form the filing spells out, or spelt out where the filing
prints the short form (labels and sentences as Kraft Heinz's, PepsiCo's and Adobe's 10-Ks print them)."""

from __future__ import annotations

from docqa.answer.figures.reading.abbreviated import names_the_row, other_spellings, spelt_variants
from docqa.answer.figures.reading.sources import Source
from docqa.finance.tables import Cell, Column, Row, StatementTable
from docqa.store.base import StoredLine, StoredPage

BOX = (0.0, 0.0, 1.0, 1.0)


def _table(page: int, labels: list[tuple[str, str | None]]) -> StatementTable:
    rows = tuple(Row(label=label, section=section, cells=(Cell(value=1.0, raw="1", column=0, bbox=BOX),), bbox=BOX,
                     indent=0) for label, section in labels)
    return StatementTable(page=page, title="", unit="millions", rows=rows, bbox=BOX,
                          columns=(Column(index=0, header="2019", fiscal_year=2019, x0=0, x1=1),))


def _source(document_id: str, sentences: list[str], tables: list[StatementTable], names=("PepsiCo, Inc.",)) -> Source:
    pages = {1: StoredPage(document_id=document_id, number=1, width=612, height=792,
                           lines=tuple(StoredLine(text=s, bbox=BOX) for s in sentences))}
    for table in tables:
        pages[table.page] = StoredPage(document_id=document_id, number=table.page, width=612, height=792, tables=(table,))
    return Source(document="f.pdf", document_id=document_id, tables=tables, pages=pages, names=names)


def test_a_short_form_asked_is_spelt_as_the_filing_prints_the_row():
    table = _table(42, [("Americas", "Revenue"), ("Europe, Middle East and Africa", "Revenue"), ("Asia Pacific", "Revenue")])
    source = _source("abbr-1", ["Our revenue by geography follows."], [table])
    assert spelt_variants("EMEA revenue", [table], source) == [("Europe, Middle East and Africa revenue",
                                                                  "Europe, Middle East and Africa")]
    assert spelt_variants("APAC revenue", [table], source) == [("Asia Pacific revenue", "Asia Pacific")]


def test_words_asked_are_put_as_the_short_form_the_filing_prints():
    table = _table(108, [("United States", "Capital expenditures:"), ("EMEA", "Capital expenditures:")])
    source = _source("abbr-2", ["segments: United States, Canada, Europe, Middle East and Africa (EMEA)"], [table])
    assert ("capex EMEA segment", "EMEA") in spelt_variants("capex Europe Middle East and Africa segment", [table], source)


def test_a_part_is_spelt_as_the_filing_defines_it_the_owners_name_aside():
    table = _table(71, [("FLNA", None), ("PBNA", None)])
    source = _source("abbr-3", ["3) PepsiCo Beverages North America (PBNA); Frito-Lay North America (\u201cFLNA\u201d)"],
                     [table])
    assert other_spellings("Beverages North America", source) == ["PBNA"]
    assert other_spellings("FLNA", source) == ["Frito-Lay North America"]


def test_a_short_form_two_labels_could_spell_is_left_alone():
    table = _table(9, [("Asia Pacific", None), ("Accounts payable", None)])
    source = _source("abbr-4", ["No definitions here."], [table], names=("Adobe Inc.",))
    assert other_spellings("AP", source) == []
    assert spelt_variants("AP balance", [table], source) == []


def test_a_spelling_names_the_row_only_in_its_label_or_heading():
    assert names_the_row("EMEA", "EMEA", "Capital expenditures:")
    assert names_the_row("Europe, Middle East and Africa", "Europe, Middle East and Africa", None)
    assert not names_the_row("last-in, first-out", "Balance at end of year", None)
