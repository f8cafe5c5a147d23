"""A list the question sets off from its label: "JNJ FY2022: sales to customers, gross profit, net
earnings", "Microsoft's inventory at June 30, 2022 - raw materials, work in process, finished goods",
"Amcor inventories - (1) raw materials and supplies, (2) work in process and finished goods", a
bulleted list on lines of its own, "Intelligent Cloud operating income vs. total operating income".

The items are read by how the question marks them off (bullets, numbers, semicolons, "vs", commas),
never by a list of line names; an "and" cuts only after a list's last comma, and never inside a
measure the lexicon names ("research and development", "cash and cash equivalents"): "A and B"
alone may be one printed line ("raw materials and supplies"), and is left to the other readings of
parts. Each item is asked in the label's frame: "<label>: <item>".
"""

from __future__ import annotations

import re
from typing import Sequence

from docqa.plan.list_words import ALONG_JOIN as _ALONG, AND_JOIN as _AND, VS_JOIN as _VS, of_one_kind

MAX_ITEMS = 6

# The label ends at a colon or a spaced dash; what follows is the list.
_SET_OFF = re.compile(r"\s*:\s+|\s*:\s*\n|\s+[-\u2013\u2014]\s+|\s*[\u2013\u2014]\s*")
_BULLET_LINE = re.compile(r"^\s*(?:[-\u2013\u2014*\u2022\u25aa\u25cf]|\(?\d{1,2}[.)]|\(?[a-h][.)])\s*", re.I)
_INLINE_BULLET = re.compile(r"(?:^|\s)[-\u2013\u2014*\u2022]\s+")
_NUMBERED = re.compile(r"(?:^|[\s,;]+(?:and\s+)?)\(?(?:\d{1,2}|[a-h]|i{1,3}|iv|v)\)\s*", re.I)
_COMMA = re.compile(r"\s*,\s*(?:and\s+|&\s*)?")
_OWN_AND = re.compile(r",?\s+(?:and|&)\s+(?:(?:the|its|their)\s+)?", re.I)
_TRAILING = re.compile(r"(?:,?\s+respectively|,?\s+each|,?\s+please|,?\s+thanks?)?\s*[?.!]*\s*$", re.I)
# "December 31, 2022": a date's comma is no cut
_DATE = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},\s*(?:19|20)\d{2}", re.I)
_POLITE = re.compile(r"(?:,?\s+(?:please|thanks?|pls))+$", re.I)
_ASKING = re.compile(r"^(?:what\s+(?:were|was|are|is)|how\s+much|how\s+many|give\s+me|show\s+me|list|provide)\b", re.I)


def listed_items(question: str, protected: Sequence[tuple[int, int]] = ()) -> tuple[str, ...]:
    """Each item of a list set off from its label, asked in the label's frame; () when the question
    sets off no list of two or more items. ``protected``: spans of the question no cut may fall in
    (the lexicon's measures)."""
    best: tuple[str, ...] = ()
    protected = [*protected, *(m.span() for m in _DATE.finditer(question))]
    for mark in _SET_OFF.finditer(question):
        head = _POLITE.sub("", question[:mark.start()].rstrip(" ,"))
        if not head or not re.search(r"[A-Za-z]", head) or _ASKING.match(question[mark.end():].strip()):
            continue
        tail = question[mark.end():]
        items = _items(tail, [(a - mark.end(), b - mark.end()) for a, b in protected if a >= mark.end()])
        if 2 <= len(items) <= MAX_ITEMS:
            best = tuple(f"{head}: {item}?" for item in items)
            break  # the first mark that sets off a list: later ones are inside its items ("U.S. - Retail")
    return best


def _items(tail: str, protected: list[tuple[int, int]]) -> list[str]:
    body = _TRAILING.sub("", tail)
    if "\n" in body.strip():
        lines = [_BULLET_LINE.sub("", line).strip(" ,;") for line in body.split("\n")]
        return _clean([line for line in lines if line])
    if _INLINE_BULLET.match(body) and len(_INLINE_BULLET.findall(body)) >= 2:
        # the bullets of a list whose lines were run together: "- research and development - sales and marketing"
        return _clean(_INLINE_BULLET.split(body))
    if len(_NUMBERED.findall(body)) >= 2:
        return _clean(_NUMBERED.split(body))
    if ";" in body:
        return _clean(body.split(";"))
    if _VS.search(body):
        return _clean(_VS.split(body))
    return _clean(_cut(body, protected))


def _cut(body: str, protected: list[tuple[int, int]]) -> list[str]:
    """Commas first (an Oxford "and" after the last one); an "and" without a comma is a cut only
    after the list's last comma, and never inside a protected span."""
    free = lambda m: not any(a < m.start() and m.end() <= b + 1 for a, b in protected)  # noqa: E731
    commas = [m for m in _COMMA.finditer(body) if free(m)]
    oxford = any(m.group().strip(" ,").lower() in ("and", "&") for m in commas)
    cuts = list(commas)
    if commas and not oxford:  # "A, B and C"; a lone "A and B" may be one line's name ("sales and marketing")
        after = commas[-1].end() if commas else 0
        cuts += [m for m in _AND.finditer(body, after) if free(m)][:1]
    elif not commas:
        # ... unless its two sides are two of one kind: "Fios internet connections and Fios video connections"
        ands = [m for m in _AND.finditer(body) if free(m)]
        if len(ands) == 1 and of_one_kind([body[:ands[0].start()], _TRAILING.sub("", body[ands[0].end():])]):
            cuts += ands
    # "as well as", "along with": no line's name holds them
    cuts += [m for m in _ALONG.finditer(body) if free(m) and not any(c.start() <= m.start() < c.end() for c in cuts)]
    cuts.sort(key=lambda m: m.start())
    closing = [m for m in cuts if m.group().strip(" ,").lower() in ("and", "&")]
    if len(closing) > 1:
        # "A, B, and depreciation, amortization, and decommissioning": the list's "and" comes once,
        # before its last item; what follows it is that item, commas and all
        cuts = [m for m in cuts if m.start() <= closing[0].start()]
    out, at = [], 0
    for m in cuts:
        out.append(body[at:m.start()])
        at = m.end()
    out.append(body[at:])
    return out


def _clean(items: Sequence[str]) -> list[str]:
    out = [re.sub(r"^(?:and|&|as\s+well\s+as|along\s+with|together\s+with|plus)\s+", "", i.strip(" ,;:.?"), flags=re.I).strip()
           for i in items]
    out = [i for i in out if i and not _A_UNIT.fullmatch(i)]
    if len(set(i.lower() for i in out)) < len(out) or any(len(i.split()) > 10 or _NOT_AN_ITEM.match(i) for i in out):
        return []
    return out


# "..., in millions": the unit to give the items in, not an item
_A_UNIT = re.compile(r"\(?(?:in\s+)?(?:us\$\s*|usd\s+|\$\s*)?(?:millions?|billions?|thousands?|mm|bn)(?:\s+of\s+dollars)?\)?",
                     re.I)
# "X: at Dec 31 2021, what capital expenditures ...": a period and the question itself, not a list
_NOT_AN_ITEM = re.compile(
    r"^(?:(?:what|how|which|who|when|did|does|do|was|were|is|are|has|have|had)\b"
    r"|(?:at|as\s+of|in|for|during|on|over)\s+(?:the\s+)?(?:[A-Za-z-]+\s+){0,5}?(?:\d{1,2},?\s+)?(?:19|20)\d\d$"
    # "..., per the 2020 10-K": where to read it
    r"|(?:per|according\s+to|as\s+(?:reported|stated|disclosed)\s+in|from|in|based\s+on)\s+(?:the\s+|its\s+|their\s+)?"
    r"(?:[\w'’.&-]+\s+){0,4}?(?:10-?[kq]|8-?k|20-?f|40-?f|filing|annual\s+report|quarterly\s+report|report|release|statements?)$)",
    re.I)
