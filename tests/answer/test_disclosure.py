"""Disclosure yes/no: the verdict is decided by what the company's filing prints, read in full.

Pages are small synthetic ``StoredPage`` objects whose lines are as filings print them (taken from
the 10-Ks in ../shared); every draft goes through ``verify`` as in ``engine.ask``.
"""

from __future__ import annotations

import re

import pytest

from docqa.answer.disclosure import DisclosureAnswerer
from docqa.plan.topic import disclosure_question, parse_topic
from docqa.verify import verify
from docqa.answer.contract import Evidence
from docqa.plan import QuestionPlan, build_plan
from docqa.store.base import StoredLine, StoredPage
from docqa.types import Document, DocumentMeta, DocType, SearchFilters


class FakeStore:
    def __init__(self, documents: dict[str, tuple[Document, list[str]]]):
        self._docs = {doc_id: doc for doc_id, (doc, _) in documents.items()}
        self._pages = {
            doc_id: [StoredPage(document_id=doc_id, number=i, width=612, height=792,
                                lines=tuple(StoredLine(text=t, bbox=(0, 10.0 * j, 500, 10.0 * j + 9))
                                            for j, t in enumerate(text.split("\n"))))
                     for i, text in enumerate(texts, start=1)]
            for doc_id, (_, texts) in documents.items()
        }

    def document(self, document_id):
        return self._docs.get(document_id)

    def pages(self, document_id):
        return self._pages.get(document_id, [])

    def page(self, document_id, number):
        pages = self._pages.get(document_id, [])
        return pages[number - 1] if 0 < number <= len(pages) else None


COVER = ("UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 10-K\n"
         "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\n"
         "For the fiscal year ended December 31, 2022")


def _doc(doc_id: str, company: str, year: int = 2022) -> Document:
    return Document(id=doc_id, file_name=f"{doc_id}.pdf", path=f"/x/{doc_id}.pdf", sha256=doc_id, pages=3,
                    meta=DocumentMeta(company=company, doc_type=DocType.ANNUAL, fiscal_year=year))


def _ask(question: str, pages: list[str], company: str = "Example Corp"):
    doc = _doc("EXAMPLE_2022_10K", company)
    store = FakeStore({doc.id: (doc, [COVER, *pages])})
    plan = build_plan(question, [doc], SearchFilters(document_ids=(doc.id,)))
    draft = DisclosureAnswerer().answer(plan, Evidence.of([], store))
    assert draft is not None
    texts = {(doc.id, p.number): p.text for p in store.pages(doc.id)}
    return draft, verify(draft, question, texts)


def test_yes_quotes_the_sentences_that_speak_to_the_topic():
    pages = [
        "Item 3. Legal Proceedings\n"
        "For a description of the Company's legal proceedings, see Note 18.",
        "Product Liability Litigation\n"
        "As of December 31, 2022, the Company is a named defendant in lawsuits involving\n"
        "the Dual-Ended Combat Arms Earplugs, and in the second quarter of 2022 recorded a pre-tax\n"
        "charge of $1.2 billion.\n"
        "The Company may be subject to other litigation in the future.",
    ]
    draft, answer = _ask("Did Example's 2022 10-K disclose litigation over Combat Arms earplugs?", pages)
    assert answer.found and answer.verification == "verified"
    assert answer.text.startswith("Yes")
    assert [c.page for c in answer.citations] == [3]
    assert "Combat Arms Earplugs" in answer.citations[0].quote


def test_no_names_the_words_searched_and_the_pages():
    pages = [
        "Dividends\nOur Board of Directors declared quarterly cash dividends of $0.64 per share in 2022.",
        "Stock-based compensation\nRestricted stock units vest over four years.",
    ]
    draft, answer = _ask("Did Example announce or disclose a stock split in its fiscal 2022 10-K?", pages)
    assert answer.found and answer.verification == "verified"
    assert answer.text.startswith("No")
    assert "“stock split”" in answer.text and "p. 1–p. 3" in answer.text
    assert "EXAMPLE_2022_10K.pdf" in answer.text
    # The scope is cited: the cover line naming the filing and its period.
    assert answer.citations and answer.citations[-1].page == 1


def test_a_negated_sentence_counts_against_yes_and_is_quoted():
    pages = [
        "Goodwill\nWe completed our annual goodwill impairment test as of October 1, 2022.\n"
        "No goodwill impairment was recorded in 2022, 2021 or 2020.",
        "Our goodwill was not impaired as a result of the reorganization of our segments.",
    ]
    draft, answer = _ask("Did Example record a goodwill impairment in its 2022 10-K?", pages)
    assert answer.found and answer.text.startswith("No")
    assert any("No goodwill impairment was recorded" in c.quote or "not impaired" in c.quote
               for c in answer.citations)


def test_a_possibility_is_not_an_event():
    pages = ["Risk Factors\nWe may in the future undertake a restructuring of our operations, which could be costly."]
    _, answer = _ask("Did Example report a restructuring in its 2022 10-K?", pages)
    assert answer.text.startswith("No")
    _, mentioned = _ask("Did Example mention a restructuring in its 2022 10-K?", pages)
    assert mentioned.text.startswith("Yes")  # a mention is a mention


@pytest.mark.parametrize("sentence", [
    "Pursuant to the Loan Agreement, we are restricted from paying dividends on our common stock.",
    "The payment of cash dividends on our common stock rests within the discretion of our board of directors.",
    "In order to maintain the capital structure, the Group will balance its overall capital structure "
    "through the payment of dividends and new share issues.",
    "Dividend income is recognised in the income statement when the right to receive payment is established.",
    "Our financing arrangements contain certain restrictions on our ability to pay dividends.",
    "The Warrant Shares will be duly issued, fully paid and non-assessable and be entitled to all dividends "
    "declared, paid or made thereon.",
])
def test_a_prospect_a_permission_or_a_policy_is_no_dividend_paid(sentence):
    # A prospect, a restriction or a recognition policy: none says the company paid one.
    _, answer = _ask("Did Example pay dividends in fiscal 2022?", ["Dividends\n" + sentence])
    assert answer.found and answer.text.startswith("No"), answer.text
    # quoted, if at all, as what it is: a possibility or a policy (the verb far from its object: not at all)
    assert "only as a possibility or a policy" in answer.text or not answer.citations[:-1]


def test_a_verb_listed_among_what_the_company_may_do_or_dated_another_year_is_no_event():
    pages = ["Liquidity\nWe continually evaluate opportunities to sell additional equity or debt securities, obtain "
             "credit facilities, enter into financing obligations, repurchase common stock, pay dividends, or "
             "refinance our debt.",
             "Stock split\nOn June 23, 2015, the Board of Directors declared a seven-for-one stock split in the form "
             "of a stock dividend that was paid on July 14, 2015."]
    _, answer = _ask("Did Example pay dividends in fiscal 2022?", pages)
    assert answer.text.startswith("No"), answer.text


def test_an_event_reported_with_what_it_will_bring_is_still_an_event():
    pages = ["Dividends\nIn 2022 we paid cash dividends of $1.20 per share. The Board expects to review "
             "the dividend each year, and future dividends will depend on our earnings."]
    _, answer = _ask("Did Example pay dividends in fiscal 2022?", pages)
    assert answer.text.startswith("Yes"), answer.text
    assert "we paid cash dividends of $1.20 per share" in answer.citations[0].quote


def test_a_quote_that_does_not_speak_to_the_topic_is_refused():
    # "goodwill" and "impairment" never in one sentence: neither line speaks to a goodwill impairment.
    pages = [
        "Goodwill of $1,234 million arose from the acquisition of Widget Co.\n"
        "We recorded an impairment of $12 million on content assets in 2022.",
    ]
    draft, answer = _ask("Did Example record a goodwill impairment in 2022?", pages)
    assert answer.text.startswith("No")
    assert not any("content assets" in c.quote for c in answer.citations)


def test_a_matter_the_filing_calls_immaterial_answers_a_question_about_material_ones():
    pages = [
        "Item 3. Legal Proceedings\n"
        "We and our subsidiaries are party to a variety of litigation, claims, legal or regulatory proceedings.\n"
        "While the results of such litigation cannot be predicted with certainty, management believes that the\n"
        "final outcome of the foregoing will not have a material adverse effect on our financial condition.",
    ]
    _, answer = _ask("Has Example reported any materially important ongoing legal battles from FY2022?", pages)
    assert answer.text.startswith("No")
    pages.append("Multiple legal actions have been filed against us in 2022 as a result of the accident.")
    _, answer = _ask("Has Example reported any materially important ongoing legal battles from FY2022?", pages)
    assert answer.text.startswith("Yes") and any(c.page == 3 for c in answer.citations)


def test_synonyms_from_the_topics_file_are_searched():
    pages = ["During the third quarter of 2022, our Board of Directors increased our quarterly dividend\n"
             "payment by 2.0% to $0.6525 from $0.6400 per share."]
    _, answer = _ask("Did Example's 2022 10-K report a dividend increase?", pages)
    assert answer.found and answer.text.startswith("Yes") and "0.6525" in answer.text


@pytest.mark.parametrize("question, topic", [
    ("Did 3M's 2022 10-K disclose litigation over Combat Arms earplugs?", "litigation over Combat Arms earplugs"),
    ("Did Adobe announce or disclose a stock split in its fiscal 2017 10-K?", "a stock split"),
    ("Did Netflix record a goodwill impairment in 2017, according to its 2017 10-K?", "a goodwill impairment"),
    ("Did Foot Locker's shareholders approve the advisory say-on-pay vote at the 2022 annual meeting?",
     "the advisory say-on-pay vote"),
    ("Has MGM Resorts paid dividends to common shareholders in FY2022?", "dividends to common shareholders"),
])
def test_the_topic_is_what_follows_the_verb_without_the_period(question, topic):
    assert parse_topic(question).text == topic


@pytest.mark.parametrize("question", [
    "Did Nike's gross margin improve in fiscal 2023 compared with fiscal 2022?",
    "Does Adobe have an improving operating margin profile as of FY2022? If operating margin is not a useful "
    "metric for a company like this, then state that and explain why.",
    "Does Foot Locker's new CEO have previous CEO experience in a similar company to Footlocker?",
    "What was 3M's capital expenditure in 2022?",
])
def test_figure_and_other_questions_are_not_disclosure_questions(question):
    assert disclosure_question(question) is None


def test_a_state_question_is_yes_on_evidence_and_no_verdict_from_absence():
    pages = ["Historically, the airline industry has been cyclical and very competitive and has experienced\n"
             "significant profit swings."]
    _, answer = _ask("Is Example's business subject to cyclicality?", pages)
    assert answer.text.startswith("Yes") and answer.citations[0].page == 2
    doc = _doc("EXAMPLE_2022_10K", "Example Corp")
    store = FakeStore({doc.id: (doc, [COVER, "Revenue grew in every region."])})
    plan = QuestionPlan(question="Is Example's business subject to cyclicality?", terms=[], phrases=[], companies=["Example Corp"],
                     groups=[SearchFilters(document_ids=(doc.id,))])
    assert DisclosureAnswerer().answer(plan, Evidence.of([], store)) is None


# Deals asked with verbs the disclosure verbs do not list (sentences from the filings named).
MASSMART = ("During fiscal 2023, the Company completed a $0.4 billion buyout of the noncontrolling interest "
            "shareholders of the Company's Massmart subsidiary.")                       # WALMART_2023_annualreport p. 67
MINERA = ("The Company disposed of its full holdings in Minera IRL during the year, along with a small portion of "
          "its positions in Greatland Gold.")                                            # Starvest 2022 p. 7
MINERS = ("On January 10, 2023, the Company entered into an asset purchase agreement to purchase 5,000 Antminer S19 "
          "PRO Bitcoin mining machines.")                                               # Mercurity 20-F 2022


@pytest.mark.parametrize("question, verb", [
    ("Did Example Corp buy out the minority shareholders of its Massmart subsidiary in 2022?", "buy"),
    ("Did Example Corp sell its entire holding in Minera IRL in 2022?", "sell"),
    ("Did Example Corp bring in new funding during 2022?", "raise"),
])
def test_a_deal_asked_with_any_verb_is_an_event_with_the_verbs_own_words(question, verb):
    from docqa.plan import Intent

    plan = build_plan(question, [])
    assert plan.intent is Intent.EVENT
    assert plan.topic is not None and plan.topic.event and plan.topic.verb == verb


def test_a_deal_the_filing_states_in_its_own_words_is_yes():
    draft, answer = _ask("Did Example Corp buy out the minority shareholders of its Massmart subsidiary in 2022?",
                         [MASSMART.replace("fiscal 2023", "fiscal 2022")])
    assert answer.text.startswith("Yes") and "buyout" in answer.text, answer.text
    draft, answer = _ask("Did Example Corp sell its entire holding in Minera IRL in 2022?", [MINERA])
    assert answer.text.startswith("Yes"), answer.text


def test_a_deal_agreed_after_the_year_is_no():
    draft, answer = _ask("Did Example Corp buy 5,000 Antminer S19 PRO bitcoin mining machines during 2022?", [MINERS])
    assert answer.text.startswith("No"), answer.text


def test_a_figure_asked_with_a_verb_is_not_a_deal():
    from docqa.plan import Intent

    assert build_plan("Did Example Corp's revenue grow in 2022?", []).intent is not Intent.EVENT


def test_a_dated_denial_outweighs_lines_that_only_name_the_words():
    # MGMRESORTS_2020_10K.pdf p. 57, and a policy line of the same filing
    denial = "None of our reporting units incurred any goodwill impairment charges in 2020."
    policy = ("Fair value measurements affect the Company's accounting and impairment assessments of its "
              "long-lived assets, goodwill and other intangibles, and the charge recorded is based on them.")
    draft, answer = _ask("Did Example Corp record a goodwill impairment charge in 2022?",
                         [denial.replace("2020", "2022"), policy])
    assert answer.text.startswith("No") and "None of our reporting units" in answer.text, answer.text


def test_a_buyback_the_filing_denies_is_no_when_the_line_item_prints_nothing():
    # VERIZON_2021_10K.pdf p. 40
    denial = ("There were no repurchases of common stock during 2022 and 2021 under our current or previously "
              "authorized share buyback program.")
    draft, answer = _ask("Did Example Corp buy back any of its common stock under its share buyback program in 2022?",
                         [denial])
    assert answer.text.startswith("No"), answer.text


def test_the_date_an_events_verb_carries_decides_its_year():
    # American Water's 2021 10-K: the New York subsidiary "was sold on January 1, 2022", in a line that
    # also names 2021; asked of 2021, the sale did not close in it.
    from docqa.answer.disclosure_sentences import done_in_another_year
    from docqa.plan.topic import deal_topic

    topic = deal_topic("Did American Water complete the sale of its New York subsidiary during 2021?",
                       frozenset({"american", "water"}))
    line = ("Excludes authorized increases of $7 million and $4 million in 2021 and 2019, respectively, for the "
            "Company's New York subsidiary, which was sold on January 1, 2022.")
    assert done_in_another_year(line, topic, [2021])
    assert not done_in_another_year(line, topic, [2022])
    assert not done_in_another_year("In the first quarter of 2022, we sold our juice brands to PAI Partners.", topic, [2022])

