"""Document statistics: exact counts over the full stored text, never estimates from retrieval.

"How many pages does the 10-K have?" and "how many times is 'cloud' mentioned?" are questions
about the whole document; search would only see the top pages. ``stats_question`` recognises
them so that ``ask`` can route here, and ``document_stats`` counts.
"""

from __future__ import annotations

import re

from docqa.text import fold
from docqa.types import DocStats


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
