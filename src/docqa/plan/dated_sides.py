"""Parts whose sides each carry a period of their own, or that are questions of their own: "Microsoft total operating lease liabilities
at June 30, 2023, and cash paid for operating leases in fiscal 2023", "noncurrent debt at Dec 31,
2021, as well as capital expenditures in the 2021 cash flow statement". A balance and a flow (or two
lines of two statements) asked in one breath: each side is a figure of its own, at its own date.

The side before the join ends with its period; the side after it names its item and its own period.
The second side is asked in the first's frame: the words up to the company's name, its possessive,
a label's colon or "what was". A side that starts with its period is a second year of the same line
(``year_parts``), one that asks how the two relate is one question, and one with a verb is a clause
(``parts._by_clause``).
"""

from __future__ import annotations

import re

from docqa.plan.list_words import CLOSING_PERIOD as _PERIOD, MONTH

_JOIN = re.compile(r"\s*(?:;|,?\s+(?:and(?:\s+also)?|as\s+well\s+as|along\s+with|together\s+with|plus|"
                   r"in\s+addition\s+to)|,\s+also)\s+", re.I)
_STARTS_WITH_PERIOD = re.compile(rf"^(?:(?:in|for|during|at|as\s+of|on|over|by)\s+)?(?:the\s+)?(?:end\s+of\s+)?"
                                 rf"(?:(?:fiscal|financial|calendar)\s+)?(?:year\s+)?(?:fy\s?\d|q[1-4]\b|(?:19|20)\d\d|{MONTH}\b)",
                                 re.I)
_RELATES = re.compile(r"\b(?:compar\w*|why|how|explain\w*|driv\w+|reasons?|relative|versus|vs\.?|than|using|ratio|"
                      r"percent(?:age)?|share|divided|change[sd]?|growth|grew)\b", re.I)
_VERB = re.compile(r"\b(?:what|which|did|does|do|was|were|is|are|has|have|had|will|would)\b", re.I)
_FRAME = re.compile(r"(?:['\u2019]s?\s+|\b(?:its|their)\s+|:\s+|^\W*(?:what|how\s+much)\s+(?:was|were|is|are)\s+(?:the\s+)?)",
                    re.I)
MAX_WORDS = 14


def by_dated_sides(question: str, names: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The two parts, or () when the question does not join two dated sides."""
    end = "?" if question.rstrip()[-1:] == "?" else ""
    text = question.rstrip(" ?.")
    found = [(j, text[:j.start()].rstrip(" ,"), text[j.end():]) for j in _JOIN.finditer(text)]
    found = [(j, left, right) for j, left, right in found
             if _closed_by_period(left) and not _STARTS_WITH_PERIOD.match(right) and _PERIOD.search(right)
             and not _RELATES.search(right) and not _VERB.search(right) and len(right.split()) <= MAX_WORDS]
    if len(found) != 1:
        return ()
    join, left, right = found[0]
    frame_end = _frame_end(left, names)
    if frame_end is None:
        return ()
    item = re.sub(r"^(?:the|its|their)\s+", "", right, flags=re.I)
    if len(left[frame_end:].split()) < 2 or len(item.split()) < 2:
        return ()
    return (f"{left}{end}", f"{left[:frame_end]}{item}{end}")


def _closed_by_period(side: str) -> bool:
    """The side ends with its period (and what may follow one: "on the balance sheet")."""
    dated = list(_PERIOD.finditer(side))
    return bool(dated) and len(side[dated[-1].end():].split()) <= 4


def _frame_end(left: str, names: tuple[str, ...]) -> int | None:
    """Where the first side's item begins: after the last frame word before its period."""
    period = _PERIOD.search(left)
    limit = period.start() if period else len(left)
    ends = [m.end() for m in _FRAME.finditer(left, 0, limit)]
    for name in names:
        at = re.search(rf"(?<!\w){re.escape(name)}(?!\w)\s+", left[:limit], re.I)
        if at:
            ends.append(at.end())
    ends = [e for e in ends if e < limit]
    return max(ends) if ends else None


# "... have? How many regular employees did the Utility have ...": a second question, asked in full
_NEXT_QUESTION = re.compile(r"\?\s+(?=(?:and\s+)?(?:what|how\s+(?:much|many))\b)", re.I)
_ASKS = re.compile(r"^\W*(?:and\s+)?(?:what|how\s+(?:much|many))\s+\S+\s+(?:\S+\s+)*?(?:did|does|do|was|were|is|are|has|have|had)\b",
                   re.I)
_LEADING_PERIOD = re.compile(rf"^\W*(?P<period>(?:as\s+of|at|in|for|during)\s+(?:the\s+end\s+of\s+)?(?:fiscal\s+)?(?:year\s+)?"
                             rf"(?:{MONTH}\s+\d{{1,2}},?\s+)?(?:19|20)\d\d),\s*", re.I)


def by_sentence(question: str) -> tuple[str, ...]:
    """Each question of several asked one after another, each with a verb of its own ("How many
    employees did X have? How many ... did Y have ...?"); a later one that names no period takes the
    first's. () when the question is one sentence, or a later one is no question of its own ("?
    And its net income?" is read as a side)."""
    pieces = [p.strip() for p in _NEXT_QUESTION.split(question) if p.strip()]
    if len(pieces) < 2 or not all(_ASKS.match(p) for p in pieces[1:]):
        return ()
    lead = _LEADING_PERIOD.match(pieces[0])
    out = []
    for k, piece in enumerate(pieces):
        piece = re.sub(r"^and\s+", "", piece, flags=re.I)
        piece = piece[:1].upper() + piece[1:]
        if k and lead and not _PERIOD.search(piece):
            piece = f"{piece.rstrip(' ?.')} {lead.group('period')[:1].lower()}{lead.group('period')[1:]}"
        out.append(piece.rstrip(" ?.") + "?")
    return tuple(out)
