"""Period slot: the fiscal years, quarter, period end, day and recency a question asks about."""

from __future__ import annotations

import re
from dataclasses import dataclass

from docqa.finance.periods import Period
from docqa.text import STOPWORDS

# A year, not an amount: "2,018" and "$2018" are not years; "FY2023, FY2022" and "FY23" are.
_YEAR_MENTION = re.compile(r"(?<![\d.,$])(?:fy\s?'?|fiscal\s+(?:year\s+)?)?((?:19|20)\d{2})(?!\d|,\d|\.\d)|\bfy\s?'?(\d{2})\b", re.I)
# "2Q23" and "Q2'23" (sell-side shorthand) carry the quarter's two-digit year with them.
_QUARTER = re.compile(r"(?:\b|(?<=\d))(?:q([1-4])\b|([1-4])q(?:\b|(?='?\d\d\b))"
                      r"|(first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+(?:fiscal[\s-]+)?quarter\b)", re.I)
_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
_QUARTER_YEAR = re.compile(r"\bq[1-4]\s*'(\d\d)\b|\b[1-4]q'?(\d\d)\b", re.I)


# "the 4.500% 2028 Notes", "notes due 2026": a year that names a debt's maturity, not a period asked.
_MATURITY_AFTER = re.compile(r"\s+(?:(?:senior|secured|unsecured|subordinated|convertible|term)\s+)*"
                             r"(?:notes?|bonds?|debentures?|term\s+loans?)\b", re.I)
_MATURITY_BEFORE = re.compile(r"\b(?:due|maturing|matures?|maturity)\s+(?:in\s+)?$", re.I)


def names_a_maturity(question: str, m: re.Match) -> bool:
    return bool(_MATURITY_AFTER.match(question[m.end():]) or _MATURITY_BEFORE.search(question[:m.start()]))


def detect_years(question: str) -> list[int]:
    years = {int(m.group(1)) if m.group(1) else 2000 + int(m.group(2)) for m in _YEAR_MENTION.finditer(question)
             if not names_a_maturity(question, m)}
    years |= {2000 + int(m.group(1) or m.group(2)) for m in _QUARTER_YEAR.finditer(question)}
    return sorted(y for y in years if 1990 <= y <= 2039)


def detect_quarter(question: str) -> int | None:
    m = _QUARTER.search(question)
    if not m:
        return None
    return int(m.group(1) or m.group(2)) if (m.group(1) or m.group(2)) else _ORDINAL[m.group(3).lower()]




_FORWARD = re.compile(r"\b(expect\w*|guidance|outlook|forecast\w*|project(?:ed|ion)s?|anticipat\w*|plan(?:s|ned)? to)\b", re.I)


def is_forward_looking(question: str) -> bool:
    return bool(_FORWARD.search(question))


# Words that put a year in the filing's future: what it expects, plans or schedules for that year
# ("debt maturing in 2025", "lease payments due in 2024", "expected benefit payments for 2026").
# (the forward words of ``_FORWARD``, and those of a schedule)
_SCHEDULED = re.compile(
    _FORWARD.pattern + r"|\b(?:plan(?:s|ned)?|budget\w*|due|matur\w*|payable|schedul\w*|owe[sd]?|owing|will|expir\w*"
    r"|future|upcoming|estimat\w*|remaining|to\s+be\s+(?:paid|recogni[sz]ed|amortized|incurred|settled|funded))\b", re.I)


# "payable after 2027", "beyond 2026", "thereafter": the bucket past the years a schedule prints one by one
_PAST_THE_YEARS = re.compile(r"\b(?:after|beyond|later\s+than|past)\s+(?:fiscal\s+|fy\s?)?(?:19|20)\d\d\b|\bthereafter\b", re.I)
# words that say when, not what: the schedule's subject is the question's other words
_WHEN_WORDS = frozenset(
    "expect expects expected expecting guidance outlook forecast forecasts forecasted forecasting project projected "
    "projection projections anticipate anticipates anticipated plan plans planned budget budgeted due mature matures "
    "maturing matured maturity maturities payable scheduled schedule owe owes owed owing will expire expires expiring "
    "expiration future upcoming estimated remaining paid pay payments payment recognized recognised amortized incurred "
    "settled funded repay repays repaid repayment repayments after beyond later past thereafter year years fiscal fy how much what which is are was were be "
    "been to in for of the a an as does do did according per its their by each on at from that this if now make "
    "made bucket through during within over next period month months quarter amount amounts company "
    "percentage percent share range give gave report reported say said spend spent spending under with into upon "
    "filing filings reports form "
    "january february march april may june july august september october november december".split())
# "excluding minimum finance lease obligations", "(not its retirement plans)", "(non-pension)": words the row read must not hold
_LEFT_OUT = re.compile(r"\b(?:(?:excluding|except|other\s+than|not|without)\s+((?:(?:its|the|their|any)\s+)?[A-Za-z][A-Za-z -]*)"
                       r"|non-([A-Za-z]+))", re.I)


@dataclass(frozen=True)
class Scheduled:
    """A figure a filing schedules or expects for a year after its own ("debt maturing in 2025" of a
    2022 10-K): the year asked, the filing that prints it, and the words of what is scheduled."""

    year: int
    filing_year: int
    after: bool = False              # "after 2027", "thereafter": the bucket past the years printed one by one
    words: tuple[str, ...] = ()      # what is scheduled, in the question's words ("operating lease")
    without: tuple[str, ...] = ()    # what the question leaves out ("excluding finance leases"): no row of it


def scheduled_reading(question: str, year: int, filing_year: int, names: frozenset[str]) -> Scheduled:
    """What a question asks the filing of ``filing_year`` to schedule for ``year``; ``names`` are the
    company's own words (no part of what is scheduled)."""
    left_out = [m.group(1) or m.group(2) for m in _LEFT_OUT.finditer(question)]
    kept = re.sub(r"\bannual\s+report\b|\b10-?[kq]\b", " ", _LEFT_OUT.sub(" ", question), flags=re.I)  # the filing, not what it schedules
    words = tuple(w for w in (_unowned(m.group(0).lower()) for m in re.finditer(r"[A-Za-z][A-Za-z'’-]*", kept))
                  if w not in _WHEN_WORDS and w not in STOPWORDS and w not in names and len(w) > 1)
    without = tuple(w for part in left_out for w in (_unowned(x.lower()) for x in re.findall(r"[A-Za-z]+", part))
                    if w not in _WHEN_WORDS and w not in names and len(w) > 1)
    return Scheduled(year, filing_year, _PAST_THE_YEARS.search(question) is not None, tuple(dict.fromkeys(words)),
                     tuple(dict.fromkeys(without)))


def _unowned(word: str) -> str:
    """"Mills'" and "MGM's" as the name they are; quotes around a word dropped ("'thereafter'")."""
    word = word.strip("'’")
    return word[:-2] if word.endswith(("'s", "’s")) else word


def filing_years(question: str) -> tuple[int, ...]:
    """The years that name a filing ("its 2018 10-K", "the 2022 annual report")."""
    return tuple(y for m in _YEAR_MENTION.finditer(question) if _YEAR_NAMES_A_FILING.match(question[m.end():])
                 and (y := _year_of(m.group(1) or m.group(2))) is not None)


def scheduled_years(question: str) -> tuple[int, ...]:
    """The years a question's forward or schedule words may put after the filing, a debt's
    maturity among them; which of them lie after every filing held is the index's to say."""
    if not _SCHEDULED.search(question):
        return ()
    years = {_year_of(m.group(1) or m.group(2)) for m in _YEAR_MENTION.finditer(question)
             if not _YEAR_NAMES_A_FILING.match(question[m.end():])}
    return tuple(sorted(y for y in years if y is not None and 1990 <= y <= 2039))


# "last quarter" alone is the latest quarter; after "than" / "to" / "from" / "with" it is the
# comparative of another period the question names.
_LATEST = re.compile(r"(?<!than\s)(?<!to\s)(?<!from\s)(?<!with\s)\blast\s+(?:fiscal\s+)?quarter\b"
                     r"|\b(?:most\s+recent(?:ly\s+(?:completed|ended|reported|filed))?|latest|last\s+reported|newest|current)\s+(?:\w+\s+){0,2}?"
                     r"(?:10-?[kq]|quarter\w*|filing|report|annual|fiscal|period|results|earnings)", re.I)
_ASKED_END = re.compile(
    r"\b(?:(?:fiscal\s+)?(?:year|quarter|period|weeks|months)\s+(?:ended|ending)|ended|ending)\s+"
    r"((?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+(?:19|20)\d\d"
    r"|\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?,?\s+(?:19|20)\d\d)", re.I)


_YEAR_END_ASKED = re.compile(r"\b(?:fiscal\s+)?year\s+(?:ended|ending)\b|\byear[\s-]end\b", re.I)


_ASKED_DAY = re.compile(
    r"\b(?:as\s+of|as\s+at|on|dated)\s+"
    r"((?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+(?:19|20)\d\d"
    r"|\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?,?\s+(?:19|20)\d\d)", re.I)


def asked_day(question: str) -> str | None:
    """A day the question names ("as of May 26, 2023", "on August 30, 2023"), ISO: a current
    report of that date speaks of it."""
    from docqa.ingest.metadata import parse_date

    m = _ASKED_DAY.search(question)
    day = parse_date(m.group(1)) if m else None
    return day.isoformat() if day else None


_AS_OF = re.compile(
    r"\b(?:as\s+of|as\s+at|at)\s+"
    r"((?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+(?:19|20)\d\d"
    r"|\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?,?\s+(?:19|20)\d\d)", re.I)


_YEAR_TO_DATE = re.compile(
    r"\b(?P<n>six|nine|6|9)[\s-]+months?\b|\bfirst\s+(?P<h>half|nine\s+months)\b|\b(?P<h1>h1|1h)\b"
    r"|\b(?P<ytd>year[\s-]+to[\s-]+date|ytd)\b"
    # a retailer's 52-week year: "the 39 weeks ended", "26 weeks"; "9M 2022" / "9M22" (never "$9M")
    r"|\b(?P<w>39|26)[\s-]+weeks?\b|(?<![$\d.,])\b(?P<m>9|6)m(?=\s*(?:fy\s*)?'?(?:(?:19|20)\d\d|\d\d)\b)", re.I)
_MONTHS = {"six": 6, "6": 6, "nine": 9, "9": 9, "half": 6, "nine months": 9, "h1": 6, "1h": 6, "39": 9, "26": 6}


# "(the quarter, not the six month number)", "rather than the year to date": a period set aside
_NOT_ASKED = re.compile(r"\b(?:not\s+(?:the|a|an)|rather\s+than|instead\s+of|as\s+opposed\s+to)\s+[^,;)?]*", re.I)


def year_to_date(question: str) -> int | None:
    """The months of a year-to-date period asked ("the six months ended June 30", "the first
    nine months", "H1"): 6 or 9; 0 for "year to date" with no length (the quarter's end says it);
    None when a quarter or a year is asked."""
    m = _YEAR_TO_DATE.search(_NOT_ASKED.sub(" ", question))
    if m is None:
        return None
    if m.group("ytd"):
        return 0
    word = (m.group("n") or m.group("h") or m.group("h1") or m.group("w") or m.group("m")).lower()
    return _MONTHS[" ".join(word.split())]


# "the three months ended December 31, 2021", "13 weeks ended", "the quarter ended July 1, 2023".
_QUARTER_SPAN = re.compile(r"\b(?:three|3)[\s-]+months?\s+(?:ended|ending)\b|\b(?:twelve|thirteen|sixteen|12|13|16)[\s-]+weeks?\s+"
                           r"(?:ended|ending)\b|\bquarter\s+(?:ended|ending)\b", re.I)


def quarter_span(question: str) -> bool:
    """A quarter's three months asked by their end date, not a year's twelve."""
    return bool(_QUARTER_SPAN.search(_NOT_ASKED.sub(" ", question)))


def balance_date(question: str) -> str | None:
    """"as of July 29, 2023": a balance asked at a date, which the filing closing on it prints (ISO)."""
    from docqa.ingest.metadata import parse_date

    m = _AS_OF.search(question)
    day = parse_date(m.group(1)) if m else None
    return day.isoformat() if day else None


_ANY_DAY = re.compile(
    r"\b((?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+(?:19|20)\d\d"
    r"|\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?,?\s+(?:19|20)\d\d)", re.I)


def year_closing_days(question: str) -> list[str]:
    """Every day the question names that closes the fiscal year before its calendar year ("from
    January 2, 2022 to January 1, 2023": the ends of two 52/53-week years, fiscal 2021 and 2022), ISO."""
    from docqa.ingest.metadata import parse_date

    days = [parse_date(m.group(1)) for m in _ANY_DAY.finditer(question)]
    return [d.isoformat() for d in days if d is not None and fiscal_year_of(d.isoformat()) != d.year]


def asked_period_end(question: str) -> str | None:
    """The period end a question gives as a date ("for the fiscal year ending May 28, 2023"), ISO."""
    from docqa.ingest.metadata import parse_date

    m = _ASKED_END.search(question)
    day = parse_date(m.group(1)) if m else None
    return day.isoformat() if day else None


def fiscal_year_of(period_end: str) -> int:
    from datetime import date

    from docqa.ingest.metadata import fiscal_year_ending

    return fiscal_year_ending(date.fromisoformat(period_end))


def days_apart(a: str, b: str) -> int:
    from datetime import date

    try:
        return abs((date.fromisoformat(a) - date.fromisoformat(b)).days)
    except ValueError:
        return 10_000


_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
_YR = r"(?:(?:19|20)\d\d|'?\d\d)\b"
_FY_WORD = r"(?:(?:the\s+)?(?:fiscal\s+(?:year\s+)?|fy\s*'?|year\s+))?"
_QUARTER_MENTIONS = (
    # Q2 2023, Q2 of FY2024, Q2'23, Q2 of fiscal 2024, Q2-2023
    re.compile(rf"\bq([1-4])(?:\s*(?:of\s+|in\s+|-\s*|,\s*)?{_FY_WORD}({_YR}))?", re.I),
    # 2Q23, 2Q 2023, 2Q FY23
    re.compile(rf"\b([1-4])q(?:\s*{_FY_WORD}({_YR}))?", re.I),
    # second quarter of 2023, second fiscal quarter of 2023, 2nd quarter fiscal 2024
    re.compile(rf"\b(first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?quarter(?:\s*(?:of\s+|in\s+|,\s*)?{_FY_WORD}({_YR}))?",
               re.I),
)
# FY2024 Q2, 2023 Q2, FY24 Q2 (the year first)
_YEAR_THEN_QUARTER = re.compile(r"\b(?:fy\s*'?|fiscal\s+(?:year\s+)?)?((?:19|20)\d\d|(?<=fy)\d\d|(?<=fy )\d\d)\s*'?\s*q([1-4])\b", re.I)
_SAME_PERIOD_BEFORE = re.compile(
    r"\bsame\s+(?:period|quarter|three\s+months)\s+(?:of|in|during|for|a)?\s*(?:the\s+)?(?:prior|previous|last|preceding)\s+"
    r"(?:fiscal\s+)?year|\b(?:prior|previous|last)[-\s]year(?:'s)?\s+(?:same\s+)?(?:period|quarter)|\byear[-\s]ago\s+(?:period|quarter)",
    re.I,
)


# "12 weeks ended March 25, 2023", "three months ended July 29, 2023": a period's end date. Beside a
# quarter the question names it dates that quarter; its year is not a fiscal year asked.
_ENDED_ON = re.compile(
    r"\b(?:\d{1,2}|three|six|nine|twelve|thirteen|sixteen)[\s-]+(?:weeks?|months?)\s+(?:ended|ending)\s+"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\s*,?\s*(?:19|20)\d\d\b",
    re.I,
)


_YEAR_NAMES_A_FILING = re.compile(r"\s*(?:form\s+)?(?:10-?k|10-?q|20-?f|40-?f|8-?k|annual\s+report|proxy)\b", re.I)
_YEAR_BEFORE = re.compile(r"\b(?:the\s+)?(?:fiscal\s+)?year\s+(?:before|prior\s+to|preceding)\s+(?:fiscal\s+|fy\s?)?$", re.I)
# "In its 2021 10-K, what did Verizon report for the prior year?": the year before the filing's.
_PRIOR_YEAR = re.compile(r"\b(?:the\s+)?(?:prior|previous|preceding)\s+(?:fiscal\s+)?year\b(?!\s+(?:period|quarter))", re.I)
_NAMES_A_FILING = re.compile(
    r"\s*(?:earnings\s+(?:release|report|call|statement|presentation)|press\s+release|10-?q\b|filing|report\b|"
    r"release\b|call\b|presentation\b|transcript\b)",
    re.I,
)


def _year_of(text: str | None) -> int | None:
    if not text:
        return None
    digits = text.strip("'")
    return int(digits) if len(digits) == 4 else 2000 + int(digits)


@dataclass(frozen=True)
class AskedPeriods:
    """The periods a question names, read once; the year a bare quarter ("Q2") belongs to may
    only be known from the evidence, so it is applied by ``resolve``."""

    quarters: tuple[tuple[int, int | None], ...] = ()   # (quarter, year or None)
    years: tuple[int, ...] = ()
    same_period_before: bool = False
    # the year of the filing the question names to read, when it names another period too ("the
    # fiscal 2024 dividend, as reported in its fiscal 2023 annual report")
    filings: tuple[int, ...] = ()

    @property
    def named(self) -> bool:
        return bool(self.quarters or self.years)

    def resolve(self, default_year: int | None = None) -> list[Period]:
        """Oldest first; a quarter without a year takes the question's only other year (or
        ``default_year``); a question that names no quarter gives one Period per year named."""
        years = list(self.years)
        if not self.quarters:
            return sorted({Period(y) for y in years}, key=lambda p: p.order)
        out: set[Period] = set()
        for quarter, year in self.quarters:
            if year is None:
                year = years[0] if len(years) == 1 else default_year
                if year is None:
                    continue
                if years and year in years:
                    years.remove(year)
            out.add(Period(year, quarter))
        # "the fourth quarter of fiscal 2018 (the quarter ended January 31, 2018)": a year that
        # dates a quarter asked is that quarter's year, not a second period asked.
        dated = {year for _, year in self.quarters if year is not None}
        out |= {Period(y) for y in years if y not in dated}
        if self.same_period_before:
            out |= {p.prior() for p in list(out) if p.quarter}
        return sorted(out, key=lambda p: p.order)


def asked_periods(question: str, default_year: int | None = None) -> list[Period]:
    """The periods a question names, oldest first (``read_periods(question).resolve(default_year)``)."""
    return read_periods(question).resolve(default_year)


def read_periods(question: str) -> AskedPeriods:
    """The periods a question names: "Q2 of FY2024" -> Period(2024, 2),
    "between FY2023 and Q2 of FY2024" -> [Period(2023), Period(2024, 2)], "in Q2 2023 compared to
    the same period in the prior year" -> [Period(2022, 2), Period(2023, 2)].
    """
    taken: list[tuple[int, int]] = []
    quarters: list[tuple[int, int | None]] = []  # (quarter, year or None)
    filing_quarters: list[tuple[int, int | None]] = []

    def free(span: tuple[int, int]) -> bool:
        return not any(a < span[1] and span[0] < b for a, b in taken)

    m: re.Match[str] | None
    for m in _YEAR_THEN_QUARTER.finditer(question):
        quarters.append((int(m.group(2)), _year_of(m.group(1))))
        taken.append(m.span())
    for pattern in _QUARTER_MENTIONS:
        for m in pattern.finditer(question):
            if not free(m.span()):
                continue
            if _NAMES_A_FILING.match(question[m.end():]):
                # "its Q4 earnings release", "the Q2 10-Q": a document, whose own quarter is asked
                # only when the question names no other period.
                taken.append(m.span())
                q = m.group(1).lower()
                filing_quarters.append((_ORDINALS[q] if q in _ORDINALS else int(q), _year_of(m.group(2))))
                continue
            q = m.group(1).lower()
            quarter = _ORDINALS[q] if q in _ORDINALS else int(q)
            quarters.append((quarter, _year_of(m.group(2))))
            taken.append(m.span())
    if quarters:
        taken.extend(m.span() for m in _ENDED_ON.finditer(question))
    years: list[int] = []
    filing_years: list[int] = []
    for m in _YEAR_MENTION.finditer(question):
        if free(m.span()) and not names_a_maturity(question, m):
            y = _year_of(m.group(1) or m.group(2))
            if y is None or not 1990 <= y <= 2039:
                continue
            if _YEAR_NAMES_A_FILING.match(question[m.end():]):
                # "According to 3M's 2018 10-K, ... as of December 31, 2017": the year names the
                # filing to read; the period asked is the other year, when the question names one.
                filing_years.append(y)
                continue
            if _YEAR_BEFORE.search(question[:m.start()]):
                y -= 1  # "the year before 2021"
            if y not in years:
                years.append(y)
    filings: list[int] = []
    if not quarters and not years:
        quarters = filing_quarters
        years = [y - 1 for y in filing_years] if _PRIOR_YEAR.search(question) else filing_years
    else:
        filings = filing_years
    return AskedPeriods(tuple(quarters), tuple(years), _SAME_PERIOD_BEFORE.search(question) is not None,
                        tuple(filings))
