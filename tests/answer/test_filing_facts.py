"""answer.filing_facts: the cover's address and state, the auditor's signature, the signing CEO."""

from __future__ import annotations

import pytest

from docqa.plan.facts import asked_fact


@pytest.mark.parametrize("question, kind", [
    ("Where are Costco's principal executive offices?", "address"),
    ("In which city is Boeing headquartered?", "address"),
    ("In which state is Adobe incorporated?", "incorporation"),
    ("Who audited Square's financial statements for fiscal 2016?", "auditor"),
    ("Which accounting firm audits Amazon?", "auditor"),
    ("Who signed Boeing's 2022 Form 10-K as principal executive officer?", "signer"),
    ("Which chief executive signed the Kraft Heinz annual report?", "signer"),
    # a shareholder vote on the auditor is answered by the vote, not by a signature
    ("Which accounting firm did shareholders ratify as independent auditor?", None),
    ("What was Amazon's revenue in 2017?", None),
])
def test_which_fact_is_asked(question, kind):
    assert asked_fact(question) == kind


def test_the_auditor_is_the_firm_that_signed_the_report(lexical_engine):
    answer = lexical_engine.ask("Who audited Netflix's 2017 financial statements?")
    assert answer.found and answer.answerer == "filing_facts"
    assert answer.text.startswith("Ernst & Young LLP")
    assert any(c.quote == "/s/ Ernst & Young LLP" for c in answer.citations)


def test_the_address_is_read_above_its_cover_label(lexical_engine):
    answer = lexical_engine.ask("Where are Netflix's principal executive offices according to its 2017 10-K?")
    assert answer.found and "100 Winchester Circle Los Gatos, California 95032" in answer.text
    assert [c.page for c in answer.citations] == [1]


def test_the_principal_executive_officer_is_read_from_the_signatures(lexical_engine):
    answer = lexical_engine.ask("Who signed Adobe's fiscal 2022 10-K as principal executive officer?")
    assert answer.found and answer.text.startswith("Shantanu Narayen")
