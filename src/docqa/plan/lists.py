"""List slot: "what are the company's business segments?": the plural noun a list question asks
for and the words that qualify it."""

from __future__ import annotations

import re

_ASK = re.compile(
    r"^\W*(?:what|which|list|name)\s+(?:are|were)\s+(?P<head>.+?)"
    r"(?=\s+(?:as|per|in|of|that|which|according|described|for|from|during|at|does|did|do|has|have)\b|\s*[?.]|$)",
    re.I,
)
_NOT_LIST_NOUN = frozenset("years figures numbers amounts items results risks factors terms details drivers reasons "
                           "changes effects impacts trends".split())


def asked_noun(question: str) -> tuple[str, list[str]] | None:
    """The plural noun a list question asks for and the words qualifying it ("business")."""
    m = _ASK.match(question.strip())
    if not m:
        return None
    words = re.findall(r"[A-Za-z’']+", m.group("head"))
    if not words:
        return None
    noun = words[-1].lower()
    if not noun.endswith("s") or noun.endswith(("'s", "’s")) or noun in _NOT_LIST_NOUN or len(noun) < 5:
        return None
    qualifiers: list[str] = []
    for w in reversed(words[:-1]):
        if w.endswith(("'s", "’s")) or w.lower() in {"the", "its", "their", "our"}:
            break
        qualifiers.insert(0, w.lower())
    return noun, qualifiers[-2:]
