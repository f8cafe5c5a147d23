"""Questions read as the line they ask: a balance at the beginning of a year is the balance at the end of
the year before; "how much of a whole was a part" asks the part's line.

"Unrecognized tax benefits at the beginning of fiscal 2023", "goodwill at the start of 2022", "the
opening balance of the allowance in fiscal 2022": filings print a year's closing balances (the balance
sheet's columns, a roll-forward's "end of period" row) and a roll-forward's opening row in the same
column; the closing balance of the year before is the one figure both agree on. The question is read
as that year-end balance, and the answer says so.
"""

from __future__ import annotations

import re

_AT_THE_START = re.compile(r"\b(?:at|as\s+of|on)\s+the\s+(?:very\s+)?(?:beginning|start|outset)\s+of\s+"
                           r"(?P<fiscal>(?:the\s+)?(?:fiscal\s+(?:year\s+)?|fy\s?|calendar\s+(?:year\s+)?|year\s+))?"
                           r"(?P<year>(?:19|20)\d\d)\b", re.I)
_OPENING = re.compile(r"\b(?:opening|beginning|beginning-of-(?:the-)?year|starting)\s+(?P<noun>balances?)\b", re.I)
_YEAR = re.compile(r"\b(?P<prep>in|for|during|of)\s+(?P<fiscal>(?:the\s+)?(?:fiscal\s+(?:year\s+)?|fy\s?))?"
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
    opening = _OPENING.search(question)
    dated = _YEAR.search(question, opening.end()) if opening else None
    if opening is not None and dated is not None:
        year = int(dated.group("year"))
        fiscal = "fiscal " if dated.group("fiscal") else ""
        read = (f"{question[:opening.start()]}{opening.group('noun')}{question[opening.end():dated.start()]}"
                f"at the end of {fiscal}{year - 1}{question[dated.end():]}")
        return read, _note(fiscal, year)
    return question, None


def _note(fiscal: str, year: int) -> str:
    return (f"the balance at the beginning of {fiscal}{year} is read as the balance at the end of "
            f"{fiscal}{year - 1}")


# "How much of Walmart's fiscal 2018 income tax provision was current federal?": the part is the line,
# named before the whole it is part of ("current federal income tax provision")
_PART_OF = re.compile(r"^\W*how\s+much\s+of\s+(?P<whole>[^?;]{3,90}?)\s+(?:was|were|is|are)\s+(?:(?:for|from|in|related\s+to|"
                      r"attributable\s+to)\s+)?(?P<part>[a-z][a-z&/ -]{1,40}?)\s*(?P<end>[?.]?\s*)$", re.I)
_OWNER = re.compile(r"^(?P<owner>(?:the\s+)?(?:[A-Z][\w.&-]*\s+){0,4}?[A-Z][\w.&-]*['\u2019]s?\s+)")


def as_part_asked(question: str) -> str | None:
    """The question asked of the part it names after the whole ("how much of X's provision was current
    federal" -> "What was X's current federal provision?"); None when it asks no part so."""
    found = _PART_OF.match(question)
    if found is None or re.search(r"\d", found.group("part")) or re.search(r"ed$|\bused$|\bspent$|\bpaid$", found.group("part")):
        return None  # "how much of the authorization was used": an event, not a part
    whole = found.group("whole")
    period = _PERIOD.search(whole)
    when = ""
    if period is not None:
        when = f" in {period.group('when')}"
        whole = f"{whole[:period.start()]} {whole[period.end():]}"
    owner = _OWNER.match(whole)
    owned = " ".join(whole[owner.end():].split()) if owner else " ".join(whole.split())
    lead = owner.group("owner") if owner else ""
    return " ".join(f"What was {lead}{found.group('part').strip()} {owned}{when}".split()) + "?"


_PERIOD = re.compile(r"\s*\b(?:in\s+|for\s+|during\s+)?(?P<when>(?:fiscal\s+(?:year\s+)?|fy\s?)?(?:19|20)\d\d)\b", re.I)
