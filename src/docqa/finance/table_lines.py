"""A page's line as a table row sees it: its label words and the trailing run of figure cells."""

from __future__ import annotations

from dataclasses import dataclass, field

from docqa.finance.cells import is_affix, is_cell_word, is_dash, is_not_meaningful, is_number
from docqa.types import BBox, Line, Word


class _once:
    """A value worked out on first read and kept in the instance (functools.cached_property, without
    the lock Python 3.11 takes for it: a page's tables read a hundred thousand of these)."""

    def __init__(self, compute):
        self.compute, self.name = compute, compute.__name__

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.compute(instance)
        return value


@dataclass
class RawCell:
    words: list[Word]  # complete once split_line returns: raw and bbox are worked out once, after that
    numeric: bool  # a number (not a dash or "NM"): only these define where columns are

    @_once
    def raw(self) -> str:
        return " ".join(w.text for w in self.words)

    @_once
    def bbox(self) -> BBox:
        body = [w for w in self.words if w.text != "$"] or self.words
        return (min(w.bbox[0] for w in body), min(w.bbox[1] for w in body),
                max(w.bbox[2] for w in body), max(w.bbox[3] for w in body))


@dataclass
class TableLine:
    line: Line
    label_words: list[Word]
    cells: list[RawCell]
    year_line: bool = False
    is_data: bool = field(init=False)  # a figure, a dash or "NM" among the cells; read for every line, often

    def __post_init__(self) -> None:
        self.is_data = any(c.numeric or is_dash(c.raw) or is_not_meaningful(c.raw) for c in self.cells)

    def as_year_line(self) -> None:
        """A line of column periods: no cells, so no data."""
        self.year_line, self.cells, self.is_data = True, [], False

    @_once
    def label(self) -> str:  # label_words are not changed once the line is made
        return " ".join([w.text for w in self.label_words]).strip()

    @property
    def x0(self) -> float:
        return (self.label_words or self.line.words or [Word(text="", bbox=self.line.bbox)])[0].bbox[0]


def line_height(line: Line) -> float:
    return max(1.0, line.bbox[3] - line.bbox[1])


def split_line(line: Line) -> TableLine:
    """Separate a line's label from its trailing figures."""
    words = list(line.words)
    i = len(words)
    while i > 0 and is_cell_word(words[i - 1].text):
        i -= 1
    label, run = words[:i], words[i:]
    gap_needed = 0.8 * line_height(line)
    # A figure glued to the words before it by a single space is prose ("to $1.5"), or part of
    # the label ("Level 3"): move it into the label and look at the next one.
    while run and label and run[0].bbox[0] - label[-1].bbox[2] < gap_needed and run[0].text != "$":
        label.append(run.pop(0))
    if run and label and run[0].text == "$" and run[0].bbox[0] - label[-1].bbox[2] < gap_needed * 0.5:
        label.append(run.pop(0))
    return TableLine(line=line, label_words=label, cells=_cells(run))


def _cells(run: list[Word]) -> list[RawCell]:
    cells: list[RawCell] = []
    pending: list[Word] = []  # "$" or "(" waiting for their number
    for w in run:
        t = w.text
        if t in ("$", "("):
            pending.append(w)
        elif t in (")", "%", ")%", "%)", "*") and cells and not pending:
            cells[-1].words.append(w)
        elif is_number(t) or is_dash(t) or is_not_meaningful(t):
            numeric = is_number(t)
            cells.append(RawCell(words=[*pending, w], numeric=numeric))
            pending = []
        elif is_affix(t):
            pending.append(w)
    return cells
