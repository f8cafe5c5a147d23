"""Statement tables as data: line items x period columns, each figure with its box on the page.

Pydantic models, so a page's tables are read once at ingest and stored as JSON.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from docqa.finance.periods import FiscalCalendar, Period, PeriodKind, header_quarter
from docqa.finance.scales import SCALES, unscaled
from docqa.types import BBox, StatementKind

Unit = Literal["units", "thousands", "millions", "billions"]
RowKind = Literal["currency", "per_share", "shares", "percent"]

# Picks one of several columns of one period by the words of what is read (None: none of them).
Chooser = Callable[[list["Column"]], "Column | None"]

UNIT_SCALE: dict[str, float] = {"units": 1.0, "thousands": 1e3, "millions": 1e6, "billions": 1e9}


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class TaggedFact(_Frozen):
    """The inline XBRL fact an HTML filing tags on a printed figure (ingest.html.annotate_tables)."""

    value: float | None = None      # the fact's value in units (12,734 printed "in millions": 12734000000)
    unit: str | None = None         # "USD", "shares", "USD/shares"
    decimals: int | None = None
    scale: int | None = None        # the power of ten the printed figure is in (6: millions)
    start: str | None = None        # ISO dates of the context's period; an instant has ``end`` only
    end: str | None = None
    instant: bool = False
    dimensions: tuple[tuple[str, str], ...] = ()   # (axis, member) of a segment or geography
    id: str | None = None

    @property
    def shown(self) -> float | None:
        """The fact as its printed figure states it, before the sign: value / 10^scale, unsigned; None
        for a scale no filing prints (an index built before ingest rejected such facts)."""
        scale = self.scale or 0
        if self.value is None or scale not in SCALES or not math.isfinite(self.value):
            return None
        return unscaled(self.value, scale)

    def agrees(self, unit: Unit | None, kind: RowKind) -> bool:
        """Whether the fact's scale is the one its table prints: an amount tagged in thousands in a
        table "(in millions)" is not what the cell says (the printed cell and unit win). Per-share
        figures, share counts and percents have scales of their own; a table with no unit says none;
        a zero ("—") is zero in any scale."""
        if unit is None or kind != "currency" or not re.fullmatch(r"[A-Z]{3}", self.unit or "") or not self.value:
            return True
        scale = self.scale or 0
        return scale in SCALES and UNIT_SCALE[unit] == 10.0 ** scale


def _only_when_set():
    return Field(None, exclude_if=lambda v: v is None)  # PDF tables are stored without these keys


class Cell(_Frozen):
    value: float | None  # None: the cell states no number ("NM", "n/a"); a dash reads as 0
    raw: str             # as printed, e.g. "(1,577)" or "$ 2,853"
    column: int
    bbox: BBox
    # HTML filings: the inline XBRL fact tagged on the printed figure, when there is one
    concept: str | None = _only_when_set()     # "us-gaap:Revenues"
    context: str | None = _only_when_set()     # its contextRef
    fact: TaggedFact | None = _only_when_set()


class Column(_Frozen):
    index: int
    header: str                    # the header words stacked above the column, top to bottom
    fiscal_year: int | None = None
    period: PeriodKind | None = None
    period_end: str | None = None  # ISO date, when printed
    months: int | None = None
    derived: bool = False          # "% of sales", "% change": not a period's own figure
    x0: float
    x1: float


class Row(_Frozen):
    label: str                 # continuation lines joined ("... attributable to shareowners of the Coca-Cola Company")
    section: str | None = None  # the heading the row sits under ("Current assets:", "Earnings per share:")
    kind: RowKind = "currency"
    cells: tuple[Cell, ...]
    bbox: BBox
    indent: float              # x of the label: deeper rows are components, shallower ones totals

    def cell(self, column: int) -> Cell | None:
        for c in self.cells:
            if c.column == column:
                return c
        return None


class StatementTable(_Frozen):
    page: int                          # 1-based
    statement: StatementKind | None = None
    title: str = ""                    # heading lines above the table
    unit: Unit | None = None           # scale of currency figures ("in millions")
    unit_text: str | None = None       # the words that said so
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    bbox: BBox

    @property
    def scale(self) -> float | None:
        return UNIT_SCALE[self.unit] if self.unit else None

    def period_columns(self) -> list[Column]:
        """The columns that report periods: not the changes printed beside them, nor a column to the
        right of a change column that repeats a year already reported to its left (McDonald's
        "Increase/(decrease) 2022 | Increase/(decrease) excluding currency translation 2022")."""
        out: list[Column] = []
        after_a_change = False
        for c in sorted(self.columns, key=lambda c: c.index):
            if c.derived:
                after_a_change = True
                continue
            if after_a_change and c.fiscal_year is not None and any(
                    (o.fiscal_year, o.period, o.months, o.period_end) == (c.fiscal_year, c.period, c.months, c.period_end)
                    for o in out) and self._prints_percentages(c.index):
                continue  # (a six months' column after the quarter's change is a period of its own, and an
                # operating income block after the net sales block's change is a measure of its own)
            out.append(c)
        return out

    def _prints_percentages(self, index: int) -> bool:
        return any("%" in (c.raw or "") for r in self.rows for c in r.cells if c.column == index)

    def column_for(self, year: int, period: PeriodKind | None = None,
                   part: Callable[[Column], bool] | None = None, choose: Chooser | None = None) -> Column | None:
        """The column reporting ``year`` (fiscal year, else the year of the printed end date).

        With no period asked, a full year (or a balance-sheet date) wins over a quarter.
        """
        order = {"year": 0, "instant": 0, None: 1, "ytd": 2, "quarter": 3}
        found = [
            c for c in self.period_columns()
            if (c.fiscal_year == year or (c.period_end is not None and int(c.period_end[:4]) == year))
            and (period is None or c.period == period)
        ]
        if not found:
            return None
        best = min(found, key=lambda c: (c.fiscal_year != year, order.get(c.period, 1), c.index))
        return whole_of([c for c in found if (c.fiscal_year, c.period) == (best.fiscal_year, best.period)], best, part,
                        choose)

    def value(self, row: Row, year: int, period: PeriodKind | None = None) -> Cell | None:
        column = self.column_for(year, period)
        return row.cell(column.index) if column else None

    def column_for_period(self, period: Period, calendar: FiscalCalendar | None = None,
                          quarter_hint: int | None = None, stock: bool | None = None,
                          part: Callable[[Column], bool] | None = None, choose: Chooser | None = None) -> Column | None:
        """The column reporting a fiscal period: a quarter's three months (or the balance at its
        end), a fiscal year's twelve months (or its year-end balance). A year-to-date column
        reports neither. ``calendar`` maps printed dates to fiscal periods (retail years end in
        January); ``quarter_hint`` is the quarter of an undated quarter column (the filing's own);
        ``stock``: a balance is wanted (True), a flow (False), either (None).
        """
        found = []
        months_of = self.column_months()
        in_order = self.quarters_in_order()
        for c in self.period_columns():
            reported = column_period(c, calendar, in_order.get(c.index, quarter_hint), months_of.get(c.index))
            if reported is None:
                continue
            got, months = reported
            if period.quarter is None:
                ok = got == period and months in (12, 0, None)
            elif months == 0:
                # a balance struck at the quarter's end; a flow is never read off a day's column (CVS's
                # "As of/For the year ended December 31, 2018" is the year's, not its fourth quarter's)
                ok = stock is not False and got.fiscal_year == period.fiscal_year and (got.quarter or 4) == period.quarter
            elif period.year_to_date:  # "the six months ended": the year-to-date column, never the quarter's
                ok = months == period.months and (got.fiscal_year, got.quarter) == (period.fiscal_year, period.quarter)
            else:
                ok = months in (3, None) and got == period
            if ok:
                instant = months == 0
                found.append(((instant != stock) if stock is not None else False, c.index, c))
        if not found:
            return None
        best = min(found, key=lambda f: f[:2])
        return whole_of([c for kind, _, c in found if kind == best[0]], best[2], part, choose)

    def quarters_in_order(self) -> dict[int, int]:
        """A quarterly-data note's four quarter columns of one fiscal year, dated by day and month only
        ("2015 | Quarter Ended February 27, May 29, August 28, November 27"): the first to the fourth
        quarter, left to right."""
        columns = sorted(self.period_columns(), key=lambda c: c.index)
        if (len(columns) != 4 or len({c.fiscal_year for c in columns}) != 1 or columns[0].fiscal_year is None
                or any(c.months != 3 or c.period_end or header_quarter(c.header) for c in columns)):
            return {}
        return {c.index: k for k, c in enumerate(columns, start=1)}

    def column_months(self) -> dict[int, int | None]:
        """Months each period column covers. A dated column whose header lost its "Three Months
        Ended" (printed once over a pair of columns) covers what the column to its left covers."""
        out: dict[int, int | None] = {}
        last: int | None = None
        for c in sorted(self.period_columns(), key=lambda c: c.index):
            months = c.months
            if months is None and c.period != "instant" and last in (3, 6, 9):
                months = last
            out[c.index] = months
            if c.months is not None:
                last = c.months
        return out

    def years(self) -> list[int]:
        return sorted({c.fiscal_year for c in self.period_columns() if c.fiscal_year is not None})


# The words of a column header that say when: what is left names the part of the company (a region,
# a segment, "Total") the column reports.
_WHEN = re.compile(
    r"\b(?:(?:three|six|nine|twelve|thirteen|fourteen|\d{1,2})[\s-]+(?:months?|weeks?)|months?|weeks?|quarters?|"
    r"years?|fiscal|ended|ending|end|as|of|at|for|the|and|(?:first|second|third|fourth)|q[1-4]|h[12]|ytd|"
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|\d+(?:st|nd|rd|th)?|fy\d*|in|millions?|thousands?|billions?|"
    r"unaudited|restated|reported)\b|[^\w\s]", re.I)
_WHOLE = re.compile(r"\b(?:total|consolidated|worldwide|combined|company|enterprise)\b", re.I)


def column_part(column: Column) -> str:
    """The header's words that are not its period ("Three months ended December 31, 2018 Asia
    Pacific" -> "asia pacific"): the part of the company a column of a split table reports."""
    return not_period_words(column.header)


def not_period_words(text: str) -> str:
    return " ".join(_WHEN.sub(" ", text).lower().split())


def whole_of(columns: list[Column], best: Column, part: Callable[[Column], bool] | None = None,
             choose: Chooser | None = None) -> Column | None:
    """Of the columns that report the same period, the one for the part asked (``part``: does a
    column's header name it?), else the one the reader's own words pick (``choose``: "Net Revenue
    2021" beside "Long-Lived Assets 2021" for a revenue), else the whole company's. When the headers
    name different parts (regions, segments) the whole is the one headed "Total" / "Consolidated" /
    "Worldwide"; a table split by part with no such column states no figure of the whole company,
    and the first part's figure is never given in its place."""
    parts = {column_part(c) for c in columns}
    if len(columns) < 2 or len(parts) < 2:
        return best
    named = [c for c in columns if part is not None and part(c)]
    if named:
        return min(named, key=lambda c: c.index)
    chosen = choose(columns) if choose is not None else None
    if chosen is not None:
        return chosen
    whole = [c for c in columns if _WHOLE.search(column_part(c))]
    if whole:
        return min(whole, key=lambda c: c.index)
    # One column headed by its period alone beside others that name something ("2021 | Long-Lived
    # Assets 2021", the first heading printed once over a block): the table's own measure.
    bare = [c for c in columns if not column_part(c)]
    return bare[0] if len(bare) == 1 else None


def column_period(column: Column, calendar: FiscalCalendar | None = None, quarter_hint: int | None = None,
                  months: int | None = None) -> tuple[Period, int | None] | None:
    """The fiscal period a column reports and its length in months (0: a balance at a date;
    None: not said). A year-end balance is the year's period (quarter None). ``months``
    overrides the header's own (see ``StatementTable.column_months``)."""
    instant = column.period == "instant"
    months = months or column.months
    months = 0 if instant else (months or (12 if column.period == "year" else None))
    named = header_quarter(column.header)
    if named is not None and months == 12 and column.fiscal_year is not None:
        # A quarterly-data note: "Fiscal Year Ended January 31, 2018" over "Q1 ... Q4 | Total":
        # the year is the heading, each quarter column reports its own three months.
        return Period(column.fiscal_year, named), 3
    if column.period_end and calendar is not None:
        fiscal_year, quarter = calendar.period_of(column.period_end)
        if months == 12 and not column.months and quarter != 4:
            months = None  # "July 30, 2022" read as a year: a date inside the year is no year's end
    elif column.fiscal_year is not None:
        fiscal_year = column.fiscal_year
        quarter = header_quarter(column.header)
        if quarter is None:
            if months == 3:
                quarter = quarter_hint
            elif months in (6, 9):
                quarter = months // 3
            elif column.period_end:
                quarter = (int(column.period_end[5:7]) - 1) // 3 + 1  # calendar quarters, lacking better
    else:
        return None
    if months == 12:
        return Period(fiscal_year), 12
    if instant or months is None:
        return Period(fiscal_year, None if quarter in (None, 4) else quarter), months
    if quarter is None:
        return None
    return Period(fiscal_year, quarter), months


# IFRS, UK, Australian and Hong Kong filers print the parent company's own statements ("Company
# statement of financial position", "Parent entity financial information") beside the group's; US
# filers sometimes add "Condensed financial information of registrant". The company's figures are
# the group's: a parent-only table answers only when the filing prints no consolidated one.
_PARENT_ONLY = re.compile(
    r"\b(?:company|parent(?:\s+(?:company|entity))?)(?:['’]s)?\s+(?:statements?\s+of|balance\s+sheets?|income\s+statements?|"
    r"only)\b|\bparent\s+entity\b|\bparent\s+company\s+(?:financial|information)|"
    r"\bfinancial\s+information\s+of\s+(?:the\s+)?(?:registrant|parent)\b|"
    # SEC Schedule I, "Condensed Financial Information of PG&E Corporation (“Parent”)": the
    # parent's own statements, named by the term the schedule defines.
    r"\(\s*[\"'“”‘’]?\s*(?:parent|registrant)\s*[\"'“”‘’]?\s*\)", re.I)
_CONSOLIDATED = re.compile(r"\b(?:consolidated|group)\b", re.I)
# A part of the group consolidated on its own: an Australian deed of cross guarantee's closed group,
# a debt's guarantor or obligor group, condensed consolidating columns. "Consolidated" in their
# titles does not make them the filer's statements.
_PART_OF_GROUP = re.compile(r"\bdeed\s+of\s+cross\s+guarantee\b|\bclosed\s+group\b|\b(?:guarantor|obligor)\s+"
                            r"(?:group|subsidiaries|entities)\b|\bcondensed\s+consolidating\b", re.I)


def parent_only(table: StatementTable) -> bool:
    """The statements of the parent alone, or of a part of the group (see _PART_OF_GROUP)."""
    return bool(_PART_OF_GROUP.search(table.title)) or (
        bool(_PARENT_ONLY.search(table.title)) and not _CONSOLIDATED.search(table.title))


def without_parent_only(tables: list[StatementTable]) -> list[StatementTable]:
    """The tables, less the parent company's own statements (or a part of the group's) when the
    group's are among them."""
    if not any(_CONSOLIDATED.search(t.title) and t.statement is not None and not parent_only(t) for t in tables):
        return tables
    return [t for t in tables if not parent_only(t)]


_LEADING_YEAR = re.compile(r"^\s*((?:19|20)\d{2})\s+(\S.*)$")


def with_spanning_year(table: StatementTable) -> StatementTable:
    """A year printed once, centred over every column of parts ("Aeronautics | MFC | 2022 RMS |
    Space | Total": Lockheed Martin's net sales by segment and region), is read at ingest as the
    header of the middle column only: it dates them all. Only when one inner column holds the year
    and every other column names a part and no period."""
    columns = [c for c in table.columns if not c.derived]
    dated = [c for c in columns if c.fiscal_year is not None or c.period_end is not None]
    if len(columns) < 3 or len(dated) != 1 or dated[0] in (columns[0], columns[-1]):
        return table
    year = _LEADING_YEAR.match(dated[0].header)
    if year is None or int(year.group(1)) != dated[0].fiscal_year:
        return table
    if any(not c.header.strip() or c.period is not None and c is not dated[0] for c in columns):
        return table
    spanned = {c.index: c.model_copy(update={"fiscal_year": dated[0].fiscal_year, "period": dated[0].period,
                                              "months": dated[0].months, "period_end": dated[0].period_end,
                                              "header": year.group(2) if c is dated[0] else c.header})
               for c in columns}
    return table.model_copy(update={"columns": tuple(spanned.get(c.index, c) for c in table.columns)})


def prints_as_share(table: StatementTable, column: int) -> bool:
    """A column that prints its sign as "%" on its first row (as "$" is printed on an amount column's:
    "33.9 %" beside the segments' sales) and never "$": a "24.6" in it is a share."""
    raws = [c.raw or "" for r in table.rows if (c := r.cell(column)) is not None and c.value is not None]
    return bool(raws) and "%" in raws[0] and not any("$" in raw for raw in raws)


def under_a_share(table: StatementTable, row: Row, column: int) -> bool:
    """A bare figure in a block whose first row alone prints "%" ("Capital expenditures $ 1,675 / Europe
    4.8% / Asia Pacific 3.0"): a share, like the block's first. A block starts after a row that prints
    "$", at a new heading, or at the table's top; where other rows of the block print "%" too
    ("Americas $ 4,216.5 / Percentage of total revenue 58% / EMEA 1,985.1 / ... 27%"), each share is
    marked and a bare figure is an amount."""
    blocks: list[list[tuple[Row, str]]] = []
    previous, heading = None, object()
    for r in table.rows:
        cell = r.cell(column)
        if cell is None or cell.value is None:
            continue
        raw = cell.raw or ""
        if previous is None or "$" in previous or r.section != heading:
            blocks.append([])
        blocks[-1].append((r, raw))
        previous, heading = raw, r.section
    for block in blocks:
        if any(r is row for r, _ in block):
            marked = [raw for _, raw in block if "%" in raw]
            own = next(raw for r, raw in block if r is row)
            return len(marked) == 1 and "%" in block[0][1] and "%" not in own and "$" not in own
    return False


_BARE_YEAR = re.compile(r"^\s*(?:19|20)\d{2}\s*$")


def with_centred_years(table: StatementTable) -> StatementTable:
    """Years printed once over groups of three columns ("Net Sales | % of Total | Operating Income"
    under "2022", again under "2021": 3M's sales and operating income by segment) are read at ingest
    as the middle column's header only: each dates its two neighbours as well. Only when two or
    more bare years each sit between two undated columns, in groups that do not overlap."""
    columns = [c for c in table.columns if not c.derived]
    centres = [i for i, c in enumerate(columns) if c.fiscal_year is not None and _BARE_YEAR.match(c.header)]
    if len(centres) < 2 or len(centres) != sum(c.fiscal_year is not None for c in columns):
        return table
    if any(i == 0 or i + 1 >= len(columns) for i in centres) or any(b - a < 3 for a, b in zip(centres, centres[1:])):
        return table
    undated = lambda c: c.fiscal_year is None and c.period_end is None  # noqa: E731
    if not all(undated(columns[i - 1]) and undated(columns[i + 1]) for i in centres):
        return table
    dated = {}
    for i in centres:
        year = columns[i]
        for c in (columns[i - 1], columns[i + 1]):
            dated[c.index] = c.model_copy(update={"fiscal_year": year.fiscal_year, "period": year.period,
                                                  "months": year.months})
        if prints_as_share(table, year.index):
            dated[year.index] = year.model_copy(update={"derived": True})  # the group's "% of total" column
    return table.model_copy(update={"columns": tuple(dated.get(c.index, c) for c in table.columns)})


def with_own_year_filled(table: StatementTable, year: int | None) -> StatementTable:
    """A statement of the filing's year ``year`` whose first (or last) column lost its header
    while the others are consecutive earlier years of one kind ("", 2021, 2020: McDonald's 2022
    cash flows, the year heading set apart from the column): that column is the filing's year.
    Only then: a blank column beside other years is as often a notes column or a label's tail."""
    if year is None:
        return table
    periods = [c for c in table.columns if not c.derived]
    blank = [c for c in periods if c.fiscal_year is None and c.period_end is None and not c.header.strip()]
    dated = sorted((c for c in periods if c.fiscal_year is not None), key=lambda c: c.index)
    if len(blank) != 1 or len(dated) < 2 or len({c.period for c in dated}) != 1:
        return table
    years = [c.fiscal_year for c in dated]
    if year in years or any(b - a != -1 for a, b in zip(years, years[1:])) or years[0] != year - 1:
        return table
    gap = blank[0]
    if gap.index != dated[0].index - 1:
        return table
    filled = gap.model_copy(update={"fiscal_year": year, "period": dated[0].period, "months": dated[0].months})
    return table.model_copy(update={"columns": tuple(filled if c is gap else c for c in table.columns)})

