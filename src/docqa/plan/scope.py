"""Scope slot: the part of the company a question asks about, by the names it capitalises.

"The Electronics and Energy segment", "Frito-Lay North America's net revenue", "net revenue in
Russia", "inventories valued at LIFO", "Fios internet connections": a capitalised run of words that
is neither the company's own name, nor a measure the lexicon names, nor ordinary or financial
vocabulary ("Net Income", "GAAP", "Statement of Cash Flows"), nor the grammar of a sentence's first
word. The company's total is no answer to such a question: every figure of the answer must be read
where the filing prints that name (a row, its heading, the table's title or the column).
"""

from __future__ import annotations

import re

from docqa.finance.lexicon import MetricMatch
from docqa.plan.companies import common_word, normalize_name
from docqa.plan.list_words import ONE_NAMED_PART

# Capitalised words, joined by "and", "&", "/", "of" or "-" inside one name ("Electronics and Energy").
_RUN = re.compile(r"(?<![\w'’-])(?:[A-Z][\w.&'’/-]*)(?:\s+(?:(?:and|&|of|the)\s+)?[A-Z][\w.&'’/-]*)*")
_POSSESSIVE = re.compile(r"['’]s?$")
# Words that qualify how a measure is stated, not which part of the company: the measure's own
# reading handles them ("Adjusted EBITDA", "Non-GAAP", "organic"), and legal forms of a name.
_NOT_A_PART = frozenset(
    "real fx adjusted non gaap organic reported underlying core comparable constant currency pro forma net gross "
    "total inc incorporated corporation corp company co ltd limited plc group holdings holding ag sa se nv llc lp "
    "usd eur gbp cad aud hkd hk jpy chf cny rmb inr".split())
# The accounting basis ("U.S. GAAP", "non-GAAP", "IFRS") and the titles a filing's form gives its
# own sections ("Item 7", "MD&A", "Management's Discussion and Analysis", "Legal Proceedings"):
# where to read, or how the measure is stated, never a part of the company.
_NOT_A_PART_SPAN = re.compile(
    r"\b(?:U\.?S\.?\s+|non[\s-]?)?(?:GAAP|IFRS)\b"
    r"|\bItems?(?:\s+\d{1,2}[A-C]?)?\b|\bMD\s?&\s?A\b|\bPart\s+(?:I{1,3}V?|IV)\b"
    r"|\bManagement['’]s\s+Discussion\s+and\s+Analysis(?:\s+of\s+Financial\s+Condition\s+and\s+Results\s+of\s+Operations)?"
    r"|\b(?:Risk\s+Factors|Legal\s+Proceedings|Unresolved\s+Staff\s+Comments|Controls\s+and\s+Procedures"
    r"|Quantitative\s+and\s+Qualitative\s+Disclosures(?:\s+About\s+Market\s+Risk)?"
    r"|Notes\s+to\s+(?:the\s+)?(?:Consolidated\s+)?Financial\s+Statements)\b", re.I)
_SENTENCE_END = (".", "?", "!", ":", ";")
_ABBREVIATION = re.compile(r"^\s*\(\s*([A-Z][A-Za-z&]{1,9})\s*\)")
_PART_NOUN = re.compile(r"^\s+(?:reportable\s+|operating\s+|business\s+)?(?:segments?|divisions?|business(?:es)?|units?|regions?)\b", re.I)
# A company's other name beside the one the index holds: "Block (formerly known as Square)".
_RENAMED_AFTER = re.compile(r"^(?:['’]s?)?\s*\(?\s*(?:formerly|previously|now\s+(?:known|called|named)|renamed|f/k/a|fka)\b", re.I)
_RENAMED_BEFORE = re.compile(r"(?:formerly|previously|now)(?:\s+(?:known\s+as|called|named))?\s*$|\b(?:renamed|f/k/a|fka)\s*$", re.I)


def scope_asked(question: str, measures: tuple[MetricMatch, ...], company_words: frozenset[str]) -> tuple[str, ...]:
    """The names of the parts of the company asked about, as the question writes them."""
    measured = [m.span for m in measures] + [m.span() for m in _NOT_A_PART_SPAN.finditer(question)]
    out: list[str] = []
    listed = [m for m in ONE_NAMED_PART.finditer(question) if not _inside_parentheses(question, m.start())
              and not any(a < m.end("name") and m.start() < b for a, b in measured)]
    for one in listed:  # "Europe, Middle East and Africa segment": one name, commas and all
        out.append(one.group("name"))
    beyond = [m for m in _OUTSIDE.finditer(question) if not any(a <= m.start() < b for a, b in measured)]
    for m in beyond:  # "outside the United States": every other country, as filings print them
        out.append(outside(m))
    for run in _RUN.finditer(question):
        start, text = run.start(), run.group(0)
        if any(one.start() <= start < one.end("name") for one in listed) or any(m.start() <= start < m.end() for m in beyond):
            continue
        first = re.match(r"\S+\s*", text)
        after_label = question[:start].rstrip().endswith(":")
        if _at_sentence_start(question[:start]) and not (
                after_label and not common_word(_POSSESSIVE.sub("", first.group(0).strip()).strip(",:"))):
            # "What", "Based", "Define": grammar, not a name (after a label's colon an uncommon word is
            # one: "Lockheed Martin 2022: Missiles and Fire Control ...")
            start, text = start + first.end(), text[first.end():]
        if not text or _inside_parentheses(question, start):
            continue
        if _RENAMED_AFTER.match(question[run.end():]) or _RENAMED_BEFORE.search(question[:start]):
            continue
        kept = []
        for offset, word in _offsets(text, start):
            bare = _POSSESSIVE.sub("", word).strip(",")
            if bare.endswith(".") and "." not in bare[:-1]:
                bare = bare[:-1]  # a sentence's full stop, not "U.S."
            if _joining(bare):
                kept.append(bare)  # "Consumer & Community Banking": the "&" of the company's name joins this one too
                continue
            if (any(a <= offset < b for a, b in measured) or _lower(bare) in company_words
                    or _lower(bare) in _NOT_A_PART or any(ch.isdigit() for ch in bare)):
                kept.append(None)  # the measure's words, the company's name, a period: not the scope
                continue
            kept.append(bare)
        # "a segment", or a place: "customers in the United States", "sales in North America" (two
        # capitalised words after "in" inside a sentence name a place, however common the words)
        part = (_PART_NOUN.match(question[run.end():]) is not None
                or (_PLACE_BEFORE.search(question[:start]) is not None and len(text.split()) >= 2))
        while kept and (kept[0] is None or _joining(kept[0]) or (common_word(kept[0]) and not part)):
            kept.pop(0)
        abbreviation = _ABBREVIATION.match(question[run.end():])
        # "Missiles and Fire Control (MFC)": an abbreviation stands for the whole run before it
        while kept and (kept[-1] is None or _joining(kept[-1]) or (common_word(kept[-1]) and not part
                                                                    and not abbreviation)):
            kept.pop()
        if None in kept:
            kept = kept[:kept.index(None)]  # the name stops where the company's or the measure's words begin
        names = _possessives_kept(" ".join(kept).strip(), text)
        if not names or _lower(names) in company_words:
            continue
        if not part and all(common_word(w) for w in kept if not _joining(w)):
            continue  # ordinary words, unless they name a segment ("the International segment")
        if abbreviation:  # "PepsiCo Beverages North America (PBNA)": the filing may print either
            names = f"{names}|{abbreviation.group(1)}"
        if names not in out:
            out.append(names)
    return tuple(out)


def _possessives_kept(names: str, text: str) -> str:
    """"Sam's Club" inside the name stays as written (an owner's "Walmart's" before it is no part of it)."""
    words = names.split()
    for i in range(len(words) - 1):
        if re.search(rf"(?<![\w'\u2019]){re.escape(words[i])}['\u2019]s\s+{re.escape(words[i + 1])}(?!\w)", text):
            words[i] += "'s"
    return " ".join(words)


_PLACE_BEFORE = re.compile(r"\b(?:in|from|within|across)\s+(?:the\s+)?$", re.I)

# "outside the United States", "non-U.S.", "foreign jurisdictions": the rest of the world, which filings
# print as "Foreign", "International", "Non-U.S." or "Outside the U.S." (never the country named)
_HOME = r"(?:the\s+)?(?P<home>United\s+States(?:\s+of\s+America)?|U\.\s?S\.(?:\s?A\.)?|USA?\b|(?-i:[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?))"
_OUTSIDE = re.compile(rf"\b(?:outside(?:\s+of)?|other\s+than)\s+{_HOME}"
                      r"|\bnon[\s-]?(?P<non>U\.\s?S\.|US\b|U\.?S\.?(?=\s))"
                      r"|\b(?P<foreign>foreign|international)\s+(?:jurisdictions?|operations|countries|subsidiaries|markets|locations)\b",
                      re.I)
_US = re.compile(r"^(?:the\s+)?(?:united\s+states|u\.?\s?s\.?(?:a\.?)?)(?:\s+of\s+america)?$", re.I)


def outside(found: re.Match) -> str:
    """The spellings of the rest of the world, the question's own first."""
    home = found.group("home")
    if home is not None and not _US.match(home):
        country = re.sub(r"^the\s+", "", home, flags=re.I)
        spellings = [found.group(0), f"Outside {country}", f"Non-{country}", "Foreign", "International"]
    else:
        spellings = [found.group(0), "Foreign", "International", "Non-U.S.", "Outside the U.S.", "Outside the United States",
                     "Outside U.S."]
    return "|".join(dict.fromkeys(spellings))


def _joining(word: str) -> bool:
    return word.lower() in ("and", "of", "the", "&")


def _offsets(text: str, start: int):
    for m in re.finditer(r"\S+", text):
        yield start + m.start(), m.group(0)


def _lower(word: str) -> str:
    """As the company's names are compared: "PG&E" is "pg and e", run together."""
    return re.sub(r"[^a-z0-9]", "", normalize_name(word) or word.lower())


def _at_sentence_start(before: str) -> bool:
    before = before.rstrip(" \t\n\"'(“")
    return not before or before.endswith(_SENTENCE_END)


def _inside_parentheses(question: str, at: int) -> bool:
    """"(PBNA)", "(GAAP)": an abbreviation of what stands before it."""
    return question.rfind("(", 0, at) > question.rfind(")", 0, at)
