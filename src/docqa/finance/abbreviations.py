"""Abbreviations and the words they stand for, read from a filing's own text and labels.

An analyst writes "EMEA capex" where the filing prints "Europe, Middle East and Africa", or "CWIP"
where it prints "Construction work in progress"; a filing prints "PBNA" in a table and defines it
once in a sentence ("PepsiCo Beverages North America (PBNA)"). Two readings, no list of terms:

- a definition in the filing's text, found as Schwartz and Hearst find them (2003): a short form in
  brackets after the words it abbreviates, its letters met in order in those words, the first at
  the start of a word;
- with no definition, the strict reading of initials: every content word of the long form gives
  the short form at least its first letter ("Asia Pacific" -> "APAC", "Construction work in
  progress" -> "CWIP"), so a short form never stands for words it skips.

(The ``abbreviations`` package on PyPI implements the first reading but configures the root logger
when imported and raises on unbalanced brackets, which filings print often.)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

_POSSESSIVE = re.compile(r"['\u2019]s?$")
_SMALL = frozenset("and of the for in on to a an & by at".split())
_WORD = re.compile(r"[A-Za-z][A-Za-z'\u2019-]*|&")
# A short form: 2-8 characters, two capitals at least ("EMEA", "PP&E", "BDS", "RevPAR")
_SHORT = r"[A-Z][A-Za-z&./-]{1,7}"
# "(EMEA)", "(“FLNA”)", "(the SEC)": a short form in brackets; the words before it are read back from it
_BRACKETED = re.compile(r" \(\s*(?:the\s+|\u201c|\")?(" + _SHORT + r")(?:\u201d|\")?\s*\)")
_WORD_BEFORE = re.compile(r"[A-Za-z][\w'\u2019&.,-]*\Z")
_WORDS_BACK = 10


def is_short_form(token: str) -> bool:
    letters = re.sub(r"[^A-Za-z]", "", token)
    return 2 <= len(letters) <= 8 and sum(c.isupper() for c in letters) >= 2 and token[:1].isupper()


def _letters(short: str) -> str:
    return re.sub(r"[^a-z0-9]", "", short.lower())


def _spells(letters: str, words: list[str], small: list[bool], strict: bool) -> bool:
    """Do ``words`` give ``letters`` in order, each word's share starting at its first letter?
    Strict: every content word gives a share (small words may give none); else any word may."""
    def go(i: int, w: int) -> bool:
        if i == len(letters):
            return all(small[w:]) if strict else True
        if w == len(words):
            return False
        word = words[w]
        if (not strict or small[w]) and go(i, w + 1):
            return True
        if word[:1] != letters[i]:
            return False
        # this word gives letters[i:j], in order, from its first letter on
        k, j = 1, i + 1
        if go(j, w + 1):
            return True
        while j < len(letters) and k < len(word):
            if word[k] == letters[j]:
                j += 1
                if go(j, w + 1):
                    return True
            k += 1
        return False
    return go(0, 0)


def abbreviates(short: str, long: str, strict: bool = True) -> bool:
    """Is ``short`` an abbreviation of ``long``? ("EMEA", "Europe, Middle East and Africa")"""
    letters = _letters(short)
    words = [w.lower() for w in _WORD.findall(long) if w != "&"]
    if len(letters) < 2 or not words or len(words) > 2 * len(letters) + 2:
        return False
    small = [w in _SMALL for w in words]
    if all(small):
        return False
    return _spells(letters, words, small, strict)


def definitions(texts: Iterable[str]) -> dict[str, str]:
    """Short form -> the words it stands for, as the text defines them ("Europe, Middle East and Africa
    (EMEA)"): the fewest words before the bracket that spell it, the first at the short form's
    first letter. A short form defined two ways means the way printed most, or nothing on a tie."""
    seen: dict[str, Counter[str]] = {}
    printed: dict[tuple[str, str], str] = {}
    for text in texts:
        text = " ".join(text.split())
        for m in _BRACKETED.finditer(text):
            short = m.group(1).rstrip(".")
            if not is_short_form(short):
                continue
            long = _shortest_spelling(short, _words_before(text, m.start()))
            if long is None:
                continue
            key = long.lower()
            seen.setdefault(short, Counter())[key] += 1
            printed.setdefault((short, key), long)
    out = {}
    for short, forms in seen.items():
        (first, n), *rest = forms.most_common(2)
        if not rest or rest[0][1] < n:
            out[short] = printed[(short, first)]
    return out


def _words_before(text: str, end: int) -> list[str]:
    """The run of words (at most ten) that ends where a bracket opens; a word's leading marks ("“Frito-Lay")
    are not part of it, and a token with no word in it ends the run."""
    out: list[str] = []
    for token in reversed(text[max(0, end - 400):end].split()[-_WORDS_BACK:]):
        word = _WORD_BEFORE.search(token)
        if word is None:
            break
        out.append(word.group(0))
        if word.start() > 0:
            break
    return out[::-1]


def _shortest_spelling(short: str, words: list[str]) -> str | None:
    letters = _letters(short)
    words = [w.strip(",;:") for w in words]
    if words:
        words[-1] = _POSSESSIVE.sub("", words[-1])  # "PepsiCo Beverages North America's (PBNA)"
    for n in range(2, min(len(words), len(letters) + 3) + 1):
        window = words[-n:]
        if not window[0] or window[0][0].lower() != letters[0] or window[0].lower() in _SMALL:
            continue
        text = " ".join(window)
        if abbreviates(short, text):
            return text
    return None


def windows_spelling(short: str, words: list[str]) -> list[tuple[int, int]]:
    """Spans of ``words`` (start, end) whose words strictly abbreviate to ``short``."""
    out = []
    for i in range(len(words)):
        if words[i].lower() in _SMALL or is_short_form(words[i]):
            continue
        for j in range(i + 1, min(len(words), i + 2 * len(_letters(short)) + 2) + 1):
            if words[j - 1].lower() in _SMALL:
                continue
            if is_short_form(words[j - 1]):
                break
            if abbreviates(short, " ".join(words[i:j])):
                out.append((i, j))
    return out
