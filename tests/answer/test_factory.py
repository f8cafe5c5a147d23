"""The answerer registry: DOCQA_ANSWERER picks the text answerer; a language model without its key
gives way to the extractive one; every route step has its answerers."""

from __future__ import annotations

from pydantic import SecretStr

from docqa.answer.extractive import ExtractiveAnswerer
from docqa.answer.factory import TEXT_ANSWERERS, Needs, route_answerers, text_answerer
from docqa.answer.llm import LLMAnswerer
from docqa.config import AnswerSettings, Settings

NEEDS = Needs(quote_embedder=lambda: None, page_text=lambda document_id, number: None)


def test_every_answerer_the_settings_accept_has_an_entry():
    names = AnswerSettings.model_fields["answerer"].annotation.__args__
    assert set(TEXT_ANSWERERS) == set(names)


def test_the_text_answerer_by_name():
    assert isinstance(text_answerer(Settings(answerer="extractive", quote_meaning_weight=0.25), NEEDS),
                      ExtractiveAnswerer)
    made = text_answerer(Settings(answerer="openai", openai_api_key=SecretStr("k"), openai_model="gpt"), NEEDS)
    assert isinstance(made, LLMAnswerer) and made.name == "openai:gpt"


def test_a_language_model_without_its_key_gives_way_to_the_extractive_answerer():
    assert isinstance(text_answerer(Settings(answerer="anthropic", anthropic_api_key=None), NEEDS), ExtractiveAnswerer)


def test_every_step_has_its_answerers():
    from docqa.answer.ask import DEFAULT_ROUTE, ROUTES

    routes = route_answerers(Settings(), NEEDS)
    assert set(routes) == {"facts", "figures", "disclosure", "section", "ranking", "scheduled", "text"}
    # every step a route names has its answerers, and every answerer a route
    named = {step.answerer for route in (DEFAULT_ROUTE, *ROUTES.values()) for step in route}
    assert named == set(routes)
    assert all(routes.values())
    assert routes["text"][0].meaning_weight == 0.5


def test_every_answerer_says_how_it_answered_in_a_readers_words():
    from docqa.answer.wording import HOW

    routes = route_answerers(Settings(), NEEDS)
    names = {a.name.split(":", 1)[0] for group in routes.values() for a in group}
    assert names <= set(HOW), names - set(HOW)
