"""A table's rows: each figure line's label, the headings it sits under and what it counts."""

from __future__ import annotations

import re
from dataclasses import dataclass

from docqa.finance.cells import parse_value
from docqa.finance.statement_kinds import is_unit_line
from docqa.finance.table_columns import FigureColumn, assign_cells
from docqa.finance.table_lines import TableLine, line_height
from docqa.finance.tables import Cell, Row, RowKind
from docqa.finance.text import clean_label
from docqa.types import Line, StatementKind, enclosing

_CONNECTOR_END = re.compile(r"(,|\b(and|of|for|to|in|the|from|on|or|by|with|at|net|less|including|excluding|before|after|per|due|related)|[\u2014\u2013\-&(])$", re.I)
# _CONNECTOR_END is searched in a line's last characters only: search() tries every start position,
# and a match is at most 9 characters ("including") and a newline before the end. The character
# before a match stays in the slice, so a word boundary at its start reads as in the whole line.
_TAIL = 16


def _ends_in_connector(text: str) -> bool:
    return bool(_CONNECTOR_END.search(text[-_TAIL:]))


def read_rows(lines: list[TableLine], lo: int, hi: int, cols: list[FigureColumn]) -> list[Row]:
    rows: list[Row] = []
    headings: list[_Heading] = []     # the headings above the current row, outermost first
    pending: list[TableLine] = []     # label-only lines not yet claimed by a row
    last: TableLine | None = None     # the line of the last row read
    for i in range(lo, hi):
        ln = lines[i]
        if not ln.is_data:
            if ln.line.words and rows and last is not None and not pending and _ends_unfinished(rows[-1].label, ln, last):
                # The figures sit on the first line of a wrapped label ("Loss for the year attributable to
                # (5,869,756)" / "Equity holders of the Company"): the line below finishes the label.
                rows[-1] = _extended(rows[-1], ln)
                last = ln
                continue
            if ln.line.words:
                if pending and _continues_heading(pending[-1], ln):
                    prev = pending.pop()
                    ln = TableLine(line=_join(prev.line, ln.line), label_words=prev.label_words + ln.label_words, cells=[])
                pending.append(ln)
            continue
        assigned, to_label = assign_cells(ln.cells, cols)
        if not assigned:
            pending.append(TableLine(line=ln.line, label_words=list(ln.line.words), cells=[]))
            continue
        label_words = ln.label_words + [w for c in to_label for w in c.words]
        label = " ".join(w.text for w in label_words).strip()
        indent = label_words[0].bbox[0] if label_words else min(c.bbox[0] for c in assigned.values())
        # Label-only lines just above: a wrapped label ("... real estate" / "ventures  (2,704)")
        # or headings ("Current assets:").
        continued: list[TableLine] = []
        while pending and _continues(pending[-1], label, ln):
            continued.insert(0, pending.pop())
            label = f"{continued[0].label} {label}".strip()
        if continued:
            indent = min(indent, continued[0].x0)
        for p in pending:
            if is_unit_line(p.label):
                continue  # "(In millions except per share data)" below the years is no heading
            headings = [h for h in headings if h.indent < p.x0 - 1]
            headings.append(_Heading(p.x0, p.label))
        pending = []
        # A row that comes back out to a heading's indent after rows under it closes the heading:
        # it is the heading's total (Pfizer's "Net income attributable ..." under "Earnings per
        # share––diluted:") and the heading stops applying after it.
        closing = [h for h in headings if indent <= h.indent + 1 and h.nested]
        for h in headings:
            h.nested = h.nested or indent > h.indent + 1
        section = headings[-1].text if headings else None
        headings = [h for h in headings if h not in closing]
        cells = tuple(
            Cell(value=parse_value(c.raw), raw=c.raw, column=k, bbox=c.bbox) for k, c in sorted(assigned.items())
        )
        boxes = [ln.line.bbox] + [c.line.bbox for c in continued]
        bbox = enclosing(boxes)
        clean = clean_label(label)
        rows.append(Row(label=clean, section=clean_label(section) if section else None,
                        kind=_row_kind(clean, section, cells), cells=cells, bbox=bbox, indent=indent))
        last = ln
        if clean.lower().startswith("total") and headings and not closing and headings[-1].rows \
                and _closes(clean, headings[-1].text):
            headings.pop()  # "Total current assets" closes "Current assets:" (a "Total" first under
            # its heading opens the block instead: CVS's "Pharmacy claims processed: Total ... Mail choice";
            # "Total wireless retail" closes a block of its own under "Connections ('000):", not the heading)
        elif headings:
            headings[-1].rows += 1
    return rows


def _closes(total: str, heading: str) -> bool:
    """Is the total the heading's: a bare "Total", or one that shares a word with the heading?"""
    words = {w for w in re.findall(r"[a-z]+", total.lower()) if w not in _NOT_NAMING}
    return not words or bool(words & {w for w in re.findall(r"[a-z]+", heading.lower()) if w not in _NOT_NAMING})


_NOT_NAMING = frozenset("total net and of the in for other".split())


def name_unlabeled_totals(rows: list[Row], statement: StatementKind | None) -> list[Row]:
    """Some statements print totals with no label (MGM's "$ 36,494,934" under the assets): name them.

    A figures-only row that adds up the rows of its heading above it is "Total <heading>". On a
    balance sheet, a figures-only "$" row closing the assets is "Total assets", and the one
    closing the liabilities and equity is "Total liabilities and equity".
    """
    out: list[Row] = []
    seen_liabilities = False
    for k, row in enumerate(rows):
        label = row.label
        if not label and row.kind == "currency" and row.cells:
            named = None
            members = [r for r in out if r.section and r.section == row.section and r.label]
            if row.section and members and _adds_up(row, members):
                named = f"Total {row.section.rstrip(':').strip()}"
            elif statement == StatementKind.BALANCE and row.cells[0].raw.startswith("$"):
                named = "Total liabilities and equity" if seen_liabilities else "Total assets"
            if named:
                row = row.model_copy(update={"label": named})
        if "liabilit" in row.label.lower():
            seen_liabilities = True
        out.append(row)
    return out


def _adds_up(total: Row, members: list[Row]) -> bool:
    """Does every figure of ``total`` equal the sum of the members' figures in its column?"""
    checked = 0
    for cell in total.cells:
        if cell.value is None:
            continue
        parts = [c.value for r in members if (c := r.cell(cell.column)) is not None and c.value is not None]
        if not parts or abs(sum(parts) - cell.value) > max(1.0, abs(cell.value) * 0.001):
            return False
        checked += 1
    return checked > 0


@dataclass
class _Heading:
    indent: float
    text: str
    nested: bool = False  # rows deeper than the heading have been seen under it
    rows: int = 0         # rows read under it so far


def _continues(prev: TableLine, label: str, row: TableLine) -> bool:
    """Is the label-only line ``prev`` the first part of this row's label?"""
    text = prev.label.rstrip()
    if not text or text.endswith(":") or not _adjacent(prev.line, row.line):
        return False
    if not label:
        return True  # a figures-only row under its label ("Diluted net income per share ..." / "0.02")
    if label[0].islower() or _ends_in_connector(text):
        return True
    return False


def _ends_unfinished(label: str, ln: TableLine, last: TableLine) -> bool:
    """Does the row's label stop mid-phrase ("... attributable to") and the label-only line just
    below it carry on ("Equity holders of the Company"), rather than open a heading ("Assets:")?"""
    text = ln.label.rstrip()
    return (bool(label) and bool(_TRAILING_CONNECTOR.search(label)) and bool(text) and not text.endswith(":")
            and _adjacent(last.line, ln.line))


# Words a line item's name cannot end with. Narrower than _CONNECTOR_END: "net", "less" and
# "," end complete labels ("Accounts receivable, net").
_TRAILING_CONNECTOR = re.compile(r"\b(?:of|for|to|from|on|by|with|attributable\s+to|available\s+to|and|or)$", re.I)


def _extended(row: Row, ln: TableLine) -> Row:
    label = clean_label(f"{row.label} {ln.label}")
    a, b = row.bbox, ln.line.bbox
    return row.model_copy(update={
        "label": label, "kind": _row_kind(label, row.section, row.cells),
        "bbox": (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))})


def _join(upper: Line, lower: Line) -> Line:
    a, b = upper.bbox, lower.bbox
    return Line(text=f"{upper.text} {lower.text}", words=upper.words + lower.words,
                bbox=(min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])))


def _continues_heading(prev: TableLine, ln: TableLine) -> bool:
    """A heading wrapped onto a second line ("Adjustments to reconcile ... to net cash" / "provided by ...")."""
    text = prev.label.rstrip()
    if not text or text.endswith(":") or not ln.label or not _adjacent(prev.line, ln.line):
        return False
    return ln.label[0].islower() or _ends_in_connector(text)


def _adjacent(upper: Line, lower: Line) -> bool:
    # Some statements double-space wrapped headings; a blank line between is still < 1.2 heights.
    return lower.bbox[1] - upper.bbox[3] < 1.2 * line_height(lower)


_SHARES_START = re.compile(r"(weighted|average|shares|number of shares)\b")
_SHARES_LABEL = re.compile(r"^(weighted|average|shares|number of shares)|shares outstanding|shares used|weighted[- ]average")
_GENERIC = ("basic", "diluted")  # labels that say what they count only through their heading


def _row_kind(label: str, section: str | None, cells: tuple[Cell, ...]) -> RowKind:
    """What a row counts: per-share amounts and share counts are not scaled by "in millions"."""
    own = label.lower()
    sec = (section or "").lower()
    generic = own.split()[:1] and own.split()[0] in _GENERIC
    if _SHARES_START.match(own):
        return "shares"  # "Shares used to compute diluted net income per share" counts shares
    if "per share" in own or "per common share" in own or "per diluted share" in own or "per basic share" in own:
        return "per_share"
    if _SHARES_LABEL.search(own) or (generic and _SHARES_LABEL.search(sec)):
        return "shares"
    if "per share" in sec or "per common share" in sec:
        return "per_share"  # every row under "Per share of common stock:" is a per-share amount
    if sum("%" in c.raw for c in cells) * 2 > len(cells):
        return "percent"  # a "% change" column beside the amounts does not make the row a percentage
    return "currency"


_TOTAL_OF = re.compile(r"^\s*total\s+(?P<what>.+?)\s*$", re.I)


def named_by_their_total(rows: list[Row]) -> list[Row]:
    """Blocks that repeat the same parts ("U.S.", "International Operated Markets", ...), each closed
    by its total ("Total revenues", "Total operating income") and printed under no heading: each
    block's rows are parts of what its total names, which becomes their heading."""
    blocks: list[tuple[list[int], str]] = []
    start = 0
    for k, row in enumerate(rows):
        total = _TOTAL_OF.match(row.label)
        if total is None:
            continue
        block = list(range(start, k))
        start = k + 1
        if block and not any(rows[j].section for j in block):
            blocks.append((block, total.group("what")))
    labels = [frozenset(rows[j].label.strip().lower() for j in block) for block, _ in blocks]
    out = list(rows)
    for (block, what), own in zip(blocks, labels):
        if len(own) < 2 or sum(own == other for other in labels) < 2:
            continue  # one block only, or not the same parts again: no sign the total heads it
        heading = what[:1].upper() + what[1:]
        for j in block:
            out[j] = out[j].model_copy(update={"section": heading})
    return out


def headed_by_their_total(rows: list[Row]) -> list[Row]:
    """A block printed with its heading on its first row's line ("Property and equipment, net  U.S.
    2,243", then "Canada 107", "Total property and equipment, net 2,352"): the heading is the block's
    section, its first label what follows it; the total's words say where the heading ends."""
    out = list(rows)
    start = 0
    for k, row in enumerate(rows):
        total = _TOTAL_OF.match(row.label)
        if total is None:
            continue
        block = [j for j in range(start, k) if not out[j].section]
        start = k + 1
        if not block or block[0] != k - len(block):
            continue  # rows under a heading already, or not one run up to the total
        heading = total.group("what")
        first = out[block[0]]
        if not first.label.lower().startswith(heading.lower()) or len(first.label) <= len(heading) + 1:
            continue
        rest = first.label[len(heading):].strip(" ,:")
        if not rest:
            continue
        heading = first.label[:len(heading)]   # as the block prints it
        out[block[0]] = first.model_copy(update={"label": rest, "section": heading})
        for j in block[1:]:
            out[j] = out[j].model_copy(update={"section": heading})
    return out
