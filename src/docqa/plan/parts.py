"""Parts slot: a question that asks for several measures at once ("revenue and operating income in
FY2022", "net income, total assets and free cash flow") is several questions, each answered (or said
not found) on its own and given back in one reply.

A list is read only where the measures the lexicon names stand side by side, joined by nothing but
"and", a comma or "as well as", and nothing else is asked beside them: "capex to depreciation", "A as
a share of B", "was A larger than B", "which of A and B" and "EBITDA margin using operating income
and D&A" are one question about all of them.
"""

from __future__ import annotations

import re

from docqa.finance.lexicon import MetricMatch

_JOIN = re.compile(r"\s*(?:,\s*(?:and\s+|as\s+well\s+as\s+)?|and\s+|as\s+well\s+as\s+|&\s*)(?:(?:the|its|their)\s+)?", re.I)
MAX_PARTS = 4


def split_parts(question: str, measures: tuple[MetricMatch, ...], one_question: bool) -> tuple[str, ...]:
    """The part questions, each naming one of the listed measures in the question's own frame;
    () when the question asks one thing (``one_question``: it states arithmetic, a comparison or
    a ranking over the measures)."""
    if one_question or len(measures) < 2:
        return ()
    ordered = sorted(measures, key=lambda m: m.span)
    runs: list[list[MetricMatch]] = [[ordered[0]]]
    for m in ordered[1:]:
        last = runs[-1][-1]
        if m.span[0] < last.span[1]:
            continue  # overlapping readings of the same words
        between = question[last.span[1]:m.span[0]]
        if _JOIN.fullmatch(between):
            runs[-1].append(m)
        else:
            runs.append([m])
    listed = max(runs, key=len)
    if not 2 <= len(listed) <= MAX_PARTS or len({m.key for m in listed}) < len(listed):
        return ()
    if len(runs) > 1:
        return ()  # another measure is asked beside the list ("EBITDA margin using operating income and D&A")
    start, end = listed[0].span[0], listed[-1].span[1]
    head, tail = question[:start], question[end:]
    return tuple(f"{head}{question[m.span[0]:m.span[1]]}{tail}" for m in listed)
