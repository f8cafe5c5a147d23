"""Plan slots that say which of a question's words name the line asked: the company as the question
names it, a verb tying the item to a place, a topic label before the question proper."""

import pytest

from docqa.plan import build_plan
from docqa.types import DocType, Document, DocumentMeta


def doc(id_, company, year, aliases=(), ticker=None):
    return Document(id=id_, file_name=f"{id_}.pdf", path="", sha256=id_, pages=1,
                    meta=DocumentMeta(company=company, fiscal_year=year, doc_type=DocType.ANNUAL, aliases=aliases,
                                      ticker=ticker))


DOCS = [
    doc("jnj", "Johnson & Johnson", 2022),
    doc("msft", "Microsoft Corporation", 2023, aliases=("Microsoft",), ticker="MSFT"),
    doc("khc", "The Kraft Heinz Company", 2019, aliases=("Kraft Heinz", "Kraft Canada Inc")),
    doc("aes", "The AES Corporation", 2021, aliases=("AES",)),
]


def test_the_words_naming_the_company_are_kept_as_written():
    # first as written, then the filer's names the question prints (as the filings spell them)
    assert build_plan("J&J goods in process inventory at the end of fiscal 2022", DOCS).named_as[0] == "J&J"
    assert build_plan("What was MSFT's revenue in 2023?", DOCS).named_as[0] == "MSFT"
    named = build_plan("Kraft Heinz adjusted EBITDA in 2019", DOCS).named_as
    assert named[0] == "Kraft Heinz" and "kraft canada" not in named


def test_an_alias_the_question_does_not_use_is_no_word_of_the_company():
    # "Kraft Canada Inc" is one of the filer's names; the question names it "Kraft Heinz", and
    # "in Canada" is the part asked
    assert build_plan("Kraft Heinz Segment Adjusted EBITDA for 2019 in Canada?", DOCS).scope == ("Canada",)


def test_a_verb_between_the_item_and_its_place_is_read_apart():
    assert build_plan("How much goodwill sat in Microsoft's Intelligent Cloud segment in 2023?", DOCS).linking == ("sat",)
    assert build_plan("Microsoft property and equipment, net located in the United States, 2023", DOCS).linking == ("located",)
    assert build_plan("What was Microsoft's goodwill in 2023?", DOCS).linking == ()


def test_an_item_named_only_in_a_label_before_the_question_is_qualified_by_it():
    plan = build_plan("AES inventory breakdown: what was the fuel and other raw materials balance at December 31, 2021?", DOCS)
    assert [m.key for m in plan.measures] == ["inventory"]
    assert plan.reading.qualified == {plan.measures[0].span}
    # the question proper asks the item itself, or nothing of its own: the label is the company and period
    for question in ("AES FY21: what was inventory?", "AES inventory: what was it at December 31, 2021?"):
        assert build_plan(question, DOCS).reading.qualified == frozenset()


def test_a_balance_on_a_day_in_januarys_first_week_closes_the_year_before():
    jnj = [doc("jnj", "Johnson & Johnson", 2022)]
    plan = build_plan("goodwill allocated to J&J's MedTech segment as of January 1, 2023", jnj)
    assert plan.years == (2022,)
    assert [p.fiscal_year for p in plan.asked_periods()] == [2022]
    assert build_plan("J&J goodwill as of December 31, 2022", jnj).years == (2022,)


def test_a_request_for_a_count_asks_a_figure():
    plan = build_plan("Give me McDonald's count of foreign affiliated restaurants as of December 31, 2022.", [])
    assert plan.asks_figure and plan.counted == "foreign affiliated restaurants" and "count" in plan.kinds
    assert not build_plan("Give me a summary of McDonald's risk factors in 2022", []).asks_figure
    assert build_plan("What was the number of employees at 3M in 2018?", []).counted == "employees"


def test_a_name_after_a_label_is_the_part_asked_and_its_abbreviation_stands_for_all_of_it():
    # "AES 2021: Utilities..." the first word after a label's colon is no grammar when it names something;
    # an abbreviation in parentheses stands for the whole run before it
    assert build_plan("AES 2021: Utilities SBU revenue?", DOCS).scope == ("Utilities SBU",)
    scope = build_plan("Microsoft 2023: Intelligent Cloud Services (ICS) revenue?", DOCS).scope
    assert scope == ("Intelligent Cloud Services|ICS",)
    assert build_plan("AES 2021: What was revenue?", DOCS).scope == ()


def test_the_first_word_of_a_sentence_is_grammar_though_uncommon():
    # only after a label's colon does a capitalised first word name something
    question = "What is AES's 2021 net working capital? Define net working capital as current assets less current liabilities."
    assert build_plan(question, DOCS).scope == ()


def test_the_lines_words_are_the_question_without_its_period_filing_and_scaffolding():
    from docqa.plan.line_text import leaf_text
    assert leaf_text("how much did PepsiCo spend on capital projects in the fourth quarter alone, in its 10-Q",
                     frozenset({"pepsico"})) == "capital projects"
    assert leaf_text("Amcor, six months ended December 31, 2022: Flexibles net sales in its Q2 release",
                     frozenset({"amcor"})) == "Flexibles net sales"


def test_owing_and_whom_it_is_owed_frame_the_line():
    from docqa.plan.line_text import leaf_text
    assert leaf_text("How much did Verizon owe employees for accrued vacation at December 31, 2020",
                     frozenset({"verizon"})) == "accrued vacation"
    assert leaf_text("how much did Mercurity owe under operating leases", frozenset({"mercurity"})) == "operating leases"
    assert leaf_text("how much long-term debt did X owe", frozenset({"x"})) == "long-term debt"


def test_words_in_brackets_that_may_place_the_row_are_kept_apart():
    from docqa.plan.line_text import bracketed_asides
    assert bracketed_asides("Nike's property, plant and equipment (deferred tax liabilities) in fiscal 2023") == (
        "deferred tax liabilities",)
    assert bracketed_asides("PG&E total compensation expense (after-tax) in 2022") == ("after-tax",)
    # a contrast, a restatement of the period or unit, or a figure places no row
    assert bracketed_asides("purchased technology at Dec 2, 2022 (net of amortization, not gross)") == ()
    assert bracketed_asides("capital expenditure (in USD millions) for 3M") == ()
    assert bracketed_asides("operating lease liabilities (i.e. the long-term piece)") == ()


def test_a_participle_placing_a_line_the_lexicon_does_not_name_is_a_linking_word():
    plan = build_plan("Corning FY2020 - long-lived assets located in Korea at year end?", DOCS)
    assert "located" in plan.linking
    assert build_plan("What were assets held for sale in 2022?", DOCS).linking == ()


@pytest.mark.parametrize("question, runs_on", [
    ("What was 3M's foreign currency denominated debt in 2022?", True),     # words before a composed amount
    ("What were American Water's unamortized debt issuance costs in 2022?", True),  # words after it
    ("What was PepsiCo's debt guarantee of wholly-owned subsidiary in 2022?", True),
    ("What was 3M's total debt in 2022?", False),                           # the composed amount itself
    ("What was 3M's debt at the end of 2022?", False),
    ("What was Walmart's free cash flow in fiscal 2020?", False),
])
def test_words_around_a_composed_amount_name_a_line_of_their_own(question, runs_on):
    assert bool(build_plan(question, []).reading.runs_on) is runs_on
