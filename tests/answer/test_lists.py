"""answer.lists: a list question is answered by the sentence that counts and names the members."""

from __future__ import annotations

from docqa.answer.lists import _enumerates
from docqa.plan.lists import asked_noun


def test_the_noun_asked_and_its_qualifiers():
    assert asked_noun("What are Lockheed Martin's business segments as described in its 2022 annual report?") == (
        "segments", ["business"])
    assert asked_noun("What are Activision Blizzard's reportable segments per its 2019 10-K?") == ("segments", ["reportable"])
    assert asked_noun("What was Amazon's revenue?") is None
    assert asked_noun("What are the main risk factors?") is None  # counted nowhere as a list of members


def test_a_sentence_that_counts_and_names_members_enumerates_them():
    assert _enumerates("We operate in four business segments: Aeronautics, MFC, RMS and Space.", "segments")
    assert _enumerates("The Company has three reportable segments: Domestic streaming, International streaming "
                       "and Domestic DVD.", "segments")
    assert not _enumerates("In 2019 two segments were combined into one.", "segments")


def test_segments_are_quoted_from_the_filing(lexical_engine):
    answer = lexical_engine.ask("What are Netflix's reportable segments in 2017?")
    assert answer.found and answer.answerer == "lists"
    assert "Domestic streaming, International streaming and Domestic DVD" in answer.text
    assert all(c.document == "NETFLIX_2017_10K.pdf" for c in answer.citations)
