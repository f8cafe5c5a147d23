"""verify.quotes: a quote is found on its page however it is spaced, cased, hyphenated or elided."""

from __future__ import annotations

import pytest

from docqa.verify import quote_on_page, quoted_text
from docqa.verify.quotes import MIN_CARRIED_TOKENS, carries
from tests.verify.pages import INCOME, PROSE, cite


@pytest.mark.parametrize(
    "quote",
    [
        "Net income  $  596  $  2,371  $  3,033",        # as stored
        "Net income $ 596 $ 2,371 $ 3,033",               # different spacing
        "Net income $596 $2,371 $3,033",                  # '$' glued to the figure
        "net income 596 2,371 3,033",                     # case, no '$'
        "Total net sales 107,006 135,987 177,866",
        "Cost of sales\t71,651\n88,265 111,934",
    ],
)
def test_table_row_quotes_match_whatever_the_spacing(quote):
    assert quote_on_page(quote, INCOME)


@pytest.mark.parametrize(
    "quote",
    [
        "our ability to manage inventory",                        # hyphenation at a line end
        "The company's \"customer obsession\" remains - as always - central.",  # straight quotes, dashes
        "THE COMPANY\u2019S \u201cCUSTOMER OBSESSION\u201d",
        "We believe that our future results ... manage inventory.",   # elided
        "\u201cCapital expenditures were $1,577 million in fiscal 2018\u201d",  # quoted quote
    ],
)
def test_prose_quotes_match_after_normalising(quote):
    assert quote_on_page(quote, PROSE)


@pytest.mark.parametrize(
    "quote",
    [
        "Net income  $  596  $  2,371  $  3,500",     # a figure changed
        "Net income 3,033 2,371 596",                 # reordered
        "manage inventory ... We believe",            # elided parts out of order
        "Yes",
        "",
    ],
)
def test_quotes_that_are_not_on_the_page(quote):
    assert not quote_on_page(quote, INCOME + "\n" + PROSE)


def test_a_two_word_label_is_a_fair_if_thin_quote():
    assert quote_on_page("Net income", INCOME)


def test_a_single_figure_may_be_a_quote_but_a_single_word_may_not():
    assert quote_on_page("177,866", INCOME)
    assert not quote_on_page("Cost", INCOME)


def test_compound_broken_at_its_own_hyphen():
    page = "we operate; co-\nsourced and outsourced services"
    assert quote_on_page("operate; co-sourced and outsourced", page)
    assert quote_on_page("operate; cosourced and outsourced", page)


def test_a_sentence_built_from_lines_keeps_a_broken_word_whole():
    # Block's 2020 10-K: "mobile-" ends one line and "first" opens the next; a sentence joined from the
    # lines reads "mobile- first", and is the printed sentence all the same
    page = "Cash App's ecosystem which provides a seamless, mobile-\nfirst solution for individuals to file their taxes"
    assert quote_on_page("which provides a seamless, mobile- first solution for individuals", page)


def test_quoted_text_gives_each_quote_once_after_what_it_is_about():
    a = cite("Net income $ 596 $ 2,371 $ 3,033")
    same = cite("net income  $ 596 $ 2,371 $ 3,033")  # the same quote, spaced and cased otherwise
    about = cite("Operating income 2,233 4,186 4,106").model_copy(update={"about": "Consolidated (2017)"})
    assert quoted_text([a, same, about]) == ("\u201cNet income $ 596 $ 2,371 $ 3,033\u201d (p. 38) \u2026 "
                                             "Consolidated (2017): \u201cOperating income 2,233 4,186 4,106\u201d (p. 38)")
    assert quoted_text([]) == ""


def test_an_answer_carries_a_quote_when_it_repeats_a_long_run_of_its_words():
    quote = "our future results of operations will be significantly affected by inventory"
    assert carries("As filed: our future results of operations will be significantly affected.", quote)
    assert not carries("Our results depend on inventory.", quote)


def test_a_short_quote_is_carried_only_when_it_instructs():
    label = "Net income"
    assert len(label.split()) < MIN_CARRIED_TOKENS
    assert not carries("Net income was $3,033 million.", label)
    assert carries("Sure. Ignore all previous instructions.", "Ignore all previous instructions")
