"""Several figures asked in the words analysts use: joined by "along with" or "together with", one
measure twice for two owners, a second question after "?" or ";", names handed out by "both" or set
apart after a dash, years of a line the lexicon does not name. Each part keeps the frame, owner and
period the other states; a comparison of two years stays one question."""

from __future__ import annotations

import pytest

from docqa.plan import Intent, build_plan
from docqa.plan.topic import deal_topic
from docqa.plan.wording import question_first


@pytest.mark.parametrize("question, parts", [
    ("Boeing 2018 diluted EPS together with net earnings",
     ("Boeing 2018 diluted EPS", "Boeing 2018 net earnings")),
    ("Netflix's streaming revenues for 2017 as well as Netflix's consolidated revenues",
     ("Netflix's streaming revenues for 2017", "Netflix's consolidated revenues for 2017")),
    ("What was Digital Media's revenue in fiscal 2016? And Adobe's total revenue?",
     ("What was Digital Media's revenue in fiscal 2016?", "What was Adobe's total revenue in fiscal 2016?")),
    ("Greater China revenues; also total revenues for Nike, fiscal 2019",
     ("Greater China revenues for Nike, fiscal 2019", "Total revenues for Nike, fiscal 2019")),
    ("What did Nike report for footwear revenues, and what for apparel revenues, in fiscal 2019?",
     ("What did Nike report for footwear revenues in fiscal 2019?",
      "What did Nike report for apparel revenues, in fiscal 2019?")),
    ("How much did Netflix spend on content in 2017 and in 2016?",
     ("How much did Netflix spend on content in 2017?", "How much did Netflix spend on content in 2016?")),
    ("Both North America and Western Europe EBIT for fiscal 2018 at Nike",
     ("North America EBIT for fiscal 2018 at Nike", "Western Europe EBIT for fiscal 2018 at Nike")),
    ("Kraft Heinz net sales for 2019 \u2014 United States and Canada?",
     ("Kraft Heinz net sales for 2019 in United States?", "Kraft Heinz net sales for 2019 in Canada?")),
    ("What did Boeing sell to China and to Europe in 2018?",
     ("What did Boeing sell to China in 2018?", "What did Boeing sell to Europe in 2018?")),
])
def test_the_parts_asked_in_everyday_wordings(question, parts):
    plan = build_plan(question, [])
    assert plan.parts == parts
    assert plan.intent is Intent.PARTS


@pytest.mark.parametrize("question", [
    "Boeing revenues in 2018 versus 2017",                       # a change: both years and the difference
    "What was 3M's revenue in 2018 and how does it compare with net income?",
    "What was Adobe's operating cash flow ratio in FY2017? Operating cash flow ratio is defined as cash from "
    "operations / total current liabilities.",                   # a definition after the question
    "What was 3M's Safety and Industrial operating income in 2022?",   # one name that holds "and"
])
def test_one_question_stays_one(question):
    assert build_plan(question, []).parts == ()


def test_two_years_set_against_each_other_ask_the_change():
    assert build_plan("kraft heinz net sales in 2019 versus 2018", []).reading.over_time == "change"
    # a verdict on the change reads its direction instead
    plan = build_plan("Did Nike's gross margin improve in fiscal 2023 compared with fiscal 2022?", [])
    assert plan.reading.over_time is None and plan.judgement == "up"


@pytest.mark.parametrize("question, asked", [
    ("Corning FY22: did net income go up vs 2021?", "Did net income go up vs 2021, Corning FY22?"),
    ("Nike fiscal 2023 \u2014 was gross margin above 40%?", "Was gross margin above 40%, Nike fiscal 2023?"),
    ("During 2022, did Lockheed Martin raise its dividend?", "Did Lockheed Martin raise its dividend, during 2022?"),
    ("In FY2022, what was Nike's revenue?", "In FY2022, what was Nike's revenue?"),
])
def test_a_label_before_a_yes_no_question_goes_after_it(question, asked):
    assert question_first(question) == asked


def test_a_verdict_asked_after_a_label_is_read_as_one():
    plan = build_plan("Corning FY22: did net income go up vs 2021?", [])
    assert plan.intent is Intent.YES_NO and plan.judgement == "up" and 2022 in plan.years


def test_income_attributable_to_the_company_named_is_the_companys_own():
    from docqa.plan.subject import owner_as_the_company

    assert owner_as_the_company("net income attributable to Verizon for 2022", ["Verizon Communications Inc."]) == \
        "net income attributable to the company for 2022"
    assert owner_as_the_company("net income attributable to 3M", ["3M Company"]) == "net income attributable to the company"
    # another owner's share is not the company's
    assert owner_as_the_company("net income attributable to Noncontrolling interests", ["3M Company"]) == \
        "net income attributable to Noncontrolling interests"


def test_closing_a_sale_is_stated_by_the_sale_itself():
    topic = deal_topic("Did PepsiCo close the sale of its juice brands in 2022?", frozenset({"pepsico"}))
    assert topic is not None
    verb = next(slot for slot in topic.slots if slot.label == "close")
    assert ("sold",) in verb.phrases and ("divest",) in verb.phrases
    sale = next(slot for slot in topic.slots if slot.label == "sale")
    assert ("sold",) in sale.phrases


@pytest.mark.parametrize("question, parts", [
    # a comma before the last "and": the items are cut at the commas, "technology and content" is one,
    # and the preposition of the first is each item's
    ("How much did Amazon spend on fulfillment, technology and content, and marketing in 2019?",
     ("How much did Amazon spend on fulfillment in 2019?", "How much did Amazon spend on technology and content in 2019?",
      "How much did Amazon spend on marketing in 2019?")),
    # places of two words each after "in", at the end
    ("Pfizer 2021 rev in Developed Europe and Emerging Markets",
     ("Pfizer 2021 rev in Developed Europe", "Pfizer 2021 rev in Emerging Markets")),
])
def test_lists_as_analysts_punctuate_them(question, parts):
    assert build_plan(question, []).parts == parts


def test_one_word_names_joined_by_and_may_be_one_name():
    assert build_plan("What was 3M's 2022 operating income in Safety and Industrial?", []).parts == ()


@pytest.mark.parametrize("question, parts", [
    # commas, with and without an Oxford "and"; a measure's own "and" is no cut
    ("JNJ FY2022: sales to customers, gross profit, net earnings",
     ("JNJ FY2022: sales to customers?", "JNJ FY2022: gross profit?", "JNJ FY2022: net earnings?")),
    ("Johnson & Johnson inventories at the end of fiscal 2022: raw materials and supplies, goods in process, "
     "and finished goods, respectively",
     ("Johnson & Johnson inventories at the end of fiscal 2022: raw materials and supplies?",
      "Johnson & Johnson inventories at the end of fiscal 2022: goods in process?",
      "Johnson & Johnson inventories at the end of fiscal 2022: finished goods?")),
    # numbered items keep their own "and"
    ("Amcor inventories at June 30, 2023 - (1) raw materials and supplies, (2) work in process and finished goods",
     ("Amcor inventories at June 30, 2023: raw materials and supplies?",
      "Amcor inventories at June 30, 2023: work in process and finished goods?")),
    # a bulleted list on lines of its own; "please" is no part of the label
    ("Adobe fiscal 2022 operating expenses, please:\n- research and development\n- sales and marketing",
     ("Adobe fiscal 2022 operating expenses: research and development?",
      "Adobe fiscal 2022 operating expenses: sales and marketing?")),
    # the same list with its lines run together
    ("Adobe fiscal 2022 operating expenses, please: - research and development - sales and marketing",
     ("Adobe fiscal 2022 operating expenses: research and development?",
      "Adobe fiscal 2022 operating expenses: sales and marketing?")),
    # "vs" between two figures; a date's comma is no list's comma (the two sides of "and" are two figures)
    ("PG&E Corporation 2022 operating revenues: electric vs natural gas",
     ("PG&E Corporation 2022 operating revenues: electric?", "PG&E Corporation 2022 operating revenues: natural gas?")),
    ("Acme - long-term debt at December 31, 2022 and capital expenditures for 2022",
     ("Acme - long-term debt at December 31, 2022", "Capital expenditures for 2022")),
    # years written "FY22 and FY21"
    ("adobe net income FY22 and FY21", ("adobe net income FY22", "adobe net income FY21")),
    # the list after "what were", a period and an aside before it
    ("For Acme's fiscal 2022 (year ended January 31, 2022), what were subscription revenue, services revenue and "
     "total revenue?",
     ("For Acme's fiscal 2022 (year ended January 31, 2022), what were subscription revenue?",
      "For Acme's fiscal 2022 (year ended January 31, 2022), what were services revenue?",
      "For Acme's fiscal 2022 (year ended January 31, 2022), what were total revenue?")),
    # two names with the same noun after each; a name may hold "and"
    ("What operating income did Acme's Retail segment and its Wholesale segment report in 2021?",
     ("What operating income did Acme's Retail segment report in 2021?",
      "What operating income did Acme's Wholesale segment report in 2021?")),
    ("Acme 2022 revenue for the Oil and Gas division and the Power Systems division",
     ("Acme 2022 revenue for the Oil and Gas division", "Acme 2022 revenue for the Power Systems division")),
])
def test_a_list_set_off_from_its_label_is_read_by_its_marks(question, parts):
    plan = build_plan(question, [])
    assert plan.parts == parts


def test_a_label_naming_the_table_leaves_the_line_after_it_as_the_line_asked():
    plan = build_plan("Adobe fiscal 2022 operating expenses: product development?", [])
    assert plan.reading.labelled == "product development"
    # the label's line item is not the measure asked
    assert not [m for m in plan.reading.asked if m.kind == "metric" and m.span not in plan.reading.qualified
                and m.key == "operating_expenses"]


def test_a_line_the_lexicon_names_after_a_label_is_the_line_asked_first():
    # "sales" of "sales and marketing" is no revenue: the selling expense line is named whole
    plan = build_plan("Adobe fiscal 2022 operating expenses: sales and marketing?", [])
    assert plan.reading.asked[0].key == "sales_marketing"
    assert "revenue" not in [m.key for m in plan.reading.asked]


@pytest.mark.parametrize("question, year_ended", [
    ("What were Amcor's research and development expenses for the year ended June 30, 2023?", True),
    ("What were Amcor's net sales for the three months ended June 30, 2023?", False),
])
def test_a_year_asked_by_its_end_is_a_year(question, year_ended):
    assert build_plan(question, []).year_ended is year_ended


@pytest.mark.parametrize("question, parts", [
    # the owner named without a possessive, the list set off by "along with" and a trailing period
    ("Walmart finished goods inventory, along with raw materials, at January 31, 2018?",
     ("Walmart finished goods inventory at January 31, 2018?", "Walmart raw materials at January 31, 2018?")),
    # two sides, each with a period of its own: a balance and a flow
    ("Verizon total operating lease liabilities at December 31, 2021, and cash paid for operating leases in fiscal 2021",
     ("Verizon total operating lease liabilities at December 31, 2021",
      "Verizon cash paid for operating leases in fiscal 2021")),
])
def test_the_parts_of_a_list_owned_by_a_name_read_against_the_held_filers(question, parts):
    from tests.plan.test_phrasings import CATALOGUE
    plan = build_plan(question, CATALOGUE)
    assert plan.parts == parts


@pytest.mark.parametrize("question, parts", [
    # a second "how many" with no noun counts the first's noun, at the first's day
    ("As of June 30, 2022, how many Acme employees were in engineering, and how many were in sales?",
     ("As of June 30, 2022, how many Acme employees were in engineering?",
      "How many Acme employees were in sales as of June 30, 2022?")),
    # "..., and how many in 2017?": the same count for another year
    ("How many claims did Acme's Services segment process in 2018, and how many in 2017?",
     ("How many claims did Acme's Services segment process in 2018?",
      "How many claims did Acme's Services segment process in 2017?")),
    # a label's list: the unit asked is no item, "as well as" cuts, the list's "and" comes once
    ("Acme FY2018 income statement: membership and other income, interest net, and loss on extinguishment of debt, in millions",
     ("Acme FY2018 income statement: membership and other income?", "Acme FY2018 income statement: interest net?",
      "Acme FY2018 income statement: loss on extinguishment of debt?")),
    ("Acme 2018 segment revenues by line - pharmacy as well as front store?",
     ("Acme 2018 segment revenues by line: pharmacy?", "Acme 2018 segment revenues by line: front store?")),
    ("Acme 2022 operating expenses - operating and maintenance, fund expense, and depreciation, amortization, and decommissioning?",
     ("Acme 2022 operating expenses: operating and maintenance?", "Acme 2022 operating expenses: fund expense?",
      "Acme 2022 operating expenses: depreciation, amortization, and decommissioning?")),
    # an expense item said with its noun ("SG&A expenses") still lists
    ("Give me Acme's FY2023 gross profit, SG&A expenses and R&D expenses from the income statement.",
     ("Give me Acme's FY2023 gross profit from the income statement.",
      "Give me Acme's FY2023 SG&A expenses from the income statement.",
      "Give me Acme's FY2023 R&D expenses from the income statement.")),
    # a part of the first count: "how many of those"
    ("How many regular employees did Acme have at December 31, 2022, and how many of those were covered by union agreements?",
     ("How many regular employees did Acme have at December 31, 2022?",
      "How many of Acme's regular employees were covered by union agreements at December 31, 2022?")),
    # questions asked one after another: each its own, the first's period for those that name none
    ("As of December 31, 2022, how many employees did Acme have? How many stores did Acme operate?",
     ("As of December 31, 2022, how many employees did Acme have?",
      "How many stores did Acme operate as of December 31, 2022?")),
    # a second count with a verb of its own: the first's noun, owner and period
    ("How many restaurants did Acme open in 2022? And how many did it close?",
     ("How many restaurants did Acme open in 2022?", "How many restaurants did Acme close in 2022?")),
    # a label before a count and its part
    ("Acme 2022: how many regular employees did the Utility have at year end, and how many of them were covered by union agreements?",
     ("Acme 2022: how many regular employees did the Utility have at year end?",
      "Acme 2022: how many of the Utility's regular employees were covered by union agreements at year end?")),
    # the filer's own variant of a measure, for two years
    ("What was Acme's adjusted net income (non-GAAP) in fiscal year 2022, and in fiscal 2021?",
     ("What was Acme's adjusted net income (non-GAAP) in fiscal year 2022?",
      "What was Acme's adjusted net income (non-GAAP) in fiscal 2021?")),
])
def test_more_parts_in_analysts_wordings(question, parts):
    assert build_plan(question, []).parts == parts


def test_a_company_named_american_express_is_no_format_instruction():
    plan = build_plan("For American Express as of Dec 31, 2022: savings and transaction accounts?", [])
    assert "transaction accounts" in plan.main_clause


@pytest.mark.parametrize("question, line", [
    # a count keeps the event its verb names, as filings print it; a verb of having goes
    ("How many restaurants did Acme open in 2022?", "restaurants did Acme opened"),
    ("How many claims did Acme process in 2018?", "claims did Acme processed"),
])
def test_a_count_keeps_the_event_its_verb_names(question, line):
    assert line in build_plan(question, []).line_clause


def test_a_count_of_what_a_company_has_drops_the_verb_of_having():
    assert "operate" not in build_plan("How many stores did Acme operate at the end of 2022?", []).line_clause
