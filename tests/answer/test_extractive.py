"""The extractive answerer: which lines it quotes, and when it says nothing."""

from __future__ import annotations

from docqa.answer.extractive import ExtractiveAnswerer
from docqa.types import EvidencePage

PAGE = EvidencePage(
    label="P1", document="acme.pdf", document_id="d1", page=27, company="Acme Corp", year=2022,
    text=(
        "Gross margin was 41.2% in 2022 compared with 43.0% in 2021.\n"
        "The decrease in gross margin was primarily due to higher freight costs and unfavorable product mix.\n"
        "Our stores sell hardware, garden supplies and paint across North America.\n"
    ),
)


def test_a_why_question_quotes_the_line_that_gives_the_cause():
    draft = ExtractiveAnswerer().answer_text("What drove the gross margin change for Acme in FY2022?", [PAGE])
    assert draft.found
    assert draft.citations[0].quote.startswith("The decrease in gross margin was primarily due to")


def test_a_what_question_quotes_the_line_that_names_it():
    draft = ExtractiveAnswerer().answer_text("What was Acme's gross margin in 2022?", [PAGE])
    assert draft.found and draft.citations[0].quote.startswith("Gross margin was 41.2%")


def test_lines_that_share_too_little_with_the_question_are_not_an_answer():
    draft = ExtractiveAnswerer().answer_text("Who audits Acme's pension plan assets?", [PAGE])
    assert not draft.found and "share too little" in draft.reason


class MeaningStandIn:
    """A sentence model stand-in with chosen similarities: unit vectors at set angles to the question."""

    identity = "stand-in"
    dim = 2

    def __init__(self, similarity: dict[str, float]):
        self.similarity = similarity

    def embed(self, texts, batch_size: int = 32):
        import numpy as np

        out = []
        for i, text in enumerate(texts):
            c = 1.0 if i == 0 else next((v for k, v in self.similarity.items() if text.startswith(k)), 0.0)
            out.append([c, (1 - c * c) ** 0.5])
        return np.array(out, dtype=np.float32)


INDUSTRY = EvidencePage(
    label="P1", document="acme.pdf", document_id="d1", page=5, company="Acme Corp", year=2022,
    text=("Acme is a global leader in flexible and rigid packaging for food, beverage and healthcare products.\n"
          "Industry awards went to our plant safety teams this year.\n"),
)
QUESTION = "What industry does Acme primarily operate in?"


def test_meaning_lifts_the_line_that_answers_over_the_one_that_shares_words():
    lexical = ExtractiveAnswerer().answer_text(QUESTION, [INDUSTRY])
    assert lexical.citations[0].quote.startswith("Industry awards")
    model = MeaningStandIn({"Acme is a global leader": 0.9, "Industry awards": 0.1})
    by_meaning = ExtractiveAnswerer(model, meaning_weight=1.0).answer_text(QUESTION, [INDUSTRY])
    assert by_meaning.citations[0].quote.startswith("Acme is a global leader")


def test_a_line_close_in_meaning_answers_without_the_questions_words_and_a_far_one_does_not():
    question = "Who supplies Acme's resin?"  # no line holds "supplies" or "resin"
    close = MeaningStandIn({"Acme is a global leader": 0.9})
    assert ExtractiveAnswerer(close).answer_text(question, [INDUSTRY]).found
    far = MeaningStandIn({"Acme is a global leader": 0.3})
    assert not ExtractiveAnswerer(far).answer_text(question, [INDUSTRY]).found
    assert not ExtractiveAnswerer().answer_text(question, [INDUSTRY]).found


def test_the_engine_hands_the_sentence_model_to_the_quoter_unless_told_not_to(tmp_path):
    from docqa import Engine
    from tests.conftest import require

    try:
        import sentence_transformers  # noqa: F401
    except ImportError:
        require(False, "the 'dense' extra (sentence model)")
    on = Engine.open(tmp_path / "on", dense=False)
    off = Engine.open(tmp_path / "off", dense=False, quote_by_meaning=False)
    try:
        assert on.asker().answerers["text"][0].embedder is not None
        assert off.asker().answerers["text"][0].embedder is None
    finally:
        on.close()
        off.close()


def test_the_safe_harbour_paragraph_is_never_the_answer():
    page = EvidencePage(
        label="P1", document="acme.pdf", document_id="d1", page=3, company="Acme Corp", year=2022,
        text=("These forward-looking statements include statements regarding our strategy, margins, "
              "action by competitors and membership growth.\n"
              "Our competitors are other packaging makers such as Bemis and Sealed Air.\n"),
    )
    draft = ExtractiveAnswerer().answer_text("Who are Acme's competitors?", [page])
    assert draft.found and all("forward-looking" not in c.quote for c in draft.citations)
    assert draft.citations[0].quote.startswith("Our competitors are")
    asked = ExtractiveAnswerer().answer_text("What do Acme's forward-looking statements cover?", [page])
    assert asked.found and "forward-looking" in asked.citations[0].quote
