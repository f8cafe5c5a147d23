"""Figure questions in the forms analysts ask them, over the bundled samples (Adobe 2022, Amazon
2017, Netflix 2017): one measure against another, the verb a question asks an amount with, a debt
line printed as a bare "Debt" under its section, and a year never read off a quarter's column."""

from __future__ import annotations

from contextlib import contextmanager

from tests.filings import cut_filing


@contextmanager
def _filing_pages(tmp_path, name: str, pages: tuple[int, ...]):
    """An engine over a few pages of a corpus filing (numbered as in the filing)."""
    from docqa import Engine

    pdf = cut_filing(name, pages, tmp_path / name)
    with Engine.open(tmp_path / "index", dense=False) as engine:
        engine.ingest([pdf])
        yield engine


def _quotes(answer) -> str:
    return " | ".join(c.quote for c in answer.citations)


def test_one_measure_against_another(lexical_engine):
    # Adobe FY2022: cash from operations 7,838 against net income 4,756.
    answer = lexical_engine.ask("Was Adobe's cash from operations larger than its net income in FY2022?")
    assert answer.found and answer.text.startswith("Yes.")
    assert "7,838" in answer.text and "4,756" in answer.text
    assert "operating activities" in _quotes(answer).lower() and "net income" in _quotes(answer).lower()
    # The other way round, and with the other verb: the left side is the one compared.
    no = lexical_engine.ask("Were Adobe's total liabilities greater than its total assets in FY2022?")
    assert no.found and no.text.startswith("No.")
    # Amazon 2017: purchases of property and equipment 11,955 against D&A 11,478.
    exceeds = lexical_engine.ask("Did Amazon's capital expenditures exceed its depreciation and amortization in 2017?")
    assert exceeds.found and exceeds.text.startswith("Yes.") and "11,955" in exceeds.text


def test_a_comparison_whose_sides_cannot_be_read_is_not_answered_by_passages(lexical_engine):
    # Netflix's note prints its total streaming content obligations at the end of 2017: each side is
    # read where it is printed, the note's row and the income statement's.
    answer = lexical_engine.ask("Was Netflix's streaming content obligation larger than its net income in 2017?")
    assert answer.found and answer.text.startswith("Yes.")
    assert "17,694,642" in answer.text and "558,929" in answer.text
    # Nothing prints the other side: sentences that mention either are no verdict on which is larger.
    unread = lexical_engine.ask("Was Netflix's spending on billboards larger than its net income in 2017?")
    assert not unread.found
    # A side named with the period and a qualifier is still read as its row, of the part it names.
    from docqa.answer.figures.intents.yes_no import side_measures

    # (first as printed under the part's name; last, by the label the filing gives the company's line)
    right, *_ = side_measures("its Digital Experience segment revenue in FY2022", frozenset({"adob"}))
    assert "FY2022" not in right.inner.phrase and "Digital Experience" in right.inner.phrase
    assert right.names == ("Digital Experience",)


def test_higher_than_the_year_before_is_the_measure_over_time(lexical_engine):
    answer = lexical_engine.ask("Was Netflix's revenue higher than the prior year in 2017?")
    assert answer.found and answer.text.startswith("Yes.")
    assert "11,692,713" in answer.text and "8,830,669" in answer.text


def test_the_verb_of_the_question_does_not_narrow_the_line_item(lexical_engine):
    answer = lexical_engine.ask("How much did Adobe spend repurchasing its own shares in FY2022?")
    assert answer.found and "6,550" in answer.text
    assert "Repurchases of common stock" in _quotes(answer)


def test_bare_debt_rows_read_by_their_sections(lexical_engine):
    # Adobe's balance sheet prints "Debt 500" under current liabilities and "Debt 3,629" below them.
    answer = lexical_engine.ask("What was Adobe's total debt at the end of FY2022?")
    assert answer.found and "4,129" in answer.text
    assert answer.verification == "verified"


def test_a_year_is_never_read_off_a_quarterly_data_note(tmp_path):
    """General Mills prints gross margin per quarter in Note 19 (columns First Quarter ... Fourth
    Quarter, each over fiscal 2022 and 2021) and none on its income statement: the year's gross
    profit is net sales less cost of sales, not the first quarter's 1,597.4."""
    with _filing_pages(tmp_path, "GENERALMILLS_2022_10K.pdf", (1, 2, 3, 45, 47, 88)) as engine:
        answer = engine.ask("What was General Mills's gross profit in FY2022?")
    assert answer.found and "6,402.2" in answer.text
    assert "1,597.4" not in answer.text


def test_a_tax_benefit_makes_the_effective_rate_negative(lexical_engine):
    # Netflix 2017: "Provision for (benefit from) income taxes (73,608)" on pre-tax income 485,321.
    answer = lexical_engine.ask("What was Netflix's effective tax rate in FY2017?")
    assert answer.found and "-15.2%" in answer.text
    assert answer.verification == "verified"


def test_an_expense_printed_subtractive_is_answered_as_its_size(lexical_engine):
    # Amazon 2017: "Provision for income taxes (769)", a cost shown as a deduction.
    answer = lexical_engine.ask("What was Amazon's income tax expense in 2017?")
    assert answer.found and "$769 million" in answer.text and "as printed: (769)" in answer.text


def test_a_loss_asked_is_the_sign_of_the_line_not_whether_it_is_printed(lexical_engine):
    # Every filing prints a bottom line: "did it report a net loss" asks its sign.
    no = lexical_engine.ask("Did Adobe report a net loss for fiscal 2022?")
    assert no.found and no.text.startswith("No.") and "4,756" in no.text
    yes = lexical_engine.ask("Was Netflix profitable in 2017?")
    assert yes.found and yes.text.startswith("Yes.") and "558,929" in yes.text
    # A qualified loss is its own line item, and sentences about other losses do not answer it.
    operating = lexical_engine.ask("Did Amazon report an operating loss in 2017?")
    assert operating.found and operating.text.startswith("No.") and "4,106" in operating.text
    assert operating.answerer == "figures"


def test_sign_questions_are_told_apart_from_losses_on_something():
    from docqa.plan.judgement import bottom_line_asked, judgement, sign_asked

    assert judgement("Did 3M report a net loss for fiscal 2022?") == "negative"
    assert judgement("Was Amazon profitable in 2019?") == "positive"
    assert judgement("Did AMD report an operating loss in 2015?") == "negative"
    assert bottom_line_asked("Did 3M report a net loss for fiscal 2022?")
    assert not bottom_line_asked("Did AMD report an operating loss in 2015?") and sign_asked("Did AMD report an operating loss in 2015?")
    assert not sign_asked("Did JPMorgan incur any losses on loans?")
    assert judgement("Was Block's cash from operations larger than its net income?") == "compare"


def test_a_line_asked_of_is_read_from_the_statement_an_event_from_the_text():
    from docqa.plan.topic import topic_is_a_line

    assert topic_is_a_line("Did Microsoft Corporation pay dividends in fiscal 2022?")
    assert not topic_is_a_line("Did Kraft Heinz report a goodwill impairment in its 2019 10-K?")


def test_words_that_name_a_printed_row_read_that_row_not_the_item_they_stand_for(tmp_path):
    """"Cost of services" is, for the lexicon, a way to ask for the cost of revenue; Boeing prints
    it as a line of its own beside "Cost of products" (and "Cost of sales" 63,106 in MD&A)."""
    with _filing_pages(tmp_path, "BOEING_2022_10K.pdf", (1, 2, 3, 28, 55)) as engine:
        services = engine.ask("What was Boeing's cost of services in 2022?")
        change = engine.ask("Did Boeing's cost of services grow in 2022?")
        sales = engine.ask("What was Boeing's cost of sales in 2022?")
    assert services.found and "9,109" in services.text and "Cost of services" in services.text
    assert change.found and change.text.startswith("No.") and "9,283" in change.text and "9,109" in change.text
    assert sales.found and "63,106" in sales.text  # words the filing does not print alone: the item


def test_an_amount_is_no_answer_to_what_share_of_a_whole_it_was():
    from docqa.answer.figures.reading.asked_kind import kind_answers
    from docqa.answer.figures.reading.evaluated import Evaluated
    from docqa.finance.periods import Period

    amount = Evaluated("Research and development", 308820.0, "currency", [], "", "", False, Period(2022))
    share = Evaluated("R&D as a share of revenue", 0.3534, "percent", [], "", "", False, Period(2022))
    from docqa.plan.format import kinds_asked

    asked = kinds_asked("What percentage of MongoDB's FY2022 revenue was spent on research and development?")
    assert not kind_answers(asked, amount) and kind_answers(asked, share)
    assert kind_answers(kinds_asked("What was MongoDB's research and development expense in FY2022?"), amount)


def test_a_quarters_return_is_stated_for_a_year_on_its_closing_balances(tmp_path):
    """JPMorgan's second quarter of 2023: net income 14,472 over quarter-end equity 312,516, times
    four (the 10-Q's balance sheet sets June 30 beside December 31, not beside the quarter a year
    before, whose "total assets" another table prints)."""
    with _filing_pages(tmp_path, "JPMORGAN_2023Q2_10Q.pdf", (1, 2, 3, 96, 98)) as engine:
        roe = engine.ask("What was JPMorgan's return on equity for Q2 2023?")
    assert roe.found and roe.verification == "verified", roe.text
    assert "18.5%" in roe.text and "4 * (14,472 / 312,516)" in roe.text and "annualized" in roe.text
    assert "quarter-end" in roe.text and "year-end" not in roe.text


def test_how_a_question_frames_an_amount_is_no_word_of_the_line_item():
    from docqa.answer.figures.reading.line_item_words import leaf_text

    assert leaf_text("How much did Amazon spend on technology and content in 2017", frozenset({"amazon"})) == \
        "technology and content"
    assert leaf_text("How much did Netflix spend on marketing in 2017", frozenset({"netflix"})) == "marketing"
