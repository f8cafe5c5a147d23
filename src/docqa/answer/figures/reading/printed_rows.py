"""Any printed row as a measure: a line item the lexicon does not name, found by its label."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterator

from docqa.answer.figures.reading.abbreviated import names_the_row, spelt_variants
from docqa.answer.figures.reading.asked_kind import kind_answers
from docqa.answer.figures.reading.evaluated import Evaluated, Measure, read_kind
from docqa.answer.figures.reading.located import (COUNTED_IN_THOUSANDS, Located, another_kind_of_figure, is_stock,
                                                  states_an_amount)
from docqa.answer.figures.reading.sources import all_tables, the_filers_column
from docqa.finance.lexicon import Metric, load_lexicon
from docqa.finance.rowlookup import MIN_SCORE, PART_NOUN, entity_column, find_rows, measure_words_missing, words_beyond_label
from docqa.finance.tables import Column, Row, StatementTable, prints_as_share, under_a_share, whole_of
from docqa.plan.measures import GrossOf
from docqa.plan.periods import fiscal_year_of
from docqa.finance.text import clean_label, expense_amount, holds, narrower_total, reads_as_expense, stems
from docqa.types import StatementKind


def printed_metric(row: Row, table: StatementTable) -> Metric:
    label = clean_label(row.label).rstrip(":")
    if len(label.split()) > 6:
        label = re.split(r":|;", label, 1)[0]  # "Treasury stock, shares at cost: 2021—3,851; ..."
    if row.section and set(stems(label)) <= _GENERIC_LABEL:
        label = f"{clean_label(row.section).rstrip(':')} \u203a {label}"
    return Metric(key="printed", label=label[:1].upper() + label[1:], statement=table.statement,
                  kind=row.kind if row.kind != "percent" else "percent")


_GENERIC_LABEL = frozenset(stems("total net other basic diluted amount"))
# A row standing in for a lexicon line item may add no more than about one word in four to what
# was asked ("Mortgage banking revenue, net" is not revenue): rowlookup's score for that.
STAND_IN_SCORE = 0.85
EXACT_SCORE = 0.99  # every word of the label asked, and nothing else (rowlookup.score_row)


MAX_FORMS = 8
_PART_NOUNS = re.compile(rf"\b{PART_NOUN}\b|['\u2019]s\b")


def _printed_forms_of_the_item(phrase: str) -> list[str]:
    """The phrase with the one line item the lexicon reads in it put as each form filings print it in
    (its words left around it: "deferred state and local | income taxes"), when it says more than the item."""
    found = [m for m in load_lexicon().match(phrase) if m.kind == "metric"]
    if len(found) != 1:
        return []
    m = found[0]
    before, after = phrase[:m.span[0]].strip(), phrase[m.span[1]:].strip()
    if not before and not after:
        return []   # the item alone: read as the lexicon's own line
    if not re.search(r"(?<![\w'\u2019])[a-z]", re.sub(_PART_NOUNS, " ", f"{before} {after}")):
        return []   # only a part's name around it ("Optical Communications segment"): read as that part's
    metric = load_lexicon().metric(m.key)
    forms = [f for f in dict.fromkeys((metric.label.lower(), *metric.prints)) if f.lower() != m.text.lower()]
    return [" ".join(x for x in (before, form, after) if x) for form in forms[:MAX_FORMS]]


_BY_PART = re.compile(r"\bby\s+(?:reportable\s+|operating\s+|business\s+)?(?:segments?|regions?|geograph\w*|divisions?)\b"
                      r"|\bsegment\s+(?:information|results|data)\b", re.I)


@dataclass
class RowMeasure(Measure):
    """A line item the lexicon does not name (or names but the filing prints otherwise): the row
    whose label, under its headings, best matches the question's words."""

    phrase: str
    asked: str = ""                # the question's words, for the label
    kinds: frozenset[str] = frozenset()  # the kind of number asked (a count, a per-share amount) filters rows
    # The lexicon's line item the words name, when this row stands in for it (the filer prints no
    # row the lexicon knows): a row the item's own exclusions veto ("Other revenue", "Revenue
    # reserves" for revenue) is another measure, and the label must name the item closely.
    stands_for: Metric | None = None
    exact: bool = False            # only a row printed as the words are (EXACT_SCORE)
    within: tuple | None = None    # only rows of this table: (document id, page, bbox)
    gross_of: tuple[GrossOf, ...] = ()  # "before deducting royalties": never a row net of them
    on_statements: bool = False    # only rows of the primary statements
    prefer_statements: bool = False  # rows of the primary statements first ("on the income statement" asked)
    # words a bracketed aside says the row is printed with, in its label, heading or title ("(deferred tax
    # liabilities)"): only such rows, matched on the phrase alone
    placed: str = ""
    # a measure's names ("Free cash flow", "FCF"): only a row labelled with one of them and nothing else
    # but words that say the filer defines it ("Free cash flow, non-GAAP measure")
    named: tuple[str, ...] = ()

    @property
    def label(self) -> str:  # type: ignore[override]
        text = self.asked or self.phrase
        return text[:1].upper() + text[1:]

    def evaluate(self, sources, period):
        # what is asked without what it is asked before ("sales of petroleum | before deducting royalties")
        phrase = self.phrase
        for gross in self.gross_of:
            phrase = gross.left_out_of(phrase)
        if self.named:
            return self._the_one_printed(sources, period, phrase)
        for found in self._read_all(sources, period, phrase):
            return found
        return None

    def _the_one_printed(self, sources, period, phrase: str) -> Evaluated | None:
        """A measure's own line where every table that prints it prints one figure for the period;
        where tables print others ("Return on equity" on each line of business's page), none is
        the company's."""
        found = list(self._read_all(sources, period, phrase, every=True))
        if not found or None in found or len({round(f.value, 6) for f in found}) != 1:
            return None
        return found[0]

    def _read_all(self, sources, period, phrase: str, every: bool = False) -> Iterator[Evaluated | None]:
        """The rows' figures for the period, best match first; ``every``: go on past a row that is
        one part's of several, as None (a measure's own line is judged over all of them)."""
        vetoes = [v for v in (stems(e) for e in self.stands_for.exclude) if v] if self.stands_for else []
        gross_asked = frozenset(w for g in self.gross_of for w in stems(g.deducted))
        for source in sources:
            for match in self._matches(source, phrase):
                table, row = match.table, match.row
                if period.quarter is None and _dated_elsewhere(row, period.fiscal_year):
                    continue  # "Balance as of June 30, 2022" is not the balance at the end of fiscal 2023
                label, heading = stems(row.label), stems(row.section or "")
                if any(holds(label, v) or holds(heading, v) for v in vetoes):
                    continue  # "Interest cost" under "Change in Projected Benefit Obligation:" is no interest expense
                if (gross_asked and _NET_OF.search(row.label) and any(w in stems(row.label) for w in gross_asked)
                        and not any(_says(g.text, row) for g in self.gross_of)):
                    continue  # "before deducting royalties" is not "Sales of petroleum, net of royalties"
                if self.stands_for is not None and narrower_total(stems(self.phrase), stems(clean_label(row.label))):
                    continue  # "Total regulatory liabilities" is one kind of liability, not their total
                if self.stands_for is not None and another_kind_of_figure(is_stock(self.stands_for), table, row.label):
                    continue  # a balance's row on the cash-flow statement is its change, and so on
                found = self._read(source, table, row, period, phrase)
                if found is not None:
                    if (table.statement is None and not (source.section is not None and source.section(table))
                            and _printed_for_each_part(match, all_tables(source))):
                        if every:
                            yield None  # a part's figure, no company's: the measure's line is not one
                            continue
                        return  # the row is one part's of several, and which part is not asked
                    yield found

    def _matches(self, source, phrase: str) -> list:
        """The rows of the filing's tables that print the words, in the order they are tried."""
        min_score = EXACT_SCORE if self.exact else STAND_IN_SCORE if self.stands_for else MIN_SCORE
        tables = all_tables(source)
        if self.within is not None:
            tables = [t for t in tables if (source.document_id, t.page, t.bbox) == self.within]
        if self.on_statements:
            tables = [t for t in tables if t.statement]
        if source.section is not None:
            # a part asked: a table's section heading names the part its figures are of ("Verizon
            # Consumer Group" pages before "Operating Revenues and Selected Operating Statistics")
            tables = [_headed(t, source.section(t)) for t in tables]
        matches = find_rows(tables, phrase, min_score=min_score)
        for name in self.named:  # a measure's every name: "leverage ratio" asked, "Debt-to-equity ratio" its label
            if name != phrase:   # (the phrase, its label, was looked up just above)
                matches += [m for m in find_rows(tables, name, min_score=min_score) if m not in matches]
        if not matches and not self.exact and not self.named:
            # "deferred state and local income tax expense" where the note heads its rows "Income taxes":
            # the lexicon's item in the phrase, as filings print it
            for variant in _printed_forms_of_the_item(phrase):
                matches = find_rows(tables, variant, min_score=min_score)
                if matches:
                    break
        if not matches and not self.exact:
            # "EMEA capex" where the filing prints "Europe, Middle East and Africa", and back
            for variant, spelling in spelt_variants(phrase, tables, source):
                matches = [m for m in find_rows(tables, variant, min_score=min_score)
                           if names_the_row(spelling, m.row.label, m.row.section)]
                if matches:
                    break
        if self.gross_of:
            # a row printed under the question's own words ("Excluding Fuel" over Sam's Club's
            # operating income) is what they ask, before any reading of them as "gross of"
            printed = [m for m in find_rows(tables, self.phrase, min_score=min_score)
                       if any(_says(g.text, m.row) for g in self.gross_of)]
            matches = printed + [m for m in matches if m not in printed]
        if self.exact:
            # printed as the words are, not a synonym the lexicon folds them into ("Total revenue"
            # for "total net sales" where Costco prints both)
            matches = [m for m in matches if _printed_as(phrase, m.row.label)]
        if self.placed:
            matches = [m for m in matches if _prints_the_aside(self.placed, m.row, m.table)]
        if self.named:
            matches = [m for m in matches if labelled_only_as(m.row.label, self.named)]
        if self.prefer_statements:
            matches = sorted(matches, key=lambda m: m.table.statement is None)
        if "amount" in self.kinds:
            # An amount is printed in a table that states its unit ("in millions"); a table of
            # percentage changes beside it prints the same row label.
            matches = sorted(matches, key=lambda m: m.table.unit is None)
        if source.part is None:
            # The whole company asked: a table of figures by segment or region ("Net Revenues by
            # Segment": each segment's "Casino revenue") is read after the company's own tables.
            matches = sorted(matches, key=lambda m: bool(_BY_PART.search(m.table.title)))
        return matches

    def _read(self, source, table: StatementTable, row: Row, period, phrase: str) -> Evaluated | None:
        """The row's figure for the period, in the kind asked, or None."""
        stock = True if table.statement == StatementKind.BALANCE else None
        # Of several columns of one period ("2019 Activision | 2019 King | 2019 Total"), the one
        # whose header names a word of the phrase the row's label does not.
        column = source.column(table, period, stock,
                               choose=lambda cols, r=row, t=table: (entity_column(self.phrase, r, t, cols)
                                                                     or the_filers_column(cols, source)))
        if column is None:
            column = _column_of_a_dated_row(row, table, period, source,
                                            lambda cols, r=row, t=table: entity_column(self.phrase, r, t, cols))
        cell = row.cell(column.index) if column is not None else None
        if cell is None or cell.value is None or not states_an_amount(cell, row, table):
            return None
        counted_in_thousands = bool(_THOUSANDS_OF.search(f"{row.label} {row.section or ''}"))
        if counted_in_thousands:
            # "Connections (‘000):" in a table "(dollars in millions)": thousands of connections, no money
            table = table.model_copy(update={"unit": "thousands", "unit_text": COUNTED_IN_THOUSANDS})
        if "amount" in self.kinds and (_a_change(row, table, column.index) or prints_as_share(table, column.index)
                                       or under_a_share(table, row, column.index)):
            return None  # "sales change: Electronics and Energy (4.2)": a percentage, not the sales
        if measure_words_missing(phrase, row, table, column.index):
            return None  # "Safety and Graphics" in the net sales column: not its operating income
        if "count" in self.kinds and re.search(r"[$\u20ac\u00a3]", cell.raw or ""):
            return None  # "$ 1,416.4" is money, whatever the question counts
        if "count" in self.kinds and row.kind == "currency" and table.unit and not _names_what_is_counted(phrase, row, table):
            return None  # "International 1,377" in a tax table "in millions": a sum of money, not units
        if "count" in self.kinds and cell.value < 0:
            return None  # "(41)" stores: those closed in the year, not how many there were
        if "count" in self.kinds and row.kind == "currency" and _MONEY.search(table.unit_text or ""):
            return None  # a table "in dollars in millions" counts no restaurants: its margins are money
        metric = printed_metric(row, table)
        beyond = " ".join(filter(None, (words_beyond_label(phrase, row),
                                         *(g.text if _says(g.text, row) else f"before {g.deducted}"
                                           for g in self.gross_of))))
        if self.placed and not set(stems(self.placed)) <= set(stems(metric.label)):
            beyond = " ".join(filter(None, (beyond, self.placed)))  # "Property, plant and equipment (deferred tax liabilities)"
        if beyond and beyond.lower() not in metric.label.lower():
            metric = metric.model_copy(update={"label": f"{metric.label} ({beyond})"})
        outflow = table.statement in (StatementKind.CASH_FLOW, StatementKind.BALANCE) and row.kind == "currency"
        if self.stands_for is not None and self.stands_for.signed_by_label:
            value = expense_amount(row.label, cell.value)
        elif self.named:
            value = cell.value  # a measure's own line keeps its sign: free cash flow of (2,019,659) is negative
        elif outflow or (table.statement == StatementKind.INCOME and reads_as_expense(row.label)):
            value = abs(cell.value)  # printed subtractive: quoted as the amount it is
        else:
            value = cell.value
        if table.unit is not None and row.kind == "currency" and (
                _A_RATE.search(row.label) or _excepted_from_unit(source, table, row)):
            # "Revenue per available room" in a table of "(Dollars in millions)": a price per
            # unit, printed in dollars, never scaled by the table's unit
            table = table.model_copy(update={"unit": None, "unit_text": None})
        found = Located.at(source, metric, value, cell, row, table, period)
        # a cell printed with "%" is a percentage, whatever its row's other cells are ("33.9 %")
        kind = "percent_points" if "%" in (cell.raw or "") else "count" if counted_in_thousands else read_kind(row.kind)
        if "count" in self.kinds and kind == "currency":
            kind = "count"  # "how many stores": units, not dollars (a table of money was ruled out above)
        if not kind_answers(self.kinds, Evaluated("", value, kind, [], "", "", False, period)):
            return None
        return Evaluated.printed(found, kind)


def _prints_the_aside(words: str, row: Row, table: StatementTable) -> bool:
    around = set(stems(f"{row.label} {row.section or ''} {table.title}"))
    return all(w in around for w in stems(words) if w not in _SOFT_LITERAL)


def _headed(table: StatementTable, heading: str) -> StatementTable:
    return table.model_copy(update={"title": f"{table.title} / {heading}"}) if heading and heading not in table.title else table


def _own_title(table: StatementTable) -> str:
    """The title's last line that names the table ("Verizon Consumer Group / ... / Operating Revenues
    and Selected Operating Statistics / (dollars in millions,": the fourth), not a unit line."""
    lines = [x.strip().lower() for x in (table.title or "").split(" / ")
             if len(x.split()) >= 3 and not x.strip().startswith("(")]
    return lines[-1] if lines else ""


def _printed_for_each_part(chosen, tables) -> bool:
    """Is the row printed the same way, under the same title, in another table of the filing with
    another figure: Verizon's "Fios video connections" in the Consumer and the Business segment's
    "Operating Revenues and Selected Operating Statistics"? Then each is one part's, and neither is
    the company's. (Asked of rows outside the primary statements: a statement's line is the company's.)"""
    label, title = clean_label(chosen.row.label).lower(), _own_title(chosen.table)
    headers = {c.index: c.header for c in chosen.table.columns}
    mine = {headers.get(c.column): c.raw for c in chosen.row.cells if c.value is not None and headers.get(c.column)}
    for table in tables:
        if table.page == chosen.table.page or table.statement is not None or not title or _own_title(table) != title:
            continue
        theirs_by = {c.index: c.header for c in table.columns}
        for row in table.rows:
            if clean_label(row.label).lower() != label:
                continue
            theirs = {theirs_by.get(c.column): c.raw for c in row.cells if c.value is not None}
            # the same period's column printing another figure (compared as printed: the other may not
            # read in the kind asked, and is still a part's); another year's table is no other part
            if any(h in theirs and theirs[h] != raw for h, raw in mine.items()):
                return True
    return False


def _names_what_is_counted(phrase: str, row: Row, table: StatementTable) -> bool:
    """Does the row, its heading, the table's title or a column name a word of what is counted
    (the phrase's own words, not the names in it)? A table scaled "in millions" holds money unless
    it says what it counts ("Pharmacy claims processed", "Unit counts at period end")."""
    counted = {s for w in re.findall(r"[a-z][\w-]*", phrase) for s in stems(w)} - _GENERIC_LABEL
    said = set(stems(" ".join([row.label, row.section or "", table.title or "", *(c.header for c in table.columns)])))
    return bool(counted & said)


_THOUSANDS_OF = re.compile(r"\(\s*['\u2018\u2019]?000s?['\u2019]?\s*\)|\(\s*in\s+thousands\s*\)", re.I)
_MONEY = re.compile(r"dollars?|\$|€|£|euros?|pounds|yen|usd|eur|gbp", re.I)
_EXCEPT = re.compile(r"\bin\s+(?:millions|thousands|billions)\s*,?\s*except\s+(?:for\s+)?([^)]{1,60})\)", re.I)


def _excepted_from_unit(source, table: StatementTable, row: Row) -> bool:
    """"(dollars in millions, except ARPA)": the rows the table's unit says it does not scale."""
    page = source.pages.get(table.page)
    if page is None or "except" not in page.text:
        return False
    label = set(stems(row.label))
    for found in _EXCEPT.finditer(" ".join(page.text.split())):
        words = [w for w in stems(found.group(1)) if w not in _SOFT_LITERAL and w not in ("amount", "data")]
        if any(w in label for w in words if w not in ("per", "share")) and not ({"per", "share"} <= set(words)):
            return True
    return False


_A_RATE = re.compile(r"\bper\s+(?!cent\b|share\b|common\b|diluted\b|basic\b)[a-z]+|\baverage\s+daily\s+rate\b", re.I)


def _says(words: str, row: Row) -> bool:
    """Does the row's label or heading print these words ("excluding fuel")?"""
    return " ".join(words.lower().split()) in " ".join(f"{row.label} {row.section or ''}".lower().split())


_SOFT_LITERAL = frozenset(stems("total the of and a an"))


def _printed_as(phrase: str, label: str) -> bool:
    """Does the label print the words asked, in their order, and no "other" they do not say?
    ("Net income" is not "Other income, net")"""
    asked = [w for w in stems(phrase) if w not in _SOFT_LITERAL]
    printed = list(stems(clean_label(label)))
    if "other" in printed and "other" not in asked:
        return False
    at = 0
    for word in asked:
        try:
            at = printed.index(word, at) + 1
        except ValueError:
            return False
    return True


# Words a label adds to a measure's name to say the filer defines it: "Free cash flow, non-GAAP measure".
_OWN_DEFINITION = frozenset(stems("non GAAP IFRS measure measures financial total reported"))


def bare_name(text: str) -> tuple[str, ...]:
    """A measure's name without the words that mark a filer's own measure."""
    return tuple(w for w in stems(clean_label(text)) if w not in _OWN_DEFINITION)


def labelled_only_as(label: str, names: tuple[str, ...]) -> bool:
    """Is the label one of the names, give or take the words that mark a filer's own measure?
    ("Adjusted free cash flow" is another measure than free cash flow.)"""
    printed = bare_name(label)
    return bool(printed) and any(printed == bare_name(name) for name in names)


# A row that has taken off what was asked before: "net of royalties" / "after royalties" / "less royalties".
_NET_OF = re.compile(r"\bnet\s+of\b|\bafter\b|\bless\b", re.I)


_BALANCE_HEADING = re.compile(r"^\s*balances?\s+(?:as\s+of|at)\b", re.I)   # "Balance as of December 31, 2021": its rows' day
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_ROW_DATE = re.compile(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2}),?\s+((?:19|20)\d\d)\b", re.I)


def _row_day(row: Row) -> str | None:
    """The day a row's label states (a roll-forward's "Balance as of June 30, 2023", or the
    balance heading above it), as an ISO date."""
    found = _ROW_DATE.search(row.label) or (_ROW_DATE.search(row.section) if row.section and _BALANCE_HEADING.match(row.section)
                                            else None)
    if found is None:
        return None
    return "%s-%02d-%02d" % (found.group(3), _MONTHS.index(found.group(1).lower()[:3]) + 1, int(found.group(2)))


def _dated_elsewhere(row: Row, fiscal_year: int) -> bool:
    """A row whose label states a day of another fiscal year (a roll-forward's opening balance; a day in
    the first week of January closes the year before: J&J's fiscal 2022 ended January 1, 2023)."""
    day = _row_day(row)
    return day is not None and fiscal_year_of(day) != fiscal_year


def _column_of_a_dated_row(row: Row, table: StatementTable, period, source, choose) -> Column | None:
    """A roll-forward whose columns are parts, not periods ("Flexibles Segment | Rigid Packaging
    Segment | Total"), dates its balances in the rows: the row of the day asked is read in the
    column of the part the words name, else the total's."""
    day = _row_day(row)
    if day is None:
        return None
    closes = source.calendar.period_of(day) if source.calendar is not None else (fiscal_year_of(day), 4)
    if closes != (period.fiscal_year, period.quarter or 4):
        return None
    columns = [c for c in table.columns if not c.derived]
    if len(columns) < 2 or any(c.fiscal_year or c.period_end for c in columns):
        return None
    return whole_of(columns, columns[-1], source.part, choose)


_CHANGE = re.compile(r"\bchange\b|\bgrowth\b|%|\bpercent", re.I)


def _a_change(row: Row, table: StatementTable, column: int) -> bool:
    header = next((c.header for c in table.columns if c.index == column), "")
    return bool(_CHANGE.search(" ".join((row.section or "", header))))


@dataclass
class PrintedAsAsked(Measure):
    """The row printed exactly as the question's words, when the filing prints one; else the
    lexicon's item those words stand for ("cost of services": Boeing prints it beside "Cost of
    products"; a services company's only cost line). Decided once for the filings, not per
    period, so that a change or a comparison never mixes the row with the item."""

    exact: RowMeasure
    otherwise: Measure
    _chosen: Measure | None = None

    @property
    def label(self) -> str:  # type: ignore[override]
        return (self._chosen or self.otherwise).label

    def evaluate(self, sources, period):
        if self._chosen is None:
            # A row so labelled that gives no figure for the period (a heading, an equity
            # statement's column) does not make the words that row's.
            found = replace(self.exact, on_statements=True).evaluate(sources, period)
            if found is not None:
                self._chosen = replace(self.exact, on_statements=True)
                return found
            found = self.exact.evaluate(sources, period)
            if found is not None and not any(u.table.statement for u in found.used):
                # "SG&A" printed in a segment's table of the MD&A is that segment's: the statement's
                # line of the item, where there is one, is the company's
                item = self.otherwise.evaluate(sources, period)
                if item is not None and all(u.table.statement for u in item.used):
                    self._chosen = self.otherwise
                    return item
            self._chosen = self.exact if found is not None else self.otherwise
            return found if found is not None else self.otherwise.evaluate(sources, period)
        return self._chosen.evaluate(sources, period)

