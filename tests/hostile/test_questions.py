"""Junk questions find nothing and say why; no answer quotes one line twice."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from docqa.answer.extractive import ExtractiveAnswerer
from docqa.config import Settings
from docqa.faces.web.app import create_app
from docqa.question import clean_question, nothing_to_look_for
from docqa.types import EvidencePage
from tests.hostile.conftest import LOCAL

JUNK = ["b", "AND OR NEAR(", "9\u0007\u0097b%", "???", "the of and", "2017", "(b)(2)", "OR OR OR", "\u200b b \u200b"]


@pytest.mark.parametrize("question", JUNK)
def test_junk_is_not_found_with_a_reason(lexical_engine, question):
    answer = lexical_engine.ask(question, document="AMAZON_2017_10K.pdf")
    assert not answer.found and answer.verification == "not_found"
    assert "no word to look for" in answer.reason
    assert not answer.citations


@pytest.mark.parametrize("question", ["", "   ", "\u0000\u0001", "\u0007"])
def test_empty_questions_are_a_validation_error(lexical_engine, question):
    with pytest.raises(ValueError, match="non-empty"):
        lexical_engine.ask(question)


def test_real_questions_still_pass_the_check():
    for q in ["What is Amazon's FY2017 capital expenditure in USD millions?", "3M EPS?", "exhibit", "Is Netflix profitable?",
              "What\u0007 was revenue?"]:
        assert nothing_to_look_for(clean_question(q)) is None, q
    assert clean_question("What\u0007 was\u0097 revenue?") == "What was revenue?"


def test_rest_junk_and_empty(tmp_path, lexical_engine):
    app = create_app(lexical_engine.settings, engine=lexical_engine, worker=False)
    with TestClient(app, base_url=LOCAL) as c:
        r = c.post("/api/ask", json={"question": "AND OR NEAR(", "document": "AMAZON_2017_10K.pdf"})
        assert r.status_code == 200 and r.json()["found"] is False and "no word to look for" in r.json()["reason"]
        r = c.post("/api/ask", json={"question": "\u0000"})
        assert r.status_code in (400, 422), r.text


def test_the_same_line_on_several_pages_is_quoted_once():
    line = "Exhibit 31.1 Certification of the Chief Executive Officer pursuant to Rule 13a-14(a) of the Exchange Act."
    pages = [EvidencePage(label=f"P{i}", document="x.pdf", document_id="x", page=i, text=line + "\nOther words here on page.")
             for i in (80, 81, 82)]
    draft = ExtractiveAnswerer().answer_text("Which certification of the chief executive officer is filed?", pages)
    assert draft.found
    assert len(draft.citations) == 1 and draft.text.count("Certification") == 1
