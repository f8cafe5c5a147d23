"""Format slots: how the question wants the number (scale, decimals, percent), the currency it
asks the figure in, and whether it asks an amount at all (or how many of something)."""

from __future__ import annotations

import re

from docqa.finance.currency import CURRENCIES, Currency
from docqa.finance.formulas import _SCALE_WORDS, Format
from docqa.finance.lexicon import MetricMatch
from docqa.plan.intent import asks_verdict, asks_why

_CODES = "|".join(c.code.lower() for c in CURRENCIES)
_SCALE_RE = re.compile(
    rf"\b(?:in|as|of)\s+(?:(?:{_CODES}|us\s*\$|\$|u\.s\.\s*dollars?|dollars?)\s+)?(thousands?|millions?|billions?|mm|mn|bn)\b"
    # a unit note the way a table heads its column: "(USD, millions)", "(EUR millions)", "in $000s"
    rf"|\(\s*(?:{_CODES}|\$)\s*,?\s*(?:in\s+)?(thousands?|millions?|billions?)\s*\)"
    r"|\$\s*'?(000)s?\b"
    r"|(?:usd|\$)\s*(thousands?|millions?|billions?|mm|mn|bn|k|m|b)\b"
    r"|\b(thousands?|millions?|billions?)\s+(?:of\s+)?(?:usd|dollars|us\s+dollars)\b",
    re.I,
)
_NUMBER_WORDS = {"zero": 0, "no": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_DECIMALS_RE = re.compile(r"\b(zero|no|one|two|three|four|five|six|\d)\s+(?:decimal|significant decimal)(?:\s+places?|\s+points?|s)?\b", re.I)
_PERCENT_RE = re.compile(r"\bin\s+(?:units\s+of\s+)?percent(?:s|age|ages)?\b|\bas\s+a\s+(?:%|percent(?:age)?)(?!\s+of)|\bin\s+%|\(%\)|\bpercentage\s+terms\b", re.I)


def requested_format(question: str) -> Format:
    """How the question wants the number written."""
    scale = None
    m = _SCALE_RE.search(question)
    if m:
        word = next(g for g in m.groups() if g).lower().replace("000", "thousands")
        scale = _SCALE_WORDS.get(word.rstrip("s") if word.rstrip("s") in _SCALE_WORDS else word)
    decimals = None
    d = _DECIMALS_RE.search(question)
    if d:
        word = d.group(1).lower()
        decimals = _NUMBER_WORDS[word] if word in _NUMBER_WORDS else int(word)
    elif re.search(r"\bnearest\s+(whole\s+number|integer|dollar)\b|\bwhole\s+number\b", question, re.I):
        decimals = 0
    elif re.search(r"\bnearest\s+(tenth)\b", question, re.I):
        decimals = 1
    elif re.search(r"\bnearest\s+(hundredth|cent)\b", question, re.I):
        decimals = 2
    percent = True if _PERCENT_RE.search(question) else None
    return Format(scale=scale, decimals=decimals, percent=percent)  # type: ignore[arg-type]


_ASKED_IN = re.compile(r"\b(?:in|into|as|expressed\s+in|denominated\s+in|converted\s+to)\s+(?:\w+\s+){0,2}$", re.I)


def asked_currency(question: str) -> Currency | None:
    """The currency a question asks the figure in ("in Swiss francs", "in euros"), if any."""
    for currency in CURRENCIES:
        for m in currency.asked.finditer(question):
            # "(USD)", "(EUR, millions)": a unit note in parentheses names the currency asked
            before = question[: m.start()]
            if (_ASKED_IN.search(before) or before.rstrip().endswith("(")
                    or currency.code != "USD" and m.group(0) in "€£¥₹"):
                return currency
    return None


_AMOUNT = re.compile(
    r"^\W*(?:how\s+much|how\s+many)\b|\bin\s+(?:usd|us\$|\$|(?:us\s+)?dollars|(?:\w+\s+)?(?:millions|billions|thousands))\b"
    r"|\bround(?:ed)?\s+to\b|\bdecimal|\bas\s+a\s+percent|\bwhat\s+(?:percent(?:age)?|share|proportion)\b", re.I)
# What may stand before "what" / "how many": a label ("AMD 2015 10-K:"), a period ("As of December 26,
# 2015,"), an approximation ("roughly how many")
_LEAD_IN = (r"(?:(?!(?:why|how|what)\b)[^?:;]{1,80}:\s+)?"
            r"(?:(?:in|for|during|at|as\s+of|from|according\s+to|per|based\s+on|using|excluding|including)\b[^?]{0,120}?,\s*)?")
_ROUGHLY = r"(?:(?:roughly|approximately|about|around|nearly|exactly|precisely)\s+)?"
_HOW_MANY = re.compile(r"^\W*" + _LEAD_IN + _ROUGHLY + r"how\s+many\s+(?P<noun>[\w'’&-]+(?:\s+[\w'’&-]+){0,3}?)\s+"
                       r"(?:did|does|do|were|was|are|is|has|had|have|will|can|could)\b", re.I)
_ENTITY_START = re.compile(r"^\W*(?:which|who|whom|where|when|list|name|describe|explain|summari[sz]e)\b", re.I)


def asks_amount(question: str, measures: tuple[MetricMatch, ...] | list[MetricMatch]) -> bool:
    """The question wants a number ("how much", "in USD millions", "round to one decimal", or a
    figure the lexicon knows asked for plainly), not a verdict or an explanation."""
    if asks_verdict(question) or asks_why(question) or _ENTITY_START.match(question):
        return False
    return _AMOUNT.search(question) is not None or bool(measures)


def counted_noun(question: str) -> str | None:
    """"How many stores did X open", "X's count of foreign affiliated restaurants": the noun counted."""
    m = _HOW_MANY.match(question) or _COUNT_OF.search(question)
    return m.group("noun") if m else None


# "count of foreign affiliated restaurants", "number of employees": a count, of the noun after it
_COUNT_OF = re.compile(r"\b(?:count|number|total\s+number)\s+of\s+(?P<noun>[a-z][\w'’&-]*(?:\s+[a-z][\w'’&-]*){0,3}?)"
                       r"(?=\s+(?:as\s+of|at|in|for|during|on|by|of|did|does|was|were|is|are)\b|\s*[?.,]|\s*$)")


_PER_SHARE = re.compile(r"\bper\s+(?:(?:diluted|basic|common|ordinary)\s+)?(?:share|cdi|ads|unit)\b|\bcents\b"
                        r"|\b(?:diluted\s+|basic\s+|adjusted\s+)?e\.?p\.?s\b|\bd\.?p\.?s\b", re.I)
_COUNT = re.compile(r"^\s*" + _LEAD_IN + _ROUGHLY + r"how\s+many\b"
                    r"(?!\s+times\b|\s+(?:percentage\s+|basis\s+)?points\b|\s+days\b"
                    # "how many cents / dollars per share": an amount in a unit of money, not a count
                    r"|\s+(?:cents|dollars|euros|pence|pounds|yen)\b)", re.I)
# "What percentage of revenue was spent on R&D?", "R&D as a share of revenue": a part of a whole.
_SHARE_ASKED = re.compile(
    r"\bwhat\s+(?:share|percent(?:age)?|%|proportion|fraction)\s+of\b|\bas\s+an?\s+(?:%|percent(?:age)?|share|proportion)\s+of\b",
    re.I)


_PERCENT_ASKED = re.compile(r"\b(?:percent(?:age)?|rate)\b|%", re.I)
# a percentage named as such ("gross margin percentage", "(percent)", "%"), not a rate that may be money
# ("average daily rate") or a table's name ("tax rate reconciliation")
_PERCENTAGE_NAMED = re.compile(r"\bpercent(?:age)?\b|%", re.I)


# "Lockheed Martin headcount as of December 31, 2022": a word that names a count by itself
# "headcount", "unit counts", "store count": a count named by a noun before "count" (not a verb's "it counts")
_A_COUNT_BY_NAME = re.compile(r"\b(?:head[\s-]?count|number\s+of\s+employees|(?!(?:it|they|we|that|this|to|not|does|do|did|also|"
                              r"still|will|would|can|could|may|might|should|which|who|what)\b)[a-z]+[\s-]counts?)\b", re.I)


def kinds_asked(question: str) -> frozenset[str]:
    """The kind of number asked: "per_share" ("per share", "cents"), "share_of" (a part of a whole),
    "count" ("how many stores"), "percent" (a percentage or a rate is named), "percentage" (a
    percentage named as such: never answered by an amount)."""
    kinds = set()
    if _PER_SHARE.search(question):
        kinds.add("per_share")
    if _SHARE_ASKED.search(question):
        kinds.add("share_of")
    if _COUNT.search(question) or _COUNT_OF.search(question) or _A_COUNT_BY_NAME.search(question):
        kinds.add("count")
    if _PERCENT_ASKED.search(question):
        kinds.add("percent")
    if _PERCENTAGE_NAMED.search(question):
        kinds.add("percentage")
    return frozenset(kinds)


_ASKS_FIGURE = re.compile(
    r"^\s*" + _LEAD_IN + r"(?:(?:at|by)\s+)?" + _ROUGHLY + r"(?:what|how\s+much|how\s+many)\b"
    r"(?!\s+(?:drove|caused|are\s+the\s+(?:risks|reasons|main|key|primary)|is\s+the\s+(?:reason|strategy|outlook)))", re.I)
_PART_OF_WHOLE = re.compile(r"\b(?:what|which)\s+(?:percent(?:age)?|share|portion|proportion|fraction|part)\s+of\b", re.I)


def asks_figure(question: str) -> bool:
    """"What / how much / how many ...", not "what drove" or "what are the risks": a figure is asked."""
    return _ASKS_FIGURE.match(question) is not None


# A search-box lookup: a noun phrase with a period and no word that opens a question or a request.
_OPENS = re.compile(r"^\W*(?:what|how|why|when|where|who|whom|whose|which|is|are|was|were|does|do|did|has|have|had|"
                    r"can|could|will|would|should|may|might|describe|summari[sz]e|discuss|explain|outline|tell|"
                    r"compare|list|give|provide|show|please|identify|name)\b", re.I)
_A_PERIOD = re.compile(r"(?<![\w-])(?:(?:19|20)\d{2}|FY\s?\d{2}(?:\d{2})?|Q[1-4])(?![\w-])", re.I)
_ASKING = re.compile(r"\b(?:what|how|which|why|who|whether)\b", re.I)
_A_VERB = re.compile(r"\b(?:did|does|do|is|are|was|were|has|have|had|will|would|could|should)\b", re.I)


def looks_up_a_figure(question: str) -> bool:
    """"Card Member rewards expense in 2022 versus 2021 at Amex", "Kraft Heinz Segment Adjusted EBITDA
    for 2019": a line and a period typed as a lookup ask its figure as plainly as "what was" does; so
    does such a line after a request ("Give me McDonald's count of foreign affiliated restaurants as of
    December 31, 2022"), unless what is requested is prose ("give me a summary of ...")."""
    request = _REQUEST.match(question)
    if request is not None:
        question = question[request.end():]
        if _PROSE.match(question):
            return False
    return (_OPENS.match(question) is None and _A_PERIOD.search(question) is not None
            and _A_VERB.search(question) is None and _ASKING.search(question) is None)


_REQUEST = re.compile(r"^\W*(?:please\s+)?(?:give|show|tell|provide|get|pull|find)(?:\s+(?:me|us))?\s+", re.I)
_PROSE = re.compile(r"^(?:(?:a|an|the|some)\s+)?(?:summary|overview|description|explanation|discussion|list|analysis|"
                    r"details|rundown|sense|idea|breakdown|picture|view|update|commentary|background)\b", re.I)


def part_of_whole(question: str) -> bool:
    """"What percentage of FY2023 buybacks occurred in Q4": a part of a whole is asked."""
    return _PART_OF_WHOLE.search(question) is not None


def fits_kind_asked(measure: "MetricMatch", plan: "QuestionPlan") -> bool:
    """The measure's own figure is the kind asked: a count or a per-share price asked of an activity
    the lexicon knows as an amount of money ("how many shares did X buy back", "at what average price")
    is not that amount."""
    from docqa.finance.lexicon import load_lexicon

    if measure.kind != "metric":
        return True
    kind = load_lexicon().metric(measure.key).kind
    if plan.counted or "count" in plan.kinds:
        return kind in ("count", "shares")
    if "per_share" in plan.kinds:
        return kind == "per_share"
    return True
