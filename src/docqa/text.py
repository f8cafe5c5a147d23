"""Text normalisation shared by the lexical index, query parsing and verification.

The lexical index sees the output of ``index_text``: lower-case tokens separated by spaces, with
figures made matchable the way people type them: ``1,577`` and ``(1,577)`` and ``$1,577`` all
become ``1577``; ``8.70`` stays ``8.70``; ``FY2018`` becomes ``fy2018 2018``; ``10-K`` becomes
``10k``. Any backend (SQLite FTS5, PostgreSQL tsvector) indexes this string with a plain
whitespace tokenizer, so both agree on what a token is.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from functools import lru_cache

import snowballstemmer

# The comma first, then the digit before it: a pattern that opens with a lookbehind is tried at every
# position of the text, one that opens with a literal jumps from comma to comma (ten times faster).
_THOUSANDS = re.compile(r",(?<=\d,)(?=\d{3}\b)")
_FORM = re.compile(r"\b(10|8|20|40)\s?-\s?([kqf])\b", re.I)
_FISCAL = re.compile(r"\bfy\s?'?(\d{4}|\d{2})\b", re.I)
_TOKEN = re.compile(r"[a-z0-9]+(?:[.&][a-z0-9]+)*")

_TRANSLATE = str.maketrans(
    {
        "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
        "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u00a0": " ", "\u2011": "-",
    }
)

_FOLDS = tuple((chr(k), v) for k, v in _TRANSLATE.items())

STOPWORDS = frozenset(
    """a an and are as at be by did do does for from had has have how i in into is it its of on or
    our over than that the their them then there these this those to was were what when where which
    who whom why will with would you your please give answer question based using use shown
    information provided details following statement statements only primarily relying""".split()
)


def fold(text: str) -> str:
    """Unicode-fold quotes, dashes and compatibility forms (ligatures, full-width digits)."""
    if text.isascii():
        return text  # NFKC and the table leave ASCII as it is
    text = unicodedata.normalize("NFKC", text)
    # str.replace per character of the table: str.translate looks every character up in a dict, and
    # took 30 times as long over a filing's chunks (the same result: the table maps to ASCII only)
    for old, new in _FOLDS:
        if old in text:
            text = text.replace(old, new)
    return text


def _expand_fiscal(match: re.Match) -> str:
    year = match.group(1)
    if len(year) == 2:
        year = "20" + year
    return f"fy{year} {year}"


def tokens(text: str) -> list[str]:
    text = fold(text).lower()
    if "," in text:
        text = _THOUSANDS.sub("", text)
    # every match of these holds a "-" or an "fy" (the text is lower case by now): most chunks have neither
    if "-" in text:
        text = _FORM.sub(_form, text)
    if "fy" in text:
        text = _FISCAL.sub(_expand_fiscal, text)
    return _TOKEN.findall(text)


def _form(match: re.Match) -> str:
    return f"{match.group(1)}{match.group(2).lower()}"


def index_text(text: str) -> str:
    return " ".join(tokens(text))


def query_tokens(text: str) -> list[str]:
    """Tokens worth searching for: no stopwords, no duplicates, order kept."""
    seen: dict[str, None] = {}
    for tok in tokens(text):
        if tok not in STOPWORDS and tok not in seen:
            seen[tok] = None
    return list(seen)


_SPACES = re.compile(r"\s+")
# "mobile-\nfirst" as printed, and "mobile- first" as a sentence built from its lines quotes it: one word
_HYPHEN_BREAK = re.compile(r"(\w)-\s+(\w)")


def normalize_for_match(text: str) -> str:
    """Loose form for 'does this quote occur on that page': folds case, quotes, dashes,
    hyphenation at line ends and runs of whitespace."""
    text = fold(text)
    text = _HYPHEN_BREAK.sub(r"\1\2", text)
    text = _SPACES.sub(" ", text)
    return text.strip().lower()


_STEMMER = snowballstemmer.stemmer("english")
_STEM_LOCK = threading.Lock()


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """Snowball's English stem of one word (PostgreSQL's "english" configuration stems alike). One
    stemmer for the process, behind a lock: snowballstemmer's stemmer objects are not thread-safe."""
    with _STEM_LOCK:
        return _STEMMER.stemWord(word)
