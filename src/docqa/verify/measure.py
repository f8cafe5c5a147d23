"""Rule: the asked measure. A figure answers the question only if it is the measure asked for.

"Operating margin" does not answer a question about net interest margin, however well its
figures are printed.
"""

from __future__ import annotations

import re

from docqa.plan import QuestionPlan, build_plan
from docqa.types import Draft

REASON_MEASURE_PREFIX = "the draft answers"
# Words of a label that say how it was computed or whose it is, not which line item it reads.
_GENERIC_MEASURE_WORDS = frozenset(
    "total net of for the and in a an to as s fiscal year quarter share percent percentage proportion fraction "
    "portion ratio change growth rate average per over divided by less minus plus segment segments number "
    # how a cash-flow line says which way the cash went ("Net cash provided by (used in) ...")
    "provided used "
    # a roll-forward's line of what its heading names ("Balance at end of year" under "Reserve for LIFO valuation")
    "balance balances end ending beginning opening closing at".split())


# What a schedule calls the amounts it lays out by year: a row "Operating lease liabilities" of a
# commitments table is the operating lease payments due that year.
_SCHEDULE_WORDS = frozenset(
    "liabilities liability obligations obligation payments payment commitments commitment maturities maturity "
    "due expected estimated future scheduled minimum undiscounted cash flows".split())


_SHORT_NAME = re.compile(r"\(\s*([A-Z][A-Za-z&]{1,9})\s*\)")


def measure_asked(asked: QuestionPlan | str, measure: str | None) -> bool:
    """Is the draft's measure the question's? Each content word of the measure's label must be the
    question's own (or interchangeable with one, as the lexicon's ``words`` say), unless the
    lexicon reads the question as that very measure ("capex" is "Capital expenditures"). An
    answer to a neighbour ("Operating margin" for a net interest margin) fails."""
    if not measure:
        return True
    plan = asked if isinstance(asked, QuestionPlan) else build_plan(asked, [])
    from docqa.finance.abbreviations import is_short_form, windows_spelling
    from docqa.finance.lexicon import load_lexicon
    from docqa.finance.rowlookup import has_word, normalized
    from docqa.finance.text import stems

    lexicon = load_lexicon()
    labels = set()
    for m in plan.measures:
        entry = lexicon.metric(m.key) if m.kind == "metric" else lexicon.formula(m.key)
        labels.add(entry.label.lower())
    said = measure.lower()
    if any(label in said for label in labels):
        return True  # "Change in revenue from ...", "2015-2017 average cost of revenue (cogs) ..."
    if plan.verdict:
        return True  # a yes/no verdict shows the figures it judged by, under their own names
    # the question's words as said too: a synonym read across a period ("settlement payments for fiscal
    # 2022" is no "purchase") must not hide them
    words_asked = set(normalized(stems(plan.question))) | set(stems(plan.question))
    short = [s for s in _SHORT_NAME.findall(measure) if s.lower() not in _GENERIC_MEASURE_WORDS]
    if any(set(stems(s)) <= words_asked for s in short):
        return True  # "Revenue per available room (REVPAR)" asked as "REVPAR": the label's own short name
    said = re.sub(r"\([^)]*\)|\bfrom\b.*$", " ", measure)  # "(cogs)", "from fiscal 2016 ($135,987 million) to ..." 
    # names (a company's, a segment's as the answerer spells it) are whose figure it is, not which
    words = re.findall(r"[\w&'’.-]+", said)
    plain = " ".join(w for i, w in enumerate(words) if not w.endswith(("'s", "’s"))
                     and (i == 0 or not w[:1].isupper() or w.isupper() and len(w) <= 5))
    generic = _GENERIC_MEASURE_WORDS | (_SCHEDULE_WORDS if plan.scheduled else frozenset())
    # a short form the question spells out ("IPR&D" asked as "in-process research and development")
    spelt = [w for w in words if is_short_form(w) and windows_spelling(w, list(plan.words))]
    plain = " ".join(w for w in plain.split() if w not in spelt)
    wanted = [w for w in normalized(stems(plain)) if w not in generic and not w.isdigit()]
    roots = {_root(w) for w in words_asked}
    # "claims processed" asked as "how many claims did X process": a verb's forms are one word
    return all(has_word(words_asked, w) or _root(w) in roots for w in wanted)


def _root(word: str) -> str:
    """A verb's word without its ending: "processed", "processing", "process" -> "process". (Not the
    Snowball stem of docqa.text: it would also make "operating" and "operations" one word, and this
    check is what keeps another measure's label out.)"""
    root = re.sub(r"(?:ed|ing|e)$", "", word) if len(word) > 5 else word
    return root


def measure_refusal(draft: Draft, plan: QuestionPlan) -> str | None:
    """Why the draft's figures do not answer the question: they are another measure's."""
    if draft.figures and not measure_asked(plan, draft.measure):
        return f"{REASON_MEASURE_PREFIX} {draft.measure!r}, which the question does not ask for"
    return None
