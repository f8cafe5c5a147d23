"""Currencies as questions ask for them and as filings print them.

A conventions table, not a gate: a question that asks for a figure "in euros" of a filing that
reports in US dollars and prints nothing in euros has no answer in that filing. Converting is not
ours to do: an exchange rate is not printed on the page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Currency:
    code: str
    asked: re.Pattern      # how a question names it
    printed: re.Pattern    # how a page shows it


def _words(*alternatives: str) -> re.Pattern:
    return re.compile("|".join(alternatives), re.I)


CURRENCIES: tuple[Currency, ...] = (
    Currency("USD", _words(r"\bUSD\b", r"\bU\.?S\.?\s+dollars?\b", r"\bUS\$"),
             _words(r"(?<![A-Z])\$", r"\bUSD\b", r"\bU\.?S\.?\s+dollars?\b", r"\bdollars?\b")),
    Currency("EUR", _words(r"\beuros?\b", r"\bEUR\b", "€"), _words(r"\beuros?\b", r"\bEUR\b", "€")),
    Currency("GBP", _words(r"\bpounds?(?:\s+sterling)?\b", r"\bsterling\b", r"\bGBP\b", "£"),
             _words(r"\bpounds?\b", r"\bsterling\b", r"\bGBP\b", "£", r"\bpence\b")),
    Currency("JPY", _words(r"\byen\b", r"\bJPY\b", "¥"), _words(r"\byen\b", r"\bJPY\b", "¥")),
    Currency("CHF", _words(r"\bswiss\s+francs?\b", r"\bCHF\b"), _words(r"\bfrancs?\b", r"\bCHF\b")),
    Currency("AUD", _words(r"\baustralian\s+(?:dollars?|cents?)\b", r"\bAUD\b", r"\bA\$"),
             _words(r"\baustralian\s+(?:dollars?|cents?)\b", r"\bAUD\b", r"\bA\$", r"\bAU\$")),
    Currency("CAD", _words(r"\bcanadian\s+dollars?\b", r"\bCAD\b", r"\bC\$"),
             _words(r"\bcanadian\s+dollars?\b", r"\bCAD\b", r"\bC\$")),
    Currency("CNY", _words(r"\b(?:yuan|renminbi|RMB|CNY)\b"), _words(r"\b(?:yuan|renminbi|RMB|CNY)\b")),
    Currency("HKD", _words(r"\bhong\s+kong\s+dollars?\b", r"\bHKD\b", r"\bHK\$"),
             _words(r"\bhong\s+kong\s+dollars?\b", r"\bHKD\b", r"\bHK\$")),
    Currency("INR", _words(r"\brupees?\b", r"\bINR\b", "₹"), _words(r"\brupees?\b", r"\bINR\b", "₹")),
)
def printed_in(currency: Currency, text: str) -> bool:
    return currency.printed.search(text) is not None
