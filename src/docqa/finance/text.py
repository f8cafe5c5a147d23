"""Word-level normalisation shared by the lexicon and the statement reader.

Questions and printed labels differ in case, punctuation, plurals and hyphenation
("Property, plant and equipment — net" vs "net PP&E", "year-over-year" vs "year over year").
Both sides are reduced to the same stem tokens so that a phrase match is a token match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

# A token is a run of letters/digits, or an ampersand-joined abbreviation (PP&E, D&A, SG&A),
# or a lone % sign (it carries meaning: "% margin", "as a % of revenue").
_TOKEN = re.compile(r"[A-Za-z0-9]+(?:&[A-Za-z0-9]+)*|%")
_SPACED_AMP = re.compile(r"\b([A-Za-z]{1,2})\s*&\s*([A-Za-z]{1,2})\b")  # "PP & E" -> "PP&E"
_FOOTNOTE = re.compile(r"\((?:\d{1,2}|[a-z]|[ivx]{1,4})\)|\*+|\((?:see\s+)?notes?\s+[\d\w]+(?:\s*(?:,|and)\s*\w+)*\)", re.I)
# "(1)", "(a)", "(iv)", "*", "(Note 18)", "(see Notes 1 and 4)"
_GLUED_FOOTNOTE = re.compile(r"(?<=[a-z])\d{1,2}(?=\s|$|[,.;:])")    # "operations1" -> "operations"

_IRREGULAR = {"liabilities": "liability", "companies": "company", "activities": "activity",
              "inventories": "inventory", "securities": "security", "properties": "property",
              "subsidiaries": "subsidiary", "equities": "equity", "entities": "entity"}
_KEEP_S = {"gross", "loss", "less", "its", "this", "us", "was", "has", "is", "as", "plus", "basis",
           "business", "ss", "analysis", "process", "excess", "class", "across", "unless", "gaap",
           "series", "status", "bonus", "canvas", "mgmt", "always", "tax", "focus"}


@dataclass(frozen=True)
class Token:
    stem: str
    start: int  # character offsets into the original text
    end: int


def stem(word: str) -> str:
    """Lower-case and strip a plural 's' so singular and plural forms meet."""
    w = word.lower()
    if w in _IRREGULAR:
        return _IRREGULAR[w]
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if len(w) > 4 and w.endswith(("xes", "ches", "shes")):
        return w[:-2]   # "taxes", "branches": the singular has no "e" to keep
    if len(w) > 3 and w.endswith("s") and not w.endswith("ss") and w not in _KEEP_S and not w.endswith("us"):
        return w[:-1]
    return w


def tokens(text: str) -> list[Token]:
    """Stem tokens with their character spans in ``text`` (spans let callers quote a match)."""
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    # Glue "PP & E" into one token without shifting offsets: pad the collapsed form with spaces.
    def _glue(m: re.Match[str]) -> str:
        joined = f"{m.group(1)}&{m.group(2)}"
        return joined + " " * (len(m.group(0)) - len(joined))

    text = _SPACED_AMP.sub(_glue, text)
    out = []
    for m in _TOKEN.finditer(text):
        word = m.group(0)
        # Possessive/contraction tails ("Block's") are their own token "s": drop them.
        if word.lower() == "s" and m.start() > 0 and text[m.start() - 1] == "'":
            continue
        out.append(Token(stem(word), m.start(), m.end()))
    return out


# "Net loss (gain) on financial assets", "Income (loss) from operations": a bracket that holds the
# other sign of the word before it is part of the line item's name, not a qualifier after it.
_SIGN_ALTERNATIVE = re.compile(
    r"\s*\((?:gains?|loss(?:es)?|income|expenses?|profit|deficit|earnings|decrease|increase|benefit|charge|"
    r"credit|used\s+in|provided\s+by)\)", re.I)


@lru_cache(maxsize=65536)  # row labels again, for every phrase asked
def without_sign_alternatives(label: str) -> str:
    return _SIGN_ALTERNATIVE.sub("", label)


# "NET INTEREST INCOME . . . . ." (leader dots set one by one), "Research and development .......$" (a
# currency sign printed at the leaders' end)
_SPACED_LEADER = re.compile(r"(?:\s*\.){3,}\s*(?:[$€£¥]\s*)?$")


@lru_cache(maxsize=65536)
def clean_label(label: str) -> str:
    """Drop footnote markers that filings glue to labels ("Revenues(1)", "operations1", "Other*")
    and the leader dots that run from a label to its figures."""
    label = _SPACED_LEADER.sub("", label)
    label = _FOOTNOTE.sub(" ", label)
    label = _GLUED_FOOTNOTE.sub("", label)
    return " ".join(label.split())


@lru_cache(maxsize=65536)
def stems(text: str) -> tuple[str, ...]:
    """Stem tokens of a phrase (cached: row labels are matched against every metric)."""
    return tuple(t.stem for t in tokens(text))


def holds(text: tuple[str, ...], part: tuple[str, ...]) -> bool:
    """Does the stem sequence ``text`` hold ``part`` as a run of consecutive stems?"""
    n = len(part)
    if not n:
        return False
    first, at = part[0], -1
    while True:  # jump between occurrences of the first stem (this runs for every row and form)
        try:
            at = text.index(first, at + 1)
        except ValueError:
            return False
        if text[at : at + n] == part:
            return True


def narrower_total(item: tuple[str, ...], label: tuple[str, ...], neutral: frozenset[str] = frozenset()) -> bool:
    """"Total regulatory liabilities", "Total other long-term liabilities" for "total liabilities":
    a label that begins and ends as the total does, with other words between, is a total of one
    kind (stems in, ``neutral`` words such as "net" narrow nothing)."""
    if len(item) < 2 or item[0] != "total" or label[:1] != ("total",) or label[-1:] != item[-1:]:
        return False
    rest = iter(label)
    return all(word in rest for word in item) and any(w not in item and w not in neutral for w in label)


def phrase_key(text: str) -> str:
    """A canonical string for a phrase: its stems joined by spaces."""
    return " ".join(stems(text))


_BENEFIT = re.compile(r"\bbenefits?\b", re.I)
_EXPENSE = re.compile(r"\b(?:provisions?|expenses?|charges?)\b", re.I)


def expense_amount(label: str, value: float) -> float:
    """An expense as its row's label reads the printed sign. A label naming both senses ("Income
    tax provision (benefit)", "Benefit (provision) for income taxes") gives a positive figure the
    first sense and a bracketed one the second; a label naming only the expense is printed
    subtractive as often as not, so its size is the expense; one naming only a benefit is one."""
    benefit, expense = _BENEFIT.search(label), _EXPENSE.search(label)
    if benefit and expense:
        return value if expense.start() < benefit.start() else -value
    return -abs(value) if benefit else abs(value)


_EXPENSE_ROW = re.compile(r"^\s*(?:total\s+)?(?:costs?|expenses?)\b|\bexpenses?\s*$", re.I)
_INCOME_WORDS = re.compile(r"\b(?:income|gains?|benefits?|profits?|revenues?|earnings|credits?)\b", re.I)


def reads_as_expense(label: str) -> bool:
    """A row that is a cost by its own words ("Cost of products", "Marketing expenses") and names
    no income beside it ("Other income (expense)" is either): its bracketed figure is its size."""
    return bool(_EXPENSE_ROW.search(label)) and not _INCOME_WORDS.search(label)
