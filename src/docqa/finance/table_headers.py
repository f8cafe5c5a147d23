"""The header blocks over a page's tables: the line of column periods and the header lines stacked on it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from docqa.finance.cells import is_day, is_month, is_numeric_date, is_short_period, is_year
from docqa.finance.table_lines import TableLine, line_height
from docqa.types import Line, Word

MAX_HEADER_LINES_ABOVE = 4
_HEADER_WORDS = re.compile(
    r"\b(ended|ending|months?|weeks?|years?|fiscal|quarters?|as of|at|unaudited|restated|actual|"
    r"amounts?|percent|change|increase|decrease|millions|thousands|billions|reported|total|"
    r"fy|ytd|q[1-4])\b|%"
)
# "In 000s", "HK$'000", "(000's)": the table's unit set in its header line, not a figure in it.
_UNIT_WORD = re.compile(r"\(?(?:[A-Z]{0,3}\$|£|€|¥)?['’]?000['’]?s?\)?,?", re.I)


def word_groups(words: list[Word] | tuple[Word, ...], height: float) -> list[list[Word]]:
    """Runs of words separated by less than a cell gap: one header phrase each."""
    groups: list[list[Word]] = []
    for w in words:
        if groups and w.bbox[0] - groups[-1][-1].bbox[2] < 0.8 * height:
            groups[-1].append(w)
        else:
            groups.append([w])
    return groups


_ORDINAL_QUARTER = re.compile(r"[1-4](?:st|nd|rd|th)", re.I)


def is_year_line(line: Line, page_width: float) -> bool:
    """A line of column periods: every number on it is a year, a day of a month, or "Q4"/"FY23"."""
    words = line.words
    if not words or len(words) > 30:
        return False
    if sum(bool(_ORDINAL_QUARTER.fullmatch(w.text)) for w in words) >= 3 and all(
            _ORDINAL_QUARTER.fullmatch(w.text) or not any(ch.isdigit() for ch in w.text) for w in words):
        return True  # "Quarter  1st  2nd  3rd  4th  Fiscal Year": a quarterly results note's columns
    has_period = False
    month_days = 0   # "February 27  May 29  August 28  November 27": quarter ends under a year printed above
    for k, w in enumerate(words):
        if w.text.isalpha() or not any(map(str.isdigit, w.text)):
            continue  # no test below holds for a word without a digit: skip them (ingest runs this on every row)
        if _FOOTNOTED_WORD.fullmatch(w.text):
            continue  # "Other(1)": a heading word with its footnote's mark, no figure
        t = w.text.strip("()")
        if is_year(t) or (is_short_period(t) and any(ch.isdigit() for ch in t)) or is_numeric_date(w.text) \
                or _footnoted_on(t, words):
            has_period = True
        elif is_day(t) and k > 0 and is_month(words[k - 1].text):
            month_days += 1
            continue
        elif _YEAR_SPAN.fullmatch(t):
            continue  # "2015-2014" over a "% Change" column: a change between two periods, not a figure
        elif any(ch.isdigit() for ch in t):
            return False
    if not has_period:
        return month_days >= 2 and words[0].bbox[0] >= 0.3 * page_width
    groups = word_groups(words, line_height(line))
    with_period = [g for g in groups if any(is_year(w.text.strip("()")) or is_short_period(w.text) or is_numeric_date(w.text)
                                            for w in g)]
    return len(with_period) >= 2 or with_period[0][0].bbox[0] >= 0.45 * page_width


_LEAD_IN = re.compile(r"\b(?:as\s+follows|(?:was|were|are|is)\s+(?:\w+\s+){0,3}?(?:below|follows))\s*:?\s*$")
_TABLE_NAMED = re.compile(r"\b(?:the\s+following\s+table|the\s+table\s+below)\b")
# "Long-Lived Assets (6)": a footnote's mark after a heading, no figure.
_FOOTNOTE_MARK = re.compile(r"\(\d{1,2}\)|\[\d{1,2}\]")
_FOOTNOTED_WORD = re.compile(r"[A-Za-z][A-Za-z.,'&-]*(?:\(\d{1,2}\)|\*{1,3})")
_YEAR_SPAN = re.compile(r"(?:19|20)\d\d\s*[-–—/]\s*(?:(?:19|20)?\d\d)")
_FOOTNOTED_YEAR = re.compile(r"((?:19|20)\d\d)\d{1,2}")


def _footnoted_on(text: str, words) -> bool:
    """``footnoted_year(text, the years of the line's words)``, the years read only for a word that
    may be such a year: reading them for every line was a third of reading a page's tables."""
    return bool(_FOOTNOTED_YEAR.fullmatch(text)) and footnoted_year(text, years_in(w.text for w in words)) is not None


def years_in(texts) -> list[int]:
    return [int(m.group()) for t in texts if is_year(t) and (m := _A_YEAR.search(t))]


_A_YEAR = re.compile(r"(?:19|20)\d\d")


def footnoted_year(text: str, years: list[int]) -> str | None:
    """"20211" beside "2022": the year 2021 with its footnote mark glued on ("2021¹")."""
    m = _FOOTNOTED_YEAR.fullmatch(text)
    if m and any(0 < abs(int(m.group(1)) - y) <= 3 for y in years):
        return m.group(1)
    return None


def _is_header_part(line: Line, page_width: float) -> bool:
    """Header words with no figures: "Three Months Ended", "December 31,", "Amount  % to Sales"."""
    words = line.words
    if not words or len(words) > 20:
        return False
    if any(any(ch.isdigit() for ch in w.text) and not (is_year(w.text) or is_day(w.text) or is_short_period(w.text)
                                                       or _UNIT_WORD.fullmatch(w.text) or _FOOTNOTE_MARK.fullmatch(w.text))
           for w in words):
        return False
    text = line.text.lower()
    if _LEAD_IN.search(text) or _TABLE_NAMED.search(text):
        # "Goodwill by reportable segment ... for fiscal 2022 and 2021 was as follows:", "The following
        # table summarizes ... (in thousands):": a sentence that introduces the table, its title
        return False
    if _HEADER_WORDS.search(text) or any(is_month(w.text) for w in words):
        return True
    groups = word_groups(words, line_height(line))
    return len(groups) >= 2 and all(g[0].bbox[0] >= 0.3 * page_width for g in groups)


@dataclass
class HeaderBlock:
    start: int  # first header line index
    end: int    # last header line index (inclusive)


def header_blocks(lines: list[TableLine], page_width: float) -> list[HeaderBlock]:
    blocks: list[HeaderBlock] = []
    i = 0
    while i < len(lines):
        if not lines[i].year_line and not _names_after_lead_in(lines, i, page_width):
            i += 1
            continue
        start = i
        while (start > 0 and i - start < MAX_HEADER_LINES_ABOVE and not lines[start - 1].is_data
               and (blocks == [] or start - 1 > blocks[-1].end)
               and _close(lines[start - 1].line, lines[start].line)
               and (lines[start - 1].year_line or _is_header_part(lines[start - 1].line, page_width))):
            start -= 1
        end = i
        while end + 1 < len(lines) and not lines[end + 1].is_data and _close(lines[end].line, lines[end + 1].line):
            if lines[end + 1].year_line or _heads_columns(lines[end + 1].line, page_width,
                                                          lines[end + 2] if end + 2 < len(lines) else None):
                end += 1
            elif (end + 2 < len(lines) and not lines[end + 2].is_data and _close(lines[end + 1].line, lines[end + 2].line)
                  and _over_columns(lines[end + 1].line, page_width) and _heads_columns(lines[end + 2].line, page_width)):
                # "Rigid" stacked over "Packaging" of "($ in millions)  Flexibles  Packaging  Total": the
                # first word of a two-line column name, one line above the others
                end += 2
            else:
                break
        if blocks and start == blocks[-1].end + 1:
            # Header lines with no row between ("2015" over "Quarter Ended" over "February 27  May 29
            # ..."): one header, whose year heads every column.
            start = blocks.pop().start
        blocks.append(HeaderBlock(start, end))
        i = end + 1
    return blocks


def _names_after_lead_in(lines: list[TableLine], i: int, page_width: float) -> bool:
    """"Goodwill ... as allocated by segment of business, was as follows:" over "(Dollars in Millions)
    Consumer Health  Pharmaceutical  MedTech  Total" and figures: a new table's header, though it
    prints no period (the table above's rows end there)."""
    return (0 < i < len(lines) - 1 and not lines[i].is_data and lines[i + 1].is_data
            and not lines[i - 1].is_data and bool(A_LEAD_IN.search(lines[i - 1].line.text.strip()))
            and _heads_columns(lines[i].line, page_width)
            and len(word_groups(lines[i].line.words, line_height(lines[i].line))) >= 3)


# A sentence that introduces the table below it.
A_LEAD_IN = re.compile(r"^[A-Z](?:\S+\s+){5,}\S*:$|\b(?:following\s+table|table\s+below|as\s+follows)\b", re.I)


def _heads_columns(line: Line, page_width: float, below: TableLine | None = None) -> bool:
    """A line of column headings under the first: names over the figures, after a unit's stub at most
    ("($ in millions)  Flexibles  Packaging  Total"). Over the figures is right of the page's first
    third, or, with the row under it given, one name per figure of that row, all right of its label
    (Amcor's quarterly tables start their figures at a quarter of the page)."""
    groups = word_groups(line.words, line_height(line))
    if not _is_header_part(line, page_width):
        return False
    over = groups[1:] if len(groups) >= 3 and _UNIT_STUB.fullmatch(" ".join(w.text for w in groups[0])) else groups
    if not (len(over) >= 2 or bool(_HEADER_WORDS.search(line.text.lower()))):
        return False
    if over[0][0].bbox[0] >= 0.3 * page_width:
        return True
    return (below is not None and below.is_data and len(over) >= 2 and len(below.cells) == len(over)
            and bool(below.label_words) and over[0][0].bbox[0] > below.label_words[-1].bbox[2])


def _over_columns(line: Line, page_width: float) -> bool:
    """Words over the figures only, none at the row labels' place."""
    groups = word_groups(line.words, line_height(line))
    return bool(groups) and len(line.words) <= 4 and all(g[0].bbox[0] >= 0.3 * page_width for g in groups) \
        and not any(ch.isdigit() for w in line.words for ch in w.text)


# "($ in millions)", "(Dollars in Millions)", "In millions": the stub over the row labels
_UNIT_STUB = re.compile(r"\(?\s*(?:[$€£]\s*)?(?:dollars\s+)?in\s+(?:millions|thousands|billions)(?:\s*of\s+\w+)?\s*\)?", re.I)


def _close(upper: Line, lower: Line) -> bool:
    return lower.bbox[1] - upper.bbox[3] < 3.0 * line_height(lower)
