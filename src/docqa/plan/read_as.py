"""Questions read as the line they ask: a balance at the beginning of a year is the balance at the end of
the year before.

"Unrecognized tax benefits at the beginning of fiscal 2023", "goodwill at the start of 2022": filings
print a year's closing balances (the balance sheet's columns, a roll-forward's "end of period" row) and a
roll-forward's opening row in the same column; the closing balance of the year before is the one figure
both agree on. The question is read as that year-end balance, and the answer says so. ("The opening
balance in fiscal 2021" is left as asked: many filers print an "Opening balance" row of the year itself.)
"""

from __future__ import annotations

import re

_AT_THE_START = re.compile(r"\b(?:at|as\s+of|on)\s+the\s+(?:very\s+)?(?:beginning|start|outset)\s+of\s+"
                           r"(?P<fiscal>(?:the\s+)?(?:fiscal\s+(?:year\s+)?|fy\s?|calendar\s+(?:year\s+)?|year\s+))?"
                           r"(?P<year>(?:19|20)\d\d)\b", re.I)


def as_closing_balance(question: str) -> tuple[str, str | None]:
    """The question with a year's opening balance asked as the year before's closing one, and a note
    that says so; the question unchanged and None when it asks no opening balance."""
    if len(re.findall(r"\b(?:19|20)\d\d\b", question)) != 1:
        return question, None  # one year asked: an opening balance beside other years is another reading
    found = _AT_THE_START.search(question)
    if found is not None:
        year = int(found.group("year"))
        fiscal = "fiscal " if found.group("fiscal") and "f" in found.group("fiscal").lower() else ""
        read = f"{question[:found.start()]}at the end of {fiscal}{year - 1}{question[found.end():]}"
        return read, _note(fiscal, year)
    return question, None


def _note(fiscal: str, year: int) -> str:
    return (f"the balance at the beginning of {fiscal}{year} is read as the balance at the end of "
            f"{fiscal}{year - 1}")
