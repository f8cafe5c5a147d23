"""Rows a question places: under the heading the owner's possessive names ("the share-based
compensation of Square's deferred tax assets"), under the heading that prints the aside before a
table whose title only does, and the row a filing prints as the question's whole phrase."""

from __future__ import annotations

from docqa.answer.figures.reading.asked import asked_measures
from docqa.answer.figures.reading.composition import compose_measures
from docqa.answer.figures.reading.line_item_words import leaf_text
from docqa.answer.figures.reading.sources import Source
from docqa.finance.periods import Period
from docqa.finance.text import stems
from docqa.finance.tables import Cell, Column, Row, StatementTable
from docqa.plan import build_plan
from docqa.types import StatementKind

BOX = (0.0, 0.0, 1.0, 1.0)


def _row(label: str, value: float, section: str | None = None) -> Row:
    return Row(label=label, section=section, cells=(Cell(value=value, raw=f"{value:,.0f}", column=0, bbox=BOX),),
               bbox=BOX, indent=0)


def _table(title: str, rows, page: int, statement=None, year: int = 2016) -> StatementTable:
    column = Column(index=0, header=str(year), fiscal_year=year, period="year", x0=0, x1=1)
    return StatementTable(page=page, title=title, statement=statement, unit="thousands", columns=(column,),
                          rows=tuple(rows), bbox=BOX)


def _value(question: str, tables, company: str, year: int, labels=None):
    plan = build_plan(question, [], labels=labels)
    asked = asked_measures(plan.reading)
    words = frozenset(stems(company))
    compose_measures(plan, asked, words, leaf_text(plan.line_clause or plan.main_clause, words))
    source = Source("FILING.pdf", "d", list(tables), {})
    found = next((v for m in asked.measures if (v := m.evaluate([source], Period(year))) is not None), None)
    return None if found is None else found.value


def test_the_heading_after_the_owners_possessive_places_the_row():
    # Square 2016: the cash-flow statement's "Share-based compensation 138,786" and the tax note's
    # "Share-based compensation 52,091" under "Deferred tax assets:"
    cash = _table("Consolidated Statements of Cash Flows", [_row("Share-based compensation", 138786)], 73,
                  StatementKind.CASH_FLOW)
    taxes = _table("Income taxes", [_row("Share-based compensation", 52091, section="Deferred tax assets:"),
                                    _row("Depreciation", -3000, section="Deferred tax liabilities:")], 95)
    asked = "In fiscal 2016, what was the share-based compensation of Square's deferred tax assets?"
    assert _value(asked, [cash, taxes], "square", 2016) == 52091
    assert _value("What was Square's share-based compensation in fiscal 2016?", [cash, taxes], "square", 2016) == 138786


def test_a_row_of_a_lexicon_items_heading_is_not_the_items_total():
    # Corning 2021: "Total current liabilities 4,806" on the balance sheet; "Derivative instruments 144"
    # under "Current liabilities:" in the derivatives note. Microsoft: "Net income 72,361" under
    # "Retained earnings" in the equity statement, beside the balance sheet's retained earnings
    balance = _table("Consolidated Balance Sheets", [_row("Total current liabilities", 4806),
                                                     _row("Retained earnings", 118848)], 67, StatementKind.BALANCE, 2021)
    note = _table("Fair value of derivatives", [_row("Derivative instruments", 144, section="Current liabilities:")], 91,
                  year=2021)
    equity = _table("Stockholders' equity statements", [_row("Net income", 72361, section="Retained earnings")], 62,
                    year=2021)
    tables = [balance, note, equity]
    asked = "In fiscal 2021, what was the derivative instruments of Corning's current liabilities?"
    assert _value(asked, tables, "corning", 2021) == 144
    assert _value("In fiscal 2021, what was the net income of Corning's retained earnings?", tables, "corning", 2021) == 72361


def test_a_heading_that_prints_the_aside_comes_before_a_title_that_only_names_it():
    # Coca-Cola 2017: one table titled for both deferred tax assets and liabilities, "Derivative financial
    # instruments" under each heading
    taxes = _table("The tax effects of temporary differences: deferred tax assets and liabilities",
                   [_row("Derivative financial instruments", 387, section="Deferred tax assets:"),
                    _row("Derivative financial instruments", -436, section="Deferred tax liabilities:")], 126, year=2017)
    asked = "The Coca-Cola Company fiscal 2017: derivative financial instruments (deferred tax liabilities)?"
    assert _value(asked, [taxes], "The Coca-Cola Company", 2017) == -436


def test_the_row_a_filing_prints_as_the_questions_whole_phrase_is_the_line():
    # Swiss Water 2022: "Interest paid on debenture with warrants (664)" in the cash-flow note, beside
    # "Interest charged for debenture with warrants 700"; the lexicon names "interest paid" inside it
    note = _table("Notes to the consolidated financial statements",
                  [_row("Interest charged for debenture with warrants", 700),
                   _row("Interest paid on debenture with warrants", -664),
                   _row("Interest paid", -3272)], 73, year=2021)
    asked = "How much was Swiss Water's interest paid on debenture with warrants for 2021?"
    printed = {"interest paid on debenture with warrants"}
    assert _value(asked, [note], "swiss water", 2021, labels=lambda phrase, *_: phrase.lower() in printed) == -664
    # a phrase no table prints leaves the reading as it was: the item with its words
    assert build_plan(asked, [], labels=lambda phrase, *_: False).reading.printed_line == ""
    # a date's year is no line's label, whatever table prints "2018" as a row
    dated = "Walmart long-lived assets of U.S. operations as of January 31, 2018"
    assert build_plan(dated, [], labels=lambda phrase, *_: phrase in ("2018", "31, 2018")).reading.printed_line == ""


def test_a_row_under_its_own_heading_is_no_other_parts_row():
    # J&J 2022: the sales-by-product table runs over pages, "International" printed under each product
    stelara = _table("Sales to Customers / Immunology", [_row("International", 3335, section="STELARA")], 82, year=2022)
    tremfya = _table("Sales to Customers / Immunology", [_row("International", 824, section="TREMFYA")], 83, year=2022)
    assert _value("STELARA international sales, Johnson & Johnson fiscal 2022?", [stelara, tremfya], "Johnson & Johnson",
                  2022) == 3335


def test_a_qualifier_a_label_prints_after_its_comma_is_the_lines():
    # Square 2020: the balance sheet's "Deferred revenue 44,908"; other non-current liabilities' "Deferred
    # revenue, non-current 6,896"
    balance = _table("Consolidated Balance Sheets", [_row("Deferred revenue", 44908)], 116, StatementKind.BALANCE, 2020)
    other = _table("Other Non-Current Liabilities", [_row("Deferred revenue, non-current", 6896)], 117, year=2020)
    asked = "What was Square's deferred revenue, non-current in fiscal 2020?"
    printed = {"deferred revenue, non-current"}
    assert _value(asked, [balance, other], "square", 2020, labels=lambda phrase, *_: phrase.lower() in printed) == 6896
    assert _value("What was Square's deferred revenue in fiscal 2020?", [balance, other], "square", 2020,
                  labels=lambda phrase, *_: phrase.lower() in printed) == 44908


def test_what_follows_the_owner_of_a_line_named_before_it_is_no_line_of_its_own():
    # "the slots win of MGM's Regional Operations": "Regional Operations" is printed as a row, and is the part
    for asked in ("In fiscal 2020, what was the slots win of MGM's Regional Operations?",
                  "In fiscal 2022, what was the russia exit charges of 3M's corporate special items?"):
        assert build_plan(asked, [], labels=lambda phrase, *_: True).reading.printed_line == "", asked



def test_a_phrase_the_question_qualifies_after_its_comma_is_no_printed_line_of_its_own():
    # Verizon 2022: "Device payment plan agreement receivables, at amortized cost" (billed) is not the bare
    # "Device payment plan agreement receivables, net" another table prints
    asked = "What was Verizon's device payment plan agreement receivables, at amortized cost for billed in fiscal 2022?"
    plan = build_plan(asked, [], labels=lambda phrase, *_: phrase.lower() == "device payment plan agreement receivables")
    assert plan.reading.printed_line == ""


def test_a_row_under_a_heading_asked_is_told_apart_from_one_under_a_heading_of_fewer_words():
    # J&J 2022: "U.S." under "Wound Care/Other" asked; another product table prints "U.S." under "Other"
    wound = _table("Sales to Customers", [_row("U.S.", 475, section="Wound Care/Other")], 81, year=2022)
    other = _table("Sales to Customers", [_row("U.S.", 900, section="Other")], 82, year=2022)
    asked = "In fiscal 2022, what was the u.s of Johnson & Johnson's Wound Care/Other?"
    assert _value(asked, [wound, other], "Johnson & Johnson", 2022) == 475
