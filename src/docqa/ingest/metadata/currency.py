"""The reporting currency: what the statements' unit lines say ("in thousands of US dollars",
"£'000"), else the currency the report prints most."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from docqa.types import Page

_DOLLAR_PREFIX = {"US": "USD", "U.S.": "USD", "A": "AUD", "AU": "AUD", "C": "CAD", "CA": "CAD", "CDN": "CAD",
                  "HK": "HKD", "NZ": "NZD", "S": "SGD", "R": "BRL"}
_CURRENCY_NAMES = [  # (pattern, ISO code) for words and codes; "$" alone is resolved below
    (r"USD|U\.?S\.?\s+dollars?|United\s+States\s+dollars?", "USD"), (r"AUD|Australian\s+dollars?", "AUD"),
    (r"CAD|Canadian\s+dollars?", "CAD"), (r"HKD|Hong\s+Kong\s+dollars?", "HKD"), (r"NZD|New\s+Zealand\s+dollars?", "NZD"),
    (r"SGD|Singapore\s+dollars?", "SGD"), (r"GBP|pounds?\s+sterling|sterling", "GBP"), (r"EUR|euros?", "EUR"),
    (r"JPY|yen", "JPY"), (r"RMB|CNY|Renminbi", "CNY"), (r"CHF|Swiss\s+francs?", "CHF"),
    (r"NIS|ILS|New\s+Israeli\s+Shek[e]?ls?", "ILS"), (r"INR|Indian\s+rupees?", "INR"), (r"ZAR|South\s+African\s+rand", "ZAR"),
]
_CURRENCY = re.compile(
    # The lookahead changes no match: every match starts with one of these characters (a symbol, a
    # prefix's or a name's first letter). It lets the regex engine skip the other positions of the
    # text at once instead of trying every alternative at each: the currency vote reads every page.
    r"(?=[$£€¥₹ACEGHIJNRSUZepsy])"
    r"(?:(?:\b(?P<prefix>US|U\.S\.|AU|A|CA|CDN|C|HK|NZ|S|R)\s?)?(?P<symbol>[$£€¥₹])"
    r"|\b(?P<word>" + "|".join(f"(?:{pattern})" for pattern, _ in _CURRENCY_NAMES) + r")\b)"
)
_SYMBOLS = {"£": "GBP", "€": "EUR", "¥": "JPY", "₹": "INR"}


def _currency_code(m: re.Match) -> str:
    if m.group("symbol"):
        if m.group("symbol") != "$":
            return _SYMBOLS[m.group("symbol")]
        return _DOLLAR_PREFIX.get(m.group("prefix") or "", "DOLLAR")
    word = m.group("word")
    return next(code for pattern, code in _CURRENCY_NAMES if re.fullmatch(pattern, word, re.I if len(word) > 3 else 0))


# the unit a statement is printed in: "in thousands of US dollars", "£'000", "US$m", "presented in Australian dollars"
_UNIT_CONTEXT = re.compile(
    r"(?i:\b(?:in|of)\s+(?:thousands|millions|billions)\s+of\b|\b(?:presentation|functional\s+and\s+presentation|reporting)\s+currency\b"
    r"|\b(?:expressed|presented|stated|reported)\s+in\b|['’]000\b|\b000s\b|\(\s*in\s+(?:thousands|millions))"
)



def reporting_currency(pages: Sequence[Page], texts: Sequence[str] | None = None) -> str | None:
    """The reporting currency: what the statements' unit lines say, else the currency most printed.
    ``texts``: each page's text, when the caller has them."""
    unit_votes: Counter[str] = Counter()
    votes: Counter[str] = Counter()
    for k, page in enumerate(pages):
        text = texts[k] if texts is not None else page.text
        unit_lines: dict[int, bool] = {}
        for m in _CURRENCY.finditer(text):
            code = _currency_code(m)
            votes[code] += 1
            start = text.rfind("\n", 0, m.start()) + 1
            if start not in unit_lines:
                stop = text.find("\n", m.end())
                line = text[start : stop if stop >= 0 else len(text)]
                unit_lines[start] = len(line) < 200 and bool(_UNIT_CONTEXT.search(line))
            if unit_lines[start]:
                unit_votes[code] += 1
    # a bare "$" is the dollar the statements' unit lines name ("in thousands of Australian dollars"),
    # or one the report names far more than US dollars, else the US dollar
    dollar_names = ("USD", "AUD", "CAD", "HKD", "NZD", "SGD")
    dollar = max((c for c in dollar_names if unit_votes[c]), key=lambda c: unit_votes[c], default=None)
    if dollar is None:
        named = max(dollar_names[1:], key=lambda c: votes[c])
        many = max(10, 3 * votes["USD"], 0.1 * votes["DOLLAR"])
        dollar = named if votes[named] >= many else "USD"
    for counter in (votes, unit_votes):
        counter[dollar] += counter.pop("DOLLAR", 0)
    for counter in (unit_votes, votes):
        counter = +counter
        if counter:
            return max(counter, key=lambda c: (counter[c], votes[c]))
    return None
