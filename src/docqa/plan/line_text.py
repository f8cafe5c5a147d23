"""The words of a question that name its line item: without the company's name, the periods and
dates, the filing and statement it points at, and the scaffolding of asking ("how much did X spend
on"). Read from the question's text only; the answer layer adds the company's names the filings hold."""

from __future__ import annotations

import re

from docqa.finance.text import stems, without_sign_alternatives

SCAFFOLD = frozenset(stems(
    "what which how much many was were is are did does do has have had the a an its their of in on at for during "
    "by from to as end ending ended close year fiscal fy quarter quarterly period month months week weeks "
    "bring brought record recorded report reported receive received generate generated earn earned post posted "
    "give answer round rounded decimal decimals place places one two three usd dollar dollars us "
    "million millions billion billions thousand thousands figure value company company's "
    "balance sheet statement statements filing report annual 10 k q january february march april may june "
    "july august september october november december calendar date grow grew growth versus vs compared "
    "percentage percent change increase decrease rise rose decline fell prior yoy over before previous preceding ago "
    # how a question frames an amount ("how much did X spend on", "pay for"): the label prints the thing
    "spend spent spending pay paid paying it own "
    # how a question points at a table's parts ("inventory breakdown: ..."): no word of a row
    "breakdown breakdowns split detail details composition "
    # where the question points to read it ("from the tax note", "in its lease footnote"): no row prints it
    "note notes footnote footnotes table tables schedule section "
    "please kindly thanks thank tell show provide count "
    # "in the fourth quarter alone": how much of the period, not the line's words
    "alone only just solely "
    # "how many restaurants were there": the sentence's frame
    "there "
    # "roughly how many patents did X hold", "what range of capital expenditures": how exact, and the
    # verb of having, not the line's words
    "roughly approximately approximate around nearly hold holds range"))


# words that never narrow a line item ("total revenue", "GAAP net income")
SOFT_WORDS = frozenset(stems("total net gaap consolidated reported overall"))


# "<noun> of <line item>" asks the noun of the item ("impairment of goodwill", "sale of the business"),
# unless the noun only measures it ("the amount of", "the balance of", "the share of").
OF_FILLERS = frozenset(stems("amount amounts quantity magnitude extent value values level levels total totals balance balances size figure figures "
                              "number sum sums portion part share percentage percent proportion ratio growth change average mean median "
                              "changes increase decrease rate half each all both any most some terms basis net gross "
                              "components component breakdown composition details detail type types kind kinds"))


def leaf_text(text: str, company_words: frozenset[str] = frozenset()) -> str:
    """The line item's words: without the company's name, periods, dates, and scaffolding."""
    text = re.sub(r"\b[\w.&-]+(?:\s+[A-Z][\w.&-]*){0,3}(?:['\u2019]s\b|(?<=s)['\u2019](?!\w))",
                  lambda m: "" if _is_company(m.group(0), company_words) else m.group(0), text)
    text = re.sub(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b", " ", text, flags=re.I)
    text = re.sub(r"\b\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})\b", " ", text)   # "as of 12/31/2021"
    text = re.sub(r"\b(?:19|20)\d\d\b|\b\d{1,2},|\b\d{1,2}(?=\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)"
                  r"|\bq[1-4]\b|\bfy\s?(?:\d{4}|\d{2})\b", " ", text, flags=re.I)
    text = _OWED.sub(" ", text)
    text = _PERIOD_WORDS.sub(" ", text)
    text = _STATEMENT.sub(" ", text)
    text = _FILING.sub(" ", text)
    text = _IN_A_NOTE.sub(" ", text)
    words = [t for t in re.findall(r"[A-Za-z0-9&'\u2019-]+|\([^)]*\)", text)]
    out = []
    named = False   # the word before was the company's name: "EPI Holdings", "Odyssey Gold Ltd"
    for w in words:
        if w.startswith("("):
            continue  # "(at cost)", "(GAAP)": a qualifier, not the line item
        s = stems(w)
        if not s or set(s) <= SCAFFOLD or set(s) <= company_words or (named and set(s) <= _LEGAL_FORM):
            named = bool(s) and (set(s) <= company_words or (named and set(s) <= _LEGAL_FORM))
            continue
        named = False
        out.append(w.strip("'\u2019"))
    return " ".join(out)


_LEGAL_FORM = frozenset(stems("inc incorporated corporation corp company co ltd limited plc group holdings holding llc sa ag nv"))


# "how much did X owe employees for accrued vacation", "owe under operating leases": the debt's holder and
# the verb of owing frame the line; what is owed follows "for", "under" or "on"
_OWED = re.compile(r"\bow(?:e|es|ed|ing)\b(?:\s+(?!for\b|under\b|on\b)[\w'\u2019-]+){0,3}?\s+(?:for|under|on)\b"
                   r"|\bow(?:e|es|ed|ing)\b", re.I)


# "on the 2021 income statement", "per the cash flow statement": where the line is printed, not its words
_STATEMENT = re.compile(
    r"\b(?:(?:consolidated|condensed)\s+)*(?:income\s+statements?|balance\s+sheets?|cash[\s-]+flows?\s+statements?|"
    r"statements?\s+of\s+(?:consolidated\s+)?(?:income|operations|earnings|cash\s+flows?|financial\s+position|"
    r"comprehensive\s+income)|profit\s+and\s+loss\s+statements?|p&l)\b", re.I)


def names_a_statement(text: str) -> bool:
    """Does the question name a primary statement ("income statement", "per the balance sheet")?"""
    return _STATEMENT.search(text) is not None


# "Q4 2022 release:", "in its 10-Q", "per the annual report": which filing, not the line's words
# "in the 2022 10-K PP&E note", "per the income taxes footnote": where to read, no words of the line
_IN_A_NOTE = re.compile(r"\b(?:in|from|per|under|within|according\s+to|see)\s+(?:the\s+|its\s+|their\s+)?"
                        r"(?:[\w&'\u2019.-]+\s+){0,4}?(?:note|footnote)s?\b(?!\s+\w)", re.I)
_FILING = re.compile(r"\b(?:(?:press|earnings|news)\s+)?releases?\b|\b(?:annual|quarterly)\s+reports?\b"
                     r"|\b(?:10-?[kq]|8-?k|20-?f|40-?f)\b", re.I)


# "the second quarter", "the first half", "the first nine months": a period, not the line item's words.
_PERIOD_WORDS = re.compile(r"\b(?:first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?(?:quarter|half|nine\s+months)\b"
                           # "six months ended December 31", "the twelve weeks ended": a span, not the item's words
                           r"|\b(?:three|six|nine|twelve|twelve|sixteen|twenty-four|thirty-six|\d{1,2})[\s-]+(?:months?|weeks?)"
                           r"(?=\s+(?:ended|ending|to)\b)|\b(?:year|quarter)[\s-]+to[\s-]+date\b"
                           # "for full-year 2018", "the whole fiscal year": the period's length
                           r"|\b(?:full|whole|entire)[\s-]+(?:fiscal[\s-]+)?year\b",
                           re.I)


def _is_company(text: str, company_words: frozenset[str]) -> bool:
    s = set(stems(re.sub(r"['\u2019]s$", "", text)))
    return bool(s) and (not company_words or bool(s & company_words) or text[:1].isupper())


# an aside that contrasts or restates rather than places the row: "(net of amortization, not gross)",
# "(i.e. the long-term piece)", "(excluding leases)", "(in USD millions)"
_NOT_A_PLACE = re.compile(r"\b(?:not|rather|instead|i\.?e|e\.?g|excluding|including|except|versus|vs|or|in\s+(?:usd|\$|millions|"
                          r"thousands|billions))\b|[$%\d]", re.I)


def bracketed_asides(clause: str) -> tuple[str, ...]:
    """The line words of each bracketed aside that may name where the row is printed: a heading
    ("(deferred tax liabilities)"), a column or a variant printed in the label ("(after-tax)")."""
    out = []
    for found in re.finditer(r"\(([^()]{3,60})\)", clause):
        inner = found.group(1)
        if _NOT_A_PLACE.search(inner) or not without_sign_alternatives(found.group(0)).strip():
            continue  # ... nor a label's other sign: "equity income (loss)"
        words = leaf_text(inner)
        if words and len(words.split()) <= 6:
            out.append(words)
    return tuple(out)
