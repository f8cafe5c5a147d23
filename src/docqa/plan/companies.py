"""The companies an index holds, as questions name them: names, aliases, tickers, short forms.

Worked out from what the filings print about themselves (company, aliases, ticker), never from a
list, and once per set of documents (the tables are cached while the documents stay the same).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from docqa.finance.lexicon import load_lexicon
from docqa.finance.topics import load_topics
from docqa.plan.names import NameTable
from docqa.text import STOPWORDS, fold, tokens
from docqa.types import Document

_LEGAL = re.compile(
    r"\b(incorporated|inc|corporation|corp|company|co|plc|limited|ltd|llc|lp|sa|ag|nv|se|holdings?|group|the)\b"
)


def normalize_name(name: str) -> str:
    return _without(_LEGAL, name)


_LEGAL_FORM = re.compile(r"\b(incorporated|inc|corporation|corp|company|co|plc|limited|ltd|llc|lp|sa|ag|nv|se|the)\b")


def _full_name(name: str) -> str:
    """A company's name without its legal form only: what tells two filers apart."""
    return _without(_LEGAL_FORM, name)


def _without(words: re.Pattern[str], name: str) -> str:
    text = " ".join(tokens(fold(name).replace("&", " and ")))
    return " ".join(words.sub(" ", text).split())




def company_names(document: Document) -> frozenset[str]:
    return _names(document.meta.company, document.meta.aliases)


@lru_cache(maxsize=65536)  # every question looks at every document's names: work them out once
def _names(company: str | None, aliases: tuple[str, ...]) -> frozenset[str]:
    names = {normalize_name(n) for n in (company, *aliases) if n}
    names |= {short for n in list(names) for short in _short_forms(n)}
    names |= {normalize_name(m.group(1)) for n in (company, *aliases) if n and (m := _CAMEL_HEAD.match(n))}
    return frozenset(n for n in names if len(n) >= 2)


# "MongoDB" -> "Mongo", "PepsiCo" -> "Pepsi": a name run together from a word and a short tail is
# called by the word (five letters or more, so that no ordinary short word becomes a company)
_CAMEL_HEAD = re.compile(r"^([A-Z][a-z]{4,})[A-Z][A-Za-z]{0,2}\b")


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
