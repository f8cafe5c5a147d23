"""Rule: a figure asked is stated. Quoted lines answer a question that asks a figure of a measure
only where one of them states an amount of that measure, for the period asked.

A line states the measure's amount when it names the measure as the lexicon prints it (not another
line item built on its words: "deferred revenue") and an amount stands with the name: after it
("an unfranked dividend of 18.77 Australian cents per share", "Net sales were $81.8 billion") or
just before it ("$4.2 billion of revenue"). An amount after a word that makes it a part of the
measure ("Total net sales include $3.3 billion of ...") or how far the measure moved ("increased
$2.3 billion") is not the measure's, nor is an amount the filing only plans.

It states it for the period asked when the periods the line prints ("the three months ended July
1, 2023", "fiscal 2023", "the fourth quarter of 2023") include that period; a line that prints none
speaks for its filing's own period, and an interim report of fiscal 2023 (its first, second or third
quarter) is filed before that year ends, so it prints no fiscal 2023 total.

A figure read from a statement's row has its period from the row's column, and one read from an
inline XBRL fact from its tag; a figure whose only source is a sentence is held to this rule as the
sentence's quotes are.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from docqa.finance.lexicon import MetricMatch, load_lexicon
from docqa.finance.periods import FiscalCalendar, Period
from docqa.finance.text import holds, stems, tokens
from docqa.ingest.metadata.dates import DATE, fiscal_year_ending, parse_date
from docqa.plan import Intent, QuestionPlan
from docqa.plan.format import fits_kind_asked
from docqa.plan.periods import detect_years
from docqa.text import fold
from docqa.types import Citation, DocType, Document, Figure
from docqa.verify.numbers import numbers_at, numbers_in

NEAR = 10        # words from the measure's name to the amount it states, at most
NEAR_BEFORE = 2  # "$4.2 billion of revenue": words between an amount and the name after it
AROUND = 2       # words each side of the name where an exclusion of the line item makes it another one

# A plan, not the amount that was: "we expect to add approximately 280 stores", "will be about $2
# billion". A "will" with an exact amount is what is set to happen ("holders will receive a dividend of
# 18.77 cents per share"), not a plan; "May 26, 2019" is a day.
PLANNED = re.compile(r"\b(?:expect\w*|anticipat\w*|plan(?:s|ned)?\s+to|intend\w*|may(?!\s+\d)|could|would|"
                     r"forecast\w*|guidance|outlook|target\w*)\b"
                     r"|\bwill\b(?=.*\b(?:approximately|about|around|roughly|up\s+to|at\s+least|estimated?|between)\b)",
                     re.I)
# Between the name and an amount: another clause begins, whose amount is another thing's.
_CLAUSE = re.compile(r";|,\s*(?:and|but|while|whereas)\b", re.I)
# Between the name and the amount: the amount is a part of the measure, not the measure.
_PART_OF = frozenset(stems("include includes included including exclude excludes excluded excluding "
                           "comprise comprises comprised comprising consist consists consisting"))
# Just before the amount: how far the measure moved ("rose $2.3 billion", "up 8%", "by 12 percent").
_MOVED = frozenset(stems("increase increased decrease decreased grew grow rose rise fell fall declined decline "
                         "up down by higher lower change changed improved"))
_JOINS = frozenset(("of", "in"))

# --- periods a line prints ------------------------------------------------------------------------

_LENGTH = {"three": 3, "3": 3, "13": 3, "six": 6, "6": 6, "26": 6, "nine": 9, "9": 9, "39": 9,
           "twelve": 12, "12": 12, "52": 12, "53": 12}
_LENGTHS = r"(?:three|six|nine|twelve|3|6|9|12|13|26|39|52|53)"
_DATES = rf"(?P<dates>{DATE}(?:\s*(?:,\s*and|,|and|or)\s*{DATE})*)"
# "the three months ended July 1, 2023", "the three- and nine-month periods ended July 1, 2023 and June 25, 2022",
# "the 52 weeks ended", "the quarter ended", "the fiscal year ended June 30, 2023"
_SPAN = re.compile(
    rf"\b(?:(?P<lens>{_LENGTHS}(?:\s*-?\s*(?:,\s*and|,|and|or)\s*{_LENGTHS})*)[\s-]*(?:months?|weeks?)"
    rf"|(?P<quarter>(?:fiscal\s+)?quarters?)|(?P<year>(?:fiscal\s+)?years?))"
    rf"(?:[\s-]+periods?)?\s+(?:then\s+)?end(?:ed|ing)\s+{_DATES}", re.I)
_DATE_RE = re.compile(DATE, re.I)
_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4}
# "the fourth quarter of fiscal 2023", "fiscal 2023 fourth-quarter", "Q4 2023", "Q4 FY23"
_QUARTER = re.compile(
    r"\b(?:(?:fiscal\s+(?:year\s+)?)?(?P<y1>(?:19|20)\d\d)\s+)?(?P<ord>first|second|third|fourth)[\s-]+(?:fiscal[\s-]+)?"
    r"quarter(?:\s+of)?(?:\s+(?:fiscal\s+(?:year\s+)?)?(?P<y2>(?:19|20)\d\d))?"
    r"|\bq(?P<q>[1-4])\s*(?:fy\s*'?|fiscal\s+)?(?P<y3>(?:19|20)\d\d|\d\d)?\b", re.I)


@dataclass(frozen=True)
class Printed:
    """A period a line prints: its fiscal year when known, its length in months (None: a year
    named without saying more, "fiscal 2023", "in 2023") and its quarter when the line's dates tell."""

    fiscal_year: int | None
    months: int | None = None
    quarter: int | None = None

    @property
    def label(self) -> str:
        year = f"fiscal {self.fiscal_year}" if self.fiscal_year else ""
        if self.months == 3:
            return " ".join(filter(None, (f"Q{self.quarter}" if self.quarter else "a quarter", year)))
        if self.months in (6, 9):
            return f"the {self.months} months to {year or 'a quarter'}"
        return year or "a year"

    def speaks_of(self, asked: Period) -> bool:
        if self.fiscal_year is not None and self.fiscal_year != asked.fiscal_year:
            return False
        if self.months is None:
            return True  # a year named: it may hold any of its periods
        if asked.year_to_date:
            return self.months == asked.months and self.quarter in (None, asked.quarter)
        if asked.quarter:
            return self.months == 3 and self.quarter in (None, asked.quarter)
        return self.months == 12


def printed_periods(line: str, calendar: FiscalCalendar | None = None) -> list[Printed]:
    """The periods ``line`` prints: spans ended on a date, quarters and years it names. A date
    alone ("On May 26, 2023", "as of April 1, 2023", "the five trading days ended August 14, 2023")
    is a day, not a period."""
    text = fold(line)
    out: list[Printed] = []
    for m in _SPAN.finditer(text):
        if m.group("lens"):
            lengths = sorted({_LENGTH[w.lower()] for w in re.findall(_LENGTHS, m.group("lens"), re.I)})
        else:
            lengths = [3] if m.group("quarter") else [12]
        for day in (parse_date(d.group(0)) for d in _DATE_RE.finditer(m.group("dates"))):
            if day is None:
                continue
            year, quarter = calendar.period_of(day.isoformat()) if calendar else (fiscal_year_ending(day), None)
            out.extend(Printed(year, months, quarter if months != 12 else None) for months in lengths)
    text = _DATE_RE.sub(lambda d: " " * len(d.group(0)), _SPAN.sub(lambda s: " " * len(s.group(0)), text))
    for m in _QUARTER.finditer(text):
        year = m.group("y1") or m.group("y2") or m.group("y3")
        quarter = _ORDINAL[m.group("ord").lower()] if m.group("ord") else int(m.group("q"))
        out.append(Printed(int(year) + (2000 if len(year) == 2 else 0) if year else None, 3, quarter))
    text = _QUARTER.sub(lambda q: " " * len(q.group(0)), text)
    out.extend(Printed(year) for year in detect_years(text))
    return list(dict.fromkeys(out))


def _calendar(document: Document | None) -> FiscalCalendar | None:
    meta = document.meta if document else None
    if meta is None or not meta.period_end or meta.fiscal_year is None:
        return None
    return FiscalCalendar.from_period_end(meta.period_end, meta.fiscal_year, meta.fiscal_quarter)


def interim_of(document: Document | None, asked: Period) -> bool:
    """Is ``document`` a report of part of the fiscal year asked (its first three quarters), filed
    before that year ends, so that it cannot print the year's total or its year-end balance?"""
    if document is None or asked.quarter is not None or document.meta.fiscal_year != asked.fiscal_year:
        return False
    quarter = document.meta.fiscal_quarter
    return quarter in (1, 2, 3) or (quarter is None and document.meta.doc_type is DocType.QUARTERLY)


def asked_periods(plan: QuestionPlan) -> list[Period]:
    """The periods the figure is asked for, as this rule can check them: none when the question
    dates them by a day or a period's end (another rule reads those) or names no period."""
    if plan.ytd_months is not None or plan.day or plan.balance_day or plan.period_end:
        return []
    periods = plan.asked_periods()
    if plan.quarter:  # "in the fourth-quarter results release": that quarter may be the period too
        periods += [Period(p.fiscal_year, plan.quarter) for p in periods if p.quarter is None]
    return list(dict.fromkeys(periods))


# --- the measure's amount -------------------------------------------------------------------------

def measure_forms(measure: MetricMatch, quote: str = "") -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    """How the measure is printed (its lexicon forms, and what the lexicon reads in ``quote`` as
    it), and the words that make a phrase of those forms another line item, as stems."""
    lexicon = load_lexicon()
    entry = lexicon.metric(measure.key) if measure.kind == "metric" else lexicon.formula(measure.key)
    said = [n.text for n in lexicon.match(quote) if n.key == measure.key] if quote else []
    forms = [measure.text, measure.phrase, *entry.asks, *getattr(entry, "prints", ()), *said]
    excluded = [x for x in (stems(e) for e in getattr(entry, "exclude", ())) if x]
    return list(dict.fromkeys(f for f in (stems(f) for f in forms if f) if f)), excluded


def _mentions(words: tuple[str, ...], forms: list[tuple[str, ...]], excluded: list[tuple[str, ...]]):
    """(start, end) word spans where the quote names the measure itself, not another line item
    built on its words ("Revenue Reserves", "deferred revenue": the item's exclusions beside it)."""
    for form in forms:
        n = len(form)
        for i in range(len(words) - n + 1):
            if words[i:i + n] != form:
                continue
            around = words[max(0, i - AROUND):i + n + AROUND]
            if not any(holds(around, x) and not holds(form, x) for x in excluded):
                yield i, i + n


def names_measure(quote: str, measure: MetricMatch) -> bool:
    """Does the quote name the measure, anywhere in it?"""
    forms, excluded = measure_forms(measure, quote)
    return next(_mentions(stems(quote), forms, excluded), None) is not None


# "a dividend of $1.44 per share": a per-share amount printed inside its measure's name, said again
# as "a dividend per share of $1.44" so the name and the amount read in their usual order.
_INSIDE_PER_SHARE = re.compile(
    r"\b(of|was|were|is|to|at)\s+((?:us)?\$\s?\d[\d,]*(?:\.\d+)?)\s+(per\s+(?:diluted\s+|basic\s+|common\s+)?share)\b",
    re.I)


def states_measure(quote: str, measure: MetricMatch, moves: bool = False) -> bool:
    """Does the quote state an amount of the measure: the amount with the measure's name, not a
    part of it, nor (unless ``moves``: a change is asked) how far it moved?"""
    if _states_measure(quote, measure, moves):
        return True
    reordered = _INSIDE_PER_SHARE.sub(r"\3 \1 \2", quote)
    return reordered != quote and "per share" in measure.text.lower() and _states_measure(reordered, measure, moves)


def _states_measure(quote: str, measure: MetricMatch, moves: bool) -> bool:
    text = fold(quote)
    words = tokens(text)
    stemmed = tuple(w.stem for w in words)
    forms, excluded = measure_forms(measure, quote)

    def word_at(offset: int) -> int:  # the first word that starts at or after ``offset``
        return next((i for i, w in enumerate(words) if w.start >= offset), len(words))

    amounts = [(word_at(start), word_at(end), start) for start, end, _ in numbers_at(text, claims_only=True)]
    mentions = list(_mentions(stemmed, forms, excluded))
    # the words of a period ("for the three- and nine-month periods ended July 1, 2023") are no distance
    dated = [m.span() for pattern in (_SPAN, _DATE_RE, _QUARTER) for m in pattern.finditer(text)]
    counted = [not any(a <= w.start < b for a, b in dated) for w in words]

    def apart(i: int, j: int) -> int:
        return sum(counted[i:j])

    # "Total net sales include $3.3 billion of ..., $7.0 billion of ...": what follows is its parts
    parts_from = min((i for _, last in mentions for i in range(last, len(stemmed))
                      if stemmed[i] in _PART_OF and apart(last, i) <= NEAR), default=len(stemmed))
    for first, last in mentions:
        for at, after, start in amounts:
            if at > parts_from:
                break
            if last <= at and apart(last, at) <= NEAR:
                if _CLAUSE.search(text, words[last - 1].end, start):
                    break  # "Net sales grew, and the Company repurchased $19.0 billion of its stock"
                if not moves and at > 0 and stemmed[at - 1] in _MOVED:
                    continue  # "increased $2.3 billion"; "increased 3% to $X" goes on to the level
                return True
            if after <= first and first - after <= NEAR_BEFORE and set(stemmed[after:first]) <= _JOINS:
                return True  # "$4.2 billion of revenue"
    return False


# --- the rule -------------------------------------------------------------------------------------

def asks_a_figure(plan: QuestionPlan) -> bool:
    """A figure of a named measure is asked (not a verdict on it, nor which entity has it)."""
    return plan.intent is Intent.VALUE and plan.amount and bool(plan.measures) and not plan.which \
        and not plan.verdict


def _quote_states(c: Citation, measures: Sequence[MetricMatch], plan: QuestionPlan) -> bool:
    if not plan.forward_looking and PLANNED.search(c.quote):
        return False
    moves = plan.reading.over_time is not None or plan.composition is not None
    return any(states_measure(c.quote, m, moves) for m in measures)


def is_row(quote: str) -> bool:
    """A statement's row as the store joins its cells ("Total net sales  81,797  82,959", or single-spaced:
    "Subscription $ 3,223,904 $ 2,076,584 $ 1,137,856"), not a sentence."""
    return ("  " in quote and any(ch.isdigit() for ch in quote)) or _ENDS_IN_CELLS.search(quote) is not None


# a label followed by two or more figures and nothing else: a row's cells, not a sentence's words
_ENDS_IN_CELLS = re.compile(r"[A-Za-z)][^.;:!?]*?(?:\s+\$?\s?\(?-?[\d,]*\d(?:\.\d+)?\)?\s?%?){2,}\s*$")


def _sentence_sources(figures: Sequence[Figure], citations: Sequence[Citation]) -> list[Citation]:
    """The quotes of the figures read from sentences alone: a figure with a row quoted on its page,
    or read from a tagged fact, has its period from the table or the tag."""
    out: list[Citation] = []
    for f in figures:
        if f.computed or f.concept:
            continue
        quoted = [c for c in citations if c.page == f.page and f.document in (None, c.document, c.document_id)]
        if quoted and not any(is_row(c.quote) for c in quoted):
            out += [c for c in quoted if c not in out]
    return out


def not_stated(citations: Sequence[Citation], plan: QuestionPlan, filings: Mapping[str, Document] | None = None,
               figures: Sequence[Figure] = ()) -> str | None:
    """Why the quotes do not state the figure asked (None: one does). ``filings`` by id say which
    period each cited filing reports; without them a line that prints no period is taken at its word.
    With ``figures`` only the sentences that are their sole source are read."""
    if not asks_a_figure(plan):
        return None
    if figures:
        citations = _sentence_sources(figures, citations)
        if not citations:
            return None
    filings = filings or {}
    measures = [m for m in (plan.reading.asked or plan.measures) if fits_kind_asked(m, plan)]
    if not measures:
        return None  # "how many shares did X buy back", "at what average price": not the buyback's amount
    asked = asked_periods(plan)
    name = measures[0].text
    stating = [c for c in citations if _quote_states(c, measures, plan)]
    if stating and not asked:
        return None  # no period to hold it to
    printed: list[Printed] = []
    for c in stating:
        document = filings.get(c.document_id)
        periods = printed_periods(c.quote, _calendar(document))
        if periods and any(p.speaks_of(a) for p in periods for a in asked):
            return None
        if not periods and not any(interim_of(document, a) for a in asked):
            return None  # the line speaks for its filing's period, which holds the period asked
        printed.extend(p for p in periods if p not in printed)
    cited = [filings[i] for i in dict.fromkeys(c.document_id for c in citations) if i in filings]
    years = [a for a in asked if a.quarter is None and a.months is None]
    if cited and years and all(any(interim_of(d, a) for a in years) for d in cited):
        d = cited[0]
        part = f"Q{d.meta.fiscal_quarter} " if d.meta.fiscal_quarter else ""
        year = years[0].fiscal_year
        return (f"the question asks for {name!r} in fiscal {year}; {d.file_name} is a quarterly report "
                f"({part}fiscal {d.meta.fiscal_year}), filed before fiscal {year} ended: its fiscal {year} total "
                "is not printed in it")
    if printed:
        shown = ", ".join(dict.fromkeys(p.label for p in printed[:4]))
        wanted = " or ".join(a.label for a in asked)
        return f"the question asks for {name!r} in {wanted}; the lines the filing prints state it for {shown}"
    return f"the question asks for {name!r}; no line the filing prints states an amount of it"


def amount_missing(plan: QuestionPlan, citations: Sequence[Citation]) -> str | None:
    """Why quoted lines do not answer a question that asks for an amount: none states a number
    (years, dates and references aside), or none names the measure the question names."""
    stating = [c for c in citations if numbers_in(c.quote, claims_only=True)]
    if not plan.forward_looking:
        stating = [c for c in stating if not PLANNED.search(c.quote)]
    if not stating:
        return "the question asks for an amount; the closest lines in the filing state none"
    if plan.counted:
        # "how many stores": some line must count stores ("1,136 stores", "599 Sam's Club units")
        head = re.escape(plan.counted.split()[-1].rstrip("s'’").lower())
        if not any(re.search(rf"\d[\d,.]*\s+(?:[\w'’&-]+\s+){{0,3}}{head}", c.quote, re.I) for c in stating):
            return f"the question asks how many {plan.counted}; no line the filing prints counts them"
    if not plan.measures:
        return None
    if any(names_measure(c.quote, m) for m in plan.measures for c in stating):
        return None
    return f"the question asks for {plan.measures[0].text!r}; no line the filing prints states it"


__all__ = ["PLANNED", "Printed", "amount_missing", "asks_a_figure", "asked_periods", "interim_of", "is_row",
           "names_measure", "not_stated", "printed_periods", "states_measure"]
