"""List slot: "what are the company's business segments?": the plural noun a list question asks
for and the words that qualify it."""

from __future__ import annotations

import re

_HEAD_END = (r"(?=\s+(?:as|per|in|of|that|which|according|described|for|from|during|at|does|did|do|has|have)\b"
             r"|\s*[?.]|$)")
_ASK = re.compile(
    # "what are the segments", "list the reportable segments of X", "which brands does X operate"
    rf"^\W*(?:(?:what|which|list|name)\s+(?:are|were)|(?:list|name)(?:\s+all)?(?:\s+of)?)\s+(?P<head>.+?){_HEAD_END}"
    r"|^\W*(?:what|which)\s+(?P<subject>(?:[a-z]+\s+){0,2}[a-z]+s)\s+(?:does|do|did)\s+(?!not\b)",
    re.I,
)
# nouns of a section's matter or of time, never a list of the filer's own things
_NOT_LIST_NOUN = frozenset("years figures numbers amounts items results risks factors terms details drivers reasons "
                           "changes effects impacts trends quarters periods months weeks days times matters "
                           "challenges issues uncertainties proceedings contingencies policies estimates concerns "
                           "threats".split()) | frozenset(
    # amounts: "what were X's pension costs / net assets / audit fees in 2022" asks a figure, not a list
    "costs expenses expenditures assets liabilities fees revenues sales earnings receivables payables borrowings "
    "proceeds losses gains charges reserves provisions obligations payments benefits".split())


def asked_noun(question: str) -> tuple[str, list[str]] | None:
    """The plural noun a list question asks for and the words qualifying it ("business")."""
    m = _ASK.match(question.strip())
    if not m:
        return None
    words = re.findall(r"[A-Za-z’']+", m.group("head") or m.group("subject"))
    if not words or any(w.lower() in _NOT_LIST_NOUN for w in words):
        # "what are the main risks 3M faces": risks, reasons, drivers are a section's matter
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
