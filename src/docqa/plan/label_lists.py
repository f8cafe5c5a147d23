"""Parts read from how a question lists lines, whatever their names: the printed labels of a note,
segment or KPI table are words the lexicon need not know, so a list of them is found by its
joiners and its frame, never by the items' names.

- the items an owner's possessive hands out, up to the period: "What were Lockheed Martin's
  corporate assets and total business segment assets in fiscal 2021?", "X's database and credit
  files versus customer relationships for fiscal 2022?", "X's A, B and C in 2020, respectively?";
- a question, then an item asked in its frame: "What was X's clinical trials and drug development
  in fiscal 2022? And its professional fees?".

Each part is the question with one item in place of the list. A lone "and" may be one line's own
name ("clinical trials and drug development", "less imputed interest and other"): it cuts only
where the question says so ("respectively", "both"), where its two sides are of one kind, or where
a total follows a component ("accounts payable and total trade payables"). A comma before a
qualifier ("state income tax benefit, net of federal benefit") is the label's own.
"""

from __future__ import annotations

import re
from typing import Sequence

from docqa.plan.list_words import (ALONG_JOIN as _ALONG, AND_JOIN as _AND, CLOSING_PERIOD, ONE_NAMED_PART, VS_JOIN as _VS,
                                   of_one_kind)

MAX_ITEMS = 6
MAX_ITEM_WORDS = 12

# "X's", "X’s", "Walmart Inc.'s": where the owner ends and what it is asked about begins
_POSSESSIVE = re.compile(r"[\w.)]['\u2019]s?\s+")
_LEAD = re.compile(r"^\W*(?:what|how\s+much|how\s+many)\s+(?:was|were|is|are)\s+(?:the\s+)?", re.I)
_COMMA = re.compile(r",\s*(?:and\s+|&\s*)?(?:(?:the|its|their)\s+)?", re.I)
# A comma the label keeps: "..., net of federal benefit", "..., less current portion", "..., excluding leases"
_LABELS_COMMA = re.compile(r",\s*(?:net\s+of|net\s*(?:[,(]|$)|less\b|excluding|including|at\s+(?:cost|fair\s+value)|"
                           r"(?:current|non-?current|long-term)\s+portion)", re.I)
_HANDED_OUT = re.compile(r",?\s+respectively\b|\bboth\b", re.I)
_TOTAL = re.compile(r"^(?:total|subtotal)\b", re.I)
# What no item is: another question, a verb's clause, a period, a place to read it
_NOT_AN_ITEM = re.compile(r"\b(?:what|how|why|which|did|does|do|was|were|is|are|has|have|had|will|would|could|should)\b"
                          r"|\d", re.I)
_NEXT = re.compile(r"^(?P<first>[^?]{8,}?)\?\s+(?:and|also|plus|what\s+about|how\s+about)\s+(?:also\s+)?"
                   r"(?:(?:its|their|the)\s+)?(?P<item>[^?]{2,120}?)\s*\??\s*$", re.I)
_POLITE = re.compile(r"(?:,?\s+(?:please|thanks?|pls))+\s*$", re.I)


def by_labels(question: str, protected: Sequence[tuple[int, int]] = ()) -> tuple[str, ...]:
    """The parts of a question that lists lines in one frame, or () when it lists none.
    ``protected``: spans no cut may fall in (the measures the lexicon names: "research and
    development" is one item)."""
    named = [m.span("name") for m in ONE_NAMED_PART.finditer(question)]
    return _asked_next(question) or _handed_out(question, [*protected, *named])


def _frame(text: str) -> int | None:
    """Where the asked item starts: after the owner's possessive, or after "what were the"."""
    owned = [m for m in _POSSESSIVE.finditer(text) if not CLOSING_PERIOD.search(text[:m.start()])]
    if owned:
        return owned[-1].end()
    lead = _LEAD.match(text)
    return lead.end() if lead else None


def owner_of(text: str) -> str | None:
    """The owner a question names with its possessive, whole: "3M Company's", "General Mills, Inc.'s"."""
    lead = _ASKS.match(text)
    owned = [m for m in _POSSESSIVE.finditer(text) if not CLOSING_PERIOD.search(text[:m.start()])]
    if not lead or not owned or owned[-1].start() <= lead.end():
        return None
    return text[lead.end():owned[-1].end()].strip()


_ASKS = re.compile(r"^\W*(?:what|how\s+much|how\s+many)\s+(?:was|were|is|are|did|does|do|has|have|had)\s+", re.I)


def _asked_next(question: str) -> tuple[str, ...]:
    """"What was X's A in fiscal 2022? And its B?": B asked in the first's frame and period."""
    found = _NEXT.match(_POLITE.sub("", question.strip()))
    if not found:
        return ()
    first, item = found.group("first").strip(), found.group("item").strip(" ,.")
    start = _frame(first)
    if start is None or _NOT_AN_ITEM.search(item) or len(item.split()) > MAX_ITEM_WORDS:
        return ()
    period = CLOSING_PERIOD.search(first, start)
    tail = first[period.start():] if period else ""
    return (f"{first}?", f"{first[:start]}{item}{(' ' + tail.strip()) if tail else ''}?")


def _handed_out(question: str, protected: Sequence[tuple[int, int]]) -> tuple[str, ...]:
    """The items between the owner's possessive and the period, each asked in the same frame."""
    text = _POLITE.sub("", question.rstrip(" ?.!"))
    start = _frame(text)
    if start is None:
        return ()
    period = CLOSING_PERIOD.search(text, start)
    end = period.start() if period else len(text)
    span = text[start:end]
    handed_out = _HANDED_OUT.search(text) is not None
    span = _HANDED_OUT.sub("", span).rstrip(" ,")
    # no cut inside brackets: "other, net (common stock and paid-in capital)" is one line
    bracketed = [(m.start(), m.end()) for m in re.finditer(r"\([^()]*\)", span)]
    items = _items(span, [*bracketed, *((a - start, b - start) for a, b in protected if start <= a < end)], handed_out)
    if not 2 <= len(items) <= MAX_ITEMS:
        return ()
    items = _members_in_frame(items)
    tail = _HANDED_OUT.sub("", text[end:]).strip(" ,")
    return tuple(f"{text[:start]}{item}{(' ' + tail) if tail else ''}?" for item in items)


# "EBIT for North America vs Greater China": the names are set against each other, the measure is both's
_BEFORE_NAME = re.compile(r"^(?P<frame>.*\b(?:for|in|of|from|at|within|across)\s+(?:the\s+)?)(?P<name>[A-Z][\w.&'\u2019-]*(?:\s+[A-Z][\w.&'\u2019-]*)*)$")
_A_NAME = re.compile(r"^(?:the\s+)?[A-Z][\w.&'\u2019-]*(?:\s+[A-Z][\w.&'\u2019-]*)*$")


def _members_in_frame(items: list[str]) -> list[str]:
    framed = _BEFORE_NAME.match(items[0])
    if framed and all(_A_NAME.match(i) for i in items[1:]):
        return [items[0], *(framed.group("frame") + re.sub(r"^the\s+", "", i) for i in items[1:])]
    return items


def _items(span: str, protected: list[tuple[int, int]], handed_out: bool) -> list[str]:
    free = lambda m: not any(a <= m.start() < b or a < m.end() <= b for a, b in protected)  # noqa: E731
    versus = [m for m in _VS.finditer(span) if free(m)]
    if versus:
        cuts = versus
    else:
        commas = [m for m in _COMMA.finditer(span) if free(m) and not _LABELS_COMMA.match(span, m.start())]
        ands = [m for m in _AND.finditer(span) if free(m)]
        along = [m for m in _ALONG.finditer(span) if free(m)]
        cuts = commas + along
        oxford = any(re.search(r"\b(?:and|&)\s", m.group(), re.I) for m in commas)
        if commas and not oxford and ands:
            cuts += [m for m in ands if m.start() > commas[-1].start()][:1]  # "A, B and C"
        elif not commas and ands:
            # a total after a component starts the next line ("accounts payable and total trade and other payables")
            totals = [m for m in ands if _TOTAL.match(span[m.end():]) and not _TOTAL.match(span[:m.start()].strip())]
            if totals:
                cuts.append(totals[0])
            elif len(ands) == 1 and (handed_out or of_one_kind([span[:ands[0].start()], span[ands[0].end():]])):
                cuts.append(ands[0])
        if commas and not (handed_out or oxford or len(cuts) >= 2):
            return []  # "A, B": one label with its qualifier more often than a list of two
    cuts.sort(key=lambda m: m.start())
    out, at = [], 0
    for m in cuts:
        out.append(span[at:m.start()])
        at = m.end()
    out.append(span[at:])
    items = [i.strip(" ,;:") for i in out]
    if len(items) == 2 and len(items[0].split()) == 1 and _TOTAL.match(items[1]):
        # "non-U.S. and total income before income taxes": the total's noun is both's
        items[0] = f"{items[0]} {_TOTAL.sub('', items[1]).strip()}"
    if (any(not i or len(i.split()) > MAX_ITEM_WORDS or _NOT_AN_ITEM.search(i) for i in items)
            or len({i.lower() for i in items}) < len(items)):
        return []
    return items
