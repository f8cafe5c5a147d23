"""verify.stated: quotes answer a figure asked only where one states the measure's amount for the
period asked; an interim report prints no total of the year it is part of."""

from __future__ import annotations

import pytest

from docqa.finance.periods import FiscalCalendar
from docqa.plan import build_plan
from docqa.types import Citation, DocType, Document, DocumentMeta
from docqa.verify import Grounding, verify
from docqa.verify.stated import Printed, asks_a_figure, interim_of, not_stated, printed_periods, states_measure
from docqa.finance.periods import Period
from tests.verify.pages import draft

# Apple's Q3 fiscal 2023 10-Q, p. 9: net sales named beside an amount that is a part of them, in quarters
DEFERRED = ("Total net sales include $3.3 billion of revenue recognized in the three months ended July 1, 2023 "
            "that was included in deferred revenue as of April 1, 2023, $7.0 billion of revenue recognized in the "
            "nine months ended July 1, 2023 that was included in deferred revenue as of September 24, 2022.")
# Amcor's fiscal 2023 fourth-quarter release, p. 2: the dividend asked, stated in a sentence
CDI = ("Holders of CDIs trading on the ASX will receive an unfranked dividend of 18.77 Australian cents per share, "
       "which reflects the quarterly dividend of 12.25 cents per share converted at an average AUD:USD exchange "
       "rate of 0.6526 over the five trading days ended August 14, 2023.")
CDI_Q = ("In Amcor's fiscal 2023 fourth-quarter results release, what quarterly dividend will holders of CDIs on "
         "the ASX receive, in Australian cents per share?")
REVENUE_Q = "What was Apple's total revenue in 2023?"


def _doc(id_: str, doc_type: DocType, year: int, quarter: int | None, end: str, company: str = "Apple Inc.") -> Document:
    return Document(id=id_, file_name=f"{id_}.htm", path=id_, sha256=id_ * 4, pages=30,
                    meta=DocumentMeta(company=company, aliases=(company.split()[0],), doc_type=doc_type,
                                      fiscal_year=year, fiscal_quarter=quarter, period_end=end))


APPLE_Q3 = _doc("q3", DocType.QUARTERLY, 2023, 3, "2023-07-01")
APPLE_10K = _doc("fy", DocType.ANNUAL, 2023, None, "2023-09-30")
AMCOR_Q4 = _doc("am", DocType.EARNINGS, 2023, 4, "2023-06-30", company="Amcor plc")
FILINGS = {d.id: d for d in (APPLE_Q3, APPLE_10K, AMCOR_Q4)}


def _cite(quote: str, doc: Document = APPLE_Q3, page: int = 9) -> Citation:
    return Citation(document=doc.file_name, document_id=doc.id, page=page, quote=quote)


def _plan(question: str, *docs: Document):
    return build_plan(question, list(docs))


def test_a_figure_of_a_measure_for_a_period_is_what_the_rule_checks():
    assert asks_a_figure(_plan(REVENUE_Q, APPLE_Q3))
    assert asks_a_figure(_plan(CDI_Q, AMCOR_Q4))
    assert not asks_a_figure(_plan("What drove Apple's revenue growth in 2023?", APPLE_Q3))
    assert not asks_a_figure(_plan("Did Apple's revenue increase in 2023?", APPLE_Q3))


@pytest.mark.parametrize("quote, states", [
    (CDI, True),                                                              # "dividend of 18.77"
    ("Net sales were $81.8 billion for the quarter.", True),
    ("Total net sales  81,797  82,959  293,787  304,182", True),               # a statement's row
    ("We recorded $4.2 billion of revenue from services.", True),              # the amount before the name
    ("Revenue increased 3% to $10.2 billion.", True),                          # the level after the change
    (DEFERRED, False),                                                        # a part of net sales
    ("Revenue increased $2.3 billion compared with the prior year.", False),   # how far it moved
    ("The Company had total deferred revenue of $12.2 billion.", False),       # another line item
    ("Net sales grew in every region, and the Company repurchased $19.0 billion of its stock.", False),
])
def test_a_quote_states_the_measure_only_with_its_own_amount(quote, states):
    revenue = _plan(REVENUE_Q).measures[0] if "dividend" not in quote else _plan(CDI_Q).measures[0]
    assert states_measure(quote, revenue) is states


def test_the_periods_a_line_prints():
    apple = FiscalCalendar.from_period_end("2023-07-01", 2023, 3)
    assert set(printed_periods("for the three- and nine-month periods ended July 1, 2023 and June 25, 2022", apple)) == {
        Printed(2023, 3, 3), Printed(2023, 9, 3), Printed(2022, 3, 3), Printed(2022, 9, 3)}
    assert printed_periods("for the fiscal year ended September 30, 2023", apple) == [Printed(2023, 12)]
    assert printed_periods("in the fourth quarter of fiscal 2023") == [Printed(2023, 3, 4)]
    assert printed_periods("Net sales in fiscal 2023 were") == [Printed(2023)]
    # a day is not a period: an event's date, a balance's, a rate averaged over some days
    assert printed_periods(CDI) == []
    assert printed_periods("On May 26, 2023, PepsiCo entered into a new credit agreement") == []
    assert printed_periods("the quarterly dividend of 12.25 cents per share") == []


def test_only_the_first_three_quarters_are_interim_of_their_year():
    year = Period(2023)
    assert interim_of(APPLE_Q3, year)
    assert not interim_of(APPLE_Q3, Period(2022))         # an interim report prints the prior year's figures
    assert not interim_of(APPLE_Q3, Period(2023, 3))      # and its own quarter
    assert not interim_of(APPLE_10K, year)
    assert not interim_of(AMCOR_Q4, year)                  # a fourth-quarter release states the whole year


def test_the_annual_revenue_is_not_stated_in_a_quarterly_report():
    plan = _plan(REVENUE_Q, APPLE_Q3)
    reason = not_stated((_cite(DEFERRED),), plan, FILINGS)
    assert reason and "quarterly report" in reason and "fiscal 2023 total is not printed" in reason
    # even a sentence that does state net sales, for the quarter, is no figure of the year
    quarter = _cite("Net sales for the three months ended July 1, 2023 were $81.8 billion.")
    assert "quarterly report" in not_stated((quarter,), plan, FILINGS)
    # the same line in the annual report speaks of other periods than the one asked
    other = not_stated((_cite("Net sales for the three months ended July 1, 2023 were $81.8 billion.", APPLE_10K),),
                       _plan(REVENUE_Q, APPLE_10K), FILINGS)
    assert other and "Q3 fiscal 2023" in other


def test_a_sentence_that_states_the_measure_asked_is_a_figure_found():
    assert not_stated((_cite(CDI, AMCOR_Q4, 2),), _plan(CDI_Q, AMCOR_Q4), FILINGS) is None
    annual = _cite("Net sales were $383.3 billion in fiscal 2023.", APPLE_10K)
    assert not_stated((annual,), _plan(REVENUE_Q, APPLE_10K), FILINGS) is None
    # a row that prints no period speaks for its filing's own
    row = _cite("Total net sales  383,285  394,328  365,817", APPLE_10K)
    assert not_stated((row,), _plan(REVENUE_Q, APPLE_10K), FILINGS) is None


def test_verify_refuses_quotes_that_do_not_state_the_figure_and_keeps_one_that_does():
    pages = {("q3", 9): DEFERRED, ("am", 2): CDI}
    grounding = Grounding(filings=FILINGS)
    refused = verify(draft(DEFERRED, _cite(DEFERRED), decisive=True), _plan(REVENUE_Q, APPLE_Q3), pages, grounding)
    assert not refused.found and refused.verification == "not_found" and "quarterly report" in refused.reason
    kept = verify(draft(CDI, _cite(CDI, AMCOR_Q4, 2), decisive=True), _plan(CDI_Q, AMCOR_Q4), pages, grounding)
    assert kept.found and kept.verification == "verified"
    # an explanation asked is not a figure asked: its quotes are not held to this rule
    why = verify(draft(DEFERRED, _cite(DEFERRED), decisive=True), _plan("What drove Apple's net sales in 2023?"),
                 pages, grounding)
    assert why.found


def test_a_figure_read_from_a_sentence_is_held_to_the_same_rule():
    from docqa.types import Figure

    pages = {("q3", 9): DEFERRED, ("q3", 3): "Total net sales  81,797  82,959  293,787  304,182"}
    grounding = Grounding(filings=FILINGS)
    plan = _plan(REVENUE_Q, APPLE_Q3)
    read = Figure(name="Total revenue", value=3.3e9, text="$3.3 billion", document=APPLE_Q3.file_name, page=9)
    sentence = verify(draft("Total revenue for fiscal 2023: $3.3 billion.", _cite(DEFERRED), figures=(read,),
                            measure="Total revenue", decisive=True), plan, pages, grounding)
    assert not sentence.found and "quarterly report" in sentence.reason
    # a figure read from a statement's row carries its column's period: this rule does not read it
    row = Figure(name="Total net sales", value=81797, text="81,797", scale=1e6, document=APPLE_Q3.file_name, page=3)
    cell = verify(draft("Total net sales: $81,797 million.", _cite(pages[("q3", 3)], page=3), figures=(row,),
                        measure="Total net sales", decisive=True), _plan("What was Apple's total net sales in Q3 2023?",
                                                                         APPLE_Q3), pages, grounding)
    assert cell.found and cell.verification == "verified", cell.reason


def test_the_reason_names_the_periods_the_lines_print():
    line = _cite("Net sales for the three- and nine-month periods ended July 1, 2023 were $81.8 billion and "
                 "$281.3 billion.", APPLE_10K)
    reason = not_stated((line,), _plan(REVENUE_Q, APPLE_10K), FILINGS)
    assert reason.endswith("state it for Q3 fiscal 2023, the 9 months to fiscal 2023"), reason
    assert states_measure("Total net sales, which were $81.8 billion, rose 1%.", _plan(REVENUE_Q).measures[0])


def test_a_plan_is_no_amount_that_was_but_a_day_in_may_is_no_plan():
    from docqa.verify.stated import PLANNED

    assert PLANNED.search("In fiscal 2019 we expect to add approximately 280 stores.")
    assert PLANNED.search("Capital expenditures will be about $2 billion.")
    assert not PLANNED.search(CDI)
    assert not PLANNED.search("Inventories of $974.8 million as of May 26, 2019 were valued at LIFO.")


def test_a_per_share_amount_printed_inside_its_name_states_it():
    from docqa.finance.lexicon import load_lexicon
    from docqa.verify.stated import states_measure

    [match] = [m for m in load_lexicon().match("What dividend per share did the board declare?")
               if m.key == "dividends_per_share"]
    assert states_measure("The Board declared a first-quarter 2019 dividend of $1.44 per share.", match)
    assert not states_measure("The Board declared a first-quarter 2019 dividend, payable in March.", match)


def test_a_rows_line_printed_single_spaced_is_a_row_not_a_sentence():
    from docqa.verify.stated import is_row
    assert is_row("Subscription $ 3,223,904 $ 2,076,584 $ 1,137,856")
    assert is_row("Total net sales  81,797  82,959")
    assert not is_row("Revenue grew 12% to $4.2 billion in 2022 and 2021")
    assert not is_row("We repurchased 15.7 million shares for $2.5 billion in 2022.")
