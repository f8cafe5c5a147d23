"""Parts read from parallel wording when no measure the lexicon names sits between them: two places
after a preposition each, two days, names handed out by "respectively", the same noun ending both
phrases, a second "how many" that borrows the first's verb, and a list after a label."""

from __future__ import annotations

import pytest

from docqa.plan import Intent, build_plan
from docqa.plan.parallel import by_parallel


@pytest.mark.parametrize("question, parts", [
    ("Nike fiscal 2021 footwear revenue in Greater China and in EMEA?",
     ("Nike fiscal 2021 footwear revenue in Greater China?", "Nike fiscal 2021 footwear revenue in EMEA?")),
    ("Coca-Cola property and equipment in the United States and outside the United States at December 31, 2017?",
     ("Coca-Cola property and equipment in the United States at December 31, 2017?",
      "Coca-Cola property and equipment outside the United States at December 31, 2017?")),
    ("Corning display revenue in Taiwan, as well as internationally?",
     ("Corning display revenue in Taiwan?", "Corning display revenue internationally?")),
    ("Pfizer contract liabilities at July 2, 2023 and at December 31, 2022",
     ("Pfizer contract liabilities at July 2, 2023", "Pfizer contract liabilities at December 31, 2022")),
    ("Netflix 2017 streaming contribution profit for Domestic and International, respectively?",
     ("Netflix 2017 streaming contribution profit for Domestic?", "Netflix 2017 streaming contribution profit for International?")),
    ("PepsiCo net assets of U.S. businesses and non-U.S. businesses at December 25, 2021",
     ("PepsiCo net assets of U.S. businesses at December 25, 2021",
      "PepsiCo net assets of non-U.S. businesses at December 25, 2021")),
    ("How many stores and how many employees did Best Buy have at the end of fiscal 2019?",
     ("How many stores did Best Buy have at the end of fiscal 2019?",
      "How many employees did Best Buy have at the end of fiscal 2019?")),
    ("How many restaurants did McDonald's operate at the end of 2022, and how many franchised restaurants?",
     ("How many restaurants did McDonald's operate at the end of 2022?",
      "How many franchised restaurants did McDonald's operate at the end of 2022?")),
])
def test_parallel_phrases_are_one_question_each(question, parts):
    assert by_parallel(question) == parts
    plan = build_plan(question, [])
    assert plan.intent is Intent.PARTS
    assert plan.parts == parts


@pytest.mark.parametrize("question", [
    "How much did Best Buy spend on buybacks between the end of fiscal 2019 and March 26, 2019?",  # one span
    "What was 3M's Safety and Industrial operating income in 2022?",              # one name holding "and"
    "What were Costco's cash and cash equivalents at the end of fiscal 2021?",    # one measure's own "and"
    "Nike revenue in fiscal 2021 and in the U.S.?",                               # a period and a place: not two of a kind
])
def test_words_that_are_not_two_phrases_of_one_shape_are_one_question(question):
    assert by_parallel(question) == ()


def test_a_list_after_a_label_is_split_though_no_measure_is_named():
    plan = build_plan("Visa FY2022 - payments volume; processed transactions; cross-border volume", [])
    assert plan.parts == ("Visa FY2022: payments volume?", "Visa FY2022: processed transactions?",
                          "Visa FY2022: cross-border volume?")


def test_the_second_of_two_days_keeps_its_own_day():
    # both phrases are days: neither is a tail of the other
    assert by_parallel("Kraft Heinz goodwill at December 28, 2019 and at December 29, 2018?") == (
        "Kraft Heinz goodwill at December 28, 2019?", "Kraft Heinz goodwill at December 29, 2018?")
