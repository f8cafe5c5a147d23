"""Section answers: an open question about risks, legal proceedings or liquidity is answered by the
Item that discusses it, quoted and cited, and badged as passages (never verified)."""

from __future__ import annotations

import fitz
import pytest

from docqa.engine import Engine
from docqa.plan import Intent, build_plan

COVER = ("UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nWashington, D.C. 20549\nFORM 10-K\n"
         "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\n"
         "For the fiscal year ended December 31, 2022\nExample Widgets Corporation\n"
         "(Exact name of registrant as specified in its charter)")
PAGES = [
    COVER,
    "PART I\nItem 1. Business\nExample Widgets Corporation makes widgets for industrial customers in 40 countries.",
    "Item 1A. Risk Factors\nThe Company's results depend on the price of steel, which is volatile and may rise sharply.\n"
    "A cyberattack on the Company's factories could halt production for several weeks at a time.",
    "Risks related to the widget market\nDemand for widgets falls when industrial output declines in a recession.\n"
    "Item 1B. Unresolved Staff Comments\nNone.",
    "Item 3. Legal Proceedings\nIn March 2022 a distributor filed a lawsuit against the Company alleging breach of contract.\n"
    "The Company believes the lawsuit is without merit and intends to defend itself vigorously.",
    "Item 7. Management's Discussion and Analysis\nRevenue grew because widget prices rose across every region we serve.\n"
    "Liquidity and Capital Resources\nThe Company funds its operations with cash from operations and a revolving credit facility.\n"
    "Liquidity is sufficient to meet the Company's obligations for at least the next twelve months.",
]


def _filing_engine(tmp_path_factory, name: str, pages: list[str]) -> Engine:
    """An index of one generated 10-K, a page of text each."""
    folder = tmp_path_factory.mktemp(name)
    pdf = fitz.open()
    for text in pages:
        pdf.new_page().insert_text((72, 72), text, fontsize=10)
    path = folder / "widgets-10k.pdf"
    pdf.save(path)
    engine = Engine.open(folder / "idx")
    report = engine.ingest([path])
    assert [f.status for f in report.files] == ["indexed"], report
    return engine


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    return _filing_engine(tmp_path_factory, "section", PAGES)


@pytest.mark.parametrize("question, item", [
    ("What are the main risk factors for Example Widgets in 2022?", "Item 1A"),
    ("Describe the legal proceedings Example Widgets faced in 2022.", "Item 3"),
    ("How does Example Widgets describe its liquidity in 2022?", "Item 7"),
])
def test_an_open_question_is_answered_from_its_section_as_passages(engine, question, item):
    answer = engine.ask(question)
    assert answer.found and answer.answerer == "section", answer
    assert answer.verification == "passages"  # quotes that speak to a topic are never "verified"
    assert item in answer.text
    pages = {engine.store.page(c.document_id, c.page).info.section for c in answer.citations}
    assert pages == {item}


def test_the_section_quoted_is_the_one_the_heading_names(engine):
    answer = engine.ask("How does Example Widgets describe its liquidity in 2022?")
    quotes = " ".join(c.quote for c in answer.citations)
    assert "revolving credit facility" in quotes or "sufficient to meet" in quotes


def test_a_verdict_or_a_figure_about_the_topic_is_not_a_section_question(engine):
    documents = engine.documents()
    assert build_plan("Did Example Widgets face any lawsuits in 2022?", documents).intent is not Intent.SECTION
    assert build_plan("What are the main risk factors for Example Widgets?", documents).intent is Intent.SECTION
    assert build_plan("What was Example Widgets' revenue in 2022?", documents).intent is Intent.VALUE


def test_the_sentences_that_hold_what_the_question_adds_to_the_heading_come_first():
    # 3M 2018 p. 51 (shortened): under "Foreign Exchange Rates Risk", "how does 3M hedge ..." asks the
    # hedging sentence, not only the section's opening
    from types import SimpleNamespace

    from docqa.answer.key_sentences import MAX_QUOTES, under_heading
    from docqa.answer.outline import Heading, Section

    lines = tuple(f"Foreign exchange rate risk {k} arises because the Company sells in {n} countries with foreign "
                  f"exchange rates that move." for k, n in
                  (("first", 70), ("also", 60), ("further", 50), ("again", 40), ("still", 30), ("often", 20)))
    lines += ("The Company enters into forward and option contracts to hedge these exposures.",)
    page = SimpleNamespace(number=51, text="Foreign Exchange Rates Risk\n" + "\n".join(lines))
    section = Section(heading=Heading(page=0, line=0, text="Foreign Exchange Rates Risk", height=10.0, section=True,
                                      lead_in=False), score=1.0, lines=((0, lines),))
    chosen = [quote for _, quote in under_heading(section, [page], ("hedge", "foreign", "exchange", "rate", "risk"))]
    assert len(chosen) <= MAX_QUOTES
    assert any("to hedge these exposures" in quote for quote in chosen), chosen


# A filing whose Items print their titles with a closing period, whose market-risk Item holds sub-sections
# as large as its own heading, whose risk factors and notes both speak of fixed-price contracts, and whose
# note names an acquired company ("Acme Robotics, Inc.") as a heading.
WHERE_PAGES = [
    COVER,
    "PART I\nItem 1. Business\nExample Widgets Corporation makes widgets for industrial customers in 40 countries.",
    "Item 1A. Risk Factors\nWe enter into fixed-price contracts, which could subject us to losses if our costs on those "
    "contracts rise.\nOur fixed-price contracts for new widget designs carry more risk because the costs of "
    "development are hard to estimate.\nA cyberattack on the Company's factories could halt production for weeks.\n"
    "Foreign Exchange Rate Risk\nChanges in foreign exchange rates could reduce the revenue the Company reports.",
    "Item 7. Management's Discussion and Analysis\nRevenue grew because widget prices rose across every region.\n"
    "Item 7A. Quantitative and Qualitative Disclosures About Market Risk.\n"
    "The Company is exposed to market risk from changes in interest rates and foreign exchange rates.\n"
    "Interest Rates Risk\nThe Company manages interest rate risk using a mix of fixed and floating rate debt.\n"
    "Foreign Exchange Rates Risk\nThe Company enters into foreign exchange forward contracts to hedge forecasted "
    "sales denominated in foreign currencies for up to 24 months.",
    "Item 8. Financial Statements\nNote 4. Contracts\nFixed-Price Contracts\nSubstantially all of the Company's "
    "contracts with governments are fixed-price contracts measured over time.\n"
    "Acme Robotics, Inc.\nOn March 1, 2022 the Company agreed to acquire Acme Robotics for $1.2 billion in cash.\n"
    "The acquisition awaits regulatory approval and is expected to close in 2023.",
]


@pytest.fixture(scope="module")
def where_engine(tmp_path_factory):
    return _filing_engine(tmp_path_factory, "section-where", WHERE_PAGES)


def test_the_section_a_question_names_is_read_and_its_sub_section_that_answers(where_engine):
    # "per the market risk section": the Item whose title ends in a period is a heading, and inside it
    # the sub-section headed as large as it is, "Foreign Exchange Rates Risk", answers "how ... hedge"
    # (not the risk factor headed alike)
    answer = where_engine.ask("How does Example Widgets hedge its foreign exchange rate risk, per the 2022 10-K "
                              "market risk section?")
    assert answer.found and answer.answerer == "section", answer
    assert "Foreign Exchange Rates Risk" in answer.text
    assert any("to hedge forecasted sales" in c.quote for c in answer.citations), answer.citations


def test_the_risks_of_a_thing_are_read_in_the_risk_factors_before_a_note_headed_by_it(where_engine):
    answer = where_engine.ask("What are the main risks of Example Widgets' fixed-price contracts?")
    assert answer.found and answer.answerer == "section", answer
    sections = {where_engine.store.page(c.document_id, c.page).info.section for c in answer.citations}
    assert sections == {"Item 1A"}, answer.text
    assert any("could subject us to losses" in c.quote for c in answer.citations)


def test_a_policy_or_the_status_of_a_deal_is_a_section_answer_never_an_amount(where_engine):
    answer = where_engine.ask("Example Widgets 2022: where does the Acme Robotics acquisition stand?")
    assert answer.found and answer.answerer == "section", answer
    assert "Acme Robotics, Inc" in answer.text  # the note's heading that names the company acquired
    assert any("expected to close in 2023" in c.quote for c in answer.citations), answer.citations


def test_the_sentences_that_hold_the_names_or_figures_asked_come_first():
    # MongoDB fiscal 2022, "Competition" (shortened): "who are its competitors" asks the sentences that
    # name them, one of them printed with a justified line's wide gap
    from types import SimpleNamespace

    from docqa.answer.key_sentences import holds, under_heading
    from docqa.answer.outline import Heading, Section

    lines = ("The worldwide database software market is rapidly evolving and highly competitive.",
             "Our competitors may respond more quickly than we can to new or changing opportunities.",
             "Some of our competitors have longer operating histories and greater financial resources.",
             "Larger competitors can bundle competing products with hardware or other software offerings.",
             "Our competitors may make their products available at a low cost or at no cost at all.",
             "Other large software companies may also seek to enter our market in the coming years.",
             "We primarily compete with established legacy database  software providers such as IBM, Microsoft, "
             "Oracle and other similar companies.")
    page = SimpleNamespace(number=77, text="Competition\n" + "\n".join(lines))
    section = Section(heading=Heading(page=0, line=0, text="Competition", height=10.0, section=False, lead_in=False),
                      score=1.0, lines=((0, lines),))
    chosen = [quote for _, quote in under_heading(section, [page], ("competitors",), "names")]
    assert any("IBM, Microsoft" in quote for quote in chosen), chosen
    assert holds("The deal is valued at $6.7 billion, or $100 per share.", "figures")
    assert not holds("The Company believes the lawsuit is without merit.", "names")
