"""verify.measure: a figure answers the question only if it is the measure asked for."""

from __future__ import annotations

from docqa.types import Figure
from docqa.verify import REASON_MEASURE_PREFIX, measure_asked, verify
from docqa.verify.measure import measure_refusal
from tests.verify.pages import PAGES, cite, draft

SALES = Figure(name="Total net sales", value=177866, text="177,866", scale=1e6, unit="USD", period="2017")


def test_no_measure_named_is_no_objection():
    assert measure_asked("What was net income in 2017?", None)


def test_the_question_s_own_words_name_the_measure():
    assert measure_asked("What were Amazon's total net sales in 2017?", "Total net sales")


def test_the_lexicon_reads_a_short_name_as_the_measure():
    assert measure_asked("What was Amazon's capex in 2018?", "Capital expenditures")


def test_a_synonym_read_across_the_period_does_not_hide_the_words_asked():
    # "payments for" is a synonym of "purchases"; "settlement payments for fiscal 2022" is still the line asked
    assert measure_asked("PepsiCo's settlement payments for fiscal 2022?", "Settlement payments")


def test_a_neighbouring_measure_does_not_answer():
    assert not measure_asked("What was the net interest margin in 2017?", "Operating margin")


def test_a_yes_no_verdict_shows_its_figures_under_their_own_names():
    assert measure_asked("Did Amazon's net sales exceed $100 billion in 2017?", "Operating income")


def test_names_of_whose_figure_it_is_are_not_the_measure():
    assert measure_asked("What were total net sales in 2017?", "Amazon's Total net sales")


def test_a_draft_answering_another_measure_is_refused():
    d = draft("Operating margin was 2.3%.", cite("Total net sales  107,006  135,987  177,866"),
              figures=(SALES,), measure="Operating margin")
    question = "What was the net interest margin in 2017?"
    assert measure_refusal(d, question) == f"{REASON_MEASURE_PREFIX} 'Operating margin', which the question does not ask for"
    answer = verify(d, question, PAGES)
    assert not answer.found and answer.reason.startswith(REASON_MEASURE_PREFIX)


def test_a_draft_without_figures_is_not_judged_by_its_measure():
    d = draft("Net sales grew.", cite("Total net sales  107,006  135,987  177,866"), measure="Operating margin")
    assert measure_refusal(d, "What was the net interest margin in 2017?") is None


def test_a_roll_forwards_closing_line_answers_for_what_its_heading_names():
    assert measure_asked("General Mills LIFO reserve at May 29, 2022?", "Balance at end of year (LIFO reserve)")
    assert not measure_asked("General Mills LIFO reserve at May 29, 2022?", "Inventories at end of year")


def test_a_labels_own_short_name_is_the_measure_asked_by_it():
    assert measure_asked("MGM Q4 2022: REVPAR at the Las Vegas Strip?", "Revenue per available room (REVPAR)")


def test_a_verb_asked_and_its_participle_printed_are_one_word():
    # "Pharmacy claims processed" asked as "how many pharmacy claims did it process"
    assert measure_asked("How many pharmacy claims did CVS process in 2018?", "Pharmacy claims processed › Total")
    assert not measure_asked("How many pharmacy claims did CVS process in 2018?", "Prescriptions filled")


def test_a_short_form_in_the_label_the_question_spells_out_is_the_measure_asked():
    question = "What were Celldex's net deferred tax liabilities related to in-process research and development in 2022?"
    assert measure_asked(question, "Net deferred tax liabilities related to IPR&D")
    assert measure_asked("What was Kraft Heinz's capital expenditure in Europe, Middle East and Africa in 2019?",
                         "EMEA capital expenditure")
    # a short form the question does not spell stays another measure
    assert not measure_asked(question, "Net deferred tax liabilities related to NOL")
