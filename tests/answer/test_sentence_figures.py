"""Figures a filing states only in a sentence, read by what the sentence says of them (the sentences
are copied from the filings named)."""

from __future__ import annotations

import pytest

from docqa.answer.contract import Evidence
from docqa.answer.sentence_figures import SentenceFigureAnswerer
from docqa.plan import build_plan
from docqa.types import EvidencePage

# 3M_2018_10K.pdf p. 4; WALMART_2018_10K.pdf p. 7; CVSHEALTH_2018_10K.pdf (MD&A)
THREE_M = ("At December 31, 2018, the Company employed 93,516 people (full-time equivalents), with 37,412 employed "
           "in the United States and 56,104 employed internationally.")
WALMART = ("Walmart U.S. is our largest segment and operates retail stores in all 50 states in the U.S., Washington "
           "D.C. and Puerto Rico, with three primary store formats, as well as eCommerce.")
CVS = ("Retail/LTC segment operating income for 2018 also includes a $43 million loss on impairment of long-lived "
       "assets primarily related to the impairment of property and equipment.")
DIVIDEND = "In February 2019, the Board of Directors declared a quarterly dividend of $1.44 per share."
BUYBACK = "During fiscal 2018, we repurchased 10.9 million shares for $2.5 billion, or $229.50 per share."


def _page(text: str, year: int = 2018) -> EvidencePage:
    return EvidencePage(label="P1", document="X_10K.pdf", document_id="x", page=4, text=text, year=year)


def _answer(question: str, *texts: str, year: int = 2018):
    return SentenceFigureAnswerer().answer(build_plan(question, []), Evidence.of([_page(t, year) for t in texts]))


def test_a_count_stated_in_a_sentence_is_the_figure_and_quotes_it():
    draft = _answer("How many employees did the company have at the end of 2018?", THREE_M)
    assert draft is not None and draft.found
    assert draft.figures[0].value == 93516
    assert draft.citations[0].quote == THREE_M


def test_a_number_of_something_else_is_no_count_of_what_was_asked():
    assert _answer("How many retail stores did Walmart operate at the end of fiscal 2018?", WALMART) is None


def test_an_amount_the_sentence_says_is_another_things_is_not_taken():
    # "operating income ... also includes a $43 million loss": the loss, not the operating income
    assert _answer("What operating income did CVS Health's Retail/LTC segment report for 2018?", CVS) is None


@pytest.mark.parametrize("question, value", [
    ("How much did the company spend repurchasing shares in fiscal 2018?", 2500.0),   # in millions
    ("What quarterly dividend per share did the board declare in February 2019?", 1.44),
])
def test_the_amount_of_the_kind_asked(question, value):
    draft = _answer(question, BUYBACK, DIVIDEND)
    assert draft is not None and draft.figures[0].value == pytest.approx(value)


def test_a_sentence_about_another_year_does_not_answer():
    assert _answer("How many employees did the company have at the end of 2017?", THREE_M, year=2017) is None


def test_two_sentences_that_disagree_are_no_answer():
    other = "At December 31, 2018, the Company employed 91,000 people worldwide."
    assert _answer("How many employees did the company have at the end of 2018?", THREE_M, other) is None


FIRST_QUARTER = "In February 2019, the Board of Directors declared a first-quarter 2019 dividend of $1.44 per share."
FOURTH_QUARTER = "In November 2018, the Board of Directors declared a fourth-quarter 2018 dividend of $1.36 per share."


def test_a_quarter_asked_is_read_from_the_sentence_that_names_that_quarter():
    draft = _answer("What first-quarter 2019 dividend per share did the board declare?", FOURTH_QUARTER,
                    FIRST_QUARTER)
    assert draft is not None and draft.figures[0].value == pytest.approx(1.44)
    assert "Q1 fiscal 2019" in draft.text
    assert _answer("What first-quarter 2019 dividend per share did the board declare?", FOURTH_QUARTER) is None


def test_a_count_of_people_is_read_in_the_filings_own_word_for_them():
    # a533b4... (ARCA biopharma 2022 10-K) p. 15; NeoGenomics 2022 10-K p. 10
    arca = "As of December 31, 2022, we had 6 employees, 5 of which are full-time."
    neo = ("As of December 31, 2022, we had approximately 2,100 full-time equivalent employees and contracted "
           "pathologists.")
    assert _answer("How many people did the company employ at the end of 2022?", arca, year=2022).figures[0].value == 6
    assert _answer("How many people did the company employ at the end of 2022?", neo, year=2022).figures[0].value == 2100
    # a note's number is no count: "(9) Employee Benefit Plans"
    note = "(9) Employee Benefit Plans The Company has a 401(k) plan for its employees in 2022."
    assert _answer("How many people did the company employ at the end of 2022?", arca, note, year=2022).figures[0].value == 6


def test_the_whole_filing_is_read_when_the_retrieved_pages_do_not_state_it(lexical_engine):
    answer = lexical_engine.ask("How many people did Amazon employ at the end of 2017?")
    assert answer.found and "566,000" in answer.text, answer.text


def test_an_amount_of_what_the_asked_words_qualify_is_not_theirs():
    # Mercurity Fintech 20-F 2022: the book value after the impairment, not the impairment
    after = ("The book value of the totally 125.8584797 Bitcoins after the impairment on December 31, 2022 was "
             "$1,952,597, estimated with the lowest price in 2022 of $15,514.23 per Bitcoin.")
    assert _answer("How much impairment did the company record on its Bitcoin holdings in 2022?", after,
                   year=2022) is None



def test_the_noun_counted_may_stand_five_words_after_the_count():
    # CORNING_2020_10K.pdf: the count is 50,110, not the 45 countries after it
    corning = ("Each of our 50,110 full- and part-time employees in 45 countries make an important contribution, "
               "whether in one of our manufacturing or processing facilities, research labs, offices or other facilities.")
    draft = _answer("How many full- and part-time employees did the company report in 2020?", corning, year=2020)
    assert draft is not None and draft.figures[0].value == 50110


# Swiss Water 2022 MD&A p. 4; Mercurity Fintech 2022 20-F p. 57; MGMRESORTS_2020_10K.pdf p. 98; OFX 2022 p. 112
SWISS_WATER = "As a result, a one-time $2.5 million impairment of plant and equipment was recorded in Q4 2022."
MERCURITY = ("We estimated the fair values of the cryptocurrencies based on the intraday low price every day and "
             "recognized $3,144,053 impairment loss for the year ended December 31, 2022, including $3,111,232 "
             "impairment loss of Bitcoins and $5,864 impairment loss of other cryptocurrencies.")
MGM_PRICE = ("During the year ended December 31, 2020, the Company repurchased approximately 11 million shares of its "
             "common stock at an average price of $32.57 per share for an aggregate amount of $354 million.")
OFX_SHARES = "A total of 1,912,000 ordinary shares were bought back and subsequently cancelled in the current period."


def test_an_amount_asked_by_its_size_is_an_amount_and_may_stand_before_its_words():
    draft = _answer("How large an impairment of plant and equipment did the company record in 2022?", SWISS_WATER,
                    year=2022)
    assert draft is not None and draft.figures[0].value == 2.5


def test_of_the_amounts_beside_the_asked_words_the_one_all_of_them_stand_nearest():
    draft = _answer("How much impairment did the company record on its Bitcoin in 2022?", MERCURITY,
                    year=2022)
    assert draft is not None and abs(draft.figures[0].value - 3.111232) < 1e-6


@pytest.mark.parametrize("question, text, value", [
    ("At what average price per share did the company repurchase its common stock during 2020?", MGM_PRICE, 32.57),
    ("How many of its own shares did the company buy back in the year to 31 March 2020?", OFX_SHARES, 1912000),
])
def test_a_price_or_a_count_of_an_activity_is_read_and_passes_verification(question, text, value):
    from docqa.verify import verify

    draft = _answer(question, text, year=2020)
    assert draft is not None and draft.figures[0].value == value
    answer = verify(draft, build_plan(question, []), {("x", 4): text})
    assert answer.found, answer.reason


def test_a_part_of_what_is_asked_is_not_its_amount():
    # Syndax 2022 10-K: the total is printed in the sentence before
    part = ("Of the full-time employees, 68 were primarily engaged in research and development activities and 24 "
            "have an M.D. or Ph.D degree.")
    whole = "As of December 31, 2018, we had 107 full-time employees."
    draft = _answer("How many full-time employees did the company report in its 2018 annual report?", part, whole)
    assert draft is not None and draft.figures[0].value == 107


def test_a_count_as_of_a_day_after_the_year_in_the_years_own_filing_is_its_count():
    sentence = "As of February 22, 2023, we had 107 full-time employees."
    draft = _answer("How many full-time employees did the company report in its 2022 annual report?", sentence,
                    year=2022)
    assert draft is not None and draft.figures[0].value == 107
    assert _answer("How many full-time employees did the company have in 2021?", sentence, year=2021) is None


def test_a_headcount_asked_by_name_is_a_count_and_a_workforce_made_up_of_links():
    # LOCKHEEDMARTIN_2022_10K.pdf p. 6-7
    workforce = ("As of December 31, 2022, we had a highly skilled workforce made up of approximately 116,000 "
                 "employees, including approximately 60,000 engineers, scientists and information technology "
                 "professionals.")
    hired = "During 2022, we hired more than 14,000 employees, despite the continuing challenges."
    draft = _answer("Company headcount as of December 31, 2022?", hired, workforce, year=2022)
    assert draft is not None and draft.figures[0].value == 116000


def test_the_companys_own_short_name_is_no_word_of_what_is_asked():
    from docqa.types import Document, DocumentMeta, DocType

    doc = Document(id="amd", file_name="AMD_2015_10K.pdf", path="/x/AMD_2015_10K.pdf", sha256="amd", pages=3,
                   meta=DocumentMeta(company="Advanced Micro Devices, Inc.", ticker="AMD", doc_type=DocType.ANNUAL,
                                     fiscal_year=2015))
    plan = build_plan("How many employees did AMD have as of December 26, 2015?", [doc])
    page = EvidencePage(label="P1", document=doc.file_name, document_id=doc.id, page=14, year=2015,
                        text="Employees As of December 26, 2015, we had approximately 9,100 employees.")
    draft = SentenceFigureAnswerer().answer(plan, Evidence.of([page]))
    assert draft is not None and draft.figures[0].value == 9100


def test_a_count_of_another_kind_of_the_noun_asked_is_not_its_count():
    # VERIZON_2022_10K.pdf: 8 million broadband connections, of which Fios internet is one kind; not the Fios count
    verizon = ("In addition, at December 31, 2022 Consumer had approximately 8 million total broadband connections "
               "(which includes Fios internet, Digital Subscriber Line (DSL) and FWA connections), and approximately "
               "3 million Fios video connections.")
    assert _answer("How many Fios internet connections did Verizon's Consumer segment have at the end of 2022?",
                   verizon, year=2022) is None


# BLOCK_2020_10K.pdf pp. 64, 94; NEOGENOMICS 2022 10-K p. 70; AMD_2015_10K.pdf p. 87
ADVERTISING = ("Total advertising costs for the years ended December 31, 2020, 2019, and 2018 were $224.7 million, "
               "$142.7 million, and $101.9 million, respectively.")
ADVERTISING_UP = "Additionally, Cash App advertising costs increased by $52.5 million;"
SHIPPING = ("For the years ended December 31, 2022, 2021 and 2020, the Company recorded shipping expenses of "
            "approximately $19.6 million, $16.5 million, and $13.8 million, respectively as cost of revenue in the "
            "Consolidated Statements of Operations.")


@pytest.mark.parametrize("question, texts, year, value", [
    ("How much did the company spend on advertising in 2020?", (ADVERTISING,), 2020, 224.7),
    ("How much did the company spend on advertising in 2019?", (ADVERTISING,), 2020, 142.7),
    ("What shipping expenses were recorded in cost of revenue in 2022?", (SHIPPING,), 2022, 19.6),
])
def test_amounts_listed_respectively_are_each_their_years(question, texts, year, value):
    draft = _answer(question, *texts, year=year)
    assert draft is not None and draft.figures[0].value == pytest.approx(value)


def test_an_amount_a_sentence_gives_as_a_change_is_not_the_level_asked():
    # "costs increased by $52.5 million": how much they grew, not what was spent
    assert _answer("How much did the company spend on advertising in 2020?", ADVERTISING_UP, year=2020) is None
    draft = _answer("How much did the company spend on advertising in 2020?", ADVERTISING_UP, ADVERTISING, year=2020)
    assert draft is not None and draft.figures[0].value == pytest.approx(224.7)


def test_a_range_is_given_with_both_its_ends():
    # BESTBUY_2017_10K.pdf p. 45
    text = ("In fiscal 2018, we estimate cash capital expenditures of approximately $650 million to $700 million, "
            "with the focus on retail store, e-commerce and information technology projects.")
    draft = _answer("What range of cash capital expenditures did the company estimate for fiscal 2018?", text, year=2017)
    assert draft is not None and "$650 million to $700 million" in draft.text


def test_a_sentence_that_speaks_of_what_the_one_before_names_answers_with_both_quoted():
    # 3M_2018_10K.pdf p. 79: "These actions" are the restructuring actions the sentence before names
    before = ("During the second quarter of 2017, management approved and committed to undertake certain "
              "restructuring actions primarily focused on portfolio and footprint optimization.")
    after = ("These actions affected approximately 1,300 positions worldwide and resulted in a second quarter 2017 "
             "pre-tax charge of $99 million.")
    question = "How many positions were affected by the restructuring actions approved in the second quarter of 2017?"
    draft = _answer(question, f"{before} {after}", year=2017)
    assert draft is not None and draft.figures[0].value == 1300
    assert before in draft.citations[0].quote and after in draft.citations[0].quote
    # no sentence before names them: the words asked are not all there, and nothing answers
    assert _answer(question, after, year=2017) is None


def test_a_growth_asked_as_a_percentage_is_the_percentage_a_verb_of_moving_states():
    # BLOCK_2020_10K.pdf p. 62
    text = ("Excluding Caviar, subscription and services-based revenue grew by $653.9 million, or 74%, in the year "
            "ended December 31, 2020, compared to the year ended December 31, 2019.")
    draft = _answer("By what percentage did subscription and services-based revenue excluding Caviar grow in 2020?",
                    text, year=2020)
    assert draft is not None and draft.figures[0].value == pytest.approx(74)
    # a share of a total is no growth
    share = "Subscription and services-based revenue excluding Caviar was $1.5 billion, or 74% of total revenue in 2020."
    assert _answer("By what percentage did subscription and services-based revenue excluding Caviar grow in 2020?",
                   share, year=2020) is None


def test_a_sentence_read_for_its_amounts_leaves_nothing_for_the_next_to_borrow():
    # the first sentence states the count asked; the next speaks of "these" and lacks the words
    first = "In 2017, restructuring actions affected approximately 1,300 positions worldwide."
    second = "These changes were substantially complete by year end, at a cost of $99 million."
    draft = _answer("How many positions were affected by restructuring actions in 2017?", f"{first} {second}", year=2017)
    assert draft is not None and draft.figures[0].value == 1300


def test_what_a_sentence_speaks_of_may_be_named_two_sentences_before():
    # Verrica's 2022 10-K, note 14: "the offering" is the underwritten offering two sentences before;
    # its "offering expenses" are another amount than the gross proceeds asked
    text = ("On February 23, 2023, the Company closed an underwritten offering of 750,000 shares of its common "
            "stock. The offering was substantially led by one healthcare dedicated fund. The gross proceeds from "
            "the offering to the Company were approximately $32.5 million, before deducting underwriting discounts "
            "and commissions, and offering expenses of approximately $2.3 million.")
    draft = _answer("What were the gross proceeds from the February 2023 underwritten offering?", text, year=2023)
    assert draft is not None and draft.figures[0].value == pytest.approx(32.5)


def test_a_sentence_that_points_back_at_no_thing_asked_borrows_nothing():
    # Mercurity Fintech's 2022 20-F: the next sentence's $5,864 is no amount of the Bitcoin impairment
    text = ("We recognized $3,144,053 impairment loss for the year ended December 31, 2022, including $3,111,232 "
            "impairment loss of Bitcoins and $5,864 impairment loss of other cryptocurrencies. We wrote off the "
            "original value of the $5,864 cryptocurrencies and recorded an impairment in 2022.")
    draft = _answer("How much impairment loss of Bitcoins did the company record in 2022?", text, year=2022)
    assert draft is not None and draft.figures[0].value == pytest.approx(3.111232)


def test_a_count_of_a_noun_the_asked_noun_only_modifies_is_not_its_count():
    # AMD_2015_10K.pdf p. 13: "10,330 patent matters" counts matters; the patents are 4,965
    text = ("As of December 26, 2015, we had approximately 4,965 patents in the United States and approximately 895 "
            "patent applications pending in the United States. Including United States and foreign matters, we have "
            "approximately 10,330 patent matters worldwide consisting of approximately 7,370 issued patents.")
    draft = _answer("As of December 26, 2015, how many US patents did the company hold?", text, year=2015)
    assert draft is not None and draft.figures[0].value == 4965


def test_a_count_with_a_word_of_its_own_the_question_lacks_is_a_part():
    # PG_E_2022_10K.pdf: "approximately 470 eligible employees" is who the separation program covered
    text = ("In the second quarter of 2022, PG&E Corporation and the Utility enacted a VSP, which provides separation "
            "benefits to approximately 470 eligible employees who voluntarily agreed to leave.")
    assert _answer("How many employees did PG&E Corporation have at the end of 2022?", text, year=2022) is None
    draft = _answer("How many eligible employees did the VSP provide separation benefits to in 2022?", text, year=2022)
    assert draft is not None and draft.figures[0].value == 470


# BESTBUY_2023_10K.pdf p. 5 (a heading run into the sentence) and p. 21 (an officer's career)
STORES = "Store Development We had 1,138 stores at the end of fiscal 2023 throughout our Domestic and International segments."
CAREER = ("She was responsible for sales and profits in more than 180 stores in addition to enacting the human "
          "resources and talent management strategies for the company.")


def test_a_count_whose_noun_follows_it_is_read_past_a_heading_run_into_the_sentence():
    draft = _answer("How many stores did the company have at the end of fiscal 2023?", STORES, year=2023)
    assert draft is not None and draft.figures[0].value == 1138


def test_a_bound_or_an_officers_career_states_no_count_of_the_company():
    assert _answer("How many stores did the company have at the end of fiscal 2023?", CAREER, year=2023) is None
    bound = "At the end of fiscal 2023 we operated more than 180 stores."
    assert _answer("How many stores did the company have at the end of fiscal 2023?", bound, year=2023) is None


def test_an_amount_stated_net_of_the_asked_item_is_not_the_item():
    # ADOBE_2022_10K.pdf p. 66: receivables net of the allowance, then the allowance itself
    net = ("As of December 3, 2021, the balance of trade receivables, net of allowance for doubtful accounts, was "
           "$1.88 billion, inclusive of unbilled receivables of $82 million.")
    own = ("The allowance for doubtful accounts was $23 million and $16 million as of December 2, 2022 and "
           "December 3, 2021, respectively.")
    assert _answer("What was the allowance for doubtful accounts at the end of fiscal 2021?", net, year=2021) is None
    draft = _answer("What was the allowance for doubtful accounts at the end of fiscal 2021?", net, own, year=2021)
    assert draft is not None and draft.figures[0].value * draft.figures[0].scale == 16_000_000
