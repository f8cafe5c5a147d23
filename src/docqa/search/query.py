"""What a question names: companies, fiscal periods, filing types, metrics.

Turns a question into a QueryPlan: the lexical terms and line-item phrases to search for, and one
filter per company named (so that "compare 3M and Adobe" ranks each company's filings in turn).
Companies are matched against what the index knows about its documents (names, tickers, aliases
read from the filings), never against a fixed list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from docqa.finance.lexicon import load_lexicon
from docqa.finance.topics import load_topics, topics_for
from docqa.search.names import NameTable, OwnerCheck, WordCheck, closest, fuzzy_mentions, name_like_phrases
from docqa.text import STOPWORDS, fold, query_tokens, tokens
from docqa.types import DocType, Document, SearchFilters, StatementKind

_LEGAL = re.compile(
    r"\b(incorporated|inc|corporation|corp|company|co|plc|limited|ltd|llc|lp|sa|ag|nv|se|holdings?|group|the)\b"
)
# A year, not an amount: "2,018" and "$2018" are not years; "FY2023, FY2022" are.
_YEAR = re.compile(r"(?<![\d.,$])(?:fy\s?'?|fiscal\s+(?:year\s+)?)?((?:19|20)\d{2})(?!\d|,\d|\.\d)", re.I)
_SHORT_FY = re.compile(r"\bfy\s?'?(\d{2})\b", re.I)
_QUARTER = re.compile(r"(?:\b|(?<=\d))(?:q([1-4])|([1-4])q|(first|second|third|fourth)[\s-]+(?:fiscal[\s-]+)?quarter)\b", re.I)
_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_DOC_TYPES = [
    (re.compile(r"\b10-?k\b|annual report", re.I), DocType.ANNUAL),
    (re.compile(r"\b10-?q\b|quarterly report", re.I), DocType.QUARTERLY),
    (re.compile(r"\b8-?k\b|current report", re.I), DocType.CURRENT),
    (re.compile(r"earnings (?:release|report|call)|press release|results (?:announcement|release)", re.I), DocType.EARNINGS),
]


def normalize_name(name: str) -> str:
    return _without(_LEGAL, name)


_LEGAL_FORM = re.compile(r"\b(incorporated|inc|corporation|corp|company|co|plc|limited|ltd|llc|lp|sa|ag|nv|se|the)\b")


def _full_name(name: str) -> str:
    """A company's name without its legal form only: what tells two filers apart."""
    return _without(_LEGAL_FORM, name)


def _without(words: re.Pattern[str], name: str) -> str:
    text = " ".join(tokens(fold(name).replace("&", " and ")))
    return " ".join(words.sub(" ", text).split())


@dataclass
class QueryPlan:
    question: str
    terms: list[str]
    phrases: list[str]
    companies: list[str] = field(default_factory=list)
    years: list[int] = field(default_factory=list)
    quarter: int | None = None
    doc_types: list[DocType] = field(default_factory=list)
    statements: set[StatementKind] = field(default_factory=set)
    sections: set[str] = field(default_factory=set)   # Items that usually hold the topic asked about
    groups: list[SearchFilters] = field(default_factory=list)  # searched in turn, results interleaved
    notes: list[str] = field(default_factory=list)
    unheld: list[str] = field(default_factory=list)   # name-like phrases that match no held company
    closest: list[str] = field(default_factory=list)  # held companies nearest the first unheld name
    latest: bool = False                              # "the most recent 10-Q", "the latest quarter"
    rewritten: str = ""                               # the question with misspelt names spelt as the filings do
    period_end: str | None = None                     # "for the fiscal year ending May 28, 2023" (ISO)


def detect_years(question: str) -> list[int]:
    years = {int(m.group(1)) for m in _YEAR.finditer(question)}
    years |= {2000 + int(m.group(1)) for m in _SHORT_FY.finditer(question)}
    return sorted(y for y in years if 1990 <= y <= 2039)


def detect_quarter(question: str) -> int | None:
    m = _QUARTER.search(question)
    if not m:
        return None
    return int(m.group(1) or m.group(2)) if (m.group(1) or m.group(2)) else _ORDINAL[m.group(3).lower()]


def detect_doc_types(question: str) -> list[DocType]:
    return [dt for pattern, dt in _DOC_TYPES if pattern.search(question)]


def company_names(document: Document) -> frozenset[str]:
    return _names(document.meta.company, document.meta.aliases)


@lru_cache(maxsize=65536)  # every question looks at every document's names: work them out once
def _names(company: str | None, aliases: tuple[str, ...]) -> frozenset[str]:
    names = {normalize_name(n) for n in (company, *aliases) if n}
    names |= {short for n in list(names) for short in _short_forms(n)}
    return frozenset(n for n in names if len(n) >= 2)


def _short_forms(name: str) -> set[str]:
    """How people shorten a two- or three-word name: "American Express" -> "amex",
    "Johnson & Johnson" -> "j and j" (J&J). Only forms of four or more letters, or with "and",
    so that short forms do not collide with ordinary words."""
    words = name.split()
    out = set()
    if 2 <= len(words) <= 3 and all(w.isalpha() for w in words):
        if "and" in words:
            initials = [w[0] for w in words if w != "and"]
            out.add(" and ".join(initials))  # J&J
            out.add("n".join(initials))        # JnJ
        else:
            prefix = "".join(w[:2] for w in words)
            if len(prefix) >= 4:
                out.add(prefix)
    return out


def canonical_companies(documents: list[Document]) -> dict[str, str]:
    """document id -> one name per company: filings that share a name, alias or ticker are one
    company ("Adobe Systems Incorporated" and "Adobe Inc."), named as its latest filing names it."""
    return dict(_canonical(_key(documents)))


_DocKey = tuple[tuple[str, str | None, tuple[str, ...], str | None, int | None], ...]


def _key(documents: list[Document]) -> _DocKey:
    """What company matching reads of each document: names, aliases, ticker, year."""
    return tuple((d.id, d.meta.company, d.meta.aliases, d.meta.ticker, d.meta.fiscal_year) for d in documents)


@dataclass(frozen=True)
class _Held:
    """What every question is matched against, worked out once per set of documents: the planner
    used to rebuild it (names, their common-word tests, the fuzzy table) for each question."""

    canonical: dict[str, str]
    exact: tuple[tuple[str, str], ...]                  # (name, company): names that are not all common words
    tickers: tuple[tuple[str, str, re.Pattern[str]], ...]  # (company, ticker, its pattern), in document order
    names: tuple[tuple[str, str], ...]                  # sorted (company, name), as fuzzy matching takes them
    table: NameTable
    firsts: dict[str, frozenset[str]]                   # first word of a name -> companies
    known: frozenset[str]                               # every name of every document, common or not
    known_words: tuple[tuple[str, tuple[str, ...]], ...]  # each known name and its words
    full: tuple[tuple[str, str], ...] = ()              # (full name without legal form, company), two words or more


def _held(documents: list[Document]) -> _Held:
    return _held_for(_key(documents))


@lru_cache(maxsize=8)  # the same documents, question after question
def _held_for(key: _DocKey) -> _Held:
    canonical = dict(_canonical(key))
    exact: dict[tuple[str, str], None] = {}
    tickers: dict[tuple[str, str], re.Pattern[str]] = {}
    known: set[str] = set()
    for doc_id, company_name, aliases, ticker, _year in key:
        names = _names(company_name, aliases)
        known |= names
        company = canonical.get(doc_id)
        if not company:
            continue
        for name in names:
            if not all(common_word(w) for w in name.split()):
                exact.setdefault((name, company))
        if ticker and len(ticker) >= 2 and (company, ticker) not in tickers:
            tickers[(company, ticker)] = re.compile(rf"(?<![\w$]){re.escape(ticker)}(?!\w)")
    names = tuple(sorted({(company, name) for name, company in exact}))
    firsts: dict[str, set[str]] = {}
    for c, n in names:
        firsts.setdefault(n.split()[0], set()).add(c)
    full = {(f, canonical[doc_id]) for doc_id, company_name, *_ in key
            if company_name and doc_id in canonical and len((f := _full_name(company_name)).split()) >= 2}
    return _Held(canonical=canonical, exact=tuple(exact), names=names, table=NameTable(names), full=tuple(sorted(full)),
                 tickers=tuple((c, t, pattern) for (c, t), pattern in tickers.items()),
                 firsts={w: frozenset(cs) for w, cs in firsts.items()}, known=frozenset(known),
                 known_words=tuple((k, tuple(k.split())) for k in sorted(known)))


@lru_cache(maxsize=8)  # the same documents, question after question
def _canonical(documents: tuple[tuple[str, str | None, tuple[str, ...], str | None, int | None], ...]
               ) -> tuple[tuple[str, str], ...]:
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    # Two filings are one company when they print the same ticker, or when one's full name is a
    # name the other gives itself ("Adobe Inc." is what "Adobe Systems Incorporated" calls
    # "Adobe"). Two short names alone prove nothing: "Odyssey Gold Ltd" and "Odyssey Group
    # Holdings, Inc." both call themselves "Odyssey". Full names keep "group"/"holdings" here,
    # which tell such filers apart, while question matching drops them.
    named: dict[str, list[str]] = {}
    for doc_id, company, _aliases, _ticker, _year in documents:
        if company and (full := _full_name(company)):
            named.setdefault(full, []).append(doc_id)
    for doc_id, company, aliases, ticker, _year in documents:
        keys = [f"ticker:{ticker.upper()}"] if ticker else []
        for name in {_full_name(n) for n in (company, *aliases) if n}:
            keys += [f"doc:{other}" for other in named.get(name, ())]
        for key in keys:
            parent[find(key)] = find(f"doc:{doc_id}")
    latest: dict[str, tuple[str, int]] = {}  # root -> (company, fiscal year) of its latest filing
    for doc_id, company, _aliases, _ticker, year in documents:
        root = find(f"doc:{doc_id}")
        if company and (root not in latest or (year or 0) > latest[root][1]):
            latest[root] = (company, year or 0)
    return tuple((doc_id, latest[find(f"doc:{doc_id}")][0]) for doc_id, *_ in documents
                 if find(f"doc:{doc_id}") in latest)


def detect_companies(question: str, documents: list[Document], is_word: WordCheck | None = None,
                     owner: OwnerCheck | None = None) -> list[str]:
    """Companies (by their canonical name) that the question mentions, in order of mention:
    names, aliases and tickers as the filings print them, then near-misses (search.names)."""
    return _detect_companies(question, _held(documents), is_word, owner)


def _detect_companies(question: str, held: _Held, is_word: WordCheck | None, owner: OwnerCheck | None) -> list[str]:
    norm = " " + normalize_name(question) + " "
    mentions: set[tuple[int, int, str]] = set()  # (start, end, company) in the normalised question
    found: dict[str, int] = {}
    # "Annual Report" read as a company is no mention of one: held.exact leaves such names out.
    for name, company in held.exact:
        start = norm.find(" " + name + " ")
        while start >= 0:
            mentions.add((start, start + len(name) + 1, company))
            start = norm.find(" " + name + " ", start + 1)
    for company, ticker, pattern in held.tickers:
        if pattern.search(question):
            found.setdefault(company, question.find(ticker))
    # A one-word name that is also an ordinary word ("First" of First Mid Bancshares) names the
    # company only when the question writes it as a name, capitalised, or when that company's
    # filings alone print the word: "the first quarter" names no bank.
    mentions = {m for m in mentions if not _ordinary_word_mention(norm[m[0]:m[1]].strip(), m[2], question, owner)}
    # Longest names first, and a name inside a longer one is not a second company:
    # "American Express" is not also "American" (Water Works). Two filers read by the same words
    # ("Odyssey" is both "Odyssey Gold Ltd" and "Odyssey Group Holdings, Inc.") are told apart by
    # the full name the question spells out; without one, both are meant.
    strict = " " + _full_name(question) + " "
    spelt = {company for full, company in held.full if f" {full} " in strict}
    taken: list[tuple[int, int, bool]] = []
    for start, end, company in sorted(mentions, key=lambda m: (m[0] - m[1], m[0], m[2] not in spelt, m[2])):
        if any(start < e and s < end and not ((s, e) == (start, end) and not was_spelt and company not in spelt)
               for s, e, was_spelt in taken):
            continue
        taken.append((start, end, company in spelt))
        found[company] = min(found.get(company, start), start)
    read = {norm[s:e].replace(" ", "") for s, e, _ in mentions}
    for m in fuzzy_mentions(question, held.table, is_word):
        if m.exact and m.text in read:
            continue  # a name the exact pass read, and gave to the company it names
        if re.search(rf"\b{re.escape(m.text)}\b", question, re.I) and _ordinary_word_mention(m.text, m.company, question, owner):
            continue
        found.setdefault(m.company, m.start)
    if owner is not None:
        # "Lockheed's segment": the first word of a held name, when the filings that print that
        # word are (nearly all) that company's own.
        for word in dict.fromkeys(norm.split()):
            holders = held.firsts.get(word, frozenset())
            start = norm.find(" " + word + " ")
            if (len(holders) != 1 or len(word) < 4 or common_word(word)
                    or any(s <= start < e for s, e, _ in taken)):  # part of a name already read
                continue
            company = next(iter(holders))
            if company not in found and owner(word) == company:
                found[company] = start
    return sorted(found, key=found.get)


def _ordinary_word_mention(name: str, company: str, question: str, owner: OwnerCheck | None) -> bool:
    if " " in name or not name.isalpha():
        return False
    if any(m.group(0)[:1].isupper() for m in re.finditer(rf"\b{re.escape(name)}\b", question, re.I)):
        return False
    return owner is None or owner(name) != company


def respelt(question: str, documents: list[Document], is_word: WordCheck | None = None) -> str:
    """The question with each near-miss of a held name ("Activison", "Pepsi co") written as the
    filing writes it, so that what is asked is read without a stray word."""
    return _respelt(question, _held(documents), is_word)


def _respelt(question: str, held: _Held, is_word: WordCheck | None) -> str:
    from docqa.ingest.metadata import short_name

    if len(fold(question)) != len(question):
        return question  # offsets of the folded text would not line up
    out = question
    for m in sorted(fuzzy_mentions(question, held.table, is_word), key=lambda m: -m.start):
        if not m.exact or " " in question[m.start:m.end]:
            out = out[:m.start] + short_name(m.company) + out[m.end:]
    return out


_MONTH_NAMES = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split())
_QUESTION_WORDS = frozenset(
    "what which who whom whose when where why how whats is are was were did does do has have had can could "
    "would should will calculate compute give round answer using use based provide report show state list "
    "describe explain according per assume consider also total net gross usd eur gbp gaap ifrs non fy q1 q2 q3 q4 "
    "h1 h2 ceo cfo coo sec nyse nasdaq form annual quarterly fiscal year quarter company companies group "
    "corporation inc plc ltd here there it that let this these those".split())


@lru_cache(maxsize=1)
def _vocabulary() -> frozenset[str]:
    """Words of the lexicon and the topics: how questions name figures and subjects, never companies."""
    lexicon = load_lexicon()
    texts: list[str] = []
    for m in lexicon.metrics:
        texts += [m.label, *m.asks, *m.prints]
    for f in lexicon.formulas:
        texts += [f.label, *f.asks]
    for names in lexicon.statements.values():
        texts += list(names)
    for t in load_topics():
        texts += [*t.asks, *t.prints]
    return frozenset(w for text in texts for w in tokens(text))


_NUMBERISH = re.compile(r"\d+(?:k|q|f|st|nd|rd|th|s)?|fy\d*|q[1-4]|h[12]|[1-4]q\d*")


@lru_cache(maxsize=65536)  # asked of every word of every held name, question after question
def common_word(word: str) -> bool:
    w = word.lower().strip(".&-")
    return (not w or w in STOPWORDS or w in _QUESTION_WORDS or w in _MONTH_NAMES or w in _vocabulary()
            or bool(_NUMBERISH.fullmatch(w)))


_RENAMED = re.compile(r"\b(?:formerly|previously|now\s+(?:known\s+as|called|named)|renamed|\(now|f/k/a|fka)\b", re.I)


def unheld_companies(question: str, documents: list[Document], detected: list[str]) -> tuple[list[str], list[str]]:
    """Name-like phrases of the question that are no held company, and the held companies closest
    to the first of them. A possessive ("Tesla's") counts even beside a held company; a cued name
    ("did Home Depot operate") only when the question names no held company."""
    return _unheld_companies(question, _held(documents), detected)


def _unheld_companies(question: str, names: _Held, detected: list[str]) -> tuple[list[str], list[str]]:
    out: list[str] = []
    for phrase in name_like_phrases(question, common_word):
        norm = normalize_name(phrase.text)
        if not norm or norm in names.known:
            continue
        norm_words = norm.split()
        if any(norm in words or k in norm_words for k, words in names.known_words):
            continue
        if _detect_companies(phrase.text, names, None, None):
            continue  # a spelling of a held name
        possessive = re.match(r"^(?:'s|’s)", question[phrase.start + len(phrase.text):]) is not None
        if detected and (not possessive or _RENAMED.search(question)):
            continue  # "Block's (formerly known as Square)": one company by two names
        out.append(phrase.text)
    return out, (closest(out[0], set(names.canonical.values())) if out else [])


_FORWARD = re.compile(r"\b(expect\w*|guidance|outlook|forecast\w*|project(?:ed|ion)s?|anticipat\w*|plan(?:s|ned)? to)\b", re.I)


def is_forward_looking(question: str) -> bool:
    return bool(_FORWARD.search(question))


def choose_documents(
    candidates: list[Document], years: list[int], quarter: int | None, doc_types: list[DocType],
    forward_looking: bool = False, latest: bool = False, period_end: str | None = None, annual_first: bool = False,
    day: str | None = None,
) -> tuple[list[Document], str | None]:
    """Narrow one company's filings to the ones the question's period points at.

    The latest year named decides: a filing for that year also prints the earlier years as
    comparatives, while an older filing cannot know the later year. When no filing of that year
    exists, a filing of the next two years (which reports it as a comparative) is used. A quarter
    asked picks the filing of that fiscal quarter (by the filer's own calendar, as its filings
    state it); "the most recent" picks the latest filing; a printed period end picks the filing
    that closes on that date.
    """
    docs = candidates
    if period_end:
        dated = [d for d in docs if d.meta.period_end and days_apart(d.meta.period_end, period_end) <= 7]
        if dated:
            return dated, None  # the filing that closes on the date asked
    if day:
        reports = [d for d in docs if d.meta.report_date and days_apart(d.meta.report_date, day) <= 7]
        if reports:
            return reports, None  # the current report of (or just after) the day asked
    if doc_types:
        accepted = {k for t in doc_types for k in t.family}
        typed = [d for d in docs if d.meta.doc_type in accepted]
        if typed:
            docs = typed
    elif quarter is not None:
        quarterly = [d for d in docs if d.meta.doc_type in (DocType.QUARTERLY, DocType.EARNINGS)]
        if quarterly:
            docs = quarterly
    if latest and not years:
        newest = max(docs, key=_recency, default=None)
        return ([d for d in docs if _recency(d) == _recency(newest)] if newest else docs), None
    if quarter is not None:
        same = [d for d in docs if d.meta.fiscal_quarter == quarter
                and (not years or d.meta.fiscal_year in (max(years), max(years) + 1))]
        exact = [d for d in same if not years or d.meta.fiscal_year == max(years)]
        if exact or same:
            return exact or same, None
    if not years:
        # No period named: the latest filings speak for the company ("historically" is answered
        # by the latest 10-K's comparatives, "what industry" by the latest description).
        latest = max((d.meta.fiscal_year for d in docs if d.meta.fiscal_year), default=None)
        return ([d for d in docs if d.meta.fiscal_year == latest] if latest else docs), None
    target = max(years)
    # Expectations for a year are published in the filings of the year before it.
    ahead = [target, target - 1] if forward_looking else [target]
    for wanted in (ahead, years, [target + 1, target + 2]):
        chosen = [d for d in docs if d.meta.fiscal_year in wanted]
        annual = [d for d in chosen if d.meta.doc_type is not None and d.meta.doc_type.is_annual
                  and d.meta.fiscal_year in years + [target + 1, target + 2]]
        if annual_first and annual and not forward_looking:
            # A year's figure is the annual filing's: a quarter's release or a 10-Q of that year
            # reports other periods, unless the question asks for one.
            return annual, None
        if chosen:
            return chosen, None
    return docs, f"no filing for {target} found; searched every period"


_LATEST = re.compile(r"\b(?:most\s+recent|latest|last\s+reported|newest|current)\s+(?:\w+\s+){0,2}?"
                     r"(?:10-?[kq]|quarter\w*|filing|report|annual|fiscal|period|results|earnings)", re.I)
_ASKED_END = re.compile(
    r"\b(?:(?:fiscal\s+)?(?:year|quarter|period|weeks|months)\s+(?:ended|ending)|ended|ending)\s+"
    r"((?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+(?:19|20)\d\d"
    r"|\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?,?\s+(?:19|20)\d\d)", re.I)


_YEAR_END_ASKED = re.compile(r"\b(?:fiscal\s+)?year\s+(?:ended|ending)\b|\byear[\s-]end\b", re.I)


_ASKED_DAY = re.compile(
    r"\b(?:as\s+of|as\s+at|on|dated)\s+"
    r"((?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+(?:19|20)\d\d"
    r"|\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?,?\s+(?:19|20)\d\d)", re.I)


def asked_day(question: str) -> str | None:
    """A day the question names ("as of May 26, 2023", "on August 30, 2023"), ISO: a current
    report of that date speaks of it."""
    from docqa.ingest.metadata import parse_date

    m = _ASKED_DAY.search(question)
    day = parse_date(m.group(1)) if m else None
    return day.isoformat() if day else None


def asked_period_end(question: str) -> str | None:
    """The period end a question gives as a date ("for the fiscal year ending May 28, 2023"), ISO."""
    from docqa.ingest.metadata import parse_date

    m = _ASKED_END.search(question)
    day = parse_date(m.group(1)) if m else None
    return day.isoformat() if day else None


def fiscal_year_of(period_end: str) -> int:
    from datetime import date

    from docqa.ingest.metadata import fiscal_year_ending

    return fiscal_year_ending(date.fromisoformat(period_end))


def days_apart(a: str, b: str) -> int:
    from datetime import date

    try:
        return abs((date.fromisoformat(a) - date.fromisoformat(b)).days)
    except ValueError:
        return 10_000


def _recency(d: Document) -> tuple:
    return (d.meta.period_end or "", d.meta.fiscal_year or 0, d.meta.fiscal_quarter or 5)


_SENTENCES = re.compile(r"(?<=[.?!])\s+(?=[A-Z])")
_INSTRUCTION = re.compile(
    r"^(?:please\s+)?(?:answer|round|give|calculate|compute|provide|base|basing|use|using|assume|respond|reply|"
    r"express|report|show|state|explain|do not|don't|address|utilize|you are|if\b.*\b(?:not|isn't)\b.*"
    r"\b(?:useful|relevant|meaningful|applicable)\b)",
    re.I,
)


def content_text(question: str) -> str:
    """The question without the instructions around it ("Round to two decimals.", "Assume you are
    an analyst.", "If X is not a useful metric, say so."): they say how to answer, not where."""
    kept = []
    for sentence in _SENTENCES.split(question.strip()):
        sentence = sentence.strip()
        if not _INSTRUCTION.match(sentence):
            kept.append(sentence)
        elif ":" in sentence:  # "Answer the following question ...: what is the FY2018 net PPNE?"
            kept.append(sentence.rsplit(":", 1)[1].strip())
    return " ".join(kept) if kept else question


def plan_query(question: str, documents: list[Document], explicit: SearchFilters | None = None,
               is_word: WordCheck | None = None, owner: OwnerCheck | None = None) -> QueryPlan:
    lexicon = load_lexicon()
    explicit = explicit or SearchFilters()
    content = content_text(question)
    plan = QueryPlan(
        question=question,
        terms=query_tokens(content),
        phrases=[" ".join(tokens(p)) for p in lexicon.expansion_terms(question)],
        years=detect_years(question),
        quarter=detect_quarter(question),
        doc_types=list(explicit.doc_types) or detect_doc_types(question),
        statements=set(lexicon.statements_for(question)),
    )
    for topic in topics_for(content):
        plan.phrases.extend(" ".join(tokens(p)) for p in topic.prints if " ".join(tokens(p)) not in plan.phrases)
        plan.sections.update(topic.sections)
    pool = documents
    if explicit.document_ids:
        pool = [d for d in pool if d.id in explicit.document_ids or d.file_name in explicit.document_ids]
    held = _held(documents)  # worked out once a plan, and kept while the documents stay the same
    canonical = held.canonical
    if explicit.companies:
        wanted = {normalize_name(c) for c in explicit.companies}
        pool = [d for d in pool if company_names(d) & wanted]
        plan.companies = sorted({canonical[d.id] for d in pool if d.id in canonical})
    held_pool = held if pool is documents else _held(pool)
    if not explicit.companies:
        plan.companies = _detect_companies(question, held_pool, is_word, owner)
    if not explicit.document_ids and not explicit.companies:
        plan.unheld, plan.closest = _unheld_companies(question, held, plan.companies)
    plan.rewritten = _respelt(question, held_pool, is_word)
    plan.latest = bool(_LATEST.search(question))
    plan.period_end = asked_period_end(question)
    if plan.period_end and not explicit.years and _YEAR_END_ASKED.search(question):
        # "the fiscal year ending January 31, 2020" is fiscal 2020 by the filer's calendar, and
        # "ending January 1, 2023" fiscal 2022: the date says which year, not the digits alone.
        plan.years = sorted({y for y in plan.years if str(y) != plan.period_end[:4]} | {fiscal_year_of(plan.period_end)})
    if explicit.years:  # an explicit filter is a filter, not a hint
        pool = [d for d in pool if d.meta.fiscal_year in explicit.years]
    if explicit.doc_types:
        accepted = {k for t in explicit.doc_types for k in t.family}
        pool = [d for d in pool if d.meta.doc_type in accepted]
    years = [] if explicit.years else plan.years
    if not pool:
        plan.notes.append("no indexed document matches the filters given")
        return plan
    if explicit.document_ids:
        plan.groups = [SearchFilters(document_ids=tuple(d.id for d in pool))]
        return plan
    asks_figure = bool(lexicon.match(question))
    groups = plan.companies or [None]
    for company in groups:
        candidates = [d for d in pool if company is None or canonical.get(d.id) == company]
        chosen, note = choose_documents(candidates, years, plan.quarter, plan.doc_types, is_forward_looking(question),
                                        latest=plan.latest, period_end=plan.period_end,
                                        annual_first=asks_figure and plan.quarter is None and not plan.doc_types,
                                        day=asked_day(question))
        if note:
            plan.notes.append(f"{company or 'all companies'}: {note}")
        if company is None and plan.period_end and chosen and len(chosen) < len(candidates):
            plan.groups.append(SearchFilters(document_ids=tuple(d.id for d in chosen)))  # the date singles them out
        elif company is None and not years and not plan.doc_types and not explicit.companies:
            plan.groups.append(SearchFilters())  # nothing named: search everything, unfiltered
        elif chosen:
            plan.groups.append(SearchFilters(document_ids=tuple(d.id for d in chosen)))
    return plan
