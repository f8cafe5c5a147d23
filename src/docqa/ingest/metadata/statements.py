"""The primary financial statement printed on a page: its title atop a table of figures.

Titles are matched with spaces removed: PDF text splits words ("Balance Shee t", "Cash Flow s").
"""

from __future__ import annotations

import re

from docqa.types import Page, StatementKind

# A company name may precede the title on the same row ("NIKE, Inc. Consolidated Statements of Income").
_NAME_END = re.compile(
    r"\b(?:subsidiar(?:y|ies)(?:\s+companies)?|inc|incorporated|corporation|company|plc|co|ltd|limited|llc)\b[,.]*\s*", re.I
)
_QUALIFIERS = re.compile(r"(?:unaudited|condensed|consolidated|combined|interim|group|company|the|u\.?s\.?|gaap|ifrs)*")
_KINDS = [  # order matters: "income and comprehensive income" is the income statement
    (StatementKind.BALANCE, re.compile(r"balancesheets?|statements?of(?:consolidated)?financial(?:position|condition)")),
    (StatementKind.CASH_FLOW, re.compile(r"statements?of(?:consolidated)?cashflows?|cashflows?statements?")),
    (StatementKind.INCOME, re.compile(
        r"statements?of(?:consolidated)?(?:operations|income|earnings|\(loss\)|loss|profitorloss|profitandloss)"
        r"|incomestatements?")),
    (StatementKind.COMPREHENSIVE, re.compile(
        r"statements?of(?:consolidated)?comprehensive(?:income|loss|earnings|\(loss\))|comprehensive(?:income|loss)statements?")),
    (StatementKind.EQUITY, re.compile(
        r"statements?of(?:consolidated)?(?:changesin)?(?:total)?(?:(?:stock|share)(?:holder|owner)s?|members|partners)?"
        r"(?:equity|deficit|investment)|(?:(?:stock|share)(?:holder|owner)s?)?(?:equity|deficit)statements?")),
]
# What may follow a title in its cell: a period, "(unaudited)", "(continued)", units, or the rest of
# a combined title ("... and comprehensive income"). Anything else ("... data:", "... as a loan")
# means the words are prose or an MD&A table that quotes a statement's name.
_TITLE_REST = re.compile(
    r"$|\((?![a-z0-9]\))|[\-—–,]|for|as(?:of|at)|(?:fiscal)?years?|periods?|quarters?|(?:three|six|nine|twelve)months|\d+weeks|"
    r"continued|in(?:millions|thousands|billions)|unaudited|and(?:other)?comprehensive|"
    r"and(?:retained|accumulated|changesin|stock|share|equity|redeemable|noncontrolling|temporary|mezzanine"
    r"|(?:statements?of)?(?:operations|income|earnings))"
)
_NOT_A_TITLE = re.compile(r"\bnotes?\b|\bsee\b|accompanying|consolidating|guarantor|supplemental|:\s*$|\s\d{1,3}$", re.I)
_NOT_PRIMARY = re.compile(r"^note\s+\d|^\d{1,2}\.\s+[A-Z]|guarant|consolidating|parent\s+company", re.I)
_FIGURE = re.compile(r"(?<![\w.])(?:\(?\$?\s?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\)?%?|[—–-])(?![\w.])")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_TITLE_WORD = re.compile(r"statement|balance|financial", re.I)
TITLE_LINES = 12   # a statement's title sits in the first lines of its page
MIN_ROWS = 3       # a statement page is a table (comprehensive income statements can be this short)


def _title_kind(text: str) -> StatementKind | None:
    if not _TITLE_WORD.search(text):
        return None  # cheap exit for the ordinary line
    if not text[:1].isupper() and not text[:1].isdigit() or _NOT_A_TITLE.search(text):
        return None
    cells = re.split(r"\s{2,}", text)
    if len(cells) > 2:
        return None  # a row of column headers ("Balance Sheet  Liabilities  Net Amount"), not a title
    for cell in cells[:1]:  # the title opens its row; a second cell may name the company
        for begin in [0] + [m.end() for m in _NAME_END.finditer(cell[:90])]:
            key = re.sub(r"[\s’'`]+", "", cell[begin:].lower())
            start = _QUALIFIERS.match(key).end()
            for kind, rx in _KINDS:
                m = rx.match(key, start)
                if m and _TITLE_REST.match(key, m.end()):
                    return kind
    return None


def _figure_rows(page: Page) -> int:
    """Rows that end in two or more figures (years excluded): table rows, not prose with numbers."""
    rows = 0
    for line in page.lines:
        figures = 0
        for token in reversed(line.text.split()):
            if token == "$":
                continue
            if not _FIGURE.fullmatch(token) or _YEAR.match(token):
                break
            figures += 1
        rows += figures >= 2
    return rows


def _is_prose(text: str) -> bool:
    words = text.split()
    return len(text) > 100 or (len(words) >= 6 and sum(w[0].islower() for w in words) * 2 >= len(words))


def statement_kind(page: Page) -> StatementKind | None:
    """The primary statement printed on this page: its title atop a table of figures.

    A note that quotes a statement (prose above the title), an index listing the statements,
    or an MD&A table named after one are not statements.
    """
    found: list[StatementKind] = []
    top = [line.text.strip() for line in page.lines[: TITLE_LINES + 1]]
    for i, text in enumerate(top[:TITLE_LINES]):
        kind = _title_kind(text)
        if kind is None and i + 1 < len(top) and len(text) < 60:
            kind = _title_kind(f"{text} {top[i + 1]}")  # a title wrapped onto two rows
        if kind:
            found.append(kind)
        elif not found and (_is_prose(text) or _NOT_PRIMARY.search(text)):
            return None  # a note, an MD&A discussion or a guarantor schedule quoting a statement's name
    if not found or len(set(found)) >= 3:
        return None
    return found[0] if _figure_rows(page) >= MIN_ROWS else None
