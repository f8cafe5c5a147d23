"""Parts slot: a question that asks for several figures at once is several questions, each answered
(or said not found) on its own and given back in one reply. Three kinds of list make parts, and
they multiply ("revenue and net income in 2019 and 2020" is four):

- measures the lexicon names side by side, joined by nothing but "and", a comma or "as well as"
  ("revenue and operating income in FY2022", "net income, total assets and free cash flow");
- years listed for a figure ("net income in 2019 and 2020", "as of December 31, 2021 and 2020");
- named segments or regions before a plural noun ("the Domestic and International segments").

A list is one question where the question states something about its members together:
arithmetic, a comparison, a ranking or a verdict (``one_question``: "capex to depreciation", "was
A larger than B", "which of A and B"), a change or growth over the years listed, or a total of
them ("combined", "in total"). "EBITDA margin using operating income and D&A" is one question
about all of them.
"""

from __future__ import annotations

import re

from docqa.finance.lexicon import MetricMatch

_JOIN = re.compile(r"\s*(?:,\s*(?:and\s+|as\s+well\s+as\s+)?|and\s+|as\s+well\s+as\s+|&\s*)(?:(?:the|its|their)\s+)?", re.I)
MAX_PARTS = 6

_YEAR = r"(?:FY\s?|fiscal\s+(?:year\s+)?)?(?:19|20)\d{2}"
_LIST_JOIN = r"(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)"
_YEARS = re.compile(rf"(?<![\w-]){_YEAR}(?:{_LIST_JOIN}{_YEAR})+(?![\w-])", re.I)
# Words before a list of years that make it a span ("between 2019 and 2020"), not a list.
_SPAN_BEFORE = re.compile(r"\b(?:between|from|through|to|vs\.?|versus)\s+(?:(?:fiscal|calendar)\s+(?:years?\s+)?|years?\s+)?$",
                          re.I)
# The members of a list taken together: one figure of all of them, not one of each.
_TOGETHER = re.compile(r"\b(?:combined|together|in\s+total|in\s+aggregate|aggregate|cumulative(?:ly)?|sum|"
                       r"summed|altogether|average|mean|over\s+(?:the|those|these)\b|across\b)", re.I)
_NAME = r"[A-Z][A-Za-z.&'’-]*(?:\s+[A-Z][A-Za-z.&'’-]*)*"
_GROUPS = re.compile(rf"(?<![\w'’])(?P<names>{_NAME}(?:{_LIST_JOIN}{_NAME})+)\s+"
                     r"(?P<noun>(?:reportable\s+|operating\s+|business\s+)?"
                     r"(?:segments|regions|divisions|businesses|units|geographies))\b")


def split_parts(question: str, measures: tuple[MetricMatch, ...], one_question: bool,
                over_time: bool = False, counts: bool = False) -> tuple[str, ...]:
    """The part questions, each asking one figure in the question's own frame; () when the
    question asks one thing (``one_question``: it states arithmetic, a comparison or a ranking
    over what it lists; ``over_time``: a change or growth across the years it lists). Years and
    segments make parts of a figure only (a measure named, or ``counts``: "how many stores"):
    "the acquisitions of FY2022 and FY2023" is one list."""
    if one_question or _TOGETHER.search(question):
        return ()
    parts = _by_measure(question, measures) or (question,)
    if not measures and not counts:
        return parts if len(parts) > 1 else ()
    if not over_time:
        parts = tuple(p for part in parts for p in (_by_year(part) or (part,)))
    parts = tuple(p for part in parts for p in (_by_group(part) or (part,)))
    if len(parts) < 2 or len(parts) > MAX_PARTS:
        return ()
    return parts


def _by_measure(question: str, measures: tuple[MetricMatch, ...]) -> tuple[str, ...]:
    if len(measures) < 2:
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


def _by_year(question: str) -> tuple[str, ...]:
    """"Net income in 2019 and 2020": the figure of each year. The words before the first year
    ("fiscal", "FY") are each year's ("fiscal 2018 and 2019" is fiscal 2018, fiscal 2019)."""
    runs = list(_YEARS.finditer(question))
    if len(runs) != 1:
        return ()
    run = runs[0]
    if _SPAN_BEFORE.search(question[:run.start()]):
        return ()
    years = re.findall(_YEAR, run.group(0), re.I)
    digits = [re.search(r"\d{4}", y).group(0) for y in years]
    if len(set(digits)) != len(digits):
        return ()
    prefix = re.match(r"\D*", years[0]).group(0)
    head, tail = question[:run.start()], question[run.end():]
    return tuple(f"{head}{prefix}{d}{tail}" for d in digits)


def _by_group(question: str) -> tuple[str, ...]:
    """"Revenue of the Domestic and International segments": each segment's figure, named by its
    own name ("the Domestic segment"); a single name that holds "and" ("Safety and Industrial
    segment") is left whole, as the noun is not plural."""
    found = list(_GROUPS.finditer(question))
    if len(found) != 1:
        return ()
    match = found[0]
    names = [n.strip() for n in re.split(_LIST_JOIN, match.group("names")) if n.strip()]
    start = match.start()
    owner = re.match(r".*['’]s\s+", names[0])
    if owner:  # "Best Buy's Domestic and International segments": the owner stays before the list
        start += owner.end()
        names[0] = names[0][owner.end():]
    if len(names) < 2 or len(set(names)) < len(names):
        return ()
    noun = match.group("noun")
    singular = noun[:-3] + "y" if noun.endswith("ies") else noun[:-2] if noun.endswith("sses") else noun[:-1]
    head, tail = question[:start], question[match.end():]
    if tail[:1] in ("'", "’"):
        tail = tail[:1] + "s" + tail[1:]  # "the segments' revenues": the segment's
    return tuple(f"{head}{name} {singular}{tail}" for name in names)
