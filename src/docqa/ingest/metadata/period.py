"""The fiscal period a filing reports: (fiscal year, fiscal quarter, period end) as its first pages
print it, each filing type read its own way; and an 8-K's date of report."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date

from docqa.ingest.metadata.dates import DATE, fiscal_year_ending, parse_date
from docqa.types import DocType

_YEAR_ENDED = re.compile(rf"(?:fiscal\s+)?year\s+ended\s*:?\s*({DATE})", re.I)
# how reports without an SEC cover name their period: "for the year ended 30 June 2022", "52 weeks
# ended January 29, 2022", "FY to 31 Mar 2022", "financial year ended", "as at 31 December 2022"
_PERIOD_PHRASE = re.compile(
    rf"(?:\b(?:financial|fiscal)\s+)?\b(?:years?|periods?|(?:\d{{2}}|fifty-\w+)\s+weeks|twelve\s+months|12\s+months)\s+"
    rf"ended\s*:?\s*(?:on\s+)?({DATE})"  # not "ending": that is guidance for the next year
    rf"|\bFY\s*(?:to|ended)\s+({DATE})|\byear\s+to\s+({DATE})|\bas\s+at\s+({DATE})",
    re.I,
)
# two-column covers interleave text: "For the quarterly period ended  Commission file  March 31, 2021"
_QUARTER_ENDED = re.compile(rf"(?:quarterly\s+period|quarter|period)\s+ended\s*:?\s*(?:[^\d]{{0,40}}?)({DATE})", re.I)
REPORT_DATE = re.compile(rf"date\s+of\s+(?:report|earliest\s+event)[^:]{{0,60}}:\s*({DATE})", re.I)
_RELEASE_ENDED = re.compile(
    rf"(?:quarter|period|year|weeks|months)\s+(?:\([^)]{{0,40}}\)\s*)?ended\s+({DATE})", re.I
)
_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
_QUARTER_WORD = re.compile(r"\b(first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+quarter\b|\bQ([1-4])\b|\b([1-4])Q\d\d\b", re.I)
_QUARTER_YEAR = re.compile(
    r"\b(?:(20\d\d)\s+(first|second|third|fourth)[\s-]+quarter"
    r"|(first|second|third|fourth)[\s-]+quarter(?:\s+(?:and|of|&|full|year|fiscal|results|financial))*[\s-]+(20\d\d)"
    r"|fiscal\s+(?:year\s+)?(20\d\d)|full[\s-]+year\s+(20\d\d))",
    re.I,
)
_HALF_YEAR = re.compile(r"\b(?:half[\s-]+year|first\s+half|six\s+months|interim\s+results)\b", re.I)
_FULL_YEAR = re.compile(r"\b(full[\s-]+year|fiscal\s+(?:year\s+)?20\d\d\s+results|annual results|year[- ]end results)\b", re.I)


def report_date(doc_type: DocType, head: str) -> str | None:
    """An 8-K's "date of report (date of earliest event reported)", ISO: the day the filing speaks of."""
    if doc_type is not DocType.CURRENT:
        return None
    m = REPORT_DATE.search(head) or re.search(f"({DATE})", head, re.I)
    day = parse_date(m.group(1)) if m else None
    return day.isoformat() if day else None


def named_year(doc_type: DocType, headline: str, fiscal_year: int | None) -> int | None:
    """The year a release's title names the period it reports by, when it is the year before the one
    that period ends in: a year ending in early 2023 is "Fiscal 2022" for filers that name a year by
    the calendar year it starts in ("Ulta Beauty Announces Fourth Quarter Fiscal 2022 Results ... ended
    January 28, 2023"), "fiscal 2023" for those that name it by its end. Only the title's first period
    counts: the text goes on to compare other years."""
    if doc_type is not DocType.EARNINGS or fiscal_year is None:
        return None
    m = _QUARTER_YEAR.search(headline[:1500])
    named = next((int(g) for g in (m.groups() if m else ()) if g and g.isdigit()), None)
    return named if named == fiscal_year - 1 else None


def _likeliest_year(text: str) -> int | None:
    """Last resort: the year printed most often on the first pages."""
    years = Counter(re.findall(r"\b(20\d\d)\b", text[:3000]))
    return int(years.most_common(1)[0][0]) if years else None


def _voted_period_end(text: str, least: int = 1, annual_only: bool = False) -> date | None:
    votes: Counter[date] = Counter()
    for m in _PERIOD_PHRASE.finditer(text):
        if annual_only and not _ANNUAL_PHRASE.match(m.group(0)):
            continue
        found = parse_date(next(g for g in m.groups() if g))
        if found:
            votes[found] += 1
    if not votes:
        return None
    best = max(votes, key=lambda d: (votes[d], d))
    return best if votes[best] >= least else None


# A year's phrase, not an interim one's ("periods ended" heads a half-year's statements too)
_ANNUAL_PHRASE = re.compile(r"(?:(?:financial|fiscal)\s+)?(?:years?\b|\d{2}\s+weeks|fifty-\w+\s+weeks|twelve\s+months|12\s+months)",
                            re.I)
# How often the statements must name one year's end before a document with no title block is read
# as that year's annual report: each statement and most notes head their tables with it.
STATEMENT_VOTES = 3


def statements_year_end(text: str) -> date | None:
    """The year end a document's statements keep naming ("for the year ended June 30, 2022"), for a
    document whose first pages name no form or title (a shareholder letter before the 10-K's items)."""
    return _voted_period_end(text, least=STATEMENT_VOTES, annual_only=True)


def _quarter_from_year_to_date(text: str) -> int:
    """A 10-Q reports three months plus the year to date: six months means Q2, nine means Q3."""
    nine = len(re.findall(r"\b(?:nine|9)\s+months\s+ended|\b(?:thirty-nine|39|forty|40)\s+weeks\s+ended", text, re.I))
    six = len(re.findall(r"\b(?:six|6)\s+months\s+ended|\b(?:twenty-six|26|twenty-four|24)\s+weeks\s+ended", text, re.I))
    return 3 if nine >= 2 else 2 if six >= 2 else 1


def period(doc_type: DocType, head: str, headline: str, body: str):
    """(fiscal_year, fiscal_quarter, period_end) as printed on the first pages."""
    if doc_type in (DocType.ANNUAL, DocType.F20, DocType.F40):
        # the cover says it
        m = _YEAR_ENDED.search(head) or _YEAR_ENDED.search(body)
        if m and (end := parse_date(m.group(1))):
            return fiscal_year_ending(end), None, end
        return _likeliest_year(headline), None, None
    if doc_type.is_annual:
        # no SEC cover: the period end the report names most often ("for the year ended 30 June
        # 2022" heads every statement); a tie goes to the later date (the prior year is compared)
        end = _voted_period_end(head + " " + body)
        if end:
            return fiscal_year_ending(end), None, end
        dates = [d for d in (parse_date(m.group(0)) for m in re.finditer(DATE, headline, re.I)) if d]
        if dates:  # a title page that prints the date alone: "Financial Report  30 June 2022"
            return fiscal_year_ending(max(dates)), None, max(dates)
        return _likeliest_year(headline), None, None
    if doc_type is DocType.QUARTERLY:
        m = _QUARTER_ENDED.search(head)
        end = parse_date(m.group(1)) if m else None
        quarter = _quarter_from_year_to_date(body)
        return (fiscal_year_ending(end, quarter) if end else _likeliest_year(headline)), quarter, end
    if doc_type is DocType.CURRENT:
        # the report date follows its label, or on some covers sits above it: the first date then
        m = REPORT_DATE.search(head) or re.search(f"({DATE})", head, re.I)
        end = parse_date(m.group(1)) if m else None
        return (end.year if end else _likeliest_year(headline)), None, None
    if doc_type is DocType.EARNINGS:
        # the release's title names its period first: the earliest of quarter, half or full year wins
        top = headline[:1500]
        marks = [(m.start(), _ORDINAL.get((m.group(1) or "").lower()) or int(m.group(2) or m.group(3)))
                 for m in [_QUARTER_WORD.search(top)] if m]
        marks += [(m.start(), 2) for m in [_HALF_YEAR.search(top)] if m]
        marks += [(m.start(), 4) for m in [_FULL_YEAR.search(top)] if m]
        quarter = min(marks)[1] if marks else None
        # the current period is the latest one named ("quarter ended June 30, 2023 ... 2022")
        ends = [d for d in (parse_date(m.group(1)) for m in _RELEASE_ENDED.finditer(headline)) if d]
        end = max(ends, default=None)
        if end:
            return fiscal_year_ending(end, quarter), quarter, end
        y = _QUARTER_YEAR.search(headline)
        year = next((int(g) for g in (y.groups() if y else ()) if g and g.isdigit()), None)
        return year, quarter, None
    if doc_type is DocType.OTHER and (end := statements_year_end(body)):  # body holds the head pages too
        return fiscal_year_ending(end), None, end
    return None, None, None
