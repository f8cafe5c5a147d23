"""Is a quote on its page, and does an answer repeat a quote?

A quote is found on the page as stored whatever the whitespace, case, curly quotes, dashes,
line-end hyphenation and table-cell spacing; an elided quote ("a ... b") needs each part, in
order. ``quoted_text`` writes an answer made of its quotes (the extractive answerer's), so that
the same text can be rebuilt from the quotes that survive.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from docqa.injection import looks_like_instruction
from docqa.text import fold, normalize_for_match, tokens
from docqa.types import Citation

_HYPHEN_BREAK = re.compile(r"(\w)-\s*\n\s*(\w)")
_INNER_HYPHEN = re.compile(r"(\w)-(\w)")
_ELLIPSIS = re.compile(r"\s*(?:\.\s?\.\s?\.|\u2026)\s*")
_QUOTE_MARKS = "\"'`\u201c\u201d\u2018\u2019 "
# A "quote" that tells a model what to do is an injection attempt, not evidence of anything
# (docqa.injection.looks_like_instruction decides).
MIN_CARRIED_TOKENS = 6  # a run this long of a dropped quote's words in the answer means the answer repeats it


def quoted_text(citations: Iterable[Citation]) -> str:
    """The text of an answer made of its quotes (the extractive answerer's): each quote once, cited,
    after what it is about when the answer says ("Safety and Graphics Business (2018): “...”")."""
    parts, seen = [], set()
    for c in citations:
        key = normalize_for_match(c.quote)
        if key not in seen:
            seen.add(key)
            about = f"{c.about}: " if c.about else ""
            parts.append(f"{about}\u201c{c.quote}\u201d (p. {c.page})")
    return " \u2026 ".join(parts)


def carries(text: str, quote: str) -> bool:
    """Does ``text`` repeat ``quote`` (a run of ``MIN_CARRIED_TOKENS`` of its words; all of a
    shorter quote only when it instructs: a short row label shared with the answer is no repeat)?"""
    words = tokens(quote)
    if not words or (len(words) < MIN_CARRIED_TOKENS and not looks_like_instruction(quote)):
        return False
    haystack = " " + " ".join(tokens(text)) + " "
    n = min(MIN_CARRIED_TOKENS, len(words))
    return any(" " + " ".join(words[i:i + n]) + " " in haystack for i in range(len(words) - n + 1))


def _token_string(text: str) -> str:
    return " " + " ".join(tokens(_HYPHEN_BREAK.sub(r"\1\2", fold(text)))) + " "


def _fragment_on_page(fragment: str, page_norm: str, page_tokens: str) -> bool:
    if normalize_for_match(fragment) in page_norm:
        return True
    # Token form: spacing between table cells, "$" cells and thousands commas do not matter.
    wanted = _token_string(fragment)
    return wanted.strip() != "" and wanted in page_tokens


def quote_on_page(quote: str, page_text: str) -> bool:
    """Does ``quote`` occur on the page? An elided quote ("a ... b") needs each part, in order."""
    quote = quote.strip().strip(_QUOTE_MARKS)
    qtokens = tokens(quote)
    # One-word quotes ("Yes", "the") prove nothing; a single figure ("177,866") may.
    if not qtokens or (len(qtokens) < 2 and not any(ch.isdigit() for ch in qtokens[0])):
        return False
    page_norm = normalize_for_match(page_text)
    page_tokens = _token_string(page_text)
    parts = [p for p in _ELLIPSIS.split(fold(quote)) if tokens(p)]
    if len(parts) <= 1:
        # A compound broken at its own hyphen ("co-\nsourced") reads "cosourced" once rejoined.
        return _fragment_on_page(quote, page_norm, page_tokens) or _fragment_on_page(
            _INNER_HYPHEN.sub(r"\1\2", quote), page_norm, page_tokens)
    position = 0
    for part in parts:
        # Parts are found in order on the token form of the page.
        wanted = _token_string(part)
        found = page_tokens.find(wanted, position)
        if found < 0:
            return False
        position = found + len(wanted) - 1
    return True
