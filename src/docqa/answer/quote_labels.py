"""What each quoted line is about: the heading it sits under and the period it speaks of.

Two quotes that pull opposite ways ("margins increased 12.6 points", "margins decreased 1.5
points") are both true only of different segments or years; the answer says which, as the page
does. A label is read off the page, never from a list of segment names:

* the section: the nearest title- or upper-case heading above the quoted line on its page; when
  only lead-ins ("Operating income:") stand above it there, the bottom of the page or two before
  it (a filing's segment heading sits above the segment's table, its "Operating income:" bullet
  often on the next page); with no section heading, the nearest heading of any kind on its page;
* the period: the one the quote names, unless the heading it sits under ("Year 2018 results:")
  names one of the quote's years (the quote's other years are what it is compared with); else
  the heading's; else none.

The label is shown beside the quote, never inside it: verification checks quotes verbatim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable, Sequence

from docqa.text import tokens
from docqa.types import Citation
from docqa.verify import numbers_in

MAX_HEADING_WORDS = 10   # a heading is a short line; a longer one is a sentence that lost its period
MAX_HEADING_CHARS = 80
MAX_LABEL_CHARS = 60
PAGES_BACK = 2           # earlier pages searched for the section a page continues
ANCHOR_TOKENS = 8        # leading words of a quote that find its line on the page

_BULLET = re.compile(r"^[·•▪‣◦●■–-]\s+")
_SMALL = frozenset("a an and as at by for from in into of on or per the to vs with".split())
# A link to the front of the filing printed at the top of every page, not a section's name.
_RUNNING_HEADER = re.compile(r"^(?:table\s+of\s+contents|contents|index)$", re.I)
# a checkbox (a cover page's "Emerging growth company ☐") or other mark: a form's field, not a title
_SYMBOL = re.compile(r"[^\w\s&'’“”\".,()/%:;\-–—]")
# a line that ends on one of these is a wrapped line of a paragraph or column, not a title
_TRAILING = _SMALL | frozenset("its their our his her due than that which whose is are was were be has have had "
                               "this these those".split())
_NUMBERED = re.compile(r"^(?:(?:note|item|part|section|article|schedule)\s+)?[\dIVXLA-Z]{1,5}$", re.I)
_PARENTHETICAL = re.compile(r"\s*\([^)]*\d[^)]*\)")  # "(37.4% of consolidated sales)": a figure, not a name
_YEAR = r"(?:19|20)\d{2}"
_ORDINAL_QUARTER = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_PERIOD = re.compile(
    rf"\b(?P<months>(?:three|six|nine|twelve|3|6|9|12)[\s-]+months?\s+ended\s+"
    rf"(?:[A-Z][a-z]+\.?\s+\d{{1,2}},?\s+)?{_YEAR})"
    rf"|\b(?P<ord>first|second|third|fourth)\s+(?:fiscal\s+)?quarter(?:\s+of)?(?:\s+(?:fiscal\s+)?(?P<oyear>{_YEAR}))?"
    rf"|\bQ(?P<q>[1-4])\s*(?:FY)?'?(?P<qyear>{_YEAR})?\b"
    rf"|\b(?P<fiscal>(?:fiscal(?:\s+year)?|FY)\s*'?)(?P<fyear>{_YEAR})\b"
    rf"|(?<![\d$,.])(?<!Act of )(?P<year>{_YEAR})(?!\d|,\d|-\d|\.\d)",  # "Exchange Act of 1934": a law's name
    re.I,
)


@dataclass(frozen=True)
class Heading:
    """A short line that names what the lines under it are about."""

    text: str      # as printed, without its colon
    line: int      # index of the line on its page
    section: bool  # title or upper case ("Safety and Graphics Business"), not a lead-in ("Operating income:")
    lead_in: bool = False  # sentence case with a colon: the lines under it continue the section above it


@dataclass(frozen=True)
class About:
    """What one quote is about: the heading it sits under and the period it speaks of."""

    heading: str | None          # as shown: without its colon and figures in brackets
    heading_period: str | None   # the period its headings name ("Year 2018 results")
    period: str | None           # the period shown: the quote's own, or its heading's

    @property
    def text(self) -> str | None:
        """"Safety and Graphics Business (2018)"; the heading alone when it names the period itself."""
        if self.heading and self.period and not any(p.text == self.period for p in periods(self.heading)):
            return f"{self.heading} ({self.period})"
        return self.heading or self.period


@dataclass(frozen=True)
class Period:
    text: str                 # "2018", "Q4 2018", "fiscal 2018", "three months ended March 31, 2018"
    years: frozenset[str]


_DIGIT = re.compile(r"\d")
_ALPHA_WORD = re.compile(r"[A-Za-z][A-Za-z'’&.-]*")


def _is_row(line: str) -> bool:
    return "  " in line and _DIGIT.search(line) is not None


def _alpha_words(text: str) -> list[str]:
    return _ALPHA_WORD.findall(text)


_CORPORATE = re.compile(r",?\s(?:Inc|Corp|Co|Ltd|L\.P|N\.V|S\.A|plc|A\.G)\.$")
_ITEM_TITLE = re.compile(r"^item\s+\d{1,2}[a-z]?[.:]\s+[A-Z][^.]*\.$", re.I)


def _a_name(text: str) -> bool:
    """Every word capitalised but the small ones: a name ("Activision Blizzard, Inc."), not a sentence."""
    return all(w[:1].isupper() or not w[:1].isalpha() or w.lower() in _SMALL for w in text.split())


def _heading_text(line: str) -> str | None:
    """The line as a heading, or None when it reads as prose, a bullet, a table row or a number."""
    if _BULLET.match(line) or _is_row(line) or "  " in line.strip():  # spaced cells: a row, if without figures
        return None
    body = line.strip().rstrip(":").strip()
    if body.endswith(".") and (_ITEM_TITLE.match(body) or (_CORPORATE.search(body) and _a_name(body))):
        # "Item 7A. Quantitative and Qualitative Disclosures About Market Risk." heads its Item;
        # "Activision Blizzard, Inc." heads what a note says of that company
        body = body[:-1]
    if not body or len(body) > MAX_HEADING_CHARS or body[-1] in ".,;!?" or not body[0].isalnum():
        return None
    words = body.split()
    alpha = _alpha_words(body)
    if len(words) > MAX_HEADING_WORDS or not alpha or len(alpha) * 2 < len(words):
        return None
    if _SYMBOL.search(body) or alpha[-1].lower() in _TRAILING or _run_in(body):
        return None
    if numbers_in(_PARENTHETICAL.sub("", body), claims_only=True):  # "330 West 34th Street": an address, a figure
        return None
    first = next(ch for ch in body if ch.isalpha())
    return body if first.isupper() else None


def _run_in(body: str) -> bool:
    """"Securities Lending Litigation. JPMorgan Chase ...": a run-in title and the start of its
    paragraph; "NOTE 19. Business Segments" and "B. Discontinued Operations" are headings."""
    head, dot, _ = body.partition(". ")
    return bool(dot) and _NUMBERED.match(head) is None


def _is_section(text: str) -> bool:
    """Upper case, or title case over two or more words: a name, not a sentence-case lead-in."""
    words = [w for w in _alpha_words(_PARENTHETICAL.sub("", text)) if w.lower() not in _SMALL]
    if sum(len(w) > 1 for w in words) < 2:
        return False
    return all(w[0].isupper() for w in words)


@lru_cache(maxsize=64)  # an answer's quotes share pages, and each page is read again as the page before the next
def headings(page_text: str) -> tuple[Heading, ...]:
    """The page's headings, top to bottom. A heading follows the end of a sentence, a table row or
    another heading (not the middle of a paragraph), and has a line of text below it (a running
    footer above the page number has none)."""
    lines = [line.strip() for line in page_text.split("\n")]
    texts = [_heading_text(line) if line else None for line in lines]
    last_text = max((i for i, line in enumerate(lines) if texts[i] is None and len(_alpha_words(line)) >= 2),
                    default=-1)
    first = _first_line(lines)
    found: list[Heading] = []
    previous_ends = True
    for i, line in enumerate(lines):
        if not line:
            continue
        text = texts[i] if previous_ends else None
        if text is not None and i < last_text and not (i == first and _RUNNING_HEADER.match(text)):
            section = _is_section(text)
            found.append(Heading(text=text, line=i, section=section, lead_in=not section and line.endswith(":")))
        previous_ends = text is not None or _is_row(line) or line.endswith((".", ":", ";", "!", "?", "”", '"'))
    return tuple(found)


def _first_line(lines: list[str]) -> int:
    return next((i for i, line in enumerate(lines) if line), -1)


def periods(text: str) -> list[Period]:
    """The periods ``text`` names, in order, each once."""
    out: list[Period] = []
    for m in _PERIOD.finditer(text):
        if m.group("months"):
            p = Period(" ".join(m.group("months").split()), frozenset(re.findall(_YEAR, m.group("months"))))
        elif m.group("ord"):
            year = m.group("oyear")
            q = f"Q{_ORDINAL_QUARTER[m.group('ord').lower()]}"
            p = Period(f"{q} {year}" if year else q, frozenset({year} if year else ()))
        elif m.group("q"):
            year = m.group("qyear")
            p = Period(f"Q{m.group('q')} {year}" if year else f"Q{m.group('q')}", frozenset({year} if year else ()))
        elif m.group("fyear"):
            p = Period(f"fiscal {m.group('fyear')}", frozenset({m.group("fyear")}))
        else:
            p = Period(m.group("year"), frozenset({m.group("year")}))
        if p.text not in {o.text for o in out}:
            out.append(p)
    return out


def quote_line(quote: str, page_text: str) -> int | None:
    """Index of the page line on which ``quote`` starts (quotes join lines and split sentences)."""
    wanted = tokens(_BULLET.sub("", quote.strip()))[:ANCHOR_TOKENS]
    if not wanted:
        return None
    stream: list[tuple[str, int]] = []
    for i, line in enumerate(page_text.split("\n")):
        stream.extend((t, i) for t in tokens(_BULLET.sub("", line.strip())))
    words = [t for t, _ in stream]
    n = len(wanted)
    for start in range(len(words) - n + 1):
        if words[start:start + n] == wanted:
            return stream[start][1]
    return None


def _shown(heading: Heading) -> str:
    text = " ".join(_PARENTHETICAL.sub("", heading.text).split())
    return text if len(text) <= MAX_LABEL_CHARS else text[:MAX_LABEL_CHARS].rsplit(" ", 1)[0] + "…"


_COMPARED = re.compile(r"\bcompar|\bversus\b|\bvs\.?\s|\bfrom\b.+\bto\b", re.I)


def about(quote: str, page_text: str, earlier: Iterable[str] = ()) -> About:
    """What ``quote`` on ``page_text`` is about (all None when the page does not say). ``earlier``
    are the pages before it, nearest first, read only when the page continues their section."""
    at = quote_line(quote, page_text)
    if at is None:
        return About(None, None, None)
    # A heading on the quote's first line heads it: the quote joined the heading to its first sentence.
    own = [h for h in headings(page_text) if h.line <= at][::-1]
    above = own
    # Only lead-ins above the quote ("Year 2018 results:", "Operating income:"): the page continues a
    # section begun earlier. With a heading of its own, or none at all, the page is read alone.
    # (A heading states no figure, so one read off another page adds no number to prove.)
    if own and all(h.lead_in for h in own):
        above = own + [h for text in earlier for h in headings(text)[::-1]]
    section = next((h for h in above if h.section), None)
    topic = section or (own[0] if own else None)
    within = above[: above.index(section) + 1] if section else own
    heading_period = next((p for h in within for p in periods(h.text)), None)
    # A quarter without its year ("fourth quarter results") does not say which; a quote naming more
    # than two periods (notes "due 2026", "dated 2016") is about none of them.
    named = [p for p in periods(quote) if p.years]
    if len(named) > 2:
        named = []
    years = set().union(*(p.years for p in named)) if named else set()
    if heading_period and (not named or heading_period.years & years):
        period = heading_period.text
    elif named:  # "during fiscal 2022 as compared to fiscal 2021": the change between the two
        period = (" vs " if len(named) > 1 and _COMPARED.search(quote) else ", ").join(p.text for p in named[:2])
    else:
        period = None
    return About(_shown(topic) if topic else None, heading_period.text if heading_period else None, period)


def label(quote: str, page_text: str, earlier: Iterable[str] = ()) -> str | None:
    """What ``quote`` is about as shown beside it: "Safety and Graphics Business (2018)", or None."""
    return about(quote, page_text, earlier).text


PageText = Callable[[str, int], str | None]


def labelled(citations: Sequence[Citation], page_text: PageText, always: bool = False) -> tuple[Citation, ...]:
    """The citations with ``about`` set when it tells them apart: two or more quotes under different
    headings (a period the quote alone names is no other heading), or ``always`` (quotes that pull
    opposite ways); otherwise as given."""
    found = []
    for c in citations:
        text = page_text(c.document_id, c.page)
        earlier = (t for back in range(1, PAGES_BACK + 1) if c.page - back >= 1
                   and (t := page_text(c.document_id, c.page - back)) is not None)
        found.append(about(c.quote, text, earlier) if text is not None else About(None, None, None))
    if not (always or len({(a.heading, a.heading_period) for a in found}) > 1):
        return tuple(citations)
    return tuple(c.model_copy(update={"about": a.text}) for c, a in zip(citations, found))
