"""Inline XBRL as data: contexts, tagged numeric facts and the ``dei:`` cover facts.

``docqa.ingest.html`` reads the events; this module holds the typed model and the rules that
turn what a filing prints into values: the ``format`` transformations (``ixt:num-dot-decimal``,
``ixt:fixed-zero``, ``ixt-sec:numwordsen`` ...), ``scale`` (a power of ten), ``sign="-"``, and
the cover facts into DocumentMeta (company, ticker, form, fiscal year and quarter, period end).
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date

from pydantic import BaseModel, ConfigDict

from docqa.types import BBox, DocType, DocumentMeta


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class Context(_Frozen):
    id: str
    start: str | None = None          # ISO date; None for an instant
    end: str | None = None            # ISO date: the period's end, or the instant
    instant: bool = False
    dimensions: tuple[tuple[str, str], ...] = ()  # (axis, member), e.g. ("srt:StatementGeographicalAxis", "country:US")


class Fact(_Frozen):
    """One ``ix:nonFraction``: a number the filing prints, with what it means."""

    index: int                        # order in the document
    concept: str                      # "us-gaap:NetCashProvidedByUsedInOperatingActivities"
    context: str                      # contextRef
    text: str                         # as printed inside the tag ("1,234"; the sign is in ``negated``)
    value: float | None               # the fact's value: printed number x 10^scale, negated by sign="-"
    unit_ref: str | None = None
    unit: str | None = None           # "USD", "shares", "USD/shares", "pure"
    decimals: int | None = None       # None: INF or not given
    scale: int = 0
    negated: bool = False             # sign="-"
    format: str | None = None
    id: str | None = None
    start: str | None = None
    end: str | None = None
    instant: bool = False
    dimensions: tuple[tuple[str, str], ...] = ()
    page: int | None = None           # 1-based page where it is printed (None: hidden in ix:header)
    bbox: BBox | None = None          # the printed number's box on that page

    @property
    def printed(self) -> float | None:
        """The number as printed (before scale and sign): what a table cell shows, unsigned."""
        if self.value is None:
            return None
        return abs(self.value) / (10 ** self.scale)

    @property
    def months(self) -> int | None:
        """Length of a duration context in months (3, 6, 9, 12); 0 for an instant."""
        if self.instant:
            return 0
        if not (self.start and self.end):
            return None
        a, b = date.fromisoformat(self.start), date.fromisoformat(self.end)
        return round((b - a).days / 30.44)


_WORD_NUMBERS = {
    "no": 0, "none": 0, "zero": 0, "nil": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
    "a": 1, "an": 1, "single": 1, "half": 0.5,
}


def fact_value(text: str, fmt: str | None, scale: int = 0, negated: bool = False, nil: bool = False) -> float | None:
    """The value of an ``ix:nonFraction`` from its printed text and attributes; None when unreadable."""
    if nil:
        return None
    kind = (fmt or "").split(":")[-1].lower().replace("-", "")
    raw = text.strip().replace("\xa0", " ")
    number: float | None
    if kind in ("fixedzero", "zerodash") or (not kind and re.fullmatch(r"[\u2014\u2013\-]+", raw or "-")):
        number = 0.0
    elif kind in ("numwordsen", "numword", "numwordsenen"):
        number = _WORD_NUMBERS.get(raw.lower().strip(". "))
        if number is None:
            number = _digits(raw, comma_decimal=False)
    elif kind in ("numcommadecimal", "numdotcomma", "numspacecomma", "numcomma"):
        number = _digits(raw, comma_decimal=True)
    else:
        number = _digits(raw, comma_decimal=False)
    if number is None:
        return None
    value = number * (10 ** scale)
    if scale < 0:
        value = round(value, 12)
    return -value if negated else value


def _digits(text: str, comma_decimal: bool) -> float | None:
    if comma_decimal:
        text = text.replace(".", "").replace(" ", "").replace(",", ".")
    else:
        text = text.replace(",", "").replace(" ", "")
    text = re.sub(r"[^\d.]", "", text)
    if not text or text == "." or text.count(".") > 1:
        return None
    return float(text)


def unit_name(numerator: list[str], denominator: list[str]) -> str:
    """"iso4217:USD" -> "USD", "xbrli:shares" -> "shares", a divide -> "USD/shares"."""
    def short(measures: list[str]) -> str:
        return "*".join(m.split(":")[-1] for m in measures)
    return short(numerator) + (f"/{short(denominator)}" if denominator else "")


# ----------------------------------------------------------------------------- cover facts
_MONTHS = {m: i + 1 for i, m in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"))}
_MONTHS.update({k[:3]: v for k, v in list(_MONTHS.items())})
_MONTHS["sept"] = 9

_FORMS: tuple[tuple[str, DocType], ...] = (
    (r"10-?K", DocType.ANNUAL), (r"10-?Q", DocType.QUARTERLY), (r"8-?K", DocType.CURRENT),
    (r"20-?F", DocType.F20), (r"40-?F", DocType.F40),
)


def parse_date(text: str) -> date | None:
    """"July 2, 2023", "2023-07-02", "07/02/2023", "2 July 2023": a date, or None."""
    t = re.sub(r"\s+", " ", text.replace("\xa0", " ")).strip().lower()
    if m := re.search(r"(\d{4})-(\d{2})-(\d{2})", t):
        y, mo, d = int(m[1]), int(m[2]), int(m[3])
    elif m := re.search(r"([a-z]+)\.? (\d{1,2}),? (\d{4})", t):
        if m[1] not in _MONTHS:
            return None
        y, mo, d = int(m[3]), _MONTHS[m[1]], int(m[2])
    elif m := re.search(r"(\d{1,2}) ([a-z]+),? (\d{4})", t):
        if m[2] not in _MONTHS:
            return None
        y, mo, d = int(m[3]), _MONTHS[m[2]], int(m[1])
    elif m := re.search(r"(\d{1,2})/(\d{1,2})/(\d{4})", t):
        y, mo, d = int(m[3]), int(m[1]), int(m[2])
    else:
        return None
    try:
        return date(y, mo, d)
    except ValueError:
        return None


def fiscal_year_of(end: date) -> int:
    """A fiscal year is named by the calendar year it ends in; a 52/53-week year that ends in the
    first week of January belongs to the year before."""
    return end.year - 1 if end.month == 1 and end.day <= 7 else end.year


def doc_type_of(form: str) -> DocType:
    form = form.strip().upper()
    for pattern, kind in _FORMS:
        if re.fullmatch(pattern + r"(?:/A|T|T/A)?", form):
            return kind
    return DocType.OTHER


def _company(name: str) -> str:
    """As metadata detection writes names: a name printed in capitals in title case
    ("PFIZER INC" -> "Pfizer Inc", "McDONALD’S CORPORATION" -> "McDonald’s Corporation"); acronyms
    (3M, AT&T, CVS) stay as printed; a mixed-case name is kept."""
    name = re.sub(r"\s+", " ", name.replace("\xa0", " ")).strip()
    letters = [ch for ch in name if ch.isalpha()]
    if not letters or sum(ch.isupper() for ch in letters) / len(letters) < 0.8:
        return name
    words = []
    for word in name.split():
        bare = word.strip(",.()")
        if bare.upper() in {"AND", "OF", "DE", "THE"} and words:
            words.append(word.lower())
        elif re.search(r"\d|&", word) or not re.search(r"[AEIOUY]", bare.upper()) or bare.upper() in {
                "N.V", "S.A", "AG", "SE", "LLC", "LP", "PLC", "NV", "SA"}:
            words.append(word)
        else:
            parts = []
            for part in word.split("-"):
                low = part.lower()
                m = re.match(r"^(\W*)(mc|mac(?=[bcdfghjklmnpqrstvwxz]{1}[a-z]{3,}))?(.*)$", low)
                lead, mc, rest = m[1], m[2] or "", m[3]
                if mc == "mc" and rest:
                    parts.append(lead + "Mc" + rest[:1].upper() + rest[1:])
                else:
                    parts.append(lead + (mc + rest)[:1].upper() + (mc + rest)[1:])
            words.append("-".join(parts))
    return " ".join(words)


def _exchange(text: str) -> str | None:
    try:
        from docqa.ingest.metadata import _exchange_name
        found = _exchange_name(text)
        if found:
            return found
    except Exception:  # noqa: BLE001
        pass
    t = text.lower()
    if "nasdaq" in t:
        return "Nasdaq"
    if "new york stock exchange" in t or "nyse" in t:
        return "NYSE"
    return None


def cover_meta(cover: dict[str, list[str]], contexts: dict[str, Context], cover_ctx: dict[str, str],
               facts: list[Fact] = ()) -> DocumentMeta:
    """DocumentMeta from the ``dei:`` cover facts; what the cover does not say stays None."""
    def first(name: str) -> str | None:
        for value in cover.get(f"dei:{name}", []):
            if value.strip():
                return value.strip()
        return None

    registrant = first("EntityRegistrantName")
    form = first("DocumentType")
    doc_type = doc_type_of(form) if form else None
    end = parse_date(first("DocumentPeriodEndDate") or "")
    if end is None:
        ctx = contexts.get(cover_ctx.get("dei:DocumentPeriodEndDate") or cover_ctx.get("dei:DocumentType", ""))
        if ctx is not None and ctx.end:
            end = date.fromisoformat(ctx.end)
    year_focus = first("DocumentFiscalYearFocus")
    fiscal_year = int(year_focus) if year_focus and re.fullmatch(r"\d{4}", year_focus) else None
    if fiscal_year is None and end is not None:
        fiscal_year = fiscal_year_of(end)
    focus = (first("DocumentFiscalPeriodFocus") or "").upper()
    quarter = int(focus[1]) if re.fullmatch(r"Q[1-4]", focus) else None
    if doc_type is not None and doc_type.is_annual:
        quarter = None
    symbols = [s.strip().upper() for s in cover.get("dei:TradingSymbol", []) if s.strip()]
    plain = [s for s in symbols if re.fullmatch(r"[A-Z]{1,5}(?:\.[A-Z])?", s)]
    ticker = (plain or symbols or [None])[0]
    exchanges = [e for e in cover.get("dei:SecurityExchangeName", []) if e.strip()]
    exchange = next((x for x in (_exchange(e) for e in exchanges) if x), None)
    currencies = Counter(f.unit for f in facts if f.unit and re.fullmatch(r"[A-Z]{3}", f.unit))
    return DocumentMeta(
        company=_company(registrant) if registrant else None,
        ticker=ticker,
        doc_type=doc_type,
        fiscal_year=fiscal_year,
        fiscal_quarter=quarter,
        period_end=end.isoformat() if end else None,
        company_confidence=1.0 if registrant else None,
        company_evidence=f"dei:EntityRegistrantName “{registrant}” (inline XBRL cover)" if registrant else None,
        exchange=exchange,
        currency=currencies.most_common(1)[0][0] if currencies else None,
    )


def apply_cover(detected: DocumentMeta, cover: DocumentMeta) -> DocumentMeta:
    """The cover's facts over what was detected from the text; detection fills what the cover lacks."""
    update = {k: v for k, v in cover.model_dump().items() if v not in (None, ())}
    if cover.doc_type is not None and cover.doc_type.is_annual:
        update["fiscal_quarter"] = None  # the cover says a year: a quarter read from the text is wrong
    if update.get("company") and detected.company and update["company"] != detected.company:
        aliases = tuple(dict.fromkeys((*detected.aliases, detected.company)))
        update["aliases"] = tuple(a for a in aliases if a != update["company"])
    return detected.model_copy(update=update)
