"""Stages as they begin: said once each in a row, delivered while the work still runs, failures handed over."""

from __future__ import annotations

import threading

import pytest

from docqa.progress import Failed, Finished, Stage, StageReporter, stages_of


def test_a_stage_said_twice_in_a_row_is_said_once_and_times_only_grow():
    heard: list[Stage] = []
    report = StageReporter(heard.append)
    for name in ("understanding", "understanding", "searching", "verifying", "composing", "verifying"):
        report(name, f"about {name}")
    assert [s.name for s in heard] == ["understanding", "searching", "verifying", "composing", "verifying"]
    assert heard[0].title == "Understanding the question" and heard[1].detail == "about searching"
    assert [s.elapsed_s for s in heard] == sorted(s.elapsed_s for s in heard)
    assert report.said == heard


def test_stages_arrive_while_the_work_still_runs():
    release = threading.Event()

    def work(progress: StageReporter) -> str:
        progress("searching", "searching 3 pages of 1 filing")
        # only the reader, once it has the stage, lets the work go on: a buffered stream would hang here
        assert release.wait(10), "the stage was not delivered before the work ended"
        progress("verifying", "checking 1 quoted line and 0 figures against the pages")
        return "answer"

    events = stages_of(work)
    first = next(events)
    assert isinstance(first, Stage) and first.name == "searching"
    release.set()
    rest = list(events)
    assert [e.name for e in rest[:-1]] == ["verifying"]
    assert isinstance(rest[-1], Finished) and rest[-1].result == "answer"


def test_what_the_work_raises_is_handed_to_the_reader():
    def work(progress: StageReporter) -> None:
        raise LookupError("no conversation with id 'abc'")

    events = list(stages_of(work))
    assert len(events) == 1 and isinstance(events[0], Failed)
    with pytest.raises(LookupError, match="no conversation"):
        raise events[0].error
