"""Inline XBRL as data: contexts, tagged numeric facts and the ``dei:`` cover facts.

``docqa.ingest.html`` reads the events; this module holds the typed model and the rules that
turn what a filing prints into values: the ``format`` transformations (``ixt:num-dot-decimal``,
``ixt:fixed-zero``, ``ixt-sec:numwordsen`` ...), ``scale`` (a power of ten), ``sign="-"``, and
the cover facts into DocumentMeta (company, ticker, form, fiscal year and quarter, period end).

A fact is data from the filer's software, not a number read off the page: a ``scale`` or value no
filing prints (``scale="400"``, a 40-digit amount) makes the fact untrusted (``Fact.rejected``); the
ingest drops it with a warning on the document, and its cell's printed figure stands.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date
from decimal import Decimal, InvalidOperation

from pydantic import BaseModel, ConfigDict

from docqa.finance.scales import SCALES, unscaled
from docqa.types import BBox, DocType, DocumentMeta


# The largest magnitude a fact's value may have, in its unit. The largest totals filed on EDGAR
# (balance sheets in Korean won or Indonesian rupiah) are near 10^15.
MAX_VALUE = Decimal(10) ** 18


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
    rejected: str | None = None       # why the fact cannot be trusted (value is then None), e.g. scale="400"

    @property
    def printed(self) -> float | None:
        """The number as printed (before scale and sign): what a table cell shows, unsigned."""
        if self.value is None or self.scale not in SCALES:
            return None
        return unscaled(self.value, self.scale)

    @property
    def months(self) -> int | None:
        """Length of a duration context in months (3, 6, 9, 12); 0 for an instant."""
        if self.instant:
            return 0
        if not (self.start and self.end):
            return None
        a, b = parse_date(self.start), parse_date(self.end)
        return round((b - a).days / 30.44) if a and b else None  # "2023-02-30" is no date


_WORD_NUMBERS = {
    "no": 0, "none": 0, "zero": 0, "nil": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
    "a": 1, "an": 1, "single": 1, "half": 0.5,
}


def fact_value(text: str, fmt: str | None, scale: int = 0, negated: bool = False, nil: bool = False) -> float | None:
    """The value of an ``ix:nonFraction`` from its printed text and attributes; None when unreadable
    or outside what a filing prints (a scale outside SCALES, a magnitude over MAX_VALUE)."""
    if nil:
        return None
    number = printed_number(text, fmt)
    return None if number is None else _scaled(number, scale, negated)


def printed_number(text: str, fmt: str | None) -> Decimal | None:
    """The unsigned number an ``ix:nonFraction`` prints, read by its ``format``; None when unreadable."""
    kind = (fmt or "").split(":")[-1].lower().replace("-", "")
    raw = text.strip().replace("\xa0", " ")
    if kind in ("fixedzero", "zerodash") or (not kind and re.fullmatch(r"[\u2014\u2013\-]+", raw or "-")):
        return Decimal(0)
    if kind in ("numwordsen", "numword", "numwordsenen"):
        word = _WORD_NUMBERS.get(raw.lower().strip(". "))
        return Decimal(str(word)) if word is not None else _digits(raw, comma_decimal=False)
    if kind in ("numcommadecimal", "numdotcomma", "numspacecomma", "numcomma"):
        return _digits(raw, comma_decimal=True)
    return _digits(raw, comma_decimal=False)


def _scaled(number: Decimal, scale: int, negated: bool) -> float | None:
    # Decimal shifts the exponent (no power of ten is computed) and keeps 12.5 x 10^-2 exactly 0.125.
    if scale not in SCALES:
        return None
    value = number.scaleb(scale)
    if not value.is_finite() or abs(value) > MAX_VALUE:
        return None
    return -float(value) if negated else float(value)


def read_scale(raw: str | None) -> int | None:
    """The ``scale`` attribute (absent: 0), or None when it is no integer in SCALES. The text is
    matched before ``int()`` so a 10,000-digit attribute is never converted."""
    text = (raw or "").strip() or "0"
    if not re.fullmatch(r"[+-]?0*\d{1,2}", text):
        return None
    scale = int(text)
    return scale if scale in SCALES else None


def make_fact(index: int, attrs: dict, text: str) -> Fact:
    """The :class:`Fact` of an ``ix:nonFraction`` (attribute names in lower case) and its printed
    text; a fact whose scale or value no filing prints has ``rejected`` set and no value."""
    raw_scale = attrs.get("scale")
    scale = read_scale(raw_scale)
    decimals_raw = (attrs.get("decimals") or "").strip()
    try:
        decimals = None if decimals_raw.upper() in ("", "INF") or len(decimals_raw) > 4 else int(decimals_raw)
    except ValueError:
        decimals = None
    negated = attrs.get("sign", "") == "-"
    fmt = attrs.get("format")
    nil = attrs.get("nil", "").lower() == "true"
    number = None if nil else printed_number(text, fmt)
    value, rejected = None, None
    if scale is None:
        rejected = (f"scale=\"{_clip(raw_scale or '')}\" is not a power of ten a filing prints in "
                    f"({SCALES[0]}..{SCALES[-1]})")
    elif number is not None:
        value = _scaled(number, scale, negated)
        if value is None:
            rejected = f"value {_clip(text)} x 10^{scale} is larger than any amount a filing prints"
    return Fact(index=index, concept=attrs.get("name", ""), context=attrs.get("contextref", ""),
                unit_ref=attrs.get("unitref"), text=text, value=value, decimals=decimals, scale=scale or 0,
                negated=negated, format=fmt, id=attrs.get("id"), rejected=rejected)


def trusted(facts: list[Fact]) -> tuple[list[Fact], str | None]:
    """The facts that can be trusted, and a one-line warning for those that cannot (None: all can)."""
    kept = [f for f in facts if f.rejected is None]
    if len(kept) == len(facts):
        return facts, None
    bad = [f for f in facts if f.rejected is not None]
    first = bad[0]
    more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
    return kept, (f"{len(bad)} tagged inline XBRL fact(s) ignored, their printed figures used instead: "
                  f"{first.concept or 'a fact'}: {first.rejected}{more}")


def _clip(text: str, limit: int = 24) -> str:
    text = re.sub(r"\s+", " ", text)
    return text if len(text) <= limit else text[:limit] + "..."


def _digits(text: str, comma_decimal: bool) -> Decimal | None:
    if comma_decimal:
        text = text.replace(".", "").replace(" ", "").replace(",", ".")
    else:
        text = text.replace(",", "").replace(" ", "")
    text = re.sub(r"[^\d.]", "", text)
    if not text or text == "." or text.count(".") > 1:
        return None
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


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
        from docqa.ingest.metadata.listing import exchange_name
        found = exchange_name(text)
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
            end = parse_date(ctx.end)  # None for a context's "2023-02-30"
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
