"""Parts read from how a question lists lines the lexicon does not name: the printed labels of note,
segment and KPI tables are listed after the owner's possessive, or asked again in a second sentence
or clause; each becomes a part in the first's frame and period. A lone "and" inside a label, a
qualifier's comma and a clause that is another question are no cut."""

from __future__ import annotations

import pytest

from docqa.plan import Intent, build_plan
from docqa.plan.label_lists import by_labels


@pytest.mark.parametrize("question, parts", [
    # "versus" between two labels, the period after them
    ("Lockheed Martin's corporate assets versus total business segment assets for fiscal 2021?",
     ("Lockheed Martin's corporate assets for fiscal 2021?", "Lockheed Martin's total business segment assets for fiscal 2021?")),
    # a component and a total: "and total" starts the second line
    ("What were Boston Properties' office properties and total in-service properties at December 31, 2015?",
     ("What were Boston Properties' office properties at December 31, 2015?",
      "What were Boston Properties' total in-service properties at December 31, 2015?")),
    # three labels handed out by "respectively"
    ("What were American Water Works' service cost, interest cost and expected return on plan assets in 2020, respectively?",
     ("What were American Water Works' service cost in 2020?", "What were American Water Works' interest cost in 2020?",
      "What were American Water Works' expected return on plan assets in 2020?")),
    # the total's noun is both's
    ("What were Walmart's non-U.S. and total income before income taxes in fiscal 2018?",
     ("What were Walmart's non-U.S. income before income taxes in fiscal 2018?",
      "What were Walmart's total income before income taxes in fiscal 2018?")),
    # a second sentence that names only the item
    ("What was Verrica's clinical trials and drug development expense in fiscal 2022? And its professional fees?",
     ("What was Verrica's clinical trials and drug development expense in fiscal 2022?",
      "What was Verrica's professional fees in fiscal 2022?")),
])
def test_listed_labels_are_one_question_each(question, parts):
    assert by_labels(question) == parts
    plan = build_plan(question, [])
    assert plan.intent is Intent.PARTS
    assert plan.parts == parts


def test_a_second_clause_that_asks_again_takes_the_owner_and_the_period():
    plan = build_plan("How much was Corning's life science products revenue in fiscal 2022, and how much was its "
                      "hemlock and emerging growth businesses revenue?", [])
    assert plan.parts == ("How much was Corning's life science products revenue in fiscal 2022?",
                          "How much was Corning's hemlock and emerging growth businesses revenue in fiscal 2022?")


@pytest.mark.parametrize("question", [
    # one printed label holding "and" (nothing says it is two)
    "What was Verrica's clinical trials and drug development expense in fiscal 2022?",
    # a qualifier's comma is the label's own
    "What was ARCA's state income tax benefit, net of federal benefit in fiscal 2022?",
    "What was Lockheed Martin's long-term debt, current portion at the end of 2021?",
    # a second sentence that is another question, not an item
    "What was Nike's inventory turnover in fiscal 2023? And why did it change?",
    # no frame: no owner and no "what was the"
    "Explain corporate assets versus segment assets in 2021",
])
def test_words_that_list_nothing_are_not_split(question):
    assert by_labels(question) == ()


def test_a_total_holding_and_is_one_item():
    assert by_labels("What were Odyssey Gold's accounts payable and total trade and other payables at 30 June 2022?") == (
        "What were Odyssey Gold's accounts payable at 30 June 2022?",
        "What were Odyssey Gold's total trade and other payables at 30 June 2022?")


def test_a_lexicon_measure_holding_and_is_one_item():
    question = "What were Costco's cash and cash equivalents and total current assets at the end of fiscal 2021?"
    spans = [(question.index("cash and cash equivalents"), question.index("cash and cash equivalents") + 25)]
    assert by_labels(question, spans) == (
        "What were Costco's cash and cash equivalents at the end of fiscal 2021?",
        "What were Costco's total current assets at the end of fiscal 2021?")


@pytest.mark.parametrize("question, second", [
    ("How much was 3M Company's adjusted net income in fiscal 2018, and how much was its net income including "
     "non-controlling interest?", "How much was 3M Company's net income including non-controlling interest in fiscal 2018?"),
    ("How much was General Mills, Inc.'s foreign currency translation in fiscal 2019, and how much was its prior "
     "service credits?", "How much was General Mills, Inc.'s prior service credits in fiscal 2019?"),
])
def test_its_in_a_second_clause_is_the_whole_owner(question, second):
    assert build_plan(question, []).parts[1] == second


def test_a_measure_named_only_in_the_second_sentence_plans_without_error():
    # the first names a line the lexicon does not know, the second one it does: once a crash of the plan
    question = ("What was NIKE, Inc.'s assumed conversion of dilutive stock options and awards in fiscal 2021? "
                "And its net income available to common stockholders?")
    assert build_plan(question, []).parts == (
        "What was NIKE, Inc.'s assumed conversion of dilutive stock options and awards in fiscal 2021?",
        "What was NIKE, Inc.'s net income available to common stockholders in fiscal 2021?")


@pytest.mark.parametrize("question, parts", [
    # names set against each other; "Greater China" is a region, no superlative
    ("What was Nike's EBIT for North America vs Greater China in fiscal 2021?",
     ("What was Nike's EBIT for North America in fiscal 2021?", "What was Nike's EBIT for Greater China in fiscal 2021?")),
    # members after a preposition, the period (and the owner) after them for all
    ("What was Nike's revenue in North America and Greater China in fiscal 2021?",
     ("What was Nike's revenue in North America in fiscal 2021?", "What was Nike's revenue in Greater China in fiscal 2021?")),
    ("Revenue from Americas, EMEA and Asia Pacific for Adobe in 2017?",
     ("Revenue from Americas for Adobe in 2017?", "Revenue from EMEA for Adobe in 2017?",
      "Revenue from Asia Pacific for Adobe in 2017?")),
])
def test_members_of_one_measure_are_one_question_each(question, parts):
    plan = build_plan(question, [])
    assert plan.pick is None
    assert plan.parts == parts


@pytest.mark.parametrize("question", [
    "What was 3M's operating income in Safety and Industrial in 2018?",   # one segment's name holding "and"
    "What were the net sales of Procter & Gamble in 2022?",               # one company's name
])
def test_one_name_holding_and_is_one_member(question):
    assert build_plan(question, []).parts == ()


@pytest.mark.parametrize("question, parts", [
    # a quarterly report's spans, ended on one day
    ("What was JPMorgan's net revenue for the three and six months ended June 30, 2023?",
     ("What was JPMorgan's net revenue for the three months ended June 30, 2023?",
      "What was JPMorgan's net revenue for the six months ended June 30, 2023?")),
    ("What were MGM's net revenues for the quarter and six months ended June 30, 2023?",
     ("What were MGM's net revenues for the quarter ended June 30, 2023?",
      "What were MGM's net revenues for the six months ended June 30, 2023?")),
    # the right phrase's preposition opens the left one, not the "of" inside it
    ("JPMorgan net income for the second quarter of 2023 and for the first six months of 2023?",
     ("JPMorgan net income for the second quarter of 2023?", "JPMorgan net income for the first six months of 2023?")),
])
def test_periods_a_quarterly_report_prints_side_by_side_are_parts(question, parts):
    assert build_plan(question, []).parts == parts


def test_one_span_is_one_question():
    assert build_plan("What was JPMorgan's net income for the six months ended June 30, 2023?", []).parts == ()


def test_a_measure_named_average_is_asked_of_each_member():
    # "average MAUs" is the measure's name; an average of the years listed stays one figure
    plan = build_plan("Activision Blizzard: average MAUs for the three months ended December 31, 2019 - Activision and King?", [])
    assert len(plan.parts) == 2
    assert build_plan("What was Nike's average revenue over 2021 and 2022?", []).parts == ()
    assert build_plan("What is the FY2018 - FY2020 average EBITDA margin for Walmart, from the income statement and "
                      "the cash flow statement?", []).parts == ()


def test_a_list_a_table_prints_as_one_label_is_one_line():
    question = "What were Acme's accrued vacation, salaries and wages in 2022?"
    assert len(build_plan(question, []).parts) == 3
    printed = {"accrued vacation, salaries and wages"}
    assert build_plan(question, [], labels=lambda phrase: phrase.lower() in printed).parts == ()
    # a list no table prints as one label is still split
    assert len(build_plan("What were Acme's accrued vacation, bonuses and wages in 2022?", [],
                          labels=lambda phrase: phrase.lower() in printed).parts) == 3


def test_a_label_printed_for_one_part_does_not_undo_parts_asked_apart():
    # "gross property and equipment" is a printed label, but the question asks it and another line in turn
    question = ("What was Amazon's gross property and equipment at December 31, 2019? And its property and equipment, "
                "net on the balance sheet?")
    printed = {"gross property and equipment"}
    assert len(build_plan(question, [], labels=lambda phrase: phrase.lower() in printed).parts) == 2
