"""Company names in a question, as people type them.

The names come from the index (each filing's company, aliases, ticker, as read from its pages),
never from a list. A question may misspell a name ("Amazn", "Walmrt"), run its words together or
split them ("Pepsi co", "americanexpress"), or use a ticker. Exact mentions win; a near-miss
counts only when the word is not itself a word of the filings (``is_word``), so that "being" is
never Boeing and "costs" never Costco.

A name-like phrase that matches no held company ("Tesla's revenue") is reported as well, so
that the question can be answered "not found" with the closest companies the index does hold,
whatever else its words match.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from docqa.text import STOPWORDS, fold

WordCheck = Callable[[str], bool]          # does any indexed page print this word?
OwnerCheck = Callable[[str], str | None]   # the one company whose filings print this word (or phrase), if one
LabelCheck = Callable[[str], bool]         # does a stored table print this phrase as a row's whole label?

_WORD = re.compile(r"[a-z0-9]+(?:&[a-z0-9]+)*")
MIN_FUZZY = 4        # shorter strings are too easily one edit away from something else
MAX_NGRAM = 3        # "american express co" run together or split over three words at most


_NOT_ALNUM = re.compile(r"[^a-z0-9]")


def compact(text: str) -> str:
    return _NOT_ALNUM.sub("", fold(text).lower())


def allowed_edits(length: int) -> int:
    """Typos a name of this length may carry and still be recognised: one, or two past six letters."""
    return 0 if length < MIN_FUZZY else 1 if length <= 6 else 2


@dataclass(frozen=True)
class Mention:
    company: str
    start: int           # character span in the folded, lower-cased question
    end: int
    text: str
    exact: bool


@dataclass(frozen=True)
class _Name:
    company: str
    compact: str


class NameTable:
    """Held names prepared once for fuzzy matching: compacted, the short ones dropped, grouped by
    first letter (a near-miss must share it) in their given order, so that ties go the same way."""

    def __init__(self, names: Iterable[tuple[str, str]]):
        self.by_first: dict[str, list[_Name]] = {}
        for company, name in names:
            entry = _Name(company, compact(name))
            if len(entry.compact) >= MIN_FUZZY:
                self.by_first.setdefault(entry.compact[0], []).append(entry)


def _question_words(question: str) -> list[tuple[str, int, int]]:
    text = fold(question).lower().replace("’", "'")
    # possessives keep their offsets: "'s" is two blanks, a plural's bare "'" ("Boston Properties'") one
    text = _POSSESSIVE.sub(lambda m: " " * len(m.group(0)), text)
    return [(m.group(0), m.start(), m.end()) for m in _WORD.finditer(text)]


_POSSESSIVE = re.compile(r"'s\b|(?<=s)'(?!\w)")


def fuzzy_mentions(question: str, names: Iterable[tuple[str, str]] | NameTable, is_word: WordCheck | None,
                   taken: list[tuple[int, int]] = ()) -> list[Mention]:
    """Near-misses of held names: (company, name) pairs, names as normalised for matching, or a
    NameTable of them prepared once (a planner asks about the same names question after question).

    A run of one to three question words, joined without spaces, is compared with each name
    joined the same way (so "Pepsi co" is "pepsico" and "american express" is "americanexpress")
    by optimal-string-alignment distance (a swapped pair of letters is one typo). The first letter
    must agree: people rarely mistype it, and it keeps ordinary words apart.
    """
    table = names if isinstance(names, NameTable) else NameTable(names)
    if not table.by_first:
        return []
    words = _question_words(question)
    found: list[Mention] = []
    for i in range(len(words)):
        for n in range(MAX_NGRAM, 0, -1):
            run = words[i:i + n]
            if len(run) < n or any(w in STOPWORDS and len(run) > 1 for w, _, _ in run[1:]):
                continue
            if run[0][0] in STOPWORDS:
                continue
            start, end = run[0][1], run[-1][2]
            if any(start < e and s < end for s, e in taken):
                continue
            joined = "".join(w for w, _, _ in run)
            budget = allowed_edits(len(joined))
            if budget == 0 or joined.isdigit():
                continue
            best: tuple[int, _Name] | None = None
            shorter = "".join(w for w, _, _ in run[:-1])
            for name in table.by_first.get(joined[0], ()):
                if abs(len(name.compact) - len(joined)) > budget:
                    continue
                if n > 1 and joined != name.compact and joined.startswith(name.compact):
                    continue  # "Walmart U.S." is Walmart's name and a word more (a segment), not a typo of it
                distance = OSA.distance(joined, name.compact, score_cutoff=budget)
                if distance > budget:
                    continue
                if n > 1 and distance > 0 and OSA.distance(shorter, name.compact) <= distance:
                    continue  # the last word makes it no closer: "America vs" is not "American" split in two
                if best is None or distance < best[0]:
                    best = (distance, name)
            if best is None:
                continue
            if best[0] > 0 and n == 1 and is_word is not None and is_word(joined):
                continue  # a word the filings use ("being", "costs") is that word, not a typo
            if (best[0] > 0 and n > 1 and is_word is not None and question[start:end].islower()
                    and all(is_word(w) for w, _, _ in run)):
                continue  # words the filings use, in lower case: "the first six months" is not "First Mid"
            found.append(Mention(best[1].company, start, end, joined, exact=best[0] == 0))
            taken = [*taken, (start, end)]
            break
    return found


# --- names the index does not hold ---------------------------------------------------------------

_CAPITALISED = re.compile(r"\b[A-Z][\w&.\-]*(?:\s+(?:&\s+)?[A-Z][\w&.\-]*)*")
_CUE_BEFORE = re.compile(
    r"(?:\b(?:did|does|do|has|have|had|is|was|were|for|of|at|by|from|about|and|or|vs\.?|versus|"
    r"between|compare|companies|company)\s+)$", re.I)
_POSSESSIVE_AFTER = re.compile(r"^(?:'s|’s|(?<=s)'|(?<=s)’)")
_VERB_AFTER = re.compile(r"^\s+(?:report|record|spend|spent|operate|earn|generate|pay|paid|disclose|announce|have|had|"
                         r"make|made|sell|sold|issue|incur|post|own|employ|file)\w*\b", re.I)


_OPENING_WORD = re.compile(r"^(?:what|which|who|how|why|when|where|is|are|was|were|did|does|do|has|have|had|can|could|"
                           r"would|should|will)\s+(?=[A-Z])", re.I)


@dataclass(frozen=True)
class NameLike:
    text: str
    start: int


def name_like_phrases(question: str, is_common: Callable[[str], bool]) -> list[NameLike]:
    """Capitalised runs that read as a company: possessive ("Tesla's"), or after a cue word and
    before a verb ("did Home Depot operate"), or after "for/of/at/by". Runs made only of
    ordinary or financial words ("GAAP", "EBITDA", "Q3", "Net Income") are not names."""
    out = []
    for m in _CAPITALISED.finditer(question):
        text, start = m.group(0).rstrip(".-"), m.start()
        opening = _OPENING_WORD.match(text)
        if opening and _at_sentence_start(question[:start]):
            # "Was Block's ...": the question's first word is capitalised by grammar, not by a name.
            text, start = text[opening.end():], start + opening.end()
        before, after = question[:start], question[m.end():]
        possessive = bool(_POSSESSIVE_AFTER.match(after))
        cued = bool(_CUE_BEFORE.search(before)) and (possessive or bool(_VERB_AFTER.match(after))
                                                     or bool(re.match(r"^\s*(?:in|for|during)\s+(?:fy|fiscal|q\d|\d{4})", after, re.I)))
        if not (possessive or cued):
            continue
        words = [w for w in re.findall(r"[A-Za-z][A-Za-z&.\-]*", text)]
        if not words or all(is_common(w) for w in words):
            continue
        out.append(NameLike(text, start))
    return out


def _at_sentence_start(before: str) -> bool:
    before = before.rstrip(" \t\n\"'(“")
    return not before or before.endswith((".", "?", "!", ":"))


CLOSE = 60.0  # rapidfuzz ratio (0-100) at which a held name reads as near the one asked


def closest(phrase: str, companies: Iterable[str], limit: int = 3) -> list[str]:
    """Held companies whose names are near the phrase (letters compared, legal forms ignored),
    best first; empty when none is near."""
    pool = sorted(set(companies))
    if not pool:
        return []
    ranked = process.extract(compact(phrase), [compact(p) for p in pool], scorer=fuzz.ratio, limit=limit,
                             score_cutoff=CLOSE)
    return [pool[i] for _name, _score, i in ranked]
