"""What the CLI prints through: text made safe for a terminal, JSON, the consoles and the progress bar."""

from __future__ import annotations

import re

from rich.console import Console, ConsoleDimensions
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text

PIPE_WIDTH = 10_000    # output to a pipe or file is not wrapped: one record per line, quotes whole


# Control characters (Unicode Cc) but newline and tab: ESC, CSI (U+009B), BEL, backspace, carriage return...
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str, *, as_json: bool = False) -> str:
    """``text`` as the CLI may print it: a filing's (or a file name's) control characters would reach
    the terminal as commands (ESC [31m recolours it, ESC ]52 writes the clipboard, CR overwrites a
    line), on a terminal or through a pipe into one. Every printed text passes here: plain text loses
    them; JSON gets them as \\u escapes (the same string, still valid JSON, no raw byte)."""
    if as_json:
        return _CONTROL.sub(lambda m: f"\\u{ord(m[0]):04x}", text)
    return _CONTROL.sub("", text)


def print_json(text: str) -> None:
    print(printable(text, as_json=True))


class _Console(Console):
    """A rich Console that wraps only on a terminal (piped output keeps each line whole), and prints
    every string it is given (a line, a table's cell) through ``printable``."""

    def render_str(self, text: str, **options) -> Text:
        return super().render_str(printable(text), **options)

    @property
    def size(self) -> ConsoleDimensions:
        size = Console.size.fget(self)
        return size if self.is_terminal else ConsoleDimensions(PIPE_WIDTH, size.height)

    @size.setter
    def size(self, new_size) -> None:
        Console.size.fset(self, new_size)


console = _Console()
err = _Console(stderr=True)


class PagesBar:
    """rich progress over pages: pages done, pages/s, ETA."""

    def __init__(self):
        self.progress = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[rate]} pages/s"), TimeRemainingColumn(), console=err, transient=False,
        )
        self.tasks: dict[str, int] = {}
        self._said: set[str] = set()

    def __call__(self, name: str, done: int, total: int) -> None:
        if not err.is_terminal:
            # Into a pipe or a log rich draws no bar: a plain line as each file's pages are read.
            if total and done >= total and name not in self._said:
                self._said.add(name)
                err.print(f"[{len(self._said)}] read {escape(printable(name))}: {total} pages", highlight=False)
            return
        if name not in self.tasks:
            self.tasks[name] = self.progress.add_task(escape(printable(name[:40])), total=total, rate="-")
        task_id = self.tasks[name]
        self.progress.update(task_id, completed=done, total=total)
        task = self.progress.tasks[task_id]
        if task.elapsed:
            self.progress.update(task_id, rate=f"{done / task.elapsed:.1f}")

    def note(self, name: str, text: str) -> None:
        """What the file's pages wait on, after its name: "report.pdf  OCR page 40 of 171"."""
        if not err.is_terminal and text.startswith("OCR page 1 of"):
            # Into a pipe: once, that the file's slow part begins ("OCR page 1 of 171").
            err.print(f"{escape(printable(name))}: {escape(text)}", highlight=False)
        if name in self.tasks:
            self.progress.update(self.tasks[name], description=escape(f"{printable(name[:40])}  {text}"))
