"""How questions join the members of a list and name a month: shared by the readings of parts."""

from __future__ import annotations

MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
# "A, B and C", "A & B"
LIST_JOIN = r"(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)"
