"""Which of a question's words name the line item: not the company, the period or the scaffolding."""

from __future__ import annotations

import re

from docqa.answer.figures.reading.sources import Source, all_tables
from docqa.finance.lexicon import MetricMatch, load_lexicon
from docqa.finance.text import stems
from docqa.plan import QuestionPlan
from docqa.store.base import Store

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
    "there"))


def leaf_text(text: str, company_words: frozenset[str] = frozenset()) -> str:
    """The line item's words: without the company's name, periods, dates, and scaffolding."""
    text = re.sub(r"\b[\w.&-]+(?:\s+[A-Z][\w.&-]*){0,3}(?:['\u2019]s\b|(?<=s)['\u2019](?!\w))",
                  lambda m: "" if _is_company(m.group(0), company_words) else m.group(0), text)
    text = re.sub(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b", " ", text, flags=re.I)
    text = re.sub(r"\b\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})\b", " ", text)   # "as of 12/31/2021"
    text = re.sub(r"\b(?:19|20)\d\d\b|\b\d{1,2},|\b\d{1,2}(?=\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)"
                  r"|\bq[1-4]\b|\bfy\s?(?:\d{4}|\d{2})\b", " ", text, flags=re.I)
    text = _PERIOD_WORDS.sub(" ", text)
    text = _STATEMENT.sub(" ", text)
    text = _FILING.sub(" ", text)
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


# "on the 2021 income statement", "per the cash flow statement": where the line is printed, not its words
_STATEMENT = re.compile(
    r"\b(?:(?:consolidated|condensed)\s+)*(?:income\s+statements?|balance\s+sheets?|cash[\s-]+flows?\s+statements?|"
    r"statements?\s+of\s+(?:consolidated\s+)?(?:income|operations|earnings|cash\s+flows?|financial\s+position|"
    r"comprehensive\s+income)|profit\s+and\s+loss\s+statements?|p&l)\b", re.I)


# "Q4 2022 release:", "in its 10-Q", "per the annual report": which filing, not the line's words
_FILING = re.compile(r"\b(?:(?:press|earnings|news)\s+)?releases?\b|\b(?:annual|quarterly)\s+reports?\b"
                     r"|\b(?:10-?[kq]|8-?k|20-?f|40-?f)\b", re.I)


# "the second quarter", "the first half", "the first nine months": a period, not the line item's words.
_PERIOD_WORDS = re.compile(r"\b(?:first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?(?:quarter|half|nine\s+months)\b"
                           # "six months ended December 31", "the twelve weeks ended": a span, not the item's words
                           r"|\b(?:three|six|nine|twelve|twelve|sixteen|twenty-four|thirty-six|\d{1,2})[\s-]+(?:months?|weeks?)"
                           r"(?=\s+(?:ended|ending|to)\b)|\b(?:year|quarter)[\s-]+to[\s-]+date\b",
                           re.I)


def _is_company(text: str, company_words: frozenset[str]) -> bool:
    s = set(stems(re.sub(r"['\u2019]s$", "", text)))
    return bool(s) and (not company_words or bool(s & company_words) or text[:1].isupper())


def line_words(plan: QuestionPlan, sources: list[Source], company_words: frozenset[str]) -> str:
    """The words of the line asked: the clause's words less the company, periods and scaffolding,
    and less a verb that ties the item to a place ("goodwill sat in the segment") when no table of
    the filings prints it."""
    clause = plan.line_clause or plan.main_clause
    for word in plan.linking:
        if not any(set(stems(word)) <= printed_words(source) for source in sources):
            clause = re.sub(rf"\b{re.escape(word)}\b", " ", clause, count=1)
    return leaf_text(clause, company_words)


_PRINTED: dict[str, frozenset[str]] = {}
_PRINTED_KEPT = 64


def printed_words(source: Source) -> frozenset[str]:
    """Stems of every word a table of the filing prints in a label, heading, title or column header."""
    found = _PRINTED.get(source.document_id)
    if found is None:
        words: set[str] = set()
        for table in all_tables(source):
            words.update(stems(" ".join((table.title, *(c.header for c in table.columns),
                                         *(f"{r.label} {r.section or ''}" for r in table.rows)))))
        if len(_PRINTED) >= _PRINTED_KEPT:
            _PRINTED.pop(next(iter(_PRINTED)))
        found = _PRINTED[source.document_id] = frozenset(words)
    return found


def leftover(text: str, match: MetricMatch, company_words: frozenset[str]) -> list[str]:
    """Words of ``text`` outside the lexicon match that the metric's own vocabulary lacks:
    "King segment net revenues" is not revenue."""
    lexicon = load_lexicon()
    entry = lexicon.metric(match.key) if match.kind == "metric" else lexicon.formula(match.key)
    vocabulary = {s for p in (*entry.asks, *getattr(entry, "prints", ())) for s in stems(p)}
    outside = text[:match.span[0]] + " " + text[match.span[1]:]
    return [s for s in stems(outside) if s not in vocabulary and s not in SCAFFOLD and s not in company_words
            and s not in SOFT_WORDS]


SOFT_WORDS = frozenset(stems("total net gaap consolidated reported overall"))


def company_name_words(store: Store, sources: list[Source], plan: QuestionPlan) -> frozenset[str]:
    """Stems of the names the company goes by, so that "Activision's" is not part of a line item."""
    words: set[str] = set()
    for name in (*plan.companies, *plan.named_as):
        words |= set(stems(name))
    for source in sources:
        doc = store.document(source.document_id)
        if doc is None:
            continue
        meta = doc.meta
        # the names the question gives the company (plan.named_as), where it gives one: every alias the
        # filings print ("Kraft Canada Inc") would make "Canada" the company's word, not the part asked
        for name in (meta.company, meta.ticker, *(() if plan.named_as else meta.aliases)):
            if name:
                words |= set(stems(name))
    generic = set(stems("inc corporation corp company co ltd plc group holdings the and of limited llc sa ag nv"))
    return frozenset(words - generic - set(stems("total net revenue sales income")))


_SEGMENT_AFTER = re.compile(r"^[^,;:?]{0,60}?\b(?:segment|division|region|geograph\w*|brand|business\s+unit|reportable)\b", re.I)


def qualifiers(main: str, m: MetricMatch, company_words: frozenset[str], noun_of: str | None = None) -> list[str]:
    """Words that narrow the line item named at ``m``: premodifiers ("King segment net revenues",
    "short-term unearned revenue") and a segment named after it ("net sales did the Aeronautics
    segment bring in"). Generic words and the company's name do not narrow it."""
    lexicon = load_lexicon()
    entry = lexicon.metric(m.key)
    vocabulary = {s for p in (*entry.asks, *entry.prints) for s in stems(p)}
    before = re.findall(r"[\w&'\u2019.-]+", main[:m.span[0]])
    words: list[str] = []
    for w in reversed(before):
        if (re.search(r"['\u2019]s$|\d", w) or set(stems(w)) <= (SCAFFOLD | company_words) or not stems(w)
                or w.lower() in _PREPOSITIONS):
            break  # a preposition ends the words that modify the item ("put into research and development")
        words.append(w)
    if noun_of and not words and not set(stems(noun_of)) & (SCAFFOLD | _QUESTION_WORDS | _OF_FILLERS | company_words):
        words.append(noun_of)  # "an impairment of plant and equipment" (the plan's): the impairment, not the balance
    after = _SEGMENT_AFTER.match(main[m.span[1]:])
    if after:
        words += [w for w in re.findall(r"[\w&-]+", after.group(0)) if w[:1].isupper() or w.lower() == "segment"]
    return [s for w in words for s in stems(w) if s not in vocabulary and s not in SOFT_WORDS and s not in company_words
            and s not in _QUESTION_WORDS and s not in SCAFFOLD]


# "<noun> of <line item>" asks the noun of the item ("impairment of goodwill", "sale of the business"),
# unless the noun only measures it ("the amount of", "the balance of", "the share of").
_OF_FILLERS = frozenset(stems("amount amounts quantity magnitude extent value values level levels total totals balance balances size figure figures "
                              "number sum sums portion part share percentage percent proportion ratio growth change "
                              "changes increase decrease rate half each all both any most some terms basis net gross "
                              "components component breakdown composition details detail type types kind kinds"))
_PREPOSITIONS = frozenset("into onto upon toward towards with within about across through via".split())


# ... and the verbs a question asks an amount with ("how much did it spend repurchasing shares",
# "pay in dividends"): they precede the line item without narrowing it.
_QUESTION_WORDS = frozenset(stems(
    "amount value level figure number line item reported gaap much many bring brought in during "
    "holders holder per share "
    "spend spent spending pay paid paying earn earned generate generated record recorded incur incurred "
    "make made return returned distribute distributed invest invested "
    # legal forms and group words of a company's name ("Microsoft Corporation pay dividends")
    "inc incorporated corporation corp co company ltd limited plc llc lp group holdings"))
