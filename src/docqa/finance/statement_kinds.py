"""Which statement a table is and what unit its figures are in, from its title, header and labels."""

from __future__ import annotations

import re

from docqa.finance.tables import Unit
from docqa.types import StatementKind

_UNIT = re.compile(
    r"(?:\bin\b|\$|\(|dollars\s+in|amounts\s+in|figures\s+in)\s*(?:u\.?\s?s\.?\s*)?(?:[€£¥]\s*)?(?:dollars\s*)?"
    r"(millions|thousands|billions)\b|\b(millions|thousands|billions)\s+of\s+(?:u\.?\s?s\.?\s+)?dollars\b|"
    r"\(\s*\$?\s*(000)'?s?\s*\)|\bin\s+\$?(000)'?s\b|"
    r"\(\s*(?:in\s+)?(?:us\s*)?\$\s*(million|thousand|billion)\b|"   # Amcor's "($ million)"
    r"(?:\b[A-Z]{1,3}\$|\$|£|€|¥|\bRMB|\bHKD|\bUSD|\bAUD|\bGBP|\bEUR)\s*['’]\s*(000)(?!\d)|"  # "HK$’000", "£'000", "RMB'000"
    r"(?<![\d,.])(?:£|€|¥)\s?(000)(?![\d,.])",  # "€000", "£000" over a column: thousands (a sign no amount starts with)
    re.I,
)
_STATEMENT_TITLES: tuple[tuple[StatementKind, re.Pattern[str]], ...] = (
    # Matched on the title's letters only ("Consolidated Statement of Cash Flow s" -> "...cashflows").
    # MD&A headings ("Analysis of Financial Condition", "Cash Flows") must not count as statements.
    (StatementKind.COMPREHENSIVE, re.compile(r"statements?of(consolidated)?comprehensive(income|loss|earnings)|comprehensiveincomestatements?")),
    (StatementKind.CASH_FLOW, re.compile(r"statements?of(consolidated)?cashflows?|cashflows?statements?")),
    (StatementKind.BALANCE, re.compile(r"balancesheets?|statements?of(consolidated)?financial(position|condition)|statements?ofcondition")),
    (StatementKind.EQUITY, re.compile(r"statements?of(consolidated)?(changesin)?(shareholders|stockholders|shareowners)?(equity|deficit)|changesinequity")),
    # IFRS: "Statement of profit or loss and other comprehensive income" is the income statement.
    (StatementKind.INCOME, re.compile(r"statements?of(consolidated)?(operations|income|earnings)|incomestatements?|profitandloss|"
                                      r"statements?of(consolidated)?profitorloss")),
)


def detect_statement(text: str) -> StatementKind | None:
    """The primary statement a title names ("Consolidated Statement of Cash Flow s" -> cash_flow)."""
    compact = re.sub(r"[^a-z]", "", text.lower())
    found = [(m.start(), kind) for kind, pat in _STATEMENT_TITLES if (m := pat.search(compact))]
    return min(found, key=lambda f: f[0])[1] if found else None


def detect_unit(text: str) -> tuple[Unit | None, str | None]:
    m = _UNIT.search(text)
    if not m:
        return None, None
    word = next(g for g in m.groups() if g).lower()
    unit: Unit = "thousands" if word == "000" else (word if word.endswith("s") else word + "s")  # type: ignore[assignment]
    return unit, m.group(0).strip()


def names_unit(text: str) -> bool:
    """Does the text state a unit ("In millions", "HK$'000")?"""
    return bool(_UNIT.search(text))


def statement_from_labels(labels: list[str]) -> StatementKind | None:
    text = " ".join(labels).lower()
    if "total assets" in text and "total liabilities" in text or "total current assets" in text and "total current liabilities" in text:
        return StatementKind.BALANCE
    if "operating activities" in text and ("investing activities" in text or "financing activities" in text):
        return StatementKind.CASH_FLOW
    return None


def is_unit_line(text: str) -> bool:
    return len(text.split()) <= 12 and names_unit(text)
