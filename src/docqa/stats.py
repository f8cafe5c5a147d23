"""Document statistics: exact counts over the full stored text, never estimates from retrieval.

"How many pages does the 10-K have?" and "how many times is 'cloud' mentioned?" are questions
about the whole document; search would only see the top pages. ``stats_question`` recognises
them so that ``ask`` can route here, and ``document_stats`` counts.
"""

from __future__ import annotations

import re
from typing import Literal

from docqa.text import fold
from docqa.types import DocStats

StatsKind = Literal["pages", "words", "count"]

# A word is a whitespace-separated run holding a letter or digit ("$" or "—" alone is not a word).
_WORD = re.compile(r"\S*[^\W_]\S*")
_QUOTES = "\"'`\u201c\u201d\u2018\u2019"


def _normal(text: str) -> str:
    return fold(text).lower()


def term_pattern(term: str) -> re.Pattern[str]:
    """Whole-word, case-insensitive pattern for a word or phrase.

    Words of a phrase may be split by any whitespace, a line break included ("cash\\nflow"); a
    hyphen in the term may carry a line break after it ("self-\\nservice"). A term ending in a
    non-word character ("R&D", "U.S.") is bounded only by what follows it being no word character.
    """
    words = _normal(term).strip().strip(_QUOTES).split()
    if not words:
        raise ValueError("term is empty")
    parts = [re.escape(w).replace(r"\-", r"-\s*") for w in words]
    body = r"\s+".join(parts)
    return re.compile(r"(?<!\w)" + body + r"(?!\w)")


def count_term(text: str, term: str) -> int:
    return len(term_pattern(term).findall(_normal(text)))


def document_stats(pages: list[str], document: str, term: str | None = None) -> DocStats:
    """Page count, word count and, for ``term``, its occurrences and the 1-based pages holding it.

    Counting is per page, so a phrase broken across a page boundary is not counted.
    """
    words = sum(len(_WORD.findall(page)) for page in pages)
    if term is None or not term.strip().strip(_QUOTES).strip():
        return DocStats(document=document, pages=len(pages), words=words)
    pattern = term_pattern(term)
    count = 0
    found_on: list[int] = []
    for number, page in enumerate(pages, start=1):
        hits = len(pattern.findall(_normal(page)))
        if hits:
            count += hits
            found_on.append(number)
    clean = term.strip().strip(_QUOTES).strip()
    return DocStats(document=document, pages=len(pages), words=words, term=clean, count=count,
                    pages_with_term=tuple(found_on))


# --- recognising the question ----------------------------------------------------------------

_PAGES = re.compile(
    r"\bhow\s+many\s+pages\b|\b(?:number|count)\s+of\s+pages\b|\bpage\s+count\b|\bhow\s+long\s+is\b.*\bin\s+pages\b",
    re.I,
)
_WORDS = re.compile(r"\bhow\s+many\s+words\b|\b(?:number|count)\s+of\s+words\b|\bword\s+count\b", re.I)

_VERB = r"(?:mentioned|mention|mentions|appear|appears|appeared|occur|occurs|occurred|used|cited|referenced|found|show\s+up|shows\s+up)"
_TAIL = r"(?:\s+(?:in|within|throughout|across|on)\b.*)?\s*[?.!]*\s*$"
_THE_TERM = r"(?:(?:the\s+)?(?:word|term|phrase|name|string|keyword)\s+)?"

_COUNT_PATTERNS = [
    # how many times is/does/do 'Y' mentioned/appear (in X)?
    re.compile(r"\bhow\s+(?:many\s+times|often)\s+(?:is|are|was|were|does|do|did|has|have)\s+" + _THE_TERM
               + r"(?P<term>.+?)\s+(?:been\s+)?" + _VERB + _TAIL, re.I),
    # how many times does X mention Y?
    re.compile(r"\bhow\s+(?:many\s+times|often)\s+(?:does|do|did)\s+[^?]+?\s+(?:mention|use|cite|reference|say)\s+"
               + _THE_TERM + r"(?P<term>.+?)" + _TAIL, re.I),
    # how many mentions/occurrences of Y (are there) (in X)?
    re.compile(r"\b(?:how\s+many|number\s+of|count\s+(?:the\s+)?)\s*(?:mentions|occurrences|instances|references|uses)\s+of\s+"
               + _THE_TERM + r"(?P<term>.+?)(?:\s+(?:are|is)\s+there)?" + _TAIL, re.I),
    # (the) number of times Y is mentioned / appears
    re.compile(r"\bnumber\s+of\s+times\s+" + _THE_TERM + r"(?P<term>.+?)\s+(?:is\s+|are\s+|was\s+)?" + _VERB + _TAIL, re.I),
    # how many pages mention/contain Y? (the answer is the pages_with_term)
    re.compile(r"\bhow\s+many\s+pages\s+(?:mention|contain|include|use|cite|reference|refer\s+to|discuss)\s+"
               + _THE_TERM + r"(?P<term>.+?)" + _TAIL, re.I),
    # count 'Y' in X
    re.compile(r"^\s*count\s+" + _THE_TERM + r"(?P<term>.+?)" + _TAIL, re.I),
]

# A quoted term: the opening mark starts a word and the closing one ends it ("Amazon's" is no quote).
_QUOTED = re.compile(r"(?<!\w)[\"'`]([^\"'`]{1,80}?)[\"'`](?!\w)")


def _clean_term(term: str) -> str | None:
    term = term.strip().strip(_QUOTES + " ,;:").strip()
    return term or None


def stats_question(question: str) -> tuple[StatsKind, str | None] | None:
    """("pages", None), ("words", None) or ("count", term) when the question asks for one; else None.

    Which document is meant is left to the caller (its filters or the names in the question).
    """
    # The question proper: what follows its "?" says how to answer ("Use cost of products sold ..."),
    # never what to count.
    text = fold(question).strip()
    text = text.split("?", 1)[0] + ("?" if "?" in text else "")
    for pattern in _COUNT_PATTERNS:
        match = pattern.search(text)
        if not match:
            continue
        # A quoted term is exact ("how many times does 'cloud computing' appear in Amazon's 10-K").
        quoted = _QUOTED.search(match.group(0))
        term = _clean_term(quoted.group(1)) if quoted else _clean_term(match.group("term"))
        if term:
            return ("count", term)
    if _PAGES.search(text):
        return ("pages", None)
    if _WORDS.search(text):
        return ("words", None)
    return None


__all__ = ["StatsKind", "count_term", "document_stats", "stats_question", "term_pattern"]
