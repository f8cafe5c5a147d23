"""How questions join the members of a list and name a month: shared by the readings of parts."""

from __future__ import annotations

MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
# "A, B and C", "A & B"
LIST_JOIN = r"(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)"


def of_one_kind(items) -> bool:
    """Phrases of two words or more that all start with the same word: "Fios internet connections and
    Fios video connections" are two things of one kind, not one line's name."""
    return all(len(i.split()) >= 2 for i in items) and len({i.split()[0].lower() for i in items}) == 1
