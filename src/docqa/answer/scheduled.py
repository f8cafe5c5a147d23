"""Figures a filing schedules for a later year: "how much of Boeing's debt matures in 2024?" asked of
its 2022 10-K is the 2024 cell of the table that prints debt by year of maturity.

No list of schedules is needed. A filing's own statements never print a year after its fiscal year,
so a column headed by the year asked (or a row labelled by it) sits in a schedule: maturities, lease
payments, benefit payments, amortization to come, commitments. Among those cells the one read is the
row (or, for a year printed as a row, the column) whose words name what the question asks, the
table's title and headings counting for less; "after 2027" and "thereafter" read the bucket past the
years printed one by one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from docqa.answer.contract import Evidence
from docqa.answer.figures.reading.sources import Source, all_tables, filing_sources
from docqa.answer.sentence_figures import stated_answer
from docqa.answer.statement_lines import printed_line
from docqa.finance.tables import Cell, Column, Row, StatementTable
from docqa.finance.lexicon import load_lexicon
from docqa.finance.rowlookup import phrase_words
from docqa.finance.text import stems
from docqa.plan import Intent, QuestionPlan
from docqa.plan.periods import Scheduled
from docqa.store.base import StoredLine, StoredPage
from docqa.types import Citation, Draft, Figure

ANSWERER = "scheduled"
LABEL_WEIGHT = 1.0        # the words of the row (or the year-row's column) that prints the figure
CONTEXT_WEIGHT = 0.5      # the table's title and the heading the row sits under
MIN_COVERAGE = 0.66       # of the asked words, the share the label and its context must hold
EVIDENCE_BONUS = 0.05     # the table is on a page retrieval found
LEAD_IN_POINTS = 40       # how far above a table its lead-in sentence sits
LABEL_WORDS = 8           # longer, a label is a sentence over the table, not a line's name
OWN_HEADER = 0.1          # a year-row's column named by its own header, not by the heading over the rows
# a row that only says it is a schedule's line ("Scheduled principal payments", "Total")
_GENERIC_ROW = frozenset(stems("scheduled principal payments payment minimum obligations maturities total amount "
                               "amounts due estimated expected future"))
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
_PAST = re.compile(r"\b(?:thereafter|after|beyond|later)\b", re.I)
_RANGE = re.compile(r"(?:19|20)\d\d\s*[-–—]\s*(?:(?:19|20)?\d\d)|\bthrough\b|\bto\b", re.I)


@dataclass(frozen=True)
class _Read:
    table: StatementTable
    row: Row
    cell: Cell
    label: str            # what the figure is, as printed: the row's label, or the column's header
    score: float


class ScheduledAnswerer:
    """Reads the cell of the year asked from the schedules of the filing before it."""

    name = ANSWERER

    def answer(self, plan: QuestionPlan, evidence: Evidence) -> Draft | None:
        asked = plan.scheduled
        if plan.intent is not Intent.SCHEDULED or asked is None or evidence.filings is None or not evidence.pages:
            return None
        words = _as_the_lexicon_prints(plan, asked.words)
        wanted = frozenset(stems(" ".join(words)))
        if not wanted:
            return None
        left_out = frozenset(stems(" ".join(asked.without))) - wanted
        sources = [s for s in filing_sources(list(evidence.pages), evidence.filings)
                   if s.fiscal_year is None or s.fiscal_year == asked.filing_year]
        if not sources:
            return None
        source = sources[0]
        found = {p.page for p in evidence.pages if p.document_id == source.document_id}
        reads = [r for t in all_tables(source) for r in _cells(t, asked, wanted, t.page in found, source)
                 if not left_out & set(stems(r.label))]
        if not reads:
            # no schedule prints it: a sentence of the outlook may ("we expect capital expenditures of $5.7 billion")
            hard = [w for w in phrase_words(" ".join(words))[0] if w not in plan.company_stems]
            kind = "percent" if plan.reading.over_time == "growth" or plan.kinds & {"percent", "share_of"} else None
            return stated_answer(plan, evidence, " ".join(words), hard, ahead=True, kind=kind)
        best = max(reads, key=lambda r: r.score)
        if any(abs(r.score - best.score) < 1e-9 and not _same_amount(r, best) for r in reads):
            return None  # two cells fit the words equally and print different figures: not decided
        return _draft(best, asked, source)


def _same_amount(a: _Read, b: _Read) -> bool:
    """One amount printed twice, at the same or another scale ("47" in millions, "47,036" in thousands)."""
    scale_a, scale_b = a.table.scale or 1.0, b.table.scale or 1.0
    return abs((a.cell.value or 0.0) * scale_a - (b.cell.value or 0.0) * scale_b) <= 0.5 * max(scale_a, scale_b)


def _as_the_lexicon_prints(plan: QuestionPlan, words: tuple[str, ...]) -> tuple[str, ...]:
    """The asked words with a short name the lexicon knows in its printed form ("capex" -> "capital
    expenditures"): what a schedule's row or an outlook's sentence prints."""
    lexicon = load_lexicon()
    out = list(words)
    for m in plan.measures:
        said = m.text.lower().split()
        if m.kind != "metric" or not said or not set(said) <= set(out):
            continue
        label = lexicon.metric(m.key).label.lower().split()
        if set(label) & set(said):
            continue  # already the printed words
        out = [w for w in out if w not in said] + label
    return tuple(out)


def _lead_in(source: Source, table: StatementTable) -> str:
    """The lines printed just above a table: a sentence that says what it lays out ("Future minimum
    lease payments under non-cancelable operating leases ... are as follows")."""
    page = source.pages.get(table.page)
    if page is None:
        return ""
    top = table.bbox[1]
    return " ".join(line.text for line in page.lines if top - LEAD_IN_POINTS <= line.bbox[3] <= top + 2)


def _cells(table: StatementTable, asked: Scheduled, wanted: frozenset[str], retrieved: bool, source: Source) -> list[_Read]:
    # "after 2027" is the bucket past 2027 only where 2027 is the last year printed one by one
    if asked.after and (not _prints_year(table, asked.year) or _prints_year(table, asked.year + 1)):
        return []
    columns = [c for c in table.columns if _names_the_year(c.header, asked)]
    if not columns and not any(_year_cell(r, asked) or _names_the_year(r.label, asked, across=False) for r in table.rows):
        return []  # most tables of a filing print no later year: their words are not read
    context = set(stems(table.title)) | set(stems(_lead_in(source, table)))
    bonus = EVIDENCE_BONUS if retrieved else 0.0
    if columns:
        return _across(table, columns, context, wanted, bonus)
    return _down(table, asked, context, wanted, bonus)


def _prints_year(table: StatementTable, year: int) -> bool:
    """Does the table print the year on its own, as a column or as a row?"""
    alone = Scheduled(year, 0)
    return (any(_names_the_year(c.header, alone) for c in table.columns)
            or any(_names_the_year(r.label, alone, across=False) or _year_cell(r, alone) for r in table.rows))


def _across(table: StatementTable, columns: list[Column], context: set[str], wanted: frozenset[str], bonus: float) -> list[_Read]:
    """The years across the columns: each row is a thing scheduled."""
    out: list[_Read] = []
    for column in columns:
        for row in table.rows:
            cell = next((c for c in row.cells if c.column == column.index and c.value is not None), None)
            if cell is None or not row.label.strip():
                continue
            around = context | set(stems(row.section or ""))
            # "Scheduled principal payments" under a title that says of what: the title names the row
            label = set(stems(row.label)) | (set() if set(stems(row.label)) - _GENERIC_ROW else around)
            score = _score(label, around, wanted)
            if score is not None:
                out.append(_Read(table, row, cell, row.label.strip(), score + bonus))
    return out


def _down(table: StatementTable, asked: Scheduled, context: set[str], wanted: frozenset[str], bonus: float) -> list[_Read]:
    """The years down the rows: each column is a thing scheduled."""
    out: list[_Read] = []
    for row in table.rows:
        year_cell = _year_cell(row, asked)
        if year_cell is None and not _names_the_year(row.label, asked, across=False):
            continue
        for column in table.columns:
            cell = next((c for c in row.cells if c.column == column.index and c.value is not None), None)
            if cell is None or cell is year_cell or column.derived:
                continue
            header = " ".join(w for w in column.header.split() if not _YEAR.search(w))
            # a column headed by a year or nothing prints what the heading over the rows (or the title) names
            label = next((t.strip() for t in (header, row.section or "", table.title) if set(stems(t)) & wanted), "")
            score = _score(set(stems(label)), context | set(stems(row.section or "")), wanted)
            if score is not None:
                own = OWN_HEADER if label and label == header.strip() else 0.0  # the column's own words name it
                out.append(_Read(table, row, cell, label or table.title.strip(), score + bonus + own))
    return out


def _year_cell(row: Row, asked: Scheduled) -> Cell | None:
    """A row whose year was stored as its first cell, the label left empty ("| 2024 | 1,140 | 383")."""
    if any(ch.isdigit() for ch in row.label) or not row.cells:
        return None  # (a label of no figure, "In millions", may sit beside it)
    first = row.cells[0]
    return first if _names_the_year(first.raw, asked, across=False) else None


def _names_the_year(text: str, asked: Scheduled, across: bool = True) -> bool:
    """A column header that names the year asked alone ("2024", "Year Ended December 31, 2024"), a row
    label that is the year ("2024", "Fiscal 2024"), or the bucket past the years printed one by one
    ("Thereafter", "After 2027") when that is asked."""
    text = text.strip().rstrip(":.*)( ")
    years = [int(y) for y in _YEAR.findall(text)]
    short = len(re.sub(r"[^A-Za-z]", "", text)) <= len("fiscal year")  # a label, not "Notes due 2024"
    # a header stacked over the years ("Year Ended December 31, | 2024") ends with the year; a sentence
    # over the whole table ("... over the next five years and thereafter") names no column
    last = re.split(r"[\s,]+", text)[-1] if text else ""
    if asked.after:
        ends = bool(_PAST.search(last)) or (years == [asked.year] and bool(_PAST.search(text)) and last == str(asked.year))
        return ends and (not years or years == [asked.year]) and (across or short)
    if _RANGE.search(text) or _PAST.search(text):
        return False
    return years == [asked.year] and last.endswith(str(asked.year)) and (across or short)


def _score(label: set[str], context: set[str], wanted: frozenset[str]) -> float | None:
    """How well a label (and its table's words) names what is asked; None when the label names none of it."""
    in_label = wanted & label
    if not in_label:
        return None
    held = in_label | (wanted & context)
    if len(held) < MIN_COVERAGE * len(wanted):
        return None
    # words the label prints that were not asked tell another thing ("Minimum finance lease obligations" for debt)
    extra = len(label - wanted - context)
    return (LABEL_WEIGHT * len(in_label) + CONTEXT_WEIGHT * len(held - in_label)) / len(wanted) - 0.05 * extra


_UNIT_WORD = {"millions": " million", "thousands": " thousand", "billions": " billion"}


def _draft(read: _Read, asked: Scheduled, source: Source) -> Draft:
    table, cell = read.table, read.cell
    raw = re.sub(r"\$\s+", "$", cell.raw.strip())
    shown = raw + (_UNIT_WORD.get(table.unit or "", "") if "%" not in raw else "")
    when = f"after {asked.year}" if asked.after else str(asked.year)
    text = (f"{_measure(read, asked)}, {when} (as scheduled in the fiscal {asked.filing_year} filing): {shown} "
            f"(as printed: {raw}, {source.document} p. {table.page}).")
    text = text[:1].upper() + text[1:]
    page = source.pages.get(table.page)
    quote = printed_line(page, read.row) if page else read.row.label
    figure = Figure(name=read.label, value=cell.value or 0.0, text=cell.raw, unit="%" if "%" in cell.raw else None,
                    scale=table.scale or 1.0, period=when, document=source.document, page=table.page, bbox=cell.bbox)
    citation = Citation(document=source.document, document_id=source.document_id, page=table.page, quote=quote,
                        boxes=(read.row.bbox,), about=_heading(table))
    citations = (citation,)
    years = _years_line(page, table, read.row, when) if page else None
    if years is not None and years.text.strip() != quote.strip():
        # the line that prints the years over the row's figures: which column is the year asked
        citations += (Citation(document=source.document, document_id=source.document_id, page=table.page,
                               quote=years.text.strip(), boxes=(years.bbox,), about=_heading(table)),)
    return Draft(text=text, found=True, citations=citations, figures=(figure,), answerer=ANSWERER,
                 measure=_measure(read, asked))


def _years_line(page: StoredPage, table: StatementTable, row: Row, when: str) -> StoredLine | None:
    """The printed line of the table, above the row, that names the year asked (its column header)."""
    year = when.split()[-1]
    above = [line for line in page.lines if table.bbox[1] - 2 <= line.bbox[1] < row.bbox[1]
             and re.search(rf"(?<!\d){year}(?!\d)", line.text)]
    return above[-1] if above else None


def _measure(read: _Read, asked: Scheduled) -> str:
    """What the figure is: its row's or column's label; a title sentence that names the column
    ("The following is a summary of the Company's required repayments of debt ...") by the asked
    words it holds."""
    if len(read.label.split()) <= LABEL_WORDS:
        return read.label
    held = set(stems(read.label))
    return " ".join(w for w in asked.words if set(stems(w)) & held) or read.label


def _heading(table: StatementTable) -> str | None:
    title = table.title.strip()
    return title[:120] if title else None


def quotes_the_year(asked: Scheduled, citations: tuple[Citation, ...]) -> bool:
    """Does a line quoted name the year asked (or, for the bucket past it, "thereafter") and state an
    amount? A sentence that states a later year's figure names that year; one that does not speaks
    of another."""
    said = (str(asked.year), f"fy{asked.year % 100:02d}", f"fy {asked.year % 100:02d}", f"fy'{asked.year % 100:02d}")
    past = ("thereafter", "beyond", "after")

    def states_an_amount(quote: str) -> bool:  # a figure beside the year, not the year alone
        return any(n != str(asked.year) for n in re.findall(r"\$?\d[\d,.]*%?", quote) if re.search(r"[$%,.]|\d{3}", n))

    return any((any(y in c.quote.lower() for y in said) or (asked.after and any(p in c.quote.lower() for p in past)))
               and states_an_amount(c.quote) for c in citations)
