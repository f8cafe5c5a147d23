"""Composition slots: the arithmetic a question states itself ("EBITDA less capex", "R&D as a share
of revenue", "the ratio of A to B", "measured as X divided by Y"), the inputs it defines for a named
ratio, the balance convention it asks (average or year-end), and its main clause."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from docqa.finance.lexicon import MetricMatch

from docqa.finance.compose import Avg, BinOp, Leaf, Node, has_operator, parse_words  # noqa: F401  (Avg, Leaf: the tree a composition is built of)

@dataclass(frozen=True)
class Composition:
    expr: Node
    kind: str | None = None          # "percent" for shares, else None (the answerer decides)
    defined: bool = False            # the question defined the arithmetic itself
    label: str = ""                  # the question's words for the whole
    binds: str | None = None         # "taking free cash flow as ...": the name defined


_DEFINES = re.compile(
    r"(?:,\s*|\(\s*|\b)(?:(?:which\s+is\s+|is\s+|are\s+)?(?:measured|defined|calculated|computed|taken|expressed|"
    r"determined|derived)\s+as|using|counting|(?:i\.e\.|ie)\s*,?|where\s+[\w\s-]{1,30}?\s+(?:is|=)|"
    r"taking\s+(?P<name>[\w\s&'-]{2,40}?)\s+(?:as|to\s+be)|"
    r"(?:calculated|computed)\s+(?:by|from|with)|based\s+on|use)\s+",
    re.I,
)
_END = re.compile(
    r"\?|;|\.\s|\.$|\s+(?:and\s+)?(?:round(?:ed)?|answer|give|express|state|report)\b|"
    r"\s*,?\s*(?:to\s+)?(?:one|two|three|zero|\d)\s+decimals?\b|\s*,?\s*(?:in\s+)?(?:usd|us\$)\s+\w+|"
    r",\s*(?:what|how|which|by\s+how)\b",
    re.I,
)
_SHARE_OF = (
    # "What percentage of its revenue did AMD spend on research and development?"
    re.compile(r"\bwhat\s+(?:share|percent(?:age)?|portion|proportion|fraction|part)\s+of\s+(?P<whole>.+?)\s+"
               r"(?:did|does|do)\s+.+?\s+(?:spend|invest|pay|allocate|devote)\s+(?:on|in|for|to)\s+"
               r"(?P<part>.+?)(?=\s+(?:in|during|for)\s+(?:fiscal\s+|fy\s*|the\s+)?(?:19|20)\d\d|\?|$)", re.I),
    re.compile(r"\bwhat\s+(?:share|percent(?:age)?|portion|proportion|fraction|part)\s+of\s+(?P<whole>.+?)\s+"
               r"(?:did|does|do|was|were|is|are)\s+(?P<part>.+?)\s+(?:account(?:ed)?\s+for|represent(?:ed)?|make\s+up|"
               r"contribute[d]?|generate[d]?|come\s+from|constitute[d]?)\b", re.I),
    re.compile(r"\bwhat\s+(?:share|percent(?:age)?|portion|proportion|fraction|part)\s+of\s+(?P<whole>.+?)\s+"
               r"(?:came|come|comes|was\s+generated|were\s+generated|was\s+derived|were\s+derived|derived|was\s+earned)\s+"
               r"(?:from|by|in)\s+(?P<part>.+?)(?=\s+(?:in|during|for)\s+(?:fiscal\s+|fy\s*|the\s+|q[1-4]\s+)?(?:19|20)\d\d|\?|$)", re.I),
    re.compile(r"\bwhat\s+(?:share|percent(?:age)?|portion|proportion|fraction|part)\s+of\s+(?P<whole>.+?)\s+"
               r"(?:was|were|is|are)\s+(?P<part>.+?)(?=\s+(?:in|during|for)\s+(?:fiscal\s+|fy\s*|the\s+)?(?:19|20)\d\d|\?|$)", re.I),
    re.compile(r"^(?:what\s+(?:was|were|is|are)\s+)?(?P<part>.+?)\s+as\s+an?\s+(?:%|percent(?:age)?|share|proportion|fraction)\s+of\s+"
               r"(?P<whole>.+?)(?=\s+(?:in|during|for|at)\s+(?:fiscal\s+|fy\s*|the\s+)?(?:19|20)\d\d|\?|,|$)", re.I),
    re.compile(r"\b(?P<part>[\w&'-]+(?:\s+[\w&'-]+){0,5})\s+(?:accounted\s+for|represented|made\s+up)\s+what\s+"
               r"(?:share|percent(?:age)?|portion|proportion|fraction)\s+of\s+(?P<whole>.+?)(?=\s+(?:in|during|for)\s+|\?|$)", re.I),
)
_RATIO_OF = (
    re.compile(r"\bratio\s+of\s+(?P<a>.+?)\s+to\s+(?P<b>.+?)(?=\s+(?:in|during|for|at|as\s+of)\s+(?:fiscal\s+|fy\s*|the\s+|q[1-4]\s+|\w+\s+\d{1,2},\s+)?(?:19|20)\d\d"
               r"|\s+(?:at|as\s+of)\s+(?:the\s+)?(?:end|close|year)|\?|,|$)", re.I),
)


_VERB = re.compile(r".*\b(?:did|does|do|was|were|is|are|what|how|many|much|points?|has|have|had)\s+", re.I)
_CHANGE_TAIL = re.compile(r"\s+(?:change|grow|grew|increase|decrease|decline|rise|rose|fall|fell|move|moved)\w*\b", re.I)


_PERIOD_WORDS = re.compile(
    r"(?:\s+(?:in|for|during|over|at\s+the\s+end\s+of|as\s+of|at)\s+(?:the\s+|its\s+)?)?"
    r"\b(?:(?:(?:fiscal|calendar)\s+(?:year\s+)?|fy\s*'?)?(?:19|20)\d\d\b|fy\s*'?\d\d\b)", re.I)


def without_period(text: str) -> str:
    """"MongoDB's FY2022 revenue", "its segment revenue in FY2022": the period is the question's,
    not a word of the line item."""
    return " ".join(_PERIOD_WORDS.sub(" ", text).split())
# "(was) spent on research and development": the verb says how the part was used, not what it is.
_PART_VERB = re.compile(r"^(?:spent|paid|used|invested|allocated|devoted|incurred)\s+(?:on|for|in|to)\s+", re.I)


def _noun_phrase(text: str) -> str:
    """The words after the question's last verb: "how many points did net earnings" -> "net earnings"."""
    m = _VERB.match(text)
    text = text[m.end():] if m and text[m.end():].strip() else text
    return _PART_VERB.sub("", text.strip())


def definition(question: str) -> tuple[str, str | None] | None:
    """The words after "measured as", "using", "defined as" ... up to the format instructions."""
    for m in _DEFINES.finditer(question):
        rest = question[m.end():]
        end = _END.search(rest)
        clause = rest[:end.start()] if end else rest
        clause = clause.strip(" ,")
        if len(clause.split()) >= 1:
            return clause, (m.group("name") or None)
    return None


# "capital expenditure to depreciation", "R&D-to-gross-profit": two measures joined by "to" alone.
_TO = re.compile(r"\s*(?:-\s*to\s*-|\s+to\s+)\s*(?:(?:the|its|their)\s+)?", re.I)


def ratio_named(question: str, measures: Sequence[MetricMatch]) -> Composition | None:
    """"A to B" where A and B are both measures the lexicon names and no named ratio covers the
    words: the ratio of A to B, each read as a line item (not A alone)."""
    ordered = sorted((m for m in measures if m.kind == "metric"), key=lambda m: m.span)
    formulas = [m.span for m in measures if m.kind == "formula"]
    for a, b in zip(ordered, ordered[1:]):
        if a.span[1] > b.span[0] or not _TO.fullmatch(question[a.span[1]:b.span[0]]):
            continue
        if any(s <= a.span[0] and b.span[1] <= e for s, e in formulas):
            continue  # a ratio the lexicon names ("debt-to-equity"): its own definition holds
        return Composition(BinOp("/", parse_words(a.text), parse_words(b.text)), kind="ratio",
                           label=f"ratio of {a.text} to {b.text}")
    return None


def compose(question: str, measures: Sequence[MetricMatch] = ()) -> Composition | None:
    """The question's arithmetic, when it states one (a definition, a share, a ratio of A to B)."""
    found = definition(question)
    if found is not None:
        clause, name = found
        expr = parse_words(clause)
        if isinstance(expr, BinOp):
            return Composition(expr, defined=True, label=clause, binds=name)
    for pattern in _SHARE_OF:
        m = pattern.search(question)
        if m:
            part, whole = _noun_phrase(m.group("part")), _CHANGE_TAIL.split(m.group("whole"))[0]
            # "MongoDB's FY2022 revenue": the period is the question's, not a word of the line item.
            part, whole = without_period(part), without_period(whole)
            return Composition(BinOp("/", parse_words(part), parse_words(whole)), kind="percent",
                               label=f"{part.strip()} as a share of {whole.strip()}")
    named = ratio_named(question, measures)  # both sides line items: their own words, nothing after
    if named is not None:
        return named
    for pattern in _RATIO_OF:
        m = pattern.search(question)
        if m:
            return Composition(BinOp("/", parse_words(m.group("a")), parse_words(m.group("b"))), kind="ratio",
                               label=f"ratio of {m.group('a').strip()} to {m.group('b').strip()}")
    return None


def defined_inputs(question: str) -> list[str]:
    """"using net income attributable to X and total assets at January 31": the inputs a
    question names for a named ratio without saying the arithmetic (numerator first)."""
    found = definition(question)
    if found is None:
        return []
    clause = found[0]
    if has_operator(parse_words(clause)):
        return []
    parts = [p for p in re.split(r"\s+and\s+(?=(?:the\s+)?(?:total|average|year[- ]end|net|consolidated|\w+\s+\w+))", clause, flags=re.I)
             if p.strip()]
    return [re.sub(r"\s*\([^)]*\)", "", p).strip(" ,") for p in parts]


_YEAR_END = re.compile(r"\byear[- ]end\b(?!\s+(?:trade\s+)?\w+\s+and\b)|\bnot\s+averag\w*|\bending\s+balance|\bclosing\s+balance|"
                       r"\bperiod[- ]end\b|\bat\s+(?:the\s+)?(?:fiscal\s+)?year[- ]end\b|\bend[- ]of[- ](?:the[- ])?(?:fiscal[- ])?year\b", re.I)
_AVERAGED = re.compile(r"\baverage\b|\bmean\s+of\b|\baveraged\b", re.I)


def convention(question: str) -> str | None:
    """"average" or "year_end" when the question says which balances; None when it leaves it open."""
    avg = _AVERAGED.search(question)
    end = _YEAR_END.search(question)
    if end and re.search(r"\bnot\s+averag", question, re.I):
        return "year_end"
    if avg:
        return "average"
    if end:
        return "year_end"
    return None


# "as reported by the company", "as Amcor defines it", "company-defined", "did Boeing report": the
# filer's own figure of a measure is asked, which a figure computed by the textbook formula is not
_FILERS_OWN = re.compile(
    r"\bas\s+(?:reported|defined|calculated|computed|presented|measured)\s+by\b"
    r"|\bas\s+(?:the\s+)?(?:company|firm|management|group|bank|it|they|[A-Z][\w&.-]*)\s+"
    r"(?:defines|calculates|computes|reports|presents|measures)\b"
    r"|\b(?:company|management)[\s-](?:defined|reported|calculated)\b"
    r"|\b(?:its|their|the\s+company'?s)\s+(?:own\s+)?reported\b"
    r"|\b(?:did|does|do)\s+[^?]{1,80}?\breport\b", re.I)


def filers_own_asked(question: str) -> bool:
    """Does the question ask a measure as the filer reports or defines it?"""
    return bool(_FILERS_OWN.search(question))


def main_clause(question: str) -> str:
    """The question without its format instructions and the definition it gives."""
    main = question.split("?")[0]
    found = definition(main)
    if found is not None:
        main = main[:main.find(found[0])] if found[0] in main else main
    # ("American Express as of December 31": a name, not "express as a percentage")
    main = re.split(r"\b(?:answer|round(?:ed)?|give|express)\s+(?:in|to|it|the|your|as(?!\s+of\b)|rounded|with|using|one|two)\b",
                    main, flags=re.I)[0]
    main = re.sub(r"\bin\s+(?:usd|us\$|\$)?\s*(?:millions?|billions?|thousands?)(?:\s+of\s+(?:us\s+)?dollars)?\b", " ", main, flags=re.I)
    # Where to read it is no part of what is asked: "According to Walmart's fiscal 2018 10-K, ...",
    # "..., as reported in its 2020 10-K".
    # (Blanked, not cut: the measures' offsets into the question hold in the main clause.)
    main = _SOURCE_LEAD.sub(lambda m: " " * len(m.group(0)), main)
    main = _SOURCE_TAIL.sub("", main)
    return main


_FILING = r"(?:10-?[kq]|20-?f|8-?k|annual\s+report|quarterly\s+report|earnings\s+release|filing|report)"
_SOURCE_LEAD = re.compile(rf"^\s*(?:according\s+to|per|based\s+on|as\s+(?:reported|disclosed|stated)\s+in|from|in)\s+"
                          rf"[^,?]{{0,80}}?\b{_FILING}\b[^,?]{{0,20}},\s*", re.I)
_SOURCE_TAIL = re.compile(rf",?\s*(?:according\s+to|per|based\s+on|as\s+(?:reported|disclosed|stated|shown)\s+in|"
                          rf"in)\s+(?:its|the|their|[A-Z][\w.&'’-]*(?:\s+[A-Z][\w.&'’-]*)*['’]s?)\s+[^,?]{{0,40}}?\b{_FILING}\b\s*$", re.I)
