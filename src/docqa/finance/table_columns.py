"""A table's figure columns, which figure sits in which, and the header text over each."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from docqa.finance.cells import is_dash, is_numeric_date, is_year
from docqa.finance.statement_kinds import names_unit
from docqa.finance.table_headers import footnoted_year, word_groups, years_in
from docqa.finance.table_lines import RawCell, TableLine, line_height
from docqa.types import Line, Word

CLUSTER_GAP = 6.0  # pt between right edges of figures in one column (")" and "%" stick out)
_UNAUDITED = re.compile(r"\(?\s*unaudited\s*\)?", re.I)


@dataclass
class FigureColumn:
    x0: float     # span of the figures themselves
    x1: float
    lines: set[int] = field(default_factory=set)
    reach: float = 0.0  # leftmost "$" of the column: headers often sit over it, not over the digits

    @property
    def centre(self) -> float:
        return (self.x0 + self.x1) / 2


def find_columns(data: list[tuple[int, TableLine]]) -> list[FigureColumn]:
    columns = _clusters(sorted((c.bbox[2], c.bbox[0], c.words[0].bbox[0], idx)
                               for idx, ln in data for c in ln.cells if c.numeric), len(data))
    # A part with nothing to report prints a dash on every line ("International Developmental
    # Licensed Markets & Corporate  —"): still a column, so that its neighbours' headings stay theirs.
    dashes = _clusters(sorted((c.bbox[2], c.bbox[0], c.words[0].bbox[0], idx)
                              for idx, ln in data for c in ln.cells if is_dash(c.raw.lstrip("$€£¥ "))), len(data))
    for dash in dashes:
        if (len(columns) >= 2 and len(dash.lines) >= max(3, 0.75 * len(data))
                and not any(dash.x0 < c.x1 + 3 and c.x0 - 3 < dash.x1 for c in columns)
                and columns[0].x0 < dash.x0 < columns[-1].x1):
            columns.append(dash)
    return sorted(columns, key=lambda c: c.x0)


def _clusters(points: list[tuple[float, float, float, int]], lines: int) -> list[FigureColumn]:
    clusters: list[FigureColumn] = []
    last_x1 = None
    for x1, x0, reach, idx in points:
        if clusters and last_x1 is not None and x1 - last_x1 <= CLUSTER_GAP:
            col = clusters[-1]
            col.x0, col.x1, col.reach = min(col.x0, x0), max(col.x1, x1), min(col.reach, reach)
            col.lines.add(idx)
        else:
            clusters.append(FigureColumn(x0, x1, {idx}, reach))
        last_x1 = x1
    support = 2 if lines >= 3 else 1
    kept = [c for c in clusters if len(c.lines) >= support]
    # Figures of one column can straddle two right-edge clusters when some are centred:
    # merge clusters whose spans overlap.
    kept.sort(key=lambda c: c.x0)
    merged: list[FigureColumn] = []
    for c in kept:
        if merged and c.x0 < merged[-1].x1 - 1:
            m = merged[-1]
            m.x0, m.x1, m.lines = min(m.x0, c.x0), max(m.x1, c.x1), m.lines | c.lines
            m.reach = min(m.reach, c.reach)
        else:
            merged.append(c)
    return merged


def assign_cells(cells: list[RawCell], cols: list[FigureColumn]) -> tuple[dict[int, RawCell], list[RawCell]]:
    """Map a row's figures to columns by overlap; figures left of every column go back to the label."""
    spacing = min((b.centre - a.centre for a, b in zip(cols, cols[1:])), default=80.0)
    chosen: dict[int, tuple[float, RawCell]] = {}
    to_label: list[RawCell] = []
    for cell in cells:
        x0, _, x1, _ = cell.bbox
        best, best_overlap = None, 0.0
        for k, col in enumerate(cols):
            overlap = min(x1, col.x1 + 3) - max(x0, col.x0 - 3)
            if overlap > best_overlap:
                best, best_overlap = k, overlap
        if best is None and not cell.numeric:
            # Dashes and "NM" are often centred, not right-aligned: take the nearest column.
            centre = (x0 + x1) / 2
            k = min(range(len(cols)), key=lambda j: abs(cols[j].centre - centre))
            if abs(cols[k].centre - centre) < 0.6 * spacing:
                best, best_overlap = k, 0.01
        if best is None:
            if x1 < cols[0].x0:
                to_label.append(cell)
            continue
        if best not in chosen or chosen[best][0] < best_overlap:
            chosen[best] = (best_overlap, cell)
    return {k: v[1] for k, v in chosen.items()}, to_label


def column_headers(header_lines: list[Line], cols: list[FigureColumn]) -> tuple[list[str], str, list[str]]:
    """Stack each header line's groups onto the columns under them; text left of them is context,
    and a phrase there that names the table ("Walmart International net sales by market") its name."""
    parts: list[list[str]] = [[] for _ in cols]
    stub: list[str] = []
    first_x0 = min(cols[0].reach, cols[0].x0)
    spacing = spacing_of(cols)
    # each header line: its groups, and their columns when the line fixes them itself (else placed below)
    placed: list[tuple[list[tuple[int, str]] | None, list[tuple[float, float, str]]]] = []
    names: list[str] = []
    for line in header_lines:
        groups = [part for g in word_groups(line.words, line_height(line)) for part in _repeated_dates(g)]
        years = years_in(w.text for w in line.words)
        right, left_dated, right_dated = [], [], 0
        for g in groups:
            text = " ".join(footnoted_year(w.text, years) or w.text for w in g)
            x0, x1 = g[0].bbox[0], g[-1].bbox[2]
            dated = any(is_year(w.text) or is_numeric_date(w.text) for w in g)
            # A period ("2022", "June 30, 2022") set a little left of its figures still heads the first column.
            period = dated and len(g) <= 4 and x1 > first_x0 - 0.4 * spacing
            # Units and "(Unaudited)" centred over the figures describe the table, not a column.
            if names_unit(text) or _UNAUDITED.fullmatch(text.strip()):
                stub.append(text)
            elif (x0 + x1) / 2 < first_x0 - 4 and not period:
                stub.append(text)  # context for every column ("Years ended"), and maybe the first's heading
                left_dated += [text] if dated and len(g) > 1 else []
                if _NAMES_TABLE.fullmatch(text) and not _PERIOD_WORDS.search(text):
                    names.append(text)  # "Walmart International net sales by market": what the table holds
            else:
                right.append((x0, x1, text))
                right_dated += dated
        in_order = len(left_dated) == 1 and len(cols) >= 2 and len(right) == right_dated == len(cols) - 1
        placed.append((_first_period_over_labels(left_dated[0], right) if in_order else None, right))
    runs = _period_runs([right for fixed, right in placed if fixed is None and len(right) == len(cols)])
    # a header of names, no periods ("Flexibles Segment | Segment | Total"): a name stacked over one
    # column is that column's ("Second Quarter" over "2023 | 2022 | % Change" heads them all)
    names_only = not any(years_in(w.text for w in line.words) for line in header_lines)
    for i, (fixed, right) in enumerate(placed):
        # ... as is a word stacked over a line of one name per column ("Rigid" over "Flexibles |
        # Packaging | Total", under "Year Ended June 30, 2023")
        over_names = (i + 1 < len(placed) and len(placed[i + 1][1]) == len(cols)
                      and not years_in(w.text for w in header_lines[i + 1].words))
        for k, text in fixed or _place(right, cols, runs, names_only or over_names):
            parts[k].append(text)
    return [" ".join(p) for p in parts], " ".join(stub), names


# A name over the row labels, on the header's lines: words, no figures, no period, no unit.
_NAMES_TABLE = re.compile(r"[A-Za-z][\w.&'’/-]*(?:\s+[\w.&'’/-]+){2,11}")
_PERIOD_WORDS = re.compile(r"\b(?:ended|ending|years?|months?|weeks?|quarters?|fiscal|as\s+of|at|unaudited|"
                           r"amounts?|millions?|thousands?|billions?|except|in\s+\$|dollars)\b|\d", re.I)


_A_CHANGE = re.compile(r"\b(?:increase|decrease|change|variance|growth)\b|%", re.I)


def spacing_of(cols: list[FigureColumn]) -> float:
    return min((b.centre - a.centre for a, b in zip(cols, cols[1:])), default=80.0)


def _period_runs(lines: list[list[tuple[float, float, str]]]) -> list[range]:
    """The columns in runs of periods: "2021 2020 | 2021 2020 2019" is two runs, each under its own
    heading ("Total Assets" over the first two, "Capital Spending" over the other three). A run
    starts where the years stop following the order of the first two."""
    for right in lines:
        years = [max(ys) if (ys := years_in(text.split())) else None for *_, text in right]
        dated = [y for y in years if y is not None]
        if len(dated) < 3 or len(set(dated)) == len(dated):
            continue
        step = 1 if dated[1] > dated[0] else -1
        starts, last = [0], None
        for k, y in enumerate(years):
            if y is None:
                continue
            if last is not None and (y - last) * step <= 0:
                starts.append(k)
            last = y
        if len(starts) >= 2:
            return [range(a, b) for a, b in zip(starts, starts[1:] + [len(years)])]
    return []


def _first_period_over_labels(left: str, right: list[tuple[float, float, str]]) -> list[tuple[int, str]]:
    """"Year Ended December 31, 2023 | 2022": a line of periods, one per column, the first set so wide
    that it starts over the labels. It heads the first column (taken for the table's context only,
    it left its column to the "2022" beside it); the others follow in order."""
    return [(0, left)] + [(k + 1, text) for k, (*_, text) in enumerate(sorted(right))]


def _repeated_dates(group: list[Word]) -> list[list[Word]]:
    """"December 31, 2022 December 31, 2021" set close together over two columns: one date each.
    Split only where the same words repeat before each year, so "Year ended December 31, 2022 2021"
    (one heading over two years) stays whole."""
    parts: list[list[Word]] = [[]]
    for w in group:
        parts[-1].append(w)
        if is_year(w.text.strip("()")):
            parts.append([])
    parts = [p for p in parts if p]
    if len(parts) < 2 or not all(is_year(p[-1].text.strip("()")) for p in parts):
        return [group]
    words = {tuple(w.text.lower() for w in p[:-1]) for p in parts}
    return parts if len(words) == 1 and () not in words else [group]


def _place(groups: list[tuple[float, float, str]], cols: list[FigureColumn],
           runs: list[range] = (), names_only: bool = False) -> list[tuple[int, str]]:
    """Which column(s) each header group belongs to.

    One group per column: in order. One group over each run of periods, each within its run: each
    spans its run. Fewer groups that divide the columns evenly and either reach over two or more
    columns each or sit over the middle of their block ("Three Months Ended" over two columns):
    each spans its block. Otherwise each group goes to its nearest column.
    """
    k, n = len(groups), len(cols)
    if k == 0:
        return []
    if k == n:
        return [(j, g[2]) for j, g in enumerate(groups)]
    centres = [(x0 + x1) / 2 for x0, x1, _ in groups]
    nearest = [(min(range(n), key=lambda j: abs(cols[j].centre - c)), g[2]) for c, g in zip(centres, groups)]
    if len(runs) == k and all(min(cols[r[0]].reach, cols[r[0]].x0) - spacing_of(cols) / 2 <= c
                              <= cols[r[-1]].x1 + spacing_of(cols) / 2 for c, r in zip(centres, runs)):
        return [(j, g[2]) for g, r in zip(groups, runs) for j in r]
    if k < n and n % k == 0:
        width = n // k
        blocks = [cols[j * width:(j + 1) * width] for j in range(k)]
        reaches = [sum(1 for col in cols if x0 < col.x1 and x1 > min(col.reach, col.x0)) for x0, x1, _ in groups]
        err_span = sum(abs(c - sum(b.centre for b in blk) / len(blk)) for c, blk in zip(centres, blocks))
        err_near = sum(abs(cols[j].centre - c) for c, (j, _) in zip(centres, nearest))
        # ("Rigid Packaging" over "Segment" in the middle of "Flexibles Segment | Segment | Total" reaches
        # one column only: a stacked name of that column, though centred over the block)
        stacked = names_only and n % 2 == 1 and all(r == 1 and x1 - x0 < spacing_of(cols)
                                                    for r, (x0, x1, text) in zip(reaches, groups))
        # a change's heading reaching two columns of a block of four is over those two
        # ("Increase/(Decrease)" over the change columns beside "2022 | 2021"), not the block's heading
        over_changes = any(_A_CHANGE.search(text) and 2 * r <= width for r, (_, _, text) in zip(reaches, groups))
        if not stacked and not over_changes and (all(r >= 2 for r in reaches) or err_span <= err_near + 2 * k):
            return [(j * width + i, g[2]) for j, g in enumerate(groups) for i in range(width)]
    return nearest
