"""A server readies the answering code before its first question (Engine.warm_up_in_background)."""

from __future__ import annotations

import threading

from docqa.plan.companies import _held_for


def _warm_up_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "docqa-warm-up"]


def test_the_planner_table_is_built_before_the_first_question(lexical_engine):
    _held_for.cache_clear()
    lexical_engine.warm_up_in_background()
    for thread in _warm_up_threads():
        thread.join(timeout=60)
    built = _held_for.cache_info()
    assert built.misses == 1 and built.currsize == 1  # the index's company names, read once
    answer = lexical_engine.ask("What was Amazon's total net sales in 2017?")
    assert answer.found
    assert _held_for.cache_info().misses == 1  # the first question found them ready
