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

import os
import re
from typing import Callable

from docqa.finance.lexicon import MetricMatch, load_lexicon
from docqa.plan.enumeration import listed_items
from docqa.plan.label_lists import by_labels, owner_of
from docqa.plan.list_words import MONTH, of_one_kind
from docqa.plan.name_parts import GROUPS, SET_APART, by_group
from docqa.plan.dated_sides import by_dated_sides, by_sentence
from docqa.plan.parallel import by_parallel
from docqa.plan.ratio_inputs import by_inputs
from docqa.plan.year_parts import by_span, by_year
from docqa.plan.format import asks_figure, looks_up_a_figure
from docqa.plan.measures import head_noun_after

# "A and B", "A, B", "A as well as / along with / together with / plus B": B is asked beside A (a sum
# the question states is a composition, read before parts are: "EBITDA plus D&A").
_ALONG = r"(?:as\s+well\s+as|along\s+with|together\s+with|alongside|plus)\s+"
_JOIN = re.compile(rf"\s*(?:,\s*(?:and\s+|{_ALONG})?|and\s+|{_ALONG}|&\s*)(?:(?:the|its|their)\s+)?", re.I)
MAX_PARTS = 6

# The members of a list taken together: one figure of all of them, not one of each.
_TOGETHER = re.compile(r"\b(?:combined|together(?!\s+with)|in\s+total|in\s+aggregate|aggregate|cumulative(?:ly)?|sum|"
                       r"summed|altogether|average|mean|over\s+(?:the|those|these)\b|across\b)", re.I)


def _taken_together(question: str) -> bool:
    """"The average revenue of Verizon in 2020 and 2021" is one figure of the years; "average MAUs ...
    — Activision and King" asks a measure named "average" of each member."""
    said = [m.group(0).lower() for m in _TOGETHER.finditer(question)]
    if said and all(w in ("average", "mean") for w in said):
        # an average over the years or spans the question names ("FY2018 - FY2020 average", "in 2020 and 2021")
        return len(set(re.findall(r"(?<!\d)(?:19|20)\d\d(?!\d)", question))) >= 2 or bool(by_span(question))
    return bool(said)


def split_parts(question: str, measures: tuple[MetricMatch, ...], one_question: bool,
                over_time: bool = False, counts: bool = False, names: tuple[str, ...] = (),
                printed: Callable[[str], bool] | None = None) -> tuple[str, ...]:
    """The part questions (``_parts``), unless the list they hand out is printed as one row's label:
    "accrued vacation, salaries and wages", "restructuring, impairment and other charges" are one line
    each when a table says so (``printed`` asks the index; decided from the filings, not a list of names)."""
    parts = _parts(question, measures, one_question, over_time, counts, names)
    if parts and printed is not None and (listed := listed_span(question, parts)) and printed(listed):
        return ()
    return parts


def listed_span(question: str, parts: tuple[str, ...]) -> str | None:
    """The list as the question writes it: what the parts do not share ("accrued vacation, salaries and
    wages" of "What were X's accrued vacation, salaries and wages in 2022?"); None when that is no list
    of line words (a second question, a period, several words too many)."""
    prefix = os.path.commonprefix(list(parts))
    prefix = prefix[:prefix.rfind(" ") + 1] if " " in prefix else ""
    suffix = os.path.commonprefix([p[::-1] for p in parts])[::-1].rstrip("?. ")
    suffix = suffix[suffix.find(" "):] if " " in suffix else ""
    if not question.startswith(prefix):
        return None
    end = question.rfind(suffix) if suffix.strip() else len(question.rstrip(" ?."))
    middle = _DISTRIBUTIVE.sub(" ", question[len(prefix):end]).strip(" ,")
    items = [p[len(prefix):len(p.rstrip("?. ")) - len(suffix)].strip(" ,") for p in parts]
    if not all(item and item.lower() in middle.lower() for item in items):
        return None  # the items are not listed side by side ("... at December 31, 2019? And its ...")
    if (end < len(prefix) or not re.search(r",|\band\b|&", middle) or "?" in middle
            or re.search(r"\b(?:what|how|which|why|did|does|was|were)\b", middle, re.I)
            or not 2 <= len(middle.split()) <= 10 or re.search(r"\d", middle)):
        return None
    return middle


def _parts(question: str, measures: tuple[MetricMatch, ...], one_question: bool,
           over_time: bool = False, counts: bool = False, names: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The part questions, each asking one figure in the question's own frame; () when the
    question asks one thing (``one_question``: it states arithmetic, a comparison or a ranking
    over what it lists; ``over_time``: a change or growth across the years it lists). Years and
    segments make parts of a figure only (a measure named, or ``counts``: "how many stores"):
    "the acquisitions of FY2022 and FY2023" is one list."""
    inputs = by_inputs(question, measures)
    if inputs:
        return inputs  # "... as a % of net sales - give the two inputs: A and B": each input, not the ratio
    if one_question or _taken_together(question):
        return ()
    sentences = by_sentence(question)
    if sentences:
        return sentences  # each question is planned again when asked, and split further if it lists more
    # a figure is asked: a measure named, a count, "how much", or a line and a period typed as a lookup
    figure = bool(measures or counts or _HOW_MUCH.match(question) or looks_up_a_figure(question)
                  or _A_VARIANT.search(question) or _asked_after_a_statement(question))
    if figure and not SET_APART.search(question):  # names set apart are places: "in Canada"
        listed = listed_items(question, [m.span for m in load_lexicon().match(question, every=True)])
        if listed:
            return _each(listed)  # each item is planned again when asked, and split further by year
    clauses = _by_clause(question, measures)
    if clauses:
        return clauses  # each clause is planned again when asked, and split further if it lists more
    # each mention, not each measure: "Sam's Club operating income and Walmart's consolidated operating income"
    mentions = tuple(load_lexicon().match(question, every=True)) if measures else ()
    parts = (_by_measure(question, mentions) or _by_sides(question, mentions) or _by_phrase(question, mentions)
             or (question,))
    if len(parts) < 2 and (figure or asks_figure(question)):
        # lines the lexicon does not name, listed in one frame ("X's A and total B in 2021", "? And its B?")
        labelled = by_labels(question, [m.span for m in mentions or load_lexicon().match(question, every=True)])
        if labelled:
            return _each(labelled)  # each item is planned again when asked, and split further by year
    if not figure:
        return _each(parts) if len(parts) > 1 else ()
    if not over_time:
        parts = tuple(p for part in parts for p in (by_year(part) or by_span(part) or (part,)))
    parts = tuple(p for part in parts for p in (by_group(part) or (part,)))
    if len(parts) < 2:
        parts = by_parallel(question) or parts  # two phrases of one shape, no measure named between them
    if len(parts) < 2 and figure:
        # the list's owner named without a possessive ("Corning finished goods, along with work in
        # process"), or two sides each with its own period
        parts = _by_phrase(question, mentions, names) or by_dated_sides(question, names) or parts
    if len(parts) < 2 or len(parts) > MAX_PARTS:
        return ()
    return _each(parts)


# "adjusted net income (non-GAAP)": the filer's own variant of a measure, a figure the lexicon leaves to its row
_A_VARIANT = re.compile(r"\b(?:adjusted|non[\s-]?gaap|organic|underlying|comparable)\s+\w", re.I)
# "How much did X spend on product development in 2019 and in 2018": a figure, named or not.
_HOW_MUCH = re.compile(r"^\W*how\s+(?:much|many)\b", re.I)
# Words that hand the list out ("..., respectively", "each"): a part asks one member, so they go.
_DISTRIBUTIVE = re.compile(r",?\s+respectively\b|\s+each(?=\s+(?:report|record|post|generate|earn|have|had|make|made)\w*\b)"
                           r"|\bboth\s+", re.I)


def _asked_after_a_statement(question: str) -> bool:
    """"Verizon reported 2.72 connections per account for 2021. What were the connections and the
    accounts?": a statement the question starts from, then the question asking figures."""
    sentences = re.split(r"(?<=[.!])\s+(?=[A-Z])", question.strip())
    return len(sentences) > 1 and bool(re.search(r"\d", sentences[0])) and asks_figure(sentences[-1])


def _each(parts: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(" ".join(_DISTRIBUTIVE.sub(" ", part).split()).replace(" ?", "?").replace(" .", ".")
                 for part in parts)


# Where one side of a question ends and the next begins: "? And", "; also", ", as well as",
# "together with", " and ". Each side names its own figure; the second takes the first's frame.
_SIDE = re.compile(r"\s*[;?]\s*(?:and\s+(?:also\s+)?|also\s+|plus\s+)?(?=\S)|\s+[-\u2013\u2014]+\s+(?:and\s+)?(?=\S)"
                   rf"|,?\s+(?:and\s+also\s+|{_ALONG}|in\s+addition\s+to\s+)|,\s*also\s+|,?\s+and\s+", re.I)
_LEAD = re.compile(r"^\W*(?:(?:what|how\s+much|how\s+many)\s+(?:was|were|is|are|did|does|do|has|have)\s+(?:the\s+)?|"
                   r"(?:please\s+)?(?:give\s+me|provide|list|show(?:\s+me)?|report|tell\s+me)\s+(?:the\s+)?)", re.I)
_OWNER_FIRST = re.compile(r"^(?:[A-Z][\w.&-]*\s+){0,4}[A-Z][\w.&-]*['\u2019]s?\s")
# A side that asks how the figures relate is one question about both ("... and how does it compare with net income?").
_ONE_ASKED = re.compile(r"\b(?:compar\w*|why|how\s+(?:does|did|do|has|have)|explain\w*|driv\w+|reasons?|relative|"
                        r"versus|vs\.?|than|using|numerator|denominator|divided)\b", re.I)
_BARE_YEAR = re.compile(r"\b(?:FY\s?)?(?:19|20)\d{2}\b", re.I)


def _by_sides(question: str, measures: tuple[MetricMatch, ...]) -> tuple[str, ...]:
    """"AWS operating income for 2019 together with Amazon's consolidated operating income", "What
    was Biopharma's 2021 revenue? And Pfizer's total revenues?", "Fresh Foods net sales; also total
    net sales for Costco": two figures of one measure (or two), each side naming its own. A side
    takes what the other states and it does not: the frame ("What was"), the owner, the period."""
    if len(measures) < 2 or _ONE_ASKED.search(question):
        return ()
    cuts = [c for c in _SIDE.finditer(question) if c.end() < len(question.rstrip(" ?."))
            and not any(m.span[0] < c.start() < m.span[1] or m.span[0] < c.end() - 1 < m.span[1] for m in measures)
            and any(m.span[1] <= c.start() for m in measures) and any(m.span[0] >= c.end() for m in measures)]
    if len(cuts) != 1:
        return ()
    cut = cuts[0]
    left, right = question[:cut.start()].rstrip(" ,"), question[cut.end():].strip()
    if re.match(r"\s*[;?]", cut.group()) and not (cut.group().strip(" ;?") or right.rstrip().endswith("?")
                                                   or _WH.match(right)):
        return ()  # what follows a question is a definition or an instruction, not a second question
    first = min(m.span[0] for m in measures)
    if re.fullmatch(r",?\s+and\s+", cut.group()) and "," in _DAY.sub("", question[first:cut.start()]):
        return ()  # "A, B, and C": a list, read item by item (``_by_measure``, ``_by_phrase``)
    end = "?" if question.rstrip()[-1:] == "?" else ""
    right = right.rstrip(" ?.")
    rest = re.sub(r"^(?:its|their)\s+", "", right, flags=re.I)
    prep = re.match(r"^(for|in|of|from|at|to|on)\s+", rest, re.I)
    said = list(re.finditer(rf"\s{prep.group(1)}\s", left, re.I)) if prep else []
    if said:  # "What did Nike report for apparel revenues and | for footwear revenues": the first's words
        frame, rest = left[:said[-1].end()], rest[prep.end():]
    elif _OWNER_FIRST.match(rest) or re.match(r"^(?:the\s+)?(?:total|consolidated)\b", rest, re.I):
        lead = _LEAD.match(left)
        frame = lead.group(0) if lead else ""   # the right side names whose (or that it is the whole company's)
    else:
        frames = list(_FRAME_END.finditer(question[:first]))
        frame = question[:frames[-1].end()] if frames else (_LEAD.match(left).group(0) if _LEAD.match(left) else "")
        rest = re.sub(r"^(?:the)\s+", "", rest, flags=re.I)
    second = f"{frame}{rest}"
    left_period, right_period = _period_of(left), _period_of(right)
    tail = _TAIL.search(right[max(m.span[1] for m in measures) - cut.end():]) if right_period else None
    if left_period is None and right_period is not None:
        left = f"{left}{tail.group(0)}" if tail else f"{left} {right_period}"
    if right_period is None and left_period is not None:
        second = f"{second} {left_period}"
    return (f"{left}{end}", f"{second[:1].upper()}{second[1:]}{end}")


_DAY = re.compile(rf"\b{MONTH}\s+\d{{1,2}},\s*(?:19|20)\d{{2}}", re.I)  # "December 31, 2022": no list's comma


def _period_of(text: str) -> str | None:
    """The period a side states, as words to add to another side ("in 2021", "for fiscal 2020")."""
    found = _PERIOD.search(text)
    if found:
        words = found.group(0)
        return words if re.match(r"(?:in|for|during|at|as\s+of)\b", words, re.I) else f"in {words}"
    bare = _BARE_YEAR.search(text)
    return f"in {bare.group(0)}" if bare else None


# ", and what was ...", " and its total revenues": a second question about the same company.
_CLAUSE = re.compile(r",?\s+and\s+(?=(?:what|how\s+much|how\s+many|its|their|the)\b)", re.I)
_WH = re.compile(r"^(?:what|how\s+much|how\s+many)\b", re.I)
# "..., and how much was its all other products": the owner's figure asked again ("how many" is ``by_parallel``'s)
_ITS_AGAIN = re.compile(r"^(?:what|how\s+much)\s+(?:was|were|is|are|did)\s+(?:its|their)\s", re.I)
_ELLIPTIC = re.compile(r"^(?:what|how\s+much|how\s+many)\s+(for|of|on|in|about)\s+", re.I)
_FRAME_END = re.compile(r"(?:['’]s?|\b(?:its|their|the))\s+", re.I)
_SAME_YEAR = re.compile(r"\b(?:that|the\s+same)\s+(?:year|period|quarter)\b", re.I)
_PERIOD = re.compile(r"\b(?:in|for|during|over|at|as\s+of)\s+(?:the\s+)?(?:(?:three|six|nine|twelve|3|6|9|12)[\s-]+months?|"
                     r"(?:13|26|39|52)[\s-]+weeks?|quarter|(?:fiscal\s+)?year)\s+(?:ended|ending)\s+[A-Za-z]+\.?\s+\d{1,2},?\s+"
                     r"(?:19|20)\d{2}\b"
                     r"|\b(?:in|for|during|at|as\s+of)\s+(?:the\s+)?(?:end\s+of\s+)?(?:fiscal\s+(?:year\s+)?|FY\s?)?"
                     r"(?:(?:19|20)\d{2})\b|\b(?:fiscal\s+(?:year\s+)?|FY\s?)(?:19|20)\d{2}\b"
                     rf"|\b(?:at|as\s+of|on)\s+{MONTH}\s+\d{{1,2}},?\s+(?:19|20)\d{{2}}\b", re.I)
# What may follow the last item for all of them: its owner, part or period, not another clause.
_TAIL = re.compile(r"^\s+(?:of|in|for|at|as\s+of|on|during)\b[^?]*$", re.I)
_OWNER = re.compile(r"([A-Z][\w.&-]*(?:\s+[A-Z][\w.&-]*)*['’]s?)(?=\s)")


def _by_clause(question: str, measures: tuple[MetricMatch, ...]) -> tuple[str, ...]:
    """"What were X's operating revenues from its Regulated Businesses segment, and its consolidated
    operating revenues?": two questions. The second takes the first's frame (its words up to the
    company's possessive) when it names no figure-asking words of its own; "its" becomes the
    company's name and "that year" the first clause's year."""
    found = list(_CLAUSE.finditer(question))
    if len(found) != 1 or not (measures or (asks_figure(question) and _ITS_AGAIN.match(question[found[0].end():]))):
        return ()  # (lines the lexicon does not name: only a second question that asks the owner's figure again)
    cut = found[0]
    first, second = question[:cut.start()].strip(), question[cut.end():].strip()
    lexicon = load_lexicon()
    before, after = lexicon.match(first), lexicon.match(second)
    if not (before or asks_figure(first)) or not (after or _WH.match(second)):
        return ()  # one figure asked, with a clause about something else
    end = question.rstrip()[-1:] if question.rstrip()[-1:] in "?." else "?"
    first = first.rstrip(" ,?.;:-\u2013\u2014")
    elliptic = _ELLIPTIC.match(second)
    if elliptic and (said := list(re.finditer(rf"\s{elliptic.group(1)}\s", first, re.I))):
        # "What did Costco report for net sales, and what for membership fees": the first's words
        second = first[:said[-1].end()] + second[elliptic.end():]
    tail = second[max(m.span[1] for m in after):].rstrip(" ?.") if after and not _WH.match(second) else ""
    if tail and not _PERIOD.search(first) and _TAIL.match(tail):
        # "the cash and the long-term debt | of Boeing at year-end 2022": what follows the last
        # item is both items' (the owner, the segment, the date)
        first = f"{first}{tail}"
    elif not _PERIOD.search(first) and (period := _PERIOD.search(second)):
        first = f"{first} {period.group(0)}"  # "net sales, and ... net earnings, in fiscal 2019"
    first += end
    if _WH.match(second):
        second = _counted_again(first, second)
        owner = owner_of(first) or ((named := _OWNER.search(first)) and named.group(1))
        if owner and re.match(r"^(?:what|how\s+much|how\s+many)\b[^?]*\b(?:its|their)\b", second, re.I):
            second = re.sub(r"\b(?:its|their)\b", lambda _: owner, second, count=1)
        if not _PERIOD.search(second) and (period := _PERIOD.search(first)):
            if _SAME_YEAR.search(second):
                second = _SAME_YEAR.sub(period.group(0), second, count=1)
            else:
                second = f"{second.rstrip(' ?.')} {_lower_first(period.group(0))}{end}"
        second = second[:1].upper() + second[1:]
    else:
        if not before:
            return ()  # the first clause asks a figure the lexicon does not name: no frame to hand on
        start = min(m.span[0] for m in before)
        frames = list(_FRAME_END.finditer(question[:start]))
        if not frames:
            return ()
        rest = re.sub(r"^(?:its|their|the)\s+", "", second, flags=re.I)
        second = question[:frames[-1].end()] + rest
        if not _PERIOD.search(rest) and (period := _PERIOD.search(first)) and period.start() >= frames[-1].end():
            # "Walmart's total current tax provision for fiscal 2020, and the provision ...": that year's too
            second = f"{second.rstrip(' ?.')} {period.group(0)}{end}"
    return (first, second.rstrip(" ,") if second.rstrip()[-1:] in "?." else second.rstrip(" ,") + end)


# "how many Microsoft employees were in R&D, and how many were in sales": the second counts the first's noun
_COUNTED = re.compile(r"\bhow\s+many\s+(?P<noun>(?:[\w&'\u2019.-]+\s+){1,4}?)(?=(?:were|was|are|is|did|does|do|had|have)\b)",
                      re.I)
_COUNTS_NOTHING = re.compile(r"^how\s+many\s+(?=(?:were|was|are|is|did|does|do|had|have)\b)", re.I)


def _counted_again(first: str, second: str) -> str:
    counted = _COUNTED.search(first)
    if counted and _COUNTS_NOTHING.match(second):
        return f"how many {counted.group('noun')}{second[_COUNTS_NOTHING.match(second).end():]}"
    return second


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _by_measure(question: str, measures: tuple[MetricMatch, ...]) -> tuple[str, ...]:
    if len(measures) < 2:
        return ()
    ordered = sorted(measures, key=lambda m: m.span)
    runs: list[list[MetricMatch]] = [[ordered[0]]]
    for m in ordered[1:]:
        last = runs[-1][-1]
        if m.span[0] < last.span[1]:
            continue  # overlapping readings of the same words
        # (after the item's own nouns: "goodwill impairment charges and ...", "SG&A expenses and R&D")
        between = question[max(last.span[1], min(_item_end(question, last), m.span[0])):m.span[0]]
        unnamed = _UNNAMED_ITEM.fullmatch(between)
        if _JOIN.fullmatch(between):
            runs[-1].append(m)
        elif unnamed and not _NOT_A_FIGURE.search(unnamed.group("item")) and not _NOT_IN_A_LIST.search(between):
            # "cost of services, cost of wireless equipment, and D&A": an item the lexicon does not name
            at = last.span[1] + unnamed.start("item")
            runs[-1] += [MetricMatch(key="", kind="metric", phrase="", text=unnamed.group("item"),
                                     span=(at, at + len(unnamed.group("item")))), m]
        else:
            runs.append([m])
    listed = max(runs, key=len)
    if not 2 <= len(listed) <= MAX_PARTS or len({m.text.lower() for m in listed}) < len(listed):
        return ()  # (one measure twice in other words is two lines: "cost of services, cost of wireless equipment")
    if len(runs) > 1:
        return ()  # another measure is asked beside the list ("EBITDA margin using operating income and D&A")
    start, end = listed[0].span[0], _item_end(question, listed[-1])
    head, tail = question[:start], question[end:]
    return tuple(f"{head}{question[m.span[0]:_item_end(question, m)]}{tail}" for m in listed)


def _item_end(question: str, m: MetricMatch) -> int:
    """Where a listed item ends: its nouns, and the noun it is said with ("SG&A expenses")."""
    end = _end_with_head(question, m)
    own = _ITS_NOUN.match(question, end)
    return own.end() if own else end


# The noun an expense item is said with ("SG&A expenses"): the item's own, no list's word.
_ITS_NOUN = re.compile(r"\s+(?:expenses?|costs?)\b", re.I)
# One unnamed item between two named ones, in a list set off by commas.
_UNNAMED_ITEM = re.compile(r"\s*,\s*(?:the\s+)?(?P<item>[a-z][\w&'-]*(?:\s+[a-z][\w&'-]*){0,5})\s*,\s*(?:and\s+)?(?:the\s+)?",
                           re.I)


# Where the list of asked things begins: after the owner ("X's", "its") or after "did X <verb>"
# ("What non-current assets did EPI Holdings have | in Canada and in Hong Kong").
_OWNED = re.compile(r"(?:['’]s?|\b(?:its|their))\s+", re.I)
_DID_VERB = re.compile(r"\b(?:[Dd]id|[Dd]oes|[Dd]o)\s+(?:[A-Z&][\w.&’'-]*\s+){1,5}[a-z]+\b")
_WHAT_WERE = re.compile(r"(?:^|,\s*|[.!]\s+)what\s+(?:were|was|are|is)\s+(?:the\s+)?(?=[a-z])", re.I)
# A name followed by a period or a verb starts no list: "American Express as of ...", "Corning reported"
_NOT_AN_ITEM_START = r"(?:as|in|for|at|on|of|during|from|to|by|over|did|does|do|was|were|is|are|has|have|had)\b"
# Where it ends: the period asked, or the question's end.
_PERIOD_AFTER = re.compile(
    r",?\s+(?:(?:in|for|during|at|as\s+of|on|over|by)\s+(?:the\s+)?(?:(?:fiscal|financial|calendar)\s+)?"
    rf"(?:years?\b|quarters?\b|period\b|half\b|end\b|fy|q[1-4]\b|(?:19|20)\d\d|\d{{1,2}}\s+{MONTH}|{MONTH}|"
    r"(?:first|second|third|fourth|three|six|nine|twelve)\b|(?:fiscal\s+)?(?:19|20)\d\d))|\s*[?.]\s*$", re.I)
# A list of reasons, descriptions or comparisons is one question about them, never parts.
_NOT_A_FIGURE = re.compile(r"\b(?:reasons?|why|how|explain\w*|driv\w+|factors?|describe|trends?|compar\w+|"
                           r"what|which|whether|change[sd]?|growth|grew|increase[sd]?|decrease[sd]?)\b", re.I)
# "the Safety and Industrial segment": an "and" between capitalised words is inside one name.
_NAME_END = re.compile(r"\b[A-Z][\w.’'-]*$")
_IN_A_NAME = re.compile(r"[A-Z]")
_NOT_IN_A_LIST = re.compile(r"[()?;:]|\b(?:using|numerator|denominator|divided|between|from\s+\S+\s+to|to\s+\d|vs\.?|versus|"
                            r"per|i\.e|e\.g|according|dated)\b", re.I)
_TAILS = frozenset({"other", "others", "equivalents", "similar", "related", "affiliates", "affiliate", "subsidiaries",
                    "subsidiary", "parent"})   # "accrued expenses and other", "MiTAC and its affiliates": one thing
_PLACE = re.compile(r"(?:in|for|at|from|of|to)\s", re.I)
_MODIFIER = re.compile(r"(?:[a-z]+-[a-z-]+|[a-z]+(?:al|ic|ed|ive|ent|ant|ary|ous|ern|ign)|gross|net|total|basic|"
                       r"diluted|short|long)", re.I)


def _by_phrase(question: str, measures: tuple[MetricMatch, ...], names: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Things listed side by side that the lexicon does not name ("pension costs and total
    corporate costs", "external and internal research and development expenses", "in Canada and
    in Hong Kong"): each its own question in the question's frame. A measure's own "and"
    ("research and development", "cash and cash equivalents") joins nothing; a lone modifier
    before "and" shares the next item's noun ("external and internal R&D expenses")."""
    if GROUPS.search(question) or not (asks_figure(question) or looks_up_a_figure(question) or _WHAT_WERE.search(question)):
        return ()  # "the Domestic and International segments": the parts are segments (``name_parts.by_group``)
    did = _DID_VERB.search(question)
    asked = _WHAT_WERE.search(question)  # "For Mongo's fiscal 2022 (...), what were | A, B and C"
    # the company named as the list's owner without a possessive: "Corning finished goods, along with ..."
    named = [m.end() for name in names for m in re.finditer(rf"(?<!\w){re.escape(name)}:?\s+(?=[a-z])(?!{_NOT_AN_ITEM_START})",
                                                            question)]
    anchors = sorted([m.end() for m in _OWNED.finditer(question)] + ([did.end()] if did else [])
                     + ([asked.end()] if asked else []) + named)
    # The latest anchor that starts a list ("In its 2019 10-K, what net sales did Amazon attribute |
    # to Germany and to Japan"), else an earlier one ("X's A and its B": the second "its" is B's own).
    for k in range(len(anchors) - 1, -1, -1):
        parts = _listed_after(question, measures, anchors[k:])
        if parts:
            return parts
    return ()


def _listed_after(question: str, measures: tuple[MetricMatch, ...], anchors: list[int]) -> tuple[str, ...]:
    ended = _PERIOD_AFTER.search(question, anchors[0])
    end = ended.start() if ended else len(question)
    protected = [m.span for m in measures if m.span[0] < end and m.span[1] > anchors[0]]
    cuts = [j for j in _JOIN.finditer(question, anchors[0], end)
            if j.group().strip() and not any(a < j.start() and j.end() < b for a, b in protected)
            and not (_IN_A_NAME.match(question[j.end():]) and _NAME_END.search(question[:j.start()]))]
    oxford = any(re.match(r"\s*,\s*and\b", j.group()) for j in cuts) and any("," in j.group() for j in cuts[:-1])
    if oxford:
        # "fulfillment, technology and content, and marketing": a list with a comma before its last
        # "and" is cut at its commas; an "and" without one is an item's own
        cuts = [j for j in cuts if "," in j.group()]
    if not cuts or len(cuts) >= MAX_PARTS or not cuts[-1].group().strip(" ,"):
        return ()  # "A, B and C" is a list; "assets, net of allowance" or "December 31, 2021" is not
    start = max(a for a in anchors if a <= cuts[0].start())   # "its" after the first "and" is an item's own
    items, at = [], start
    for j in cuts:
        items.append(question[at:j.start()].strip())
        at = j.end()
    items.append(question[at:end].strip())
    items = [re.sub(r"^(?:its|their)\s+", "", item, flags=re.I) for item in items]
    noun = re.match(r"^(.+?)\s+(from|in|for|of)\s+\S", items[0])
    if noun:  # "revenues from North America and from EMEA": the second is revenues from EMEA too
        items = [items[0], *(f"{noun.group(1)} {item}" if re.match(rf"{noun.group(2)}\s", item, re.I) else item
                             for item in items[1:])]
    if any(not item or _NOT_A_FIGURE.search(item) or _NOT_IN_A_LIST.search(item) or item.lower() in _TAILS
           for item in items):
        return ()
    for k in range(len(items) - 1):
        words, nxt = items[k].split(), items[k + 1].split()
        if len(words) == 1 and len(nxt) >= 2 and not oxford:
            if not _MODIFIER.fullmatch(words[0]):
                return ()  # "maintenance and support revenue": one printed line, maybe
            items[k] = " ".join([words[0], *nxt[1:]])
    first_measured = any(start <= m.span[0] and m.span[1] <= cuts[0].start() for m in measures)
    later_words = {w.lower() for item in items[1:] for w in item.split()}
    # "A, B and C" or "A and its B" is a list for sure; "A B and C D" may be one line's name.
    listed = len(items) > 2 or bool(re.search(r"\b(?:its|their|the)\s+$", cuts[0].group()))
    # "wireless retail postpaid connections and wireless retail postpaid accounts": two of one kind
    if not (listed or first_measured or of_one_kind(items) or _PLACE.match(items[0]) or items[0].split()[-1].lower() in later_words):
        return ()  # the first item names no figure of its own ("... exploration and evaluation assets")
    if len(set(i.lower() for i in items)) < len(items):
        return ()
    lead = re.match(r"^(on|in|for|from|to|into)\s+\S", items[0], re.I)
    if lead and oxford:  # "spend on fulfillment, technology and content, and marketing": on each of them
        items = [items[0], *(item if re.match(r"(?:on|in|for|from|to|into)\s", item, re.I) else f"{lead.group(1)} {item}"
                             for item in items[1:])]
    head, tail = question[:start].rstrip() + " ", re.sub(r"^,\s*", " ", question[end:])
    return tuple(f"{head}{item}{tail}" for item in items)


def _end_with_head(question: str, m: MetricMatch) -> int:
    """Where the item's own words end: "goodwill impairment charges" is one item, its nouns and all."""
    end = m.span[1]
    while head := head_noun_after(question, _at(m, end)):
        end = question.index(head, end) + len(head)
    return end


def _at(m: MetricMatch, end: int) -> MetricMatch:
    return MetricMatch(key=m.key, kind=m.kind, phrase=m.phrase, text=m.text, span=(m.span[0], end))

