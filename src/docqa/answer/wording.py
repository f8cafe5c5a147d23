"""How an answer was reached, in the words a reader uses (never the answerer's internal name).

The faces print this on the answer line ("verified · read from the statements · 385 ms"); a
not-found answer has no such phrase: its badge already says "not found".
"""

from __future__ import annotations

from docqa.types import Answer

HOW = {
    "figures": "read from the statements",
    "filing_facts": "read where the filing prints it (cover, auditor's report, signatures)",
    "extractive": "quoted from the filing",
    "stats": "counted over the full text",
    "disclosure": "decided from the filing's full text",
    "lists": "listed from the filing",
    "section": "quoted from the section that discusses it",
    "ranking": "ranked from the table the filing prints",
    "scheduled": "read from the schedule the filing prints for that year",
    "sentences": "read from the sentence that states it",
    "sentence moves": "read from the sentences that state it",
    "sentence level": "read from the sentence that states it",
    "anthropic": "written by a language model from the cited pages",
    "openai": "written by a language model from the cited pages",
}


def how_answered(answer: Answer) -> str:
    """'read from the statements', 'quoted from the filing', ...; '' when nothing was found."""
    if not answer.found:
        return ""
    base = (answer.answerer or "").split(":", 1)[0]
    if base in HOW:
        return HOW[base]
    return "computed from the statements" if answer.formula else "from the filing"


__all__ = ["HOW", "how_answered"]
