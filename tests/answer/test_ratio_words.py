"""Ratios in analysts' words, answered over the bundled samples (Adobe 2022, Amazon 2017, Netflix
2017): each side read as a printed line, the arithmetic shown with the printed figures."""

from __future__ import annotations


def test_how_many_times_one_line_covers_another(lexical_engine):
    answer = lexical_engine.ask("How many times did Adobe's FY2022 operating income cover its interest expense?")
    assert answer.found and answer.verification == "verified", answer.text
    assert "54.45x" in answer.text and "6,098 / 112" in answer.text


def test_how_much_of_a_total_came_from_a_segment_in_percent(lexical_engine):
    # the part names a segment and no measure: the segment's net sales, over the company's
    answer = lexical_engine.ask("How much of Amazon's 2017 total net sales came from the AWS segment, in percent?")
    assert answer.found and answer.verification == "verified", answer.text
    assert "9.8%" in answer.text and "17,459 / 177,866" in answer.text


def test_one_line_relative_to_another(lexical_engine):
    answer = lexical_engine.ask("Netflix 2017: technology and development relative to revenues?")
    assert answer.found, answer.text
    assert "1,052,778 / 11,692,713" in answer.text


def test_a_definition_in_brackets_is_the_arithmetic_asked(lexical_engine):
    answer = lexical_engine.ask("What was Adobe's cash ratio at December 2, 2022 ((cash and cash equivalents + "
                                "short-term investments) / total current liabilities)?")
    assert answer.found and answer.verification == "verified", answer.text
    assert "(4,236 + 1,860) / 8,128" in answer.text
