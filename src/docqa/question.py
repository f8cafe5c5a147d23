"""What every face's question goes through before the engine looks for an answer.

A question is text a person typed: control characters (a terminal's bell, C1 bytes pasted from
a mis-decoded file) are turned into spaces. It must hold a word a filing could contain: letters,
not only figures, search operators ("AND OR NEAR(") and punctuation; "b" or "9%" finds only
noise (exhibit-index lines such as "Item 601(b)(2)"), so such a question is not found with that
reason rather than answered.
"""

from __future__ import annotations

import unicodedata

from docqa.text import STOPWORDS, tokens

OPERATORS = frozenset({"and", "or", "not", "near"})
MIN_LETTERS = 2  # a content word has at least this many letters ("b" has one; "3m" counts only with another)


def check_length(question: str, limit: int, what: str = "question") -> None:
    """Every face's one limit on a question's length (Settings.max_question_chars), with one message."""
    if len(question) > limit:
        raise ValueError(f"the {what} is {len(question):,} characters long; the limit is {limit:,} "
                         "(DOCQA_MAX_QUESTION_CHARS): ask about one thing at a time")


def clean_question(question: str) -> str:
    """``question`` with control and format characters replaced by spaces, trimmed."""
    out = "".join(" " if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") else ch for ch in question)
    return " ".join(out.split())


def content_words(question: str) -> list[str]:
    return [t for t in tokens(question)
            if sum(ch.isalpha() for ch in t) >= MIN_LETTERS and t not in STOPWORDS and t not in OPERATORS]


def nothing_to_look_for(question: str) -> str | None:
    """Why ``question`` cannot be answered from any filing, or None when it has words to look for."""
    if content_words(question):
        return None
    shown = question if len(question) <= 60 else question[:57] + "..."
    return (f"the question {shown!r} has no word to look for in a filing (only single letters, figures, operators or "
            "punctuation that any page matches); ask about a company, a measure or a topic")


__all__ = ["MIN_LETTERS", "OPERATORS", "check_length", "clean_question", "content_words", "nothing_to_look_for"]
