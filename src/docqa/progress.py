"""The stages of answering a question, reported as each begins, so that a face can show the work
while it happens (the web app streams them: POST /api/ask/stream).

A stage is only said when the work it names starts: a question the figures answer never reaches
"composing", and one that is not found stops where it was decided. Verifying comes after each
draft, so a question whose figures fail their check is verified, then composed from quotes and
verified again.
"""

from __future__ import annotations

import contextvars
import queue
import threading
import time
from dataclasses import dataclass
from typing import Callable, Generic, Iterator, Literal, TypeVar

StageName = Literal["understanding", "searching", "reading", "composing", "verifying"]
STAGES: tuple[StageName, ...] = ("understanding", "searching", "reading", "composing", "verifying")
TITLES: dict[StageName, str] = {
    "understanding": "Understanding the question",
    "searching": "Searching",
    "reading": "Reading statements and tables",
    "composing": "Composing the answer",
    "verifying": "Verifying",
}


@dataclass(frozen=True)
class Stage:
    name: StageName
    detail: str          # what it works on: "searching 15,435 pages of 111 filings"
    elapsed_s: float     # since the question was taken

    @property
    def title(self) -> str:
        return TITLES[self.name]


OnStage = Callable[[Stage], None]


class StageReporter:
    """Tells ``on_stage`` as each stage begins. A stage said twice in a row is said once (the thread
    and the engine both start by understanding the question). Without ``on_stage`` it only keeps time."""

    def __init__(self, on_stage: OnStage | None = None):
        self.on_stage = on_stage
        self.started = time.perf_counter()
        self.said: list[Stage] = []

    def __call__(self, name: StageName, detail: str = "") -> None:
        if self.said and self.said[-1].name == name:
            return
        stage = Stage(name=name, detail=detail, elapsed_s=round(time.perf_counter() - self.started, 3))
        self.said.append(stage)
        if self.on_stage is not None:
            self.on_stage(stage)


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


T = TypeVar("T")


@dataclass(frozen=True)
class Finished(Generic[T]):
    result: T
    elapsed_s: float


@dataclass(frozen=True)
class Failed:
    error: BaseException


def stages_of(work: Callable[[StageReporter], T]) -> Iterator[Stage | Finished[T] | Failed]:
    """Run ``work`` in a thread; yield its stages as they begin, then Finished (its result) or Failed
    (what it raised). A caller that stops reading leaves the work to finish on its own."""
    events: queue.Queue[Stage | Finished[T] | Failed] = queue.Queue()
    reporter = StageReporter(events.put)
    context = contextvars.copy_context()  # the caller's context vars hold in the thread too

    def run() -> None:
        try:
            result = context.run(work, reporter)
        except BaseException as exc:  # handed to the reader, who raises or reports it
            events.put(Failed(exc))
        else:
            events.put(Finished(result, round(time.perf_counter() - reporter.started, 3)))

    threading.Thread(target=run, name="docqa-ask", daemon=True).start()
    while True:
        event = events.get()
        yield event
        if not isinstance(event, Stage):
            return


__all__ = ["STAGES", "Failed", "Finished", "OnStage", "Stage", "StageName", "StageReporter", "plural", "stages_of"]
