"""The plan of a question about a year after the filing: what is scheduled, what is left out, the
bucket past the years a schedule prints, the filing it is read off, and "due to pay" (an amount
falling due, not a cause). Also the filing of a year: a currency asked names no company, and a year
held only as a current report is read in the next annual report."""

from __future__ import annotations

import pytest

from docqa.plan import Intent, build_plan
from docqa.plan.choice import choose_documents
from docqa.plan.intent import asks_why
from docqa.plan.periods import scheduled_reading, scheduled_years
from docqa.types import DocType, Document, DocumentMeta


@pytest.mark.parametrize("question, years", [
    ("How much of the debt matures in 2025?", (2025,)),
    ("What capital expenditures does the company expect for fiscal 2024?", (2024,)),
    ("What amortization does it estimate for 2026, per its 2022 10-K?", (2026,)),   # the 10-K's year names a filing
    ("What was revenue in 2026?", ()),                                              # no word of a schedule
])
def test_the_years_a_schedule_word_may_put_after_the_filing(question, years):
    assert scheduled_years(question) == years


def test_what_is_scheduled_what_is_left_out_and_whose_names_are_no_part_of_it():
    read = scheduled_reading("How much debt principal, excluding minimum finance lease obligations, is Acme's "
                             "parent scheduled to repay in 2026?", 2026, 2022, frozenset({"acme"}))
    assert read.words == ("debt", "principal", "parent")
    assert read.without == ("minimum", "finance", "lease", "obligations")
    assert not read.after
    assert scheduled_reading("What lease payments fall due after 2027 (thereafter)?", 2027, 2022, frozenset()).after


@pytest.mark.parametrize("question, why", [
    ("How much recourse debt principal is the company due to pay in 2026?", False),
    ("How much of the notes are due to be repaid in 2025?", False),
    ("Was the decline in margin due to higher costs?", True),
])
def test_due_to_pay_is_an_amount_falling_due_not_a_cause(question, why):
    assert asks_why(question) is why


def _doc(id_: str, company: str, year: int, doc_type: DocType = DocType.ANNUAL, aliases: tuple[str, ...] = ()) -> Document:
    return Document(id=id_, file_name=f"{id_}.pdf", path="", sha256=id_, pages=1,
                    meta=DocumentMeta(company=company, fiscal_year=year, doc_type=doc_type, aliases=aliases))


ACME = [_doc("k18", "Acme Corp", 2018, aliases=("Acme",)), _doc("k22", "Acme Corp", 2022, aliases=("Acme",)),
        _doc("q23", "Acme Corp", 2023, DocType.QUARTERLY, aliases=("Acme",))]


@pytest.mark.parametrize("question, filing", [
    ("How much of Acme's debt matures in 2025?", "k22"),               # the latest annual report before the year
    ("As of FY2018, what lease payments did Acme expect to make in 2021?", "k18"),  # the filing the question names
])
def test_a_scheduled_year_is_read_off_the_filing_before_it(question, filing):
    plan = build_plan(question, ACME)
    assert plan.intent is Intent.SCHEDULED and plan.scheduled is not None
    assert plan.years == (plan.scheduled.year,)
    assert [d for g in plan.groups for d in g.document_ids] == [filing]


def test_a_later_year_without_a_schedule_word_plans_no_schedule():
    assert build_plan("What was Acme's revenue in 2026?", ACME).scheduled is None


def test_a_currency_asked_names_no_company():
    docs = [*ACME, _doc("s22", "Swiss Water Decaffeinated Coffee Inc.", 2022, aliases=("Swiss Water",))]
    plan = build_plan("What was Acme's 2022 revenue in Swiss francs?", docs)
    assert plan.companies == ("Acme Corp",) and plan.currency is not None and plan.currency.code == "CHF"


def test_a_years_figure_held_only_in_a_current_report_is_read_in_the_next_annual_report():
    docs = [_doc("c22", "Acme Corp", 2022, DocType.CURRENT), _doc("k23", "Acme Corp", 2023)]
    chosen, _ = choose_documents(docs, [2022], None, [], annual_first=True)
    assert [d.id for d in chosen] == ["k23", "c22"]
