"""What a yes/no question about a measure asks: its direction, sign, level, stability or a threshold."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from docqa.plan.intent import YES_NO

UP = re.compile(r"\b(improv\w*|increas\w*|grow\w*|grew|rise|rises|risen|rising|rose|higher|expand\w*|accelerat\w*|"
                r"(?:go|goes|went|gone)\s+up|climb\w*|jump\w*)\b", re.I)
DOWN = re.compile(r"\b(declin\w*|decreas\w*|drop\w*|fall\w*|fell|lower|shrink\w*|shrank|shrunk|contract\w*|deteriorat\w*|"
                  r"(?:go|goes|went|gone)\s+down|slid|slump\w*)\b", re.I)
_SIGN = re.compile(r"\b(positive|negative)\b", re.I)
_LOSS_ASKED = re.compile(
    r"\b(?:report|record|incur|post|suffer|ha(?:ve|d|s)|make|made|generat|show|turn)\w*\s+(?:an?\s+|any\s+)?"
    r"(?:(?:net|operating|pre-?tax|overall|annual)\s+)?(?:loss(?:es)?|deficit)\b"
    r"(?!\s+(?:on|from|of|related|due|associated|relating)\b)|\bloss-making\b|\bunprofitable\b", re.I)
_PROFIT_ASKED = re.compile(
    r"\bprofitable\b|\b(?:report|record|post|ha(?:ve|d|s)|make|made|generat|turn|earn)\w*\s+(?:an?\s+|any\s+)?"
    r"(?:(?:net|operating|pre-?tax|overall|annual)\s+)?profits?\b", re.I)
_HEALTHY = re.compile(r"\b(healthy|strong|sound|adequate|comfortable|good)\b", re.I)
_EXISTS = re.compile(r"^\s*(?:has|have|had|did|does|do)\b.*\b(pa(?:y|id)|report\w*|record\w*|incur\w*|any)\b", re.I)
_CAPITAL_INTENSIVE = re.compile(r"\bcapital[\s-]+intensive\b|\bcapital[\s-]+intensity\b", re.I)
_HIGH_GROWTH = re.compile(r"\bhigh[\s-]+growth\b|\bfast[\s-]+growing\b|\bgrowth\s+(?:company|stock)\b", re.I)
_STABLE = re.compile(r"\b(consistent\w*|stable|stabilit\w*|steady|fluctuat\w*|volatil\w*|vary|varied|varies)\b", re.I)
_BAND = re.compile(r"(?:more|greater|higher)\s+than\s+(?:roughly\s+|about\s+|approximately\s+|around\s+|~\s*)?(\d+(?:\.\d+)?)\s*(?:%|percent|percentage\s+points?|pp)", re.I)
STABLE_BAND = 2.0            # percentage points (or % for amounts) a year, unless the question says


def band_asked(question: str) -> float:
    """The yearly move a question allows a stable measure ("not more than roughly 2%")."""
    m = _BAND.search(question)
    return float(m.group(1)) if m else STABLE_BAND


_THRESHOLD = re.compile(
    r"\b(exceed(?:s|ed|ing)?|more\s+than|greater\s+than|higher\s+than|above|over|at\s+least|in\s+excess\s+of|"
    r"less\s+than|lower\s+than|below|under|fewer\s+than|at\s+most)\s+(?:roughly\s+|about\s+|approximately\s+)?"
    r"(\$\s*)?(\d[\d,]*(?:\.\d+)?)\s*(%|percent\b|per\s+cent\b|trillion\b|billion\b|million\b|thousand\b|bn\b|mm\b|x\b|times\b)?",
    re.I,
)
_SCALE_WORDS = {"trillion": 1e12, "billion": 1e9, "bn": 1e9, "million": 1e6, "mm": 1e6, "thousand": 1e3}


@dataclass(frozen=True)
class Threshold:
    """The level a question names: "more than 10%", "below $5 billion"."""

    above: bool
    level: float
    unit: str            # "%" | "$" | "" (a ratio, days, a per-share amount)
    words: str           # "more than", "at least"
    noun: str = field(default="", compare=False)       # what is counted ("15 million shares"): a count, not money
    span: tuple[int, int] = field(default=(0, 0), compare=False)  # where the question says it


# "more than 15 million shares": the noun a level counts
_COUNTED_AFTER = re.compile(r"\s*(?!(?:in|of|for|during|at|by|than|on|over|to|and|or|the|a|an)\b)([a-z][a-z-]+)\b", re.I)
_NOUN_ENDS = frozenset("in of for during at by than on over to and or the a an was were is are did does do has have had "
                       "as from under per since through with within".split())


def _counted_after(text: str) -> str:
    """The noun a level counts: the last word of the phrase after it ("6 million paid Creative Cloud
    subscriptions" -> "subscriptions", "25 new warehouses in fiscal 2021" -> "warehouses")."""
    if not _COUNTED_AFTER.match(text):
        return ""
    words = []
    for w in re.findall(r"[A-Za-z][A-Za-z-]*|\S", text)[:6]:
        if w.lower() in _NOUN_ENDS or not w[:1].isalpha():
            break
        words.append(w)
    return words[-1].lower() if words else ""


def parse_threshold(question: str) -> Threshold | None:
    """The level of "more than 10%", "below $5 billion", "at least 1.5x"."""
    m = _THRESHOLD.search(question.split("?")[0])
    if m is None:
        return None
    words = " ".join(m.group(1).lower().split())
    above = not words.startswith(("less", "lower", "below", "under", "fewer", "at most"))
    noun = _counted_after(question.split("?")[0][m.end():])
    level = float(m.group(3).replace(",", ""))
    suffix = (m.group(4) or "").lower()
    if suffix in ("%", "percent", "per cent"):
        return Threshold(above, level, "%", words, span=m.span())
    if suffix in _SCALE_WORDS or m.group(2):
        # (a level with a scale word is read as money by the tables; its noun tells a count apart)
        return Threshold(above, level * _SCALE_WORDS.get(suffix, 1.0), "$", words, "" if m.group(2) else noun,
                         m.span())
    if 1900 <= level <= 2100 and "." not in m.group(3):
        return None  # "over 2022" is a year
    return Threshold(above, level, "", words, noun, m.span())


# "larger than its net income", "exceed capital expenditures": one measure against another (a
# number after the words is a threshold instead: parse_threshold).
_NOT_A_LEVEL = r"(?!(?:roughly\s+|about\s+|approximately\s+|around\s+)?[$€£¥]?\s*\d)"
_COMPARED = re.compile(
    rf"\b(?:(?P<above>larger|greater|higher|bigger|more)|(?P<below>lower|smaller|less|fewer))\s+than\s+{_NOT_A_LEVEL}"
    rf"|\b(?P<exceeds>exceed(?:s|ed)?|outpac(?:e|es|ed)|surpass(?:es|ed)?)\s+{_NOT_A_LEVEL}", re.I)


@dataclass(frozen=True)
class Compared:
    """The two sides of "was A larger than B": the question's words before and after the comparison."""

    left: str
    right: str
    above: bool          # asks whether the left side is the larger


def compared(question: str) -> Compared | None:
    first = question.split("?")[0]
    m = _COMPARED.search(first)
    if m is None or _a_period_only(first[m.end():]):
        return None
    left, right = _AUX_FIRST.sub("", first[:m.start()]), first[m.end():]
    return Compared(left, _borrowed(left, right), m.group("below") is None)


# "was PBNA's net revenue larger than Frito-Lay North America's": the right names an owner only
_OWNER_ONLY = re.compile(r"^\s*(?:that\s+of\s+)?(?P<owner>(?:the\s+)?[\w.&-]+(?:\s+[\w.&-]+){0,4}?)(?:['\u2019]s?|(?<=that\s\sof))"
                         r"(?P<rest>\s*(?:,.*|\s+(?:in|for|during|at|as\s+of)\b.*)?)$", re.I)
_POSSESSED = re.compile(r"^.*['\u2019]s?\s+(?P<what>[^,]+?)(?:\s+(?:in|for|during|at|as\s+of)\b[^,]*)?\s*$")


def _borrowed(left: str, right: str) -> str:
    """The right side with the left's measure when it names only whose it is: "Frito-Lay North
    America's" -> "Frito-Lay North America's net revenue"."""
    owner = _OWNER_ONLY.match(right)
    possessed = _POSSESSED.search(left)
    if owner is None or possessed is None:
        return right
    return f"{owner.group('owner')}'s {possessed.group('what')}{owner.group('rest')}"


def sign_asked(question: str) -> bool:
    """"Did X report a net loss / an operating loss?", "Was X profitable?": a line item's sign,
    which its statement shows; sentences about losses (a segment's, a risk's) do not answer it."""
    first = question.split("?")[0]
    return bool(YES_NO.match(question)) and bool(_LOSS_ASKED.search(first) or _PROFIT_ASKED.search(first))


def bottom_line_asked(question: str) -> bool:
    """"Was X profitable?", "Did X report a net loss?": the sign of the bottom line, even when no
    line item is named."""
    first = question.split("?")[0]
    m = _LOSS_ASKED.search(first) or _PROFIT_ASKED.search(first)
    # "an operating loss", "a pre-tax profit" name their own line item; "a (net) loss" the bottom line.
    return bool(YES_NO.match(question)) and m is not None and not re.search(r"\b(?:operating|pre-?tax)\b", m.group(0), re.I)


def judgement(question: str) -> str | None:
    """What a yes/no question about a metric asks: "up", "down", "positive", "negative",
    "healthy", "exists", "stable", "threshold", "compare" (one measure against another; up or down
    when the other side names no measure), "capital_intensive" or "high_growth"."""
    if not YES_NO.match(question):
        return None
    first = question.split("?")[0]
    if _CAPITAL_INTENSIVE.search(first):
        return "capital_intensive"
    if _HIGH_GROWTH.search(first):
        return "high_growth"
    if _STABLE.search(first):
        return "stable"
    if parse_threshold(first) is not None:
        return "threshold"
    against = _COMPARED.search(first)
    if against is not None:
        # "was comparable sales growth higher than in the year-ago quarter": the measure over time
        return ("down" if against.group("below") else "up") if _a_period_only(first[against.end():]) else "compare"
    sign = _SIGN.search(first)
    if sign:
        return sign.group(1).lower()
    # "Did X report a net loss?" asks the bottom line's sign, not whether one was printed.
    if _LOSS_ASKED.search(first):
        return "negative"
    if _PROFIT_ASKED.search(first):
        return "positive"
    move = move_word(first)
    if move is not None:
        return "up" if UP.fullmatch(move.group(0)) else "down"
    if _HEALTHY.search(first):
        return "healthy"
    if _EXISTS.match(first):
        return "exists"
    return None


def moves(question: str) -> str | None:
    """"up" or "down" when the question's words name a direction ("grew", "declined"), else None."""
    move = move_word(question)
    if move is None:
        return None
    return "up" if UP.fullmatch(move.group(0)) else "down"


def tied_to_one(question: str) -> bool:
    """"Did X buy back shares under its $1.0 billion program", "did Corning raise its dividend to $0.28
    a share", "has J&J used the full $5.0 billion authorization": the event is asked of one program or
    level, which the year's total line does not tell apart."""
    return _TIED.search(question.split("?")[0]) is not None


_TIED = re.compile(r"\b(?:under|pursuant\s+to|of|from)\s+(?:the|its|their|a|an)?\s*(?:[\w$.,-]+\s+){0,5}?"
                   r"(?:program(?:me)?|plan|authori[sz]ation|facility)\b|\bto\s+\$\s?\d|\bthe\s+full\s+\$", re.I)


def moved_as_verb(question: str) -> bool:
    """The word of moving is the question's verb ("did paid memberships increase"), not a noun of
    what happened ("did Best Buy announce a dividend increase": an event, told by its verb)."""
    move = move_word(question.split("?")[0])
    if move is None:
        return False
    # "declare a higher quarterly dividend": a comparative says the figure was higher, whatever stands before it
    return _COMPARATIVE.fullmatch(move.group(0)) is not None or not _DETERMINED.search(question[:move.start()])


_COMPARATIVE = re.compile(r"higher|lower|larger|smaller|bigger|greater", re.I)


_DETERMINED = re.compile(r"\b(?:a|an|the|any|its|their|another)\s+(?:[\w'\u2019-]+\s+){0,2}$", re.I)


def move_word(text: str) -> re.Match | None:
    """The first word of moving that is the verb: one followed at once by another is part of the
    measure's name ("did table games drop increase", "did revenue growth decline")."""
    found = sorted((m for pattern in (UP, DOWN) for m in pattern.finditer(text)), key=lambda m: m.start())
    for this, after in zip(found, found[1:] + [None]):
        if after is None or text[this.end():after.start()].strip():
            return this
    return None


_AUX_FIRST = re.compile(r"^\W*(?:did|does|do|has|have|had|was|were|is|are)\s+", re.I)
# "did the board declare a higher quarterly dividend than ...": the comparative stands before its noun
_HIGHER_NOUN = re.compile(r"\b(?:a|an)\s+(?:higher|lower|larger|smaller|bigger|greater)\s+(?P<noun>[^,?]+?)"
                          r"(?=\s+(?:than|compared|versus|vs\b|in\b|for\b|during\b|over\b)|[,?]|$)", re.I)


def _a_period_only(right: str) -> bool:
    """The other side of a comparison names only a period: "in the year-ago quarter", "the prior
    year", "last year", "in fiscal 2021" (with the question's label after it: "…, Ulta Q4 2022")."""
    from docqa.plan.line_text import leaf_text

    side = right.split(",")[0]
    if not _A_TIME.search(side) or re.search(r"\b(?!(?:years?|quarters?|periods?|ago)['\u2019])[\w.&-]+['\u2019]s?(?!\w)", side):
        return False  # no time named, or another owner named ("Adidas's in 2019")
    words = [w for w in re.findall(r"[A-Za-z][\w-]*", leaf_text(side)) if w.lower() not in _TIME_WORDS]
    return not words


_A_TIME = re.compile(r"\b(?:years?|quarters?|periods?|ago|prior|previous|preceding|last|(?:19|20)\d\d|fy\s?\d{2,4}|q[1-4])\b", re.I)
_TIME_WORDS = frozenset("ago year-ago earlier last same prior previous preceding before it that this did was were had "
                        "period periods comparable corresponding".split())


def judged_phrase(question: str) -> str:
    """The words of what a direction question asks about: "did amcor's adjusted free cash flow go up
    in fiscal 2023" -> "amcor's adjusted free cash flow"; "was hotel occupancy higher in Q4" ->
    "hotel occupancy"; "did the board declare a higher quarterly dividend" -> "quarterly dividend"."""
    first = question.split("?")[0]
    level = parse_threshold(first)
    if level is not None and level.span != (0, 0):
        # "did adobe repurchase more than 15 million shares": what the level is a level of
        return _AUX_FIRST.sub("", f"{first[:level.span[0]]} {first[level.span[1]:]}").strip(" ,;:-\u2013\u2014")
    noun = _HIGHER_NOUN.search(first)
    if noun is not None:
        return noun.group("noun").strip()
    against = _COMPARED.search(first)
    if against is not None and _a_period_only(first[against.end():]):
        return _AUX_FIRST.sub("", first[:against.start()]).strip(" ,;:-\u2013\u2014")
    move = move_word(first)
    if move is None:
        return ""
    return _AUX_FIRST.sub("", first[:move.start()]).strip(" ,;:-\u2013\u2014")
