"""The answerers by name: what the engine registers for each step of a route (``ask.py:ROUTES``),
and the text answerer DOCQA_ANSWERER names. Adding a text answerer is one entry in ``TEXT_ANSWERERS``
(and its name in ``config.AnswerSettings.answerer``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from docqa.answer.contract import Answerer
from docqa.answer.llm import LLM_ANSWERERS
from docqa.config import Settings

if TYPE_CHECKING:
    from docqa.answer.quote_labels import PageText
    from docqa.embed import Embedder


@dataclass(frozen=True)
class Needs:
    """What an answerer may take from the engine that builds it."""

    quote_embedder: Callable[[], Embedder | None]  # the sentence model for quotes, asked for on first use
    page_text: PageText                            # a page's text by (document id, page number), or None


TextAnswererFactory = Callable[[Settings, Needs], Answerer | None]


def extractive(settings: Settings, needs: Needs) -> Answerer:
    """The lines of the evidence that answer, offline (answer/extractive.py)."""
    from docqa.answer.extractive import ExtractiveAnswerer

    return ExtractiveAnswerer(needs.quote_embedder, settings.answer.quote_meaning_weight, page_text=needs.page_text)


def _language_model(make: Callable[..., Answerer | None]) -> TextAnswererFactory:
    return lambda settings, _needs: make(settings)


# A language model gives None when it lacks its key or URL (said in the log): the extractive one answers then.
TEXT_ANSWERERS: dict[str, TextAnswererFactory] = {
    "extractive": extractive,
    **{name: _language_model(make) for name, make in LLM_ANSWERERS.items()},
}


def text_answerer(settings: Settings, needs: Needs) -> Answerer:
    return TEXT_ANSWERERS[settings.answer.answerer](settings, needs) or extractive(settings, needs)


def route_answerers(settings: Settings, needs: Needs) -> dict[str, tuple[Answerer, ...]]:
    """Each step's answerers, tried in this order: "facts", "figures", "disclosure", "section", "ranking", "scheduled", "text"."""
    from docqa.answer.disclosure import DisclosureAnswerer
    from docqa.answer.figures import FiguresAnswerer
    from docqa.answer.filing_facts import FilingFactsAnswerer
    from docqa.answer.lists import ListAnswerer
    from docqa.answer.ranking import RankingAnswerer
    from docqa.answer.scheduled import ScheduledAnswerer
    from docqa.answer.section import SectionAnswerer
    from docqa.answer.sentence_figures import SentenceFigureAnswerer
    from docqa.answer.sentence_moves import SentenceMoveAnswerer
    from docqa.answer.sentence_threshold import SentenceThresholdAnswerer

    return {"facts": (FilingFactsAnswerer(), ListAnswerer()), "figures": (FiguresAnswerer(), SentenceFigureAnswerer(), SentenceMoveAnswerer(),
                                                                          SentenceThresholdAnswerer()),
            "disclosure": (DisclosureAnswerer(),), "section": (SectionAnswerer(),), "ranking": (RankingAnswerer(),),
            "scheduled": (ScheduledAnswerer(),),
            "text": (text_answerer(settings, needs),)}
