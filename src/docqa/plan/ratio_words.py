"""The ways analysts word a ratio beyond "the ratio of A to B": a definition in brackets ("cash ratio
((cash + short-term investments) / current liabilities)"), "A relative to B", "A/B", "how many times
did A cover B", "how much of B came from A (percent)". Each gives the two sides in the question's
own words; the figures answerer reads each side as a line item.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from docqa.finance.compose import BinOp, Leaf, Node, parse_words
from docqa.finance.lexicon import MetricMatch

# a bracketed group, one level of brackets inside it: "((A + B) / C)"
_GROUP = re.compile(r"\((?P<body>(?:[^()]|\([^()]*\))+)\)")
# the arithmetic a group must state to define the whole: a division
_DIVIDES = re.compile(r"\s/\s|\w/\w|\b(?:divided\s+by|over|relative\s+to)\b", re.I)

# "(percent)", "(%)", "(x)": how the answer is to be written, not a word of the line item
UNIT_ASIDE = re.compile(r"\s*\((?:x|times|%|percent(?:age)?|in\s+percent|as\s+a\s+percent(?:age)?|ratio|multiple)\)", re.I)
# A period, a comma or the question's end ends a side: "... relative to amortization in 2015"
_SIDE_END = re.compile(
    r"\s+(?:in|during|for|at|as\s+of|on)\s+(?:the\s+)?(?:(?:fiscal|calendar)\s+(?:year\s+)?|fy\s*'?|q[1-4]\s+)?(?:19|20)\d\d\b"
    r"|\s+(?:at|as\s+of)\s+(?:the\s+)?(?:end|close)\b|\s+(?:in|for|during)\s+(?:fiscal|fy)\b|,|\?|$",
    re.I)
# What comes before the left side: the question's verb, a heading ("Netflix 2015:"), an owner's name
_LEAD = re.compile(r"^.*(?::\s+|\b(?:was|were|is|are|did|does|do|what|how)\s+)", re.I)
_OWNER = re.compile(r"^(?:the\s+|its\s+|their\s+)?(?:[A-Z][\w.&-]*\s+){0,4}[\w.&-]*['\u2019]s?\s+", re.U)
_PERIOD_LEAD = re.compile(r"^(?:(?:fiscal|calendar)\s+(?:year\s+)?|fy\s*'?)?(?:19|20)?\d\d\s+|^(?:the|its|their)\s+", re.I)

# "A relative to B", "A/B" (letters on both sides, not "10-K/A"; relative() asks a measure on each)
_RELATIVE = re.compile(r"\s+relative\s+to\s+(?:(?:the|its|their)\s+)?|(?<=[a-z&)])\s*/\s*(?=[a-z(])", re.I)
_NOT_A_SIDE = re.compile(r"^(?:(?:the\s+)?(?:prior|previous|last|same|next)\b|(?:fiscal\s+|fy\s*)?(?:19|20)\d\d\b|or\b|and\b|"
                         r"a\b|an\b|q[1-4]\b|peers?\b|competitors?\b|expectations?\b|guidance\b|budget\b|plan\b|"
                         r"[a-z]\b)", re.I)
# "how many times did A cover B", "how many times over was B covered by A"
_COVER = re.compile(r"\bhow\s+many\s+times\s+(?:over\s+)?(?:did|does|do|was|were|is|are|could|can)\s+(?P<a>.+?)\s+"
                    r"(?:cover|covered)\s+(?P<b>.+)", re.I)
_COVERED_BY = re.compile(r"\bhow\s+many\s+times\s+(?:over\s+)?(?:was|were|is|are)\s+(?P<b>.+?)\s+covered\s+by\s+(?P<a>.+)",
                         re.I)
# "how much of B came from A (percent)", "how much of B went to A, as a percent"
_HOW_MUCH_OF = re.compile(
    r"\bhow\s+much\s+of\s+(?P<whole>.+?)\s+(?:came|come|comes|was\s+(?:generated|earned|derived)|were\s+(?:generated|earned)|"
    r"went|goes|go|was\s+(?:spent|paid|used|returned)|were\s+(?:spent|paid|used))\s+(?:from|by|in|to|on|for)\s+(?P<part>.+)",
    re.I)
_PERCENT_CUE = re.compile(r"\b(?:percent(?:age)?|share|proportion|fraction)\b|%", re.I)


def bracketed_definition(question: str) -> tuple[Node, str] | None:
    """"Nike's cash ratio ((cash and equivalents + short-term investments) / total current
    liabilities)": a bracket that divides one thing by another defines what is asked."""
    for m in reversed(list(_GROUP.finditer(question))):
        body = m.group("body").strip()
        if not _DIVIDES.search(body) or len(body.split()) < 3:
            continue
        expr = parse_words(body)
        if isinstance(expr, BinOp) and expr.op == "/" and all(_is_side(s) for s in _sides(expr)):
            return expr, body
    return None


def relative(main: str, measures: Sequence[MetricMatch] = ()) -> tuple[Node, str] | None:
    """"additions to content assets relative to amortization of content assets (x)", "opex/revenue"
    (a slash between two measures: "Retail/LTC", "China/Hong Kong" name one thing)."""
    spans = [x.span for x in measures]
    for m in _RELATIVE.finditer(main):
        if "/" in m.group(0) and not (any(a < m.start() <= b for a, b in spans) and any(a <= m.end() < b for a, b in spans)):
            continue
        left, right = _left_side(main[:m.start()]), _right_side(main[m.end():])
        if _is_side(left) and _is_side(right) and not _NOT_A_SIDE.match(right):
            return BinOp("/", parse_words(left), parse_words(right)), f"{left} relative to {right}"
    return None


def coverage(main: str) -> tuple[Node, str] | None:
    """"How many times did LMT's 2020 operating profit cover its interest expense?": A over B, in times."""
    m = _COVER.search(main) or _COVERED_BY.search(main)
    if m is None:
        return None
    left, right = _left_side(m.group("a"), lead=False), _right_side(m.group("b"))
    if not (_is_side(left) and _is_side(right)):
        return None
    return BinOp("/", parse_words(left), parse_words(right)), f"{left} coverage of {right}"


def how_much_of(question: str, measures: Sequence[MetricMatch]) -> tuple[Node, str] | None:
    """"How much of reportable segment net revenues came from Las Vegas Strip Resorts (percent)?": a
    share, when the question asks it in percent. A part that names no measure ("the Aeronautics
    segment") is the whole's measure for that member."""
    m = _HOW_MUCH_OF.search(question)
    if m is None or not _PERCENT_CUE.search(question[m.start():]):
        return None
    whole, part = _right_side(_strip_owner(m.group("whole"))), _right_side(m.group("part"))
    if not (_is_side(whole) and _is_side(part)):
        return None
    part = member_of(part, m.span("part"), m.span("whole"), whole, measures)
    return BinOp("/", parse_words(part), parse_words(whole)), f"{part} as a share of {whole}"


def intensity(question: str, measures: Sequence[MetricMatch]) -> tuple[Node, str] | None:
    """"AMD's R&D intensity in 2015": a line as a share of revenue, unless the lexicon names the whole
    phrase as a ratio of its own ("capex intensity")."""
    m = _INTENSITY.search(question)
    if m is None or any(x.kind == "formula" and x.span[0] <= m.start("word") < x.span[1] for x in measures):
        return None
    line = _left_side(m.group("line"))
    if not _is_side(line) or not any(x.kind == "metric" and x.span[0] >= m.start("line") for x in measures
                                     if x.span[1] <= m.end("line")):
        return None
    return BinOp("/", parse_words(line), Leaf("revenue")), f"{line} as a share of revenue"


# the words before "intensity": a line item of at most five words ("research and development intensity")
_INTENSITY = re.compile(r"(?P<line>(?:[\w&/'\u2019-]+\s+){0,4}?[\w&/-]+)\s+(?P<word>intensity)\b", re.I)


def member_of(part: str, part_span: tuple[int, int], whole_span: tuple[int, int], whole: str,
              measures: Sequence[MetricMatch]) -> str:
    """"the Aeronautics segment" of "total net sales" -> "Aeronautics segment net sales": a part that
    names no measure is the whole's measure, for that member. (Spans: where each side's words sit
    in the question.)"""
    def named(span: tuple[int, int]) -> list[MetricMatch]:
        return [x for x in measures if x.kind == "metric" and span[0] <= x.span[0] and x.span[1] <= span[1]]

    if named(part_span):
        return part
    measure = next(iter(named(whole_span)), None)
    if measure is None or measure.text.lower() not in whole.lower():
        return part
    noun = re.sub(r"^(?:total|consolidated|overall|all|the)\s+", "", measure.text, flags=re.I)
    member = re.sub(r"^(?:the|its|their)\s+", "", part, flags=re.I)
    return f"{member} {noun}"


def _left_side(text: str, lead: bool = True) -> str:
    side = _LEAD.sub("", text) if lead else text
    side = _strip_owner(side)
    return _PERIOD_LEAD.sub("", side).strip(" ,:;")


def _strip_owner(text: str) -> str:
    side = text.strip()
    for _ in range(2):
        side = _OWNER.sub("", side, count=1) if _OWNER.match(side) else side
        side = _PERIOD_LEAD.sub("", side).strip()
    return side


def _right_side(text: str) -> str:
    text = UNIT_ASIDE.sub("", text)
    end = _SIDE_END.search(_masked(text))  # a comma in brackets ends nothing: "(land, buildings, and equipment)"
    side = text[:end.start()] if end else text
    return re.sub(r"^(?:the|its|their)\s+", "", side.strip(" ,:;"), flags=re.I)


def _masked(text: str) -> str:
    """The text with what brackets hold blanked (same length)."""
    depth, out = 0, []
    for ch in text:
        depth += ch == "("
        out.append("_" if depth > 0 and ch not in "()" else ch)
        depth -= ch == ")"
    return "".join(out)


def _is_side(side: Node | str) -> bool:
    if not isinstance(side, (Leaf, str)):
        return True  # a side that is arithmetic itself: "(A + B)"
    text = side.text if isinstance(side, Leaf) else side
    words = re.findall(r"[A-Za-z&]{2,}", text)
    return 1 <= len(words) <= 12


def _sides(expr: BinOp) -> list[Node]:
    return [expr.left, expr.right]
