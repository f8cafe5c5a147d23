"""The financial lexicon: analysts' terms <-> printed line items, and named formulas.

The knowledge is data (``lexicon.yaml``, versioned); this module loads it and answers three
questions that search and answer both ask of a user's question: which metrics/formulas does it
name, which printed phrases should a lexical search add, and which statements hold the answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from docqa.finance.text import phrase_key, stems, tokens
from docqa.types import StatementKind

LEXICON_PATH = Path(__file__).with_name("lexicon.yaml")
SUPPORTED_VERSION = 1

ValueKind = Literal["currency", "per_share", "shares", "percent"]
ResultKind = Literal["percent", "ratio", "days", "currency", "times", "same"]


class _Entry(BaseModel):
    model_config = ConfigDict(frozen=True)

    key: str
    label: str
    asks: tuple[str, ...] = ()


class Metric(_Entry):
    statement: StatementKind | None = None
    kind: ValueKind = "currency"
    outflow: bool = False  # printed negative on the cash-flow statement; quoted as a positive amount
    # An expense, printed subtractive by some filers ("(2,374)") and with its benefit by others
    # ("provision (benefit)"): read as its size, signed by the label (finance.text.expense_amount),
    # so a tax benefit is a negative tax expense and a bracketed cost a positive one.
    signed_by_label: bool = False
    prints: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    prefer: tuple[str, ...] = ()
    # A line item some filers print only in parts ("Cost of products", "Cost of services"): the
    # printed forms of a part ("*" a word or more), summed when no single row prints the item.
    parts: tuple[str, ...] = ()
    # Other routes to the line item when no row prints it, as expressions over metric keys
    # ("revenue - cost_of_revenue" for gross profit), tried in order.
    routes: tuple[str, ...] = ()


class FormulaDef(_Entry):
    kind: ResultKind = "ratio"
    inputs: tuple[str, ...] = ()
    average: tuple[str, ...] = ()  # inputs taken as the mean of two year-end balances
    expression: str = ""
    # A formula as data: an expression over metric and formula keys ("avg(x)": the mean of the
    # period's and the prior period's year-end balances), evaluated by finance.compose. Formulas
    # without one are computed by the named functions in finance.formulas.
    compose: str = ""
    convention: str = ""           # the default convention, in words ("average balances")
    alternative: str = ""          # the other convention's expression, stated in one clause
    alternative_label: str = ""    # "on year-end equity"

    @property
    def uses_average(self) -> bool:
        return bool(self.average)

    @property
    def needs_subject(self) -> bool:
        """Generic formulas (growth, CAGR, margin) apply to whichever metric the question names."""
        return "subject" in self.inputs


class MetricMatch(BaseModel):
    model_config = ConfigDict(frozen=True)

    key: str
    kind: Literal["metric", "formula"]
    phrase: str            # the lexicon phrase that matched
    text: str              # the question's own words
    span: tuple[int, int]  # character offsets into the question


class _PhraseIndex(BaseModel):
    phrases: dict[tuple[str, ...], list[tuple[str, str, str]]]  # stems -> [(kind, key, phrase)]
    longest: int


class Lexicon(BaseModel):
    model_config = ConfigDict(frozen=True)

    version: int
    metrics: tuple[Metric, ...]
    formulas: tuple[FormulaDef, ...]
    statements: dict[StatementKind, tuple[str, ...]] = Field(default_factory=dict)
    words: tuple[tuple[str, ...], ...] = ()  # interchangeable words in row labels ("sales", "revenue")
    _index: _PhraseIndex | None = PrivateAttr(default=None)
    # Planning one question asks match() three times (expansion terms, statements, figure or not).
    _last_match: tuple[tuple[str, bool], tuple[MetricMatch, ...]] | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _check_references(self) -> Lexicon:
        known = {m.key for m in self.metrics} | {"subject"}
        for f in self.formulas:
            missing = [i for i in (*f.inputs, *f.average) if i not in known]
            if missing:
                raise ValueError(f"formula {f.key!r} needs unknown metrics {missing}")
        through: dict[str, set[str]] = {}
        for m in self.metrics:
            for text in m.routes:
                used = re.findall(r"[a-z_][a-z0-9_]*", text)
                unknown = [n for n in used if n not in known or n == "subject"]
                if unknown:
                    raise ValueError(f"metric {m.key!r} routes through unknown metrics {unknown}")
                through.setdefault(m.key, set()).update(used)
        for key in through:
            # A route that comes back to its own metric would never end.
            seen, todo = set(), list(through[key])
            while todo:
                n = todo.pop()
                if n == key:
                    raise ValueError(f"metric {key!r} routes back to itself")
                if n not in seen:
                    seen.add(n)
                    todo.extend(through.get(n, ()))
        names = known | {f.key for f in self.formulas}
        for f in self.formulas:
            for text in (f.compose, f.alternative):
                unknown = [n for n in re.findall(r"[a-z_][a-z0-9_]*", text) if n not in names and n != "avg"]
                if unknown:
                    raise ValueError(f"formula {f.key!r} composes unknown names {unknown}")
        return self

    # ---------------------------------------------------------------- lookups
    def metric(self, key: str) -> Metric:
        for m in self.metrics:
            if m.key == key:
                return m
        raise KeyError(f"unknown metric {key!r}; known: {', '.join(m.key for m in self.metrics)}")

    def formula(self, key: str) -> FormulaDef:
        for f in self.formulas:
            if f.key == key:
                return f
        raise KeyError(f"unknown formula {key!r}; known: {', '.join(f.key for f in self.formulas)}")

    # ---------------------------------------------------------------- question analysis
    def match(self, question: str, every: bool = False) -> list[MetricMatch]:
        """Metrics and formulas the question names, longest phrase first, spans never overlapping.

        Each entry is reported once, at its longest mention (``every``: at each mention, as
        "Sam's Club operating income and Walmart's consolidated operating income" asks two).
        When one phrase names both a metric and a formula ("effective tax rate"), both are
        returned with the same span.
        """
        last = self._last_match
        if last is not None and last[0] == (question, every):
            return list(last[1])
        toks = [t for t in tokens(question) if t.stem not in _FILLERS]
        index = self._phrase_index()
        candidates: list[tuple[int, int, str, str, str]] = []  # (start_tok, end_tok, kind, key, phrase)
        for i in range(len(toks)):
            for n in range(min(index.longest, len(toks) - i), 0, -1):
                entries = index.phrases.get(tuple(t.stem for t in toks[i : i + n]))
                if entries and i > 0 and toks[i - 1].stem == "through":
                    continue  # "assets at fair value through profit or loss": a class of assets, not profit
                if entries:
                    candidates.extend((i, i + n, kind, key, phrase) for kind, key, phrase in entries)
        candidates.sort(key=lambda c: (-(c[1] - c[0]), c[0], c[2] != "metric"))
        taken: set[int] = set()
        chosen: list[tuple[int, int, str, str, str]] = []
        for c in candidates:
            span = set(range(c[0], c[1]))
            if span & taken and not any(c[:2] == o[:2] for o in chosen):
                continue
            if not every and any(c[2:4] == o[2:4] for o in chosen):
                taken |= span  # named again ("DPO ... DPO is defined as"): its words are used up
                continue
            taken |= span
            chosen.append(c)
        out = []
        for start, end, kind, key, phrase in chosen:
            a, b = toks[start].start, toks[end - 1].end
            out.append(MetricMatch(key=key, kind=kind, phrase=phrase, text=question[a:b], span=(a, b)))  # type: ignore[arg-type]
        self._last_match = ((question, every), tuple(out))
        return out

    def metrics_for(self, matches: Sequence[MetricMatch]) -> list[Metric]:
        """Every metric a question needs (``matches``: what ``match`` read in it): named directly or
        as an input of a named formula."""
        keys: list[str] = []
        for m in matches:
            if m.kind == "metric":
                keys.append(m.key)
            else:
                keys.extend(i for i in self.formula(m.key).inputs if i != "subject")
        seen: dict[str, Metric] = {}
        for k in keys:
            seen.setdefault(k, self.metric(k))
        return list(seen.values())

    def expansion_terms(self, matches: Sequence[MetricMatch]) -> list[str]:
        """Printed line-item phrases a lexical search should add for what the question asks.

        The first few printed forms of each metric are enough: they are ordered most common first,
        and a long tail of variants would drown the user's own words in the query.
        """
        terms: list[str] = []
        for metric in self.metrics_for(matches):
            terms.extend(metric.prints[:4])
        seen: set[str] = set()
        out = []
        for t in terms:
            k = phrase_key(t)
            if k not in seen:
                seen.add(k)
                out.append(t)
        return out

    def statements_for(self, question: str, matches: Sequence[MetricMatch]) -> set[StatementKind]:
        """Statements that hold what the question asks for (``matches``), and any statement it names itself."""
        kinds = {m.statement for m in self.metrics_for(matches) if m.statement is not None}
        text = f" {phrase_key(question)} "
        for kind, names in self.statements.items():
            if any(f" {phrase_key(n)} " in text for n in names):
                kinds.add(kind)
        return kinds

    def _phrase_index(self) -> _PhraseIndex:
        if self._index is None:
            self._index = _build_index(self)
        return self._index


# Possessives between the words of a measure ("repurchasing its own shares", "paid to their
# shareholders") name whose it is, not which measure: skipped in questions and phrases alike.
_FILLERS = frozenset(stems("its their own our"))


def _build_index(lexicon: Lexicon) -> _PhraseIndex:
    phrases: dict[tuple[str, ...], list[tuple[str, str, str]]] = {}
    for kind, entries in (("metric", lexicon.metrics), ("formula", lexicon.formulas)):
        for entry in entries:
            # A metric nobody asks for by name is an input of routes only ("net sales", the base
            # of a gross margin): its label would shadow the metric questions mean by it.
            for phrase in (*entry.asks, entry.label) if entry.asks else ():
                key = tuple(w for w in stems(phrase) if w not in _FILLERS)
                if not key:
                    continue
                bucket = phrases.setdefault(key, [])
                if not any(e[1] == entry.key and e[0] == kind for e in bucket):
                    bucket.append((kind, entry.key, phrase))
    return _PhraseIndex(phrases=phrases, longest=max(len(k) for k in phrases))


def parse_lexicon(data: dict) -> Lexicon:
    version = data.get("version")
    if version != SUPPORTED_VERSION:
        raise ValueError(f"lexicon version {version!r} is not supported (expected {SUPPORTED_VERSION})")
    statements = {StatementKind(k): tuple(v) for k, v in (data.get("statements") or {}).items()}
    return Lexicon(
        version=version,
        metrics=tuple(Metric.model_validate(m) for m in data.get("metrics") or ()),
        formulas=tuple(FormulaDef.model_validate(f) for f in data.get("formulas") or ()),
        statements=statements,
        words=tuple(tuple(g) for g in data.get("words") or ()),
    )


@lru_cache(maxsize=1)
def load_lexicon(path: str | None = None) -> Lexicon:
    """Load and validate the lexicon once per process (it is read on every question)."""
    source = Path(path) if path else LEXICON_PATH
    with source.open(encoding="utf-8") as fh:
        # libyaml's loader when PyYAML has it: the same data, 10x less CPU on a server's first question
        return parse_lexicon(yaml.load(fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
