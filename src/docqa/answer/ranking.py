"""Ranking answers: "which segment had the highest operating income in 2022?" names the member of a
group the filing prints (segments, regions, product lines, brands) that ranks first by the measure,
with its figure and the figures it was ranked against, each read from the row that prints it.

No list of groups is needed: the group is a block of a table's rows (the rows of a table, or those
under one heading) whose heading, title or column header names the measure asked. Rows that add
the members up or sit beside them ("Total", "Corporate", "Eliminations") are no members. A move
("grew the fastest", "the steepest decline") is read from the change column the table prints beside
the period's, else computed from the period's and the year before's, the formula shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from docqa.answer.contract import Evidence
from docqa.answer.figures.answerer import periods_asked
from docqa.answer.figures.reading.sources import Source, all_tables, filing_sources
from docqa.answer.statement_lines import printed_line
from docqa.finance.lexicon import load_lexicon
from docqa.finance.periods import Period
from docqa.finance.tables import Cell, Column, Row, StatementTable
from docqa.finance.text import clean_label, stems
from docqa.plan import Intent, QuestionPlan
from docqa.plan.ranking import Ranked
from docqa.types import Citation, Draft, Figure

ANSWERER = "ranking"
MIN_MEMBERS = 2
SHOWN_OTHERS = 6          # the members ranked against that the answer names
GROUP_BONUS = 0.4         # the table's words name the group asked ("by segment", "Geographic", "... SBU")
TITLE_UNDER_HEADING = 0.5 # a title names the measure of rows under a heading of their own less surely than the heading
TITLE_ALONE = 0.8
PRINTED_CHANGE = 0.1      # the table prints each member's change itself
QUALIFIER_BONUS = 0.2     # the rows' heading or title holds a word that qualifies the group asked
HEADER_TOO = 0.3          # the column read names the measure as well
NAMED_BY_ROW = 0.8        # a row (or a member's name) that names the measure itself
EVIDENCE_BONUS = 0.15     # the table is on a page retrieval put first
# Rows that add the members up or sit beside them, never a member of the group.
_AGGREGATE = re.compile(
    r"^\W*(?:total\b|consolidated\b|sub-?total\b|eliminations?\b|inter-?segment\b|unallocated\b|reconciling\b|less\b|"
    r"segment\s+totals?\b|(?:all\s+)?other\s*$|other\s+(?:segments?|businesses|operations|items|income|expense)\b|"
    r"corporate\s*(?:$|and\b|&|/|,|\(|items|expenses?|costs?|activities|unallocated|other)|worldwide\s*$)", re.I)
# a measure that is itself a share, a margin or a rate: its members' cells print percentages
_A_SHARE = re.compile(r"%|\bper\s*cent|\bpercent|\bshares?\b|\bmargins?\b|\brates?\b|\bratios?\b|\byields?\b|\breturns?\b|"
                      r"\bmix\b", re.I)
# a label that prints a figure ("QTD Down 82% Int'l.") is a note beside the rows, not a member's name
_A_FIGURE = re.compile(r"%|\d{3,}|\d[\d,.]*\s*(?:million|billion)")
_GENERIC = frozenset(stems("which what the its their of and total reported gaap amount level"))
_WORDS_OF_GROUPS = frozenset(stems("of in the and its their reportable operating business"))


@dataclass(frozen=True)
class _Read:
    """One member's figure (and its figure a year before, for a move)."""

    name: str                        # the member as printed: its row's label, or its column's header
    row: Row
    cell: Cell
    value: float
    before: Cell | None = None
    change: float | None = None      # the move ranked: printed, or computed
    printed_change: bool = False


@dataclass(frozen=True)
class _Group:
    table: StatementTable
    column: Column
    members: tuple[_Read, ...]
    score: float


class RankingAnswerer:
    """Names the member of a printed group that ranks first by the measure asked."""

    name = ANSWERER

    def answer(self, plan: QuestionPlan, evidence: Evidence) -> Draft | None:
        ranked = plan.ranked
        if plan.intent is not Intent.RANK or ranked is None or evidence.filings is None or not evidence.pages:
            return None
        pages = list(evidence.pages)
        sources = filing_sources(pages, evidence.filings)
        if not sources:
            return None
        periods = periods_asked(plan.asked, pages, plan, sources, evidence.filings)
        if not periods:
            return None
        # a move "vs 2021" is ranked over the later of the periods named
        source, period = sources[0], (max(periods, key=lambda p: p.order) if ranked.change else periods[0])
        wanted, synonyms = _measure_words(ranked)
        if not wanted and not synonyms:
            return None
        # the group's head noun ("area" of "pharmaceutical therapeutic area"): its qualifiers name the parent
        # ("group" of "group of products and services")
        named = ranked.group.split(" of ")[0].split()
        group_words = set(stems(named[-1])) - _WORDS_OF_GROUPS
        company = {s for n in plan.named_as for s in stems(n)}
        qualifiers = set(stems(" ".join(named[:-1]))) - _WORDS_OF_GROUPS - group_words - company
        # the qualifier that names a part of the company ("Walmart International"), printed capitalised
        parent = set(stems(" ".join(w for w in named[:-1] if w[:1].isupper()))) - company
        order = [p.page for p in pages if p.document_id == source.document_id]
        groups = [g for t in all_tables(source)
                  for g in _groups(t, source, period, ranked, wanted, synonyms, group_words, qualifiers, parent, order)]
        if not groups:
            return None
        best = max(groups, key=lambda g: (g.score, len(g.members)))
        named_as = {w for n in plan.named_as for w in n.lower().split()}  # "Boeing segment" is shown as "segments"
        shown = " ".join(w for w in ranked.group.lower().split() if w not in named_as) or "members"
        return _draft(best, ranked, period, source, shown)


def _measure_words(ranked: Ranked) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The measure's own word stems, and those of the ways filings print it (the lexicon's synonyms)."""
    # "share of net sales", "percent of customer retail sales": the tables print the whole's name
    measure = re.sub(r"^(?:share|(?:per\s*)?cent(?:age)?|percent(?:age)?|portion|proportion|%)\s+of\s+", "",
                     ranked.measure, flags=re.I)
    wanted = tuple(s for s in stems(measure) if s not in _GENERIC)
    lexicon = load_lexicon()
    # a synonym stands in for the measure only when the lexicon reads all of it ("net sales"), never
    # for a part ("sales" of "intersegment sales")
    matches = [m for m in lexicon.match(measure)
               if m.kind == "metric" and set(stems(m.text)) >= set(wanted)]
    synonyms = [tuple(stems(p)) for p in lexicon.expansion_terms(matches)]
    return wanted, [s for s in synonyms if s]


def _names(text: str, wanted: tuple[str, ...], synonyms: list[tuple[str, ...]]) -> float:
    """How well ``text`` names the measure: all its words, a synonym's words, its words spelt out
    ("EBIT": "earnings before interest and taxes"), or most of its words."""
    have = set(stems(text or ""))
    if wanted and all(w in have for w in wanted):
        return 1.0
    if len(wanted) == 1 and _spelt_out(wanted[0], text or ""):
        return 0.9
    if any(all(w in have for w in s) for s in synonyms):
        return 0.8
    share = sum(w in have for w in wanted) / len(wanted) if wanted else 0.0
    return 0.5 * share if share >= 0.5 else 0.0


_JOINING = frozenset("and of the for on to in".split())


def _spelt_out(acronym: str, text: str) -> bool:
    """Do words of ``text`` begin with the acronym's letters, in order ("EBIT", "earnings before
    interest and taxes"; joining words skipped)?"""
    letters = acronym.lower()
    if not 3 <= len(letters) <= 6 or not letters.isalpha():
        return False
    initials = "".join(w[0] for w in re.findall(r"[a-z]+", text.lower()) if w not in _JOINING)
    return letters in initials


_TOTAL = re.compile(r"^\W*total\b\s*(?P<name>.*?)\W*$", re.I | re.S)


def _totalled(label: str) -> str | None:
    """What a "Total ..." line adds up ("Total Immunology" -> "Immunology"; a bare "Total" -> ""); None
    for any other line."""
    total = _TOTAL.match(label)
    return total.group("name") if total else None


def _blocks(table: StatementTable) -> list[tuple[str, list[Row]]]:
    """The table's rows in runs under one heading."""
    out: list[tuple[str, list[Row]]] = []
    for row in table.rows:
        heading = row.section or ""
        if out and out[-1][0] == heading:
            out[-1][1].append(row)
        else:
            out.append((heading, [row]))
    return out


def _under_the_total_named(rows: list[Row], group_words: set[str], wanted: tuple[str, ...],
                           synonyms: list[tuple[str, ...]]) -> list[Row]:
    """The rows a total adds up, when the total names the group or the measure asked ("NIKE Brand
    geographic segments": the rows above "TOTAL NIKE BRAND", not Converse below it; the rows above
    "Total earnings before interest and taxes", not the interest reconciled below it)."""
    start = 0
    for i, row in enumerate(rows):
        label = clean_label(row.label)
        if _only_the_measure(label, wanted, synonyms):
            # a sum named by the measure, "Total" or not ("Reportable segment capital expenditures"); its
            # parts' own totals above it are no members: they are dropped as totals
            return rows[:i]
        if _totalled(label) is not None:
            if group_words & set(stems(label)):
                return rows[start:i]
            start = i + 1
    return rows


def _groups(table: StatementTable, source: Source, period: Period, ranked: Ranked, wanted: tuple[str, ...],
            synonyms: list[tuple[str, ...]], group_words: set[str], qualifiers: set[str], parent: set[str],
            order: list[int]) -> list[_Group]:
    def choose(columns: list[Column]) -> Column | None:
        return next((c for c in columns if _names(c.header, wanted, synonyms) > 0), None)

    column = source.column(table, period, None, choose=choose)
    if column is None:
        return []
    before = source.column(table, period.prior(), None, choose=choose) if ranked.change else None
    change_column = _change_column(table, column) if ranked.change and ranked.percent else None
    if ranked.change and before is None and change_column is None:
        return []
    if table.statement is not None and not group_words & set(stems(table.title)):
        return []  # a primary statement's lines are line items, not members of a group it does not name
    lexicon = load_lexicon()
    found: list[tuple[float, list[_Read], str]] = (
        _headed_members(table, column, before, change_column, ranked, wanted, synonyms)
        or (_total_members(table, column, before, change_column, ranked, wanted, synonyms)
            if group_words & set(stems(table.title)) else []))
    blocks = [] if found else _blocks(table)
    several = len({h for h, _ in blocks if h}) > 1
    in_header = _names(column.header, wanted, synonyms)
    for heading, rows in blocks:
        # the heading the rows sit under names the measure; a title over blocks of several headings
        # names it for each of them, less surely; a column header that names it adds to either
        in_title = _names(table.title, wanted, synonyms) * (TITLE_UNDER_HEADING if several else TITLE_ALONE)
        # (or the block's own total does: "Total Domestic revenue" under "Domestic")
        total = next((label for label in map(clean_label, (r.label for r in rows))
                      if _totalled(label) is not None or _only_the_measure(label, wanted, synonyms)), "")
        named = (max(_names(heading, wanted, synonyms), in_title, in_header, _names(total, wanted, synonyms))
                 + HEADER_TOO * in_header)
        if named <= 0:
            continue
        rows = _under_the_total_named(rows, group_words | qualifiers, wanted, synonyms)
        members = _without_subtotals([m for m in (_read(r, column, before, change_column, ranked) for r in rows
                                                  if _a_member(clean_label(r.label), wanted, synonyms)) if m is not None])
        if sum(_a_line_item(m.name, lexicon) for m in members) * 2 > len(members):
            continue  # the rows are line items (revenue, costs, income), not members of a group
        found.append((named, members, heading))
    found.extend(_column_members(table, column, source, period, ranked, wanted, synonyms))
    out = []
    level_asked = not ranked.change and not _A_SHARE.search(ranked.measure)
    for named, members, heading in found:
        # a member that holds the group's qualifier is its parent ("Walmart International segment" is no
        # market of Walmart International's)
        members = [m for m in members if not (parent and parent <= set(stems(m.name)))]
        if len(members) < MIN_MEMBERS:
            continue
        if level_asked and sum("%" in m.cell.raw for m in members) * 2 > len(members):
            continue  # shares or changes in percent, where a level ("the most revenue") is asked
        around = set(stems(" ".join([table.title, heading, *(c.header for c in table.columns), *(m.name for m in members)])))
        score = named + (GROUP_BONUS if group_words & around else 0.0)
        # the words that qualify the group ("Domestic" revenue categories, "NIKE Brand" segments) head its rows
        # (or its members' names: "Hardware revenue", "Software and data product revenue" are revenue streams)
        names = " ".join(m.name for m in members)
        score += QUALIFIER_BONUS if qualifiers & set(stems(f"{table.title} {heading} {names}")) else 0.0
        if table.page in order:
            score += EVIDENCE_BONUS * (1 - order.index(table.page) / len(order))
        if ranked.change and members and all(m.printed_change for m in members):
            score += PRINTED_CHANGE  # the filing's own change ("% Change") before one computed
        out.append(_Group(table, column, tuple(members), score))
    return out


def _headed_members(table: StatementTable, column: Column, before: Column | None, change_column: Column | None,
                    ranked: Ranked, wanted: tuple[str, ...], synonyms: list[tuple[str, ...]]
                    ) -> list[tuple[float, list[_Read], str]]:
    """Members printed as headings, each over its parts and its own total ("Las Vegas Strip Resorts:
    Casino, Rooms, ..., Total Las Vegas Strip Resorts"): the totals are the members' figures, the parts
    none (the measure named by the table's title)."""
    named = _names(table.title, wanted, synonyms)
    if named <= 0:
        return []
    members = []
    for heading, rows in _blocks(table):
        name = clean_label(heading).rstrip(":").strip()
        if not name or not _a_member(name, wanted, synonyms):
            continue
        total = next((r for r in rows if (_totalled(clean_label(r.label)) or "").lower() == name.lower()), None)
        read = _read(total, column, before, change_column, ranked, name) if total is not None else None
        if read is not None:
            members.append(read)
    return [(named * TITLE_ALONE, members, "")] if len(members) >= MIN_MEMBERS else []


def _total_members(table: StatementTable, column: Column, before: Column | None, change_column: Column | None,
                   ranked: Ranked, wanted: tuple[str, ...], synonyms: list[tuple[str, ...]]
                   ) -> list[tuple[float, list[_Read], str]]:
    """Members printed as their own totals over their parts, in a table whose title names the group
    ("Major Pharmaceutical Therapeutic Area Sales": "Total Immunology", "Total Neuroscience", ...)."""
    named = _names(table.title, wanted, synonyms)
    totals = [(r, name) for r in table.rows if (name := _totalled(clean_label(r.label)))]
    if named <= 0 or len(totals) < MIN_MEMBERS + 1:
        return []
    members = _without_subtotals([m for m in (_read(r, column, before, change_column, ranked, name) for r, name in totals
                                              if _a_member(name, wanted, synonyms)) if m is not None])
    return [(named * TITLE_ALONE, members, "")] if len(members) >= MIN_MEMBERS else []


_PERIOD_WORDS = re.compile(r"\b(?:19|20)\d{2}\b|\b(?:three|six|nine|twelve)\s+months\s+ended\b|\b(?:fiscal\s+)?years?\s+ended\b|"
                           r"\bquarter\s+ended\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?", re.I)


def _column_members(table: StatementTable, column: Column, source: Source, period: Period, ranked: Ranked,
                    wanted: tuple[str, ...], synonyms: list[tuple[str, ...]]) -> list[tuple[float, list[_Read], str]]:
    """Members printed as columns ("2022 Health Care Benefits | Pharmacy Services | Retail/LTC | ..."),
    the measure a row: the period's columns whose headers name something besides the period."""
    if ranked.change:
        return []  # (a move would need each member's column of the year before: read from rows only)
    same = [c for c in table.period_columns() if (c.fiscal_year, c.period, c.months) == (column.fiscal_year, column.period,
                                                                                          column.months)]
    names = {c.index: clean_label(_PERIOD_WORDS.sub(" ", c.header)) for c in same}
    members = [c for c in same if names[c.index] and _a_member(names[c.index], wanted, synonyms)]
    if len(members) < MIN_MEMBERS or len({names[c.index] for c in members}) < len(members):
        return []
    out = []
    for row in table.rows:
        named = _names(clean_label(row.label), wanted, synonyms)
        if named < NAMED_BY_ROW:
            continue
        read = [m for m in (_read(row, c, None, None, ranked, names[c.index]) for c in members) if m is not None]
        out.append((named, read, row.section or ""))
    return out


def _a_line_item(label: str, lexicon) -> bool:
    """Is the line a measure the lexicon reads, whole ("Cost of sales"), rather than a member named
    beside one ("Hardware revenue")?"""
    have = set(stems(label)) - _NO_MEMBER_WORDS
    return any(have <= set(stems(m.text)) for m in lexicon.match(label))


def _a_member(label: str, wanted: tuple[str, ...], synonyms: list[tuple[str, ...]]) -> bool:
    """A member is named, not summed: no "Total", "Corporate" or "Eliminations" line, nor a line
    named by the measure alone ("Revenue", "Net sales of reportable segments"); a kind of the
    measure ("Hardware revenue") is a member."""
    return not _AGGREGATE.match(label) and not _A_FIGURE.search(label) and not _only_the_measure(label, wanted, synonyms)


# words a line adds to the measure's name that name no member ("Total net sales of reportable segments")
_NO_MEMBER_WORDS = frozenset(stems("total net reportable operating business segment segments consolidated company all "
                                   "the of and from by group"))


def _only_the_measure(label: str, wanted: tuple[str, ...], synonyms: list[tuple[str, ...]]) -> bool:
    """Does the line name the measure and nothing that could be a member?"""
    if _names(label, wanted, synonyms) < NAMED_BY_ROW:
        return False
    named = set(wanted) | {w for s in synonyms for w in s}
    return set(stems(label)) - named - _NO_MEMBER_WORDS == set()


def _without_subtotals(members: list[_Read]) -> list[_Read]:
    """Without a line that adds up the lines just above it (a subtotal printed without "Total")."""
    out: list[_Read] = []
    for m in members:
        run = 0.0
        for above in reversed(out):
            run += above.value
            if len(out) >= 2 and above is not out[-1] and abs(run - m.value) <= 0.5 + 1e-6 * abs(m.value):
                break
        else:
            out.append(m)
    return out


def _change_column(table: StatementTable, column: Column) -> Column | None:
    """The change the table prints beside the period's column ("% Change"): the first derived column
    to its right that prints percentages."""
    right = sorted((c for c in table.columns if c.derived and c.index > column.index), key=lambda c: c.index)
    for c in right:
        if "%" in c.header or any("%" in (cell.raw or "") for r in table.rows for cell in r.cells if cell.column == c.index):
            return c
    return None


def _read(row: Row, column: Column, before: Column | None, change_column: Column | None, ranked: Ranked,
          name: str | None = None) -> _Read | None:
    name = name or clean_label(row.label)
    cell = row.cell(column.index)
    if cell is None or cell.value is None:
        return None
    if not ranked.change:
        return _Read(name, row, cell, cell.value)
    printed = row.cell(change_column.index) if change_column is not None else None
    prior = row.cell(before.index) if before is not None else None
    if printed is not None and printed.value is not None:
        return _Read(name, row, cell, cell.value, prior, printed.value, printed_change=True)
    if prior is None or prior.value is None:
        return None
    if ranked.percent:
        if prior.value <= 0:
            return None  # a move in percent from nothing, or from a loss, says nothing
        return _Read(name, row, cell, cell.value, prior, (cell.value / prior.value - 1) * 100)
    return _Read(name, row, cell, cell.value, prior, cell.value - prior.value)


_UNIT_WORD = {"millions": " million", "thousands": " thousand", "billions": " billion"}


def _shown(cell: Cell, table: StatementTable, row: Row) -> str:
    raw = re.sub(r"\$\s+", "$", cell.raw.strip())
    return raw + (_UNIT_WORD.get(table.unit or "", "") if row.kind == "currency" and "%" not in raw else "")


_COUNTS = "two three four five six seven eight nine ten eleven twelve".split()


def _count(n: int) -> str:
    """The number of members in words: a digit in the prose would be a figure no cell prints."""
    return f"{_COUNTS[n - 2]} " if 2 <= n <= len(_COUNTS) + 1 else ""


def _plural(noun: str) -> str:
    return noun if noun.endswith("s") else noun[:-1] + "ies" if noun.endswith("y") else noun + "s"


def _draft(group: _Group, ranked: Ranked, period: Period, source: Source, group_name: str) -> Draft:
    key = (lambda m: m.change) if ranked.change else (lambda m: m.value)
    ordered = sorted(group.members, key=key, reverse=ranked.most)
    first, others = ordered[0], ordered[1:]
    table = group.table
    word = "the highest" if ranked.most else "the lowest"
    what = f"{'change in ' if ranked.change else ''}{ranked.measure or 'figure'}{' (%)' if ranked.percent else ''}"
    figures = [_figure(m, table, source, ranked.measure, period) for m in ordered]
    formula = None
    if ranked.change:
        lead = _move(first, table, ranked)
        figures += [_figure(m, table, source, f"{ranked.measure} before", period.prior(), m.before)
                    for m in ordered if m.before is not None]
        computed = [m for m in ordered[:1 + SHOWN_OTHERS] if not m.printed_change]
        if computed:
            formula = ("(current / prior - 1) x 100" if ranked.percent else "current - prior")
            figures += [Figure(name=f"{m.name} change", value=m.change or 0.0, text=_moved(m, ranked),
                               unit="%" if ranked.percent else None, period=period.short, computed=True) for m in computed]
    else:
        lead = _shown(first.cell, table, first.row)
    rest = "; ".join(f"{m.name} {_move(m, table, ranked) if ranked.change else _shown(m.cell, table, m.row)}"
                     for m in others[:SHOWN_OTHERS])
    text = (f"{first.name} had {word} {what} of the {_count(len(ordered))}{_plural(group_name)} for "
            f"{period.label}: {lead} ({source.document} p. {table.page}). The others: {rest}."
            + (f" Computed as {formula}." if formula else ""))
    citations = tuple(_citation(m, table, source) for m in ordered[:1 + SHOWN_OTHERS])
    return Draft(text=text, found=True, citations=citations, figures=tuple(figures), formula=formula,
                 answerer=ANSWERER, measure=ranked.measure or None)


def _moved(m: _Read, ranked: Ranked) -> str:
    return f"{m.change:+.1f}%" if ranked.percent else f"{m.change:+,.0f}"


def _move(m: _Read, table: StatementTable, ranked: Ranked) -> str:
    """A member's move as the answer states it: the printed change, or the computed one with its ends."""
    now = _shown(m.cell, table, m.row)
    was = _shown(m.before, table, m.row) if m.before is not None else None
    if m.printed_change:
        printed = next((c.raw for c in m.row.cells if c.value == m.change), f"{m.change:g}")
        return f"{printed.strip()}{'' if '%' in printed else '%'} ({now}{' vs ' + was if was else ''})"
    return f"{_moved(m, ranked)} ({now} vs {was})"


def _figure(m: _Read, table: StatementTable, source: Source, measure: str, period: Period,
            cell: Cell | None = None) -> Figure:
    cell = cell or m.cell
    return Figure(name=f"{m.name} {measure}".strip(), value=cell.value or 0.0, text=cell.raw,
                  unit="%" if "%" in cell.raw else None, scale=table.scale or 1.0, period=period.short,
                  document=source.document, page=table.page, bbox=cell.bbox)


def _citation(m: _Read, table: StatementTable, source: Source) -> Citation:
    page = source.pages.get(table.page)
    quote = printed_line(page, m.row) if page else m.row.label
    return Citation(document=source.document, document_id=source.document_id, page=table.page, quote=quote,
                    boxes=(m.row.bbox,))
