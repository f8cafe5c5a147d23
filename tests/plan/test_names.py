"""search.names: company names as people type them, and names the index does not hold."""

from __future__ import annotations

from docqa.plan.names import closest, fuzzy_mentions, name_like_phrases

NAMES = [("Amazon.com, Inc.", "amazon"), ("PepsiCo, Inc.", "pepsico"), ("Walmart Inc.", "walmart"),
         ("American Express Company", "american express"), ("The Boeing Company", "boeing"),
         ("Costco Wholesale Corporation", "costco")]


def companies(question: str, is_word=None) -> list[str]:
    return [m.company for m in fuzzy_mentions(question, NAMES, is_word)]


def test_misspelt_names_are_recognised():
    assert companies("What was Amazn's revenue?") == ["Amazon.com, Inc."]
    assert companies("Walmrt total assets FY2018") == ["Walmart Inc."]


def test_split_and_run_together_names_are_recognised():
    assert companies("Pepsi co net revenue 2022") == ["PepsiCo, Inc."]
    assert companies("americanexpress discount revenue") == ["American Express Company"]


def test_a_word_after_a_printed_word_is_no_name_split_in_two():
    # "america" is a word the filings print; "america vs" is two edits from the one-word name
    # "american" only because "vs" was run on to it: adding a word must bring the run closer
    names = [("American Water Works Company, Inc.", "american")]
    found = fuzzy_mentions("Nike revenue in North America vs Greater China", names, lambda w: w == "america")
    assert [m.company for m in found] == []


def test_ordinary_words_in_lower_case_are_no_two_word_name():
    names = [("First Mid Bancshares, Inc.", "first mid")]
    printed = {"first", "six", "months"}
    question = "JPMorgan net income for the first six months of 2023"
    assert fuzzy_mentions(question, names, lambda w: w in printed) == []
    # a two-word name mistyped is still read: "Frist Mid" is no pair of printed words
    assert [m.company for m in fuzzy_mentions("Frist Mid deposits in 2022", names, lambda w: w in printed)] == [
        "First Mid Bancshares, Inc."]


def test_an_ordinary_word_the_filings_print_is_not_a_typo_of_a_company():
    printed = {"being", "costs"}
    assert companies("What is being reported as costs?", is_word=lambda w: w in printed) == []
    # without the check, "being" is one edit from Boeing
    assert companies("What is being reported?") == ["The Boeing Company"]


def test_first_letter_and_length_keep_far_words_apart():
    assert companies("What was the apple revenue?") == []
    assert companies("What was the walnut harvest?") == []


def test_name_like_phrases_are_possessives_or_cued_names():
    common = lambda w: w.lower() in {"what", "was", "total", "revenue", "net", "income", "gaap", "how", "many"}
    assert [p.text for p in name_like_phrases("What was Tesla's total revenue?", common)] == ["Tesla"]
    assert [p.text for p in name_like_phrases("How many stores did Home Depot operate in 2021?", common)] == ["Home Depot"]
    assert name_like_phrases("What was GAAP net income in FY2021?", common) == []


def test_closest_names_are_near_in_spelling_or_none():
    held = ["Amazon.com, Inc.", "Walmart Inc.", "Netflix, Inc."]
    assert closest("Amazonn", held)[0] == "Amazon.com, Inc."
    assert closest("Home Depot", held) == []


def test_prepared_names_match_as_the_pairs_do():
    """A NameTable prepared once (as the planner keeps it per set of documents) finds the same
    mentions, same spans and same company on ties, as the (company, name) pairs themselves."""
    from docqa.plan.names import NameTable

    tied = NAMES + [("Pepsico Holdings", "pepsico")]  # the same compact name: the first pair wins
    table = NameTable(tied)
    for q in ("What was Amazn's revenue?", "Pepsi co net revenue 2022", "americanexpress and Walmrt",
              "What is being reported?", "Costco vs Cotsco, Boieng"):
        assert fuzzy_mentions(q, table, None) == fuzzy_mentions(q, tied, None)
    assert [m.company for m in fuzzy_mentions("pepsico", table, None)] == ["PepsiCo, Inc."]


def test_a_possessive_name_the_company_asked_about_prints_is_its_part_not_another_filer():
    from docqa.plan import build_plan
    from tests.plan.test_build import DOCS

    question = "adobe fy2022: was Digital Media's revenue larger than Digital Experience's?"
    owned = {"adobe": "Adobe Inc.", "digital media": "Adobe Inc.", "digital experience": "Adobe Inc."}
    plan = build_plan(question, DOCS, owner=lambda words: owned.get(words))
    assert plan.unheld == () and plan.companies == ("Adobe Inc.",)
    # a name no held filer prints as its own is another company, which the index does not hold
    plan = build_plan("Was Adobe's revenue larger than Oracle Systems's in fiscal 2022?", DOCS, owner=lambda words: None)
    assert plan.unheld == ("Oracle Systems",)


def test_a_plural_possessive_keeps_the_offsets_of_the_names_after_it():
    # "stores'" is one apostrophe: the words after it are where the question prints them
    question = "What were Best Buy's stores' square feet, and Square's revenue?"
    found = fuzzy_mentions(question, [("Square, Inc.", "square")], None)
    assert [question[m.start:m.end] for m in found] == ["square", "Square"]
