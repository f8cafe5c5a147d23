"""Years listed for a figure are parts of a question: "net income in 2019 and 2020", "FY22 and FY21",
"at December 31, 2021 and at December 31, 2020", "2022 vs 2021" when no change is asked; so are the
spans a quarterly report prints side by side, ended on one day: "the three and six months ended June
30, 2023", "the quarter and six months ended ..."."""

from __future__ import annotations

import re

from docqa.plan.list_words import LIST_JOIN, MONTH

# A quarter named before its year ("Q2 2023", "the second quarter of 2022", "second-quarter fiscal 2023").
_QUARTER_PRE = r"(?:q[1-4]\s*(?:of\s+)?|(?:first|second|third|fourth)[\s-]+(?:fiscal\s+)?quarter\s+(?:of\s+)?)"
_ITEM = (rf"(?:(?:(?:{MONTH}\s+\d{{1,2}},?\s*)|{_QUARTER_PRE}?(?:fiscal\s+(?:year\s+)?|FY\s?)|{_QUARTER_PRE})?(?:19|20)\d{{2}}"
         r"|FY\s?'?\d{2})")  # "FY22 and FY21"
# "2021 and 2020", "fiscal 2019 and for fiscal 2018", "at December 31, 2021 and at December 31, 2020"
# "2022 vs 2021", "fiscal 2023 compared to fiscal 2022": both years' figures, when no change is asked (``over_time``)
_YEAR_JOIN = (rf"(?:{LIST_JOIN}|\s+(?:vs\.?|versus|compared\s+(?:to|with))\s+)(?:(?:for|in|at|as\s+of|on|of|during)\s+)?"
              r"(?:the\s+)?(?:end\s+of\s+)?")
_YEARS = re.compile(rf"(?<![\w-]){_ITEM}(?:{_YEAR_JOIN}{_ITEM})+(?![\w-])", re.I)
_ITEM_RE = re.compile(rf"(?P<pre>(?:{MONTH}\s+\d{{1,2}},?\s*)|{_QUARTER_PRE}?(?:fiscal\s+(?:year\s+)?|FY\s?'?)|{_QUARTER_PRE})?"
                      rf"(?P<year>(?:19|20)\d{{2}}|(?<=FY)\d{{2}}|(?<=FY\s)\d{{2}}|(?<=FY')\d{{2}})", re.I)
# Words before a list of years that make it a span ("between 2019 and 2020"), not a list.
_SPAN_BEFORE = re.compile(r"\b(?:between|from|through|to|vs\.?|versus)\s+(?:(?:fiscal|calendar)\s+(?:years?\s+)?|years?\s+)?$",
                          re.I)


def by_year(question: str) -> tuple[str, ...]:
    """"Net income in 2019 and 2020": the figure of each year. The words before the first year
    ("fiscal", "FY") are each year's ("fiscal 2018 and 2019" is fiscal 2018, fiscal 2019)."""
    runs = list(_YEARS.finditer(question))
    if len(runs) != 1:
        return ()
    run = runs[0]
    if _SPAN_BEFORE.search(question[:run.start()]):
        return ()
    items = list(_ITEM_RE.finditer(run.group(0)))
    digits = [m.group("year") for m in items]
    if len(items) < 2 or len(set(digits)) != len(digits):
        return ()
    first = items[0].group("pre") or ""
    head, tail = question[:run.start()], question[run.end():]
    return tuple(f"{head}{m.group('pre') or first}{m.group('year')}{tail}" for m in items)


# "three and six months ended", "the quarter and the six months ended", "3 vs 9 months ending": spans ended on one day
_SPAN = r"(?:(?:three|six|nine|twelve|3|6|9|12)(?:[\s-]+months?)?|quarter|(?:thirteen|twenty-six|thirty-nine|13|26|39)(?:[\s-]+weeks?)?)"
_SPANS = re.compile(rf"\b(?P<spans>{_SPAN}(?:(?:\s*,\s*|\s+(?:and|&|vs\.?|versus)\s+)(?:the\s+)?{_SPAN})+)"
                    r"(?P<unit>[\s-]+(?:months?|weeks?))?\s+(?P<end>ended|ending)\b", re.I)
_SPAN_ITEM = re.compile(_SPAN, re.I)


def by_span(question: str) -> tuple[str, ...]:
    """"Net revenue for the three and six months ended June 30, 2023": each span's figure."""
    found = _SPANS.search(question)
    if found is None:
        return ()
    unit = (found.group("unit") or "").strip(" -")
    items = []
    for m in _SPAN_ITEM.finditer(found.group("spans")):
        item = m.group(0)
        if item.lower() != "quarter" and not re.search(r"months?|weeks?", item, re.I):
            item = f"{item} {unit or 'months'}"
        items.append(item)
    if len(items) < 2 or len({i.lower() for i in items}) < len(items):
        return ()
    head, tail = question[:found.start()], question[found.start("end"):]
    return tuple(f"{head}{item} {tail}" for item in items)
