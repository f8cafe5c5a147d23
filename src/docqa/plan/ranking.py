"""Ranking slots: "which ... the most / least", the items a question lists to compare, and
whether an entity (a segment, a region) is asked for rather than the company's figure."""

from __future__ import annotations

import re
from dataclasses import dataclass

from docqa.finance.lexicon import MetricMatch

_WHICH_MOST = re.compile(
    r"\b(?:which|what)\b(?:(?!\?).){0,200}?\b(?P<word>most|least|highest|lowest|largest|smallest|biggest|greatest|"
    r"larger|smaller|higher|lower|bigger|greater)\b", re.I)
_ACTIVITIES = re.compile(
    r"\b(operat\w*)\s*,\s*(investing)\s*,?\s*(?:and|or|&)\s*(financing)\b(?:\s+activities)?", re.I)


def asks_which(question: str, matches: list[MetricMatch]) -> bool:
    """"Which (of the segments / debt securities / regions) ... <metric>": an entity is asked for."""
    first = min((m.span[0] for m in matches), default=len(question))
    return re.search(r"\bwhich\b", question[:first], re.I) is not None


def which_is_most(question: str) -> bool | None:
    """True for "which ... the most / largest", False for "the least / smallest", None otherwise."""
    # "Greater China", "Most Valuable Brands": a capitalised word inside a name is no superlative
    m = _WHICH_MOST.search(re.sub(r"(?<=\S\s)(?:Most|Least|Greater|Larger|Higher|Lower|Smaller|Bigger)\b(?=\s+[A-Z])",
                                  lambda w: "N" * len(w.group()), question))
    if m is None:
        return None
    return m.group("word").lower() not in ("least", "lowest", "smallest", "smaller", "lower")


def listed_activities(question: str) -> list[str]:
    """"operations, investing and financing activities": the three cash flow totals, named once."""
    if _ACTIVITIES.search(question):
        return ["operating_cash_flow", "investing_cash_flow", "financing_cash_flow"]
    return []


@dataclass(frozen=True)
class Ranked:
    """"Which segment had the highest operating income in 2022?": a member of a group the filing
    prints (segments, regions, product lines, brands) ranked by a measure, never the company's own
    figure."""

    group: str        # the words that name the members, as asked ("geographic segment", "Walmart International market")
    measure: str      # the measure as asked ("operating income"); "" when only a move is asked ("grew fastest")
    most: bool        # highest / largest / best / fastest; False: lowest / least / worst
    change: bool      # ranked by how the measure moved ("grew the most", "the steepest decline")
    percent: bool     # the move in percent ("fastest", "% change") rather than in amount


_SUPERLATIVE = (r"(?P<sup>highest|largest|biggest|greatest|most|top|best|strongest|fastest|steepest|sharpest|"
                r"lowest|smallest|least|worst|weakest|slowest|fewest|bottom)")
_LOW = frozenset("lowest smallest least worst weakest slowest fewest bottom".split())
_VERB = (r"(?:had|has|have|was|were|is|are|generated|generates|brought|produced|posted|reported|recorded|contributed|"
         r"grew|grow|saw|sees|showed|shows|delivered|made|earned|carried|received|experienced|performed|accounted|"
         r"drove|led|ranked|declined|fell|dropped|increased|decreased|rose|added|spent|held|owned|employed|operated|"
         r"supplied|supplies|provided|provides|represented|represents|comprised|comprises|drew|draws|yielded|paid|owed|"
         r"sold|sells|shipped|served|serves|used|uses|incurred|invested|billed|collected|charged|achieved|returned)")
_WORDS = r"(?:[\w&/.'’-]+\s+){0,6}?[\w&/.'’-]+?"
# "which of Nike's geographic segments had ...", "what product class brought in ...", "which spent the most"
_WHICH_MEMBER = re.compile(
    rf"^(?:which|what)\s+(?:one\s+)?(?:of\s+(?:the\s+|its\s+|their\s+)?(?:[\w&.'’-]+(?:'s|’s)\s+)?)?"
    rf"(?:(?P<group>{_WORDS})\s+)?(?P<rest>{_VERB}\b.*)$", re.I | re.S)
# "which segment's net revenues grew the most"
_WHICH_OWNED = re.compile(rf"^(?:which|what)\s+(?!of\b|one\b)(?P<group>{_WORDS})(?:'s|’s)\s+(?P<owned>.+?)\s+(?P<rest>{_VERB}\b.*)$",
                          re.I | re.S)
# "among its reportable operating segments, which ..."
_AMONG = re.compile(rf"\bamong\s+(?:the\s+|its\s+|their\s+)?(?:\w+\s+)?(?P<group>{_WORDS})\s*,", re.I)
# "top region by revenue", "largest segment by operating income", "top reportable segment by net sales"
_TOP_BY = re.compile(rf"\b{_SUPERLATIVE}\s+(?P<group>(?:[\w&/-]+\s+){{0,3}}?[\w&/-]+)\s+by\s+(?P<measure>[^?.;]+)",
                     re.I)
_MOVE = re.compile(r"\b(?:grew|grow(?:s|n|th|ing)?|increase[sd]?|rose|rise|fell|fall|decline[sd]?|drop(?:ped|s)?|"
                   r"decrease[sd]?|improve[sd]?|improvement|deteriorat\w*|change[sd]?|performance|performed|added|"
                   r"gain(?:ed|s)?)\b", re.I)
_DECLINE = re.compile(r"\b(?:fell|fall(?:s|ing)?|decline[sd]?|declining|drop(?:ped|s)?|decrease[sd]?|deteriorat\w*|shr[ai]nk\w*)\b",
                      re.I)
_TOP_LINE = re.compile(r"\btop[\s-]*line\b", re.I)
_PERCENT = re.compile(r"%|\bpercent(?:age)?\b|\brates?\b|\bfastest\b|\bslowest\b|\bbasis\b", re.I)
# words that end the measure: its period, the company, the question's own provisos
_MEASURE_END = re.compile(r"\s+(?:in|for|during|at|as\s+of|over|vs\.?|versus|compared|from|among|between|of\s+the|on\s+a|"
                          r"(?:year|quarter)\s+over)\b.*$|\s*[(?;].*$|\s+\d.*$", re.I | re.S)
_NOT_A_GROUP = frozenset("is are was were the a an company firm it they one".split())


def ranked_members(question: str, measures: tuple[MetricMatch, ...] = ()) -> Ranked | None:
    """The ranking a question asks, if it asks which member of a group ranks first."""
    if re.match(r"^\W*(?:is|are|was|were|does|do|did|has|have)\b", question, re.I):
        return None
    top = _TOP_BY.search(question)
    if top is not None:
        measure = _measure(top.group("measure"))
        return Ranked(group=top.group("group"), measure=measure, most=top.group("sup").lower() not in _LOW,
                      change=bool(_MOVE.search(top.group("measure"))), percent=bool(_PERCENT.search(question)))
    # the clause that asks: "For Pfizer, which ...", "In 2022 Q2, which ...", "among its segments, which ..."
    clause = re.search(r"(?:^|[,:;]\s*|\s[-–—]\s*)\W*((?:which|what)\b.*)$", question, re.I | re.S)
    if clause is None:
        return None
    asked = clause.group(1)
    owned = _WHICH_OWNED.match(asked)
    which = owned or _WHICH_MEMBER.match(asked)
    if which is None:
        return None
    among = _AMONG.search(question[:clause.start(1)])
    group = (which.group("group") or (among.group("group") if among else "")).strip()
    if not group or group.lower() in _NOT_A_GROUP or _a_measure(asked, which.start("group") if which.group("group") else -1,
                                                               clause.start(1), measures, group):
        return None  # "which is larger, revenue or net income": measures compared, not members of a group
    rest = which.group("rest")
    sup = re.search(rf"\b{_SUPERLATIVE}\b", rest, re.I)
    if sup is None:
        return None
    moved = bool(_MOVE.search(rest))
    if owned is not None:
        measure = _measure(owned.group("owned"))  # "which segment's net revenues grew the most"
    else:
        # after the superlative ("the highest operating income"), else before it ("grew operating income the fastest")
        after = re.sub(r"^\s*(?:on|of|in\s+terms\s+of)\s+", " ", rest[sup.end():])
        after = re.sub(rf"^\s*{_MOVE.pattern}\s+(?:in|of)\s+", " ", after, flags=re.I)  # "the steepest decline in X"
        measure = _measure(after)
        if not measure or _MOVE.fullmatch(measure.split()[0]):
            measure = _measure(re.sub(rf"^\W*{_VERB}\b", "", rest[:sup.start()], flags=re.I).replace(" the ", " ")) or measure
    if moved:
        measure = " ".join(w for w in measure.split() if not _MOVE.fullmatch(w))
    if _TOP_LINE.fullmatch(measure.strip()) or (moved and not measure.strip()):
        measure = "revenue"  # "the worst topline performance", "which region grew fastest": the top line
    if not measure.strip():
        return None  # "which reporting units are most at risk of ...": no measure to rank by
    most = sup.group("sup").lower() not in _LOW
    if moved and _DECLINE.search(rest):
        most = not most  # "the steepest decline", "the biggest drop": the lowest change
    return Ranked(group=group, measure=measure.strip(), most=most, change=moved,
                  percent=moved and bool(_PERCENT.search(question)))


def _a_measure(asked: str, group_at: int, offset: int, measures: tuple[MetricMatch, ...], group: str = "") -> bool:
    """Is the group a measure the lexicon reads, whole ("which net income ...")? A measure's kind of
    member ("which revenue stream") is a group."""
    end = offset + group_at + len(group)
    return group_at >= 0 and any(m.span[0] <= offset + group_at and end <= m.span[1] for m in measures)


def _measure(text: str) -> str:
    """The measure's words: up to its period, the company or a parenthesis."""
    text = re.sub(r"^\s*(?:q[1-4]\s*(?:fy)?'?\d{2,4}|fy\s*'?\d{2,4}|\d{4})\b", " ", text, flags=re.I)  # a period first
    words = _MEASURE_END.sub("", " " + text).strip(" .?")
    words = re.sub(r"^(?:the|its|their|a|an|total|amount\s+of|in|by)\s+", "", words, flags=re.I)
    words = re.sub(r"^(?:the|its|their)\s+", "", words, flags=re.I)
    return words if len(words.split()) <= 6 else ""
