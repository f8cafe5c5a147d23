"""Which sentences of a section an answer quotes: those under a heading (its first ones, and those
holding the most of the question's words), those of an Item that hold the words a question adds to
its topic, or a few spread over an Item's pages. A quote is a sentence as printed: one that opens in
lower case continues the page before, one that ends in a colon leads into a table, a pointer ("see
Note 12") or a reading instruction says nothing of the topic.
"""

from __future__ import annotations

import re

from docqa.answer.extractive import units
from docqa.answer.outline import Section, roots, same_root
from docqa.finance.text import stems
from docqa.verify import quote_on_page

MAX_QUOTES = 5
MIN_WORDS = 8          # a heading or a footer is no key sentence
MAX_WORDS = 90         # nor is a whole paragraph run together
LEAD_BONUS = (0.3, 0.15)   # a section's first sentences say what it is about
# Lines that point elsewhere or say how to read the filing, not what it says about the topic.
_NOT_CONTENT = re.compile(
    r"forward[\s-]looking\s+statements?|safe\s+harbor|\bsee\s+(?:item|note|part)\b|\b(?:is|are)\s+(?:discussed|described|"
    r"included|set\s+forth)\s+(?:in|under)\b|\bincorporated\s+(?:herein\s+)?by\s+reference\b|\btable\s+of\s+contents\b"
    r"|\(in\s+(?:millions|thousands|billions)", re.I)
# A sentence opens with a capital, a figure or a quote; one in lower case continues the page before.
_OPENS = re.compile(r"^[\W_]*[A-Z0-9$“\"'(]")


def _spaced(unit: str) -> bool:
    """Cells spaced apart: a table row run into a sentence (one wide gap is a justified line's)."""
    return unit.count("  ") >= 2


class _Lines:
    def __init__(self, lines: tuple[str, ...]):
        self.text = "\n".join(lines)


HOLDS_BONUS = 0.3          # a sentence holding what the question asks for: names, or figures
_A_FIGURE = re.compile(r"\$\s?\d|\d(?:\.\d+)?\s?%|\b\d{1,3}(?:,\d{3})+\b|\b\d+(?:\.\d+)?\s+(?:million|billion)\b")
_A_NAME = re.compile(r"(?<!^)(?<![.!?]\s)\b[A-Z][A-Za-z&.'’-]+")
_NOT_NAMES = frozenset("The We Our Company Company's In For As On At By It This These Its January February March April "
                       "May June July August September October November December".split())


def holds(unit: str, kind: str | None) -> bool:
    """Does the sentence hold what the question asks for ("names": three or more names after its
    first word; "figures": an amount, a share or a count)?"""
    if kind == "names":
        return len({m.group(0) for m in _A_NAME.finditer(unit) if m.group(0) not in _NOT_NAMES}) >= 3
    if kind == "figures":
        return _A_FIGURE.search(unit) is not None
    return False


def under_heading(section: Section, pages: list, words: tuple[str, ...], kind: str | None = None) -> list[tuple[int, str]]:
    """Up to MAX_QUOTES sentences under the heading: its first ones, and those that hold the most of
    the question's words (and what it asks for, ``kind``: names or figures), in reading order."""
    wanted = [w for w in roots(" ".join(words))]
    # the words the question adds to what the heading names ("hedge" of "how does 3M hedge its foreign
    # exchange rate risk" under "Foreign Exchange Rates Risk"): the sentences that hold them come first
    heading = roots(section.heading.text)
    added = [w for w in wanted if not any(same_root(w, h) for h in heading)]
    candidates: list[tuple[float, int, int, str]] = []
    order = 0
    for index, lines in section.lines:
        page = pages[index]
        for unit in units(_Lines(lines)):
            n_words = len(unit.split())
            if (not MIN_WORDS <= n_words <= MAX_WORDS or _NOT_CONTENT.search(unit) or _spaced(unit)
                    or unit.endswith(":") or not _OPENS.match(unit)):  # "... are as follows:" leads into a table, says nothing itself
                continue
            if not quote_on_page(unit, page.text):
                continue
            printed = roots(unit)
            hits = sum(any(same_root(w, p) for p in printed) for w in wanted)
            more = sum(any(same_root(w, p) for p in printed) for w in added) / len(added) if added else 0.0
            lead = LEAD_BONUS[order] if order < len(LEAD_BONUS) else 0.0
            held = HOLDS_BONUS if holds(unit, kind) else 0.0
            candidates.append((hits / (len(wanted) or 1) + more + lead + held, order, page.number, unit))
            order += 1
    best = sorted(candidates, key=lambda c: (-c[0], c[1]))[:MAX_QUOTES]
    return [(number, unit) for _, _, number, unit in sorted(best, key=lambda c: c[1])]


def holding(pages, words: list[str], every: bool = False) -> list[tuple[int, str]]:
    """The Item's sentences that hold the most of the words the question adds to its topic (at least
    one; ``every``: all of them), wherever they are in the Item, in reading order."""
    candidates: list[tuple[float, int, int, str]] = []
    order = 0
    for page in pages:
        for unit in units(page):
            if (not MIN_WORDS <= len(unit.split()) <= MAX_WORDS or _NOT_CONTENT.search(unit) or _spaced(unit)
                    or not _OPENS.match(unit) or not quote_on_page(unit, page.text)):
                continue
            printed = roots(unit)
            hits = sum(any(same_root(w, p) for p in printed) for w in words)
            if hits == len(words) or (hits and not every):
                candidates.append((hits / len(words), order, page.number, unit))
            order += 1
    best = sorted(candidates, key=lambda c: (-c[0], c[1]))[:MAX_QUOTES]
    return [(number, unit) for _, _, number, unit in sorted(best, key=lambda c: c[1])]


def spread(pages, wanted: set[str], in_item: set[int]) -> list[tuple[int, str]]:
    """Up to MAX_QUOTES sentences spread over the pages (a page's share of them, at least one),
    the best by the question's words (the first of a page breaks ties), in page order."""
    share = max(1, -(-MAX_QUOTES // max(1, len(pages))))
    best: list[tuple[float, int, str]] = []
    for page in pages:
        candidates = []
        for position, unit in enumerate(units(page)):
            words = unit.split()
            if not MIN_WORDS <= len(words) <= MAX_WORDS or _NOT_CONTENT.search(unit) or _spaced(unit) or not _OPENS.match(unit):
                continue
            if not quote_on_page(unit, page.text):
                continue  # a sentence joined across a hyphenated line break is not quoted as printed
            overlap = len(set(stems(unit)) & wanted) / (len(wanted) or 1)
            if overlap == 0 and page.number not in in_item:
                continue  # outside the Item, a sentence must speak to the question
            candidates.append((overlap + (0.3 if position == 0 else 0.0), page.number, unit))
        best.extend(sorted(candidates, key=lambda c: -c[0])[:share])
    best.sort(key=lambda c: -c[0])
    return sorted(((n, u) for _, n, u in best[:MAX_QUOTES]), key=lambda c: c[0])  # stable: page order, then as read
