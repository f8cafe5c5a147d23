"""Which printed rows are a metric: "Purchases of property, plant and equipment (PP&E)" is capex.

Rows are scored against the metric's printed forms: an exact label beats a label that starts
with the form, which beats one that merely contains it. A total beats its components ("Total
net sales" over a segment's "Net sales"), the metric's own statement beats another (cash-flow
"Accounts payable" is a change, not the balance), and excluded words veto a row outright
("Net income attributable to noncontrolling interests" is never net income).
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from docqa.finance.lexicon import Metric, load_lexicon
from docqa.finance.tables import Row, StatementTable
from docqa.finance.text import holds as _contains, narrower_total, stems, without_sign_alternatives

PREFER_BONUS = 0.25
STATEMENT_BONUS = 0.1
STATEMENT_PENALTY = 0.15
SECTION_FACTOR = 0.92  # a match that needs the heading ("Earnings per share:" + "Basic") is a bit weaker
MIN_SCORE = 0.5
HEAD_FACTOR = 0.96
_HEAD = re.compile(r",|\(| \u2014 | - ")
_QUALIFIER = re.compile(r"^\s*[,(\u2014-]?\s*(?:net\s+of|less|after|excluding|including|of\s+which)\b", re.I)
_GENERIC = frozenset(stems("basic diluted total net continuing discontinued operations from other amount assuming dilution"))


class LineItemMatch(BaseModel):
    model_config = ConfigDict(frozen=True)

    table: StatementTable
    row: Row
    score: float
    phrase: str  # the printed form that matched


def find_line_items(tables: list[StatementTable], metric: Metric | str) -> list[LineItemMatch]:
    """Rows that report ``metric``, best first (ties: earlier table, higher row)."""
    if isinstance(metric, str):
        metric = load_lexicon().metric(metric)
    prints = [(form, p, frozenset(form) - {OPEN}) for p in metric.prints for form in (_form(p),)]
    excludes = [stems(e) for e in metric.exclude if stems(e)]
    prefers = [stems(p) for p in metric.prefer if stems(p)]
    found: list[LineItemMatch] = []
    for table in tables:
        for row in table.rows:
            if not any(c.value is not None for c in row.cells):
                continue
            if not _kind_fits(metric, row):
                continue
            best = _best(row, prints, excludes)
            if best is None:
                continue
            score, phrase = best
            if any(_contains(stems(row.label), p) for p in prefers):
                score += PREFER_BONUS
            if metric.statement is not None and table.statement is not None:
                score += STATEMENT_BONUS if table.statement == metric.statement else -STATEMENT_PENALTY
            found.append(LineItemMatch(table=table, row=row, score=round(score, 4), phrase=phrase))
    order = {id(t): k for k, t in enumerate(tables)}
    # Equal scores: the fuller table first (a primary statement over a condensed excerpt, such as
    # a guarantor group's balance sheet), then page order.
    found.sort(key=lambda m: (-m.score, -len(m.table.rows), order[id(m.table)], m.row.bbox[1]))
    return found


# "Profit and total comprehensive income for the year": a statement with no other comprehensive
# income names its bottom line both ways (IFRS, UK); the first name is the line item.
_AND_COMPREHENSIVE = re.compile(
    r"\s+and\s+total\s+comprehensive\s+(?:\(?(?:income|loss|profit|expense)\)?\s*/?\s*)+", re.I)


def _best(row: Row, prints: list[tuple[tuple[str, ...], str, frozenset[str]]],
          excludes: list[tuple[str, ...]]) -> tuple[float, str] | None:
    text = _AND_COMPREHENSIVE.sub(" ", row.label)
    label = stems(text)
    unsigned = without_sign_alternatives(text)
    parts = _HEAD.split(unsigned, 1)
    head = stems(parts[0])
    candidates = [(label, 1.0)]
    if any(_contains(label, e) for e in excludes):
        # "Trade receivables, net of allowances for doubtful accounts of $7,293": the excluded
        # words qualify the line item; they do not make it another one.
        if not (head and head != label and len(parts) > 1 and _QUALIFIER.match(unsigned[len(parts[0]):])):
            return None
        candidates = []
    if head and head != label:
        # "Capital expenditures, net of construction payable": the words before the first comma
        # or parenthesis often are the line item; the rest qualifies it.
        candidates.append((head, HEAD_FACTOR))
    one_word = len(label) == 1 and any(label[0] in form for form, _, _ in prints)
    if row.section and (not label or set(label) <= _GENERIC or row.kind in ("per_share", "shares") or one_word):
        # "Basic" means nothing without its heading ("Earnings per share:"), a per-share row is
        # per share because of its heading, and a one-word row that is a word of the item ("Debt"
        # under "Current liabilities:") is the heading's kind of it ("Unbilled" under "Accounts
        # receivable" is a part, not the whole); other labels must stand on their own, or headings
        # would leak into every row.
        candidates.append((stems(row.section) + label, SECTION_FACTOR))
    best: tuple[float, str] | None = None
    for text, factor in candidates:
        if not text or any(_contains(text, e) for e in excludes):
            continue
        have = set(text)
        for rank, (form, phrase, needs) in enumerate(prints):
            if not needs <= have:
                continue  # every way a form matches needs all its words in the label
            score = _similarity(text, form)
            if score <= 0:
                continue
            score = score * factor - 0.002 * rank  # earlier printed forms are the more canonical
            if score >= MIN_SCORE and (best is None or score > best[0]):
                best = (score, phrase)
    return best


NARROWING_COST = 0.08
_NEUTRAL_BEFORE = frozenset(stems("total net consolidated the cash"))
OPEN = "*"  # in a printed form, "*" stands for one or more words: the company's name, mostly
WILDCARD_SCORE = 0.97


def _form(phrase: str) -> tuple[str, ...]:
    """Stems of a printed form, with "*" kept as a wildcard token."""
    parts = [stems(p) for p in phrase.split("*")]
    out: list[str] = []
    for k, part in enumerate(parts):
        if k:
            out.append(OPEN)
        out.extend(part)
    return tuple(out)


def _wildcard(label: tuple[str, ...], form: tuple[str, ...]) -> bool:
    """"net income attributable to *" or "total * shareholders equity": fixed parts in order,
    the first at the start, the last at the end (unless the form ends with "*")."""
    parts: list[tuple[str, ...]] = [()]
    for tok in form:
        if tok == OPEN:
            parts.append(())
        else:
            parts[-1] = (*parts[-1], tok)
    head, tail, middle = parts[0], parts[-1], parts[1:-1]
    if label[: len(head)] != head or (tail and label[len(label) - len(tail):] != tail):
        return False
    pos, end = len(head), len(label) - len(tail)
    for part in middle:
        while pos <= end - len(part) and label[pos : pos + len(part)] != part:
            pos += 1
        if pos > end - len(part):
            return False
        pos += len(part)
    # each "*" must cover at least one word
    return end - len(head) >= (len(parts) - 1) + sum(len(p) for p in middle)


def _similarity(label: tuple[str, ...], form: tuple[str, ...]) -> float:
    if not form:
        return 0.0
    if OPEN in form:
        return WILDCARD_SCORE if _wildcard(label, form) else 0.0
    extra = max(0, len(label) - len(form))
    if label == form:
        return 1.0
    if label[:1] == ("total",) and label[1:] == form:
        return 0.98
    # Extra words cost more the shorter the form: "Sales of property, plant and equipment" is
    # not "sales", while "Net cash provided by (used in) operating activities" is still cash
    # from operations.
    cost = 0.08 / len(form) + 0.01
    if label[: len(form)] == form:
        return 0.86 - cost * extra
    if _contains(label, form):
        # Words before the line item narrow it to a kind of it ("Mortgage banking revenue, net" is
        # one bank's revenue line, not its revenue); words after it mostly qualify it. "Total" and
        # "net" before it narrow nothing.
        before = next(i for i in range(len(label)) if label[i:i + len(form)] == form)
        narrowing = sum(1 for w in label[:before] if w not in _NEUTRAL_BEFORE)
        return 0.76 - cost * extra - NARROWING_COST * narrowing
    if len(form) >= 3 and label[0] == form[0] and label[-1] == form[-1] and _subsequence(label, form):
        if narrower_total(form, label, _NEUTRAL_BEFORE):
            return 0.0  # a total of one kind, not the total asked (a company's name in it is a "*" form's)
        # Words inserted inside the form are usually the company's name ("Earnings per share
        # attributable to 3M common shareholders — diluted"): a mild cost each. Inside a form of
        # two words they name a kind of it ("Operating overhead expense", "Operating, selling,
        # general and administrative expenses" are no total operating expenses). The form's first
        # and last words begin and end the label: "Net unrealized losses on available-for-sale
        # securities" holds "net ... sale", and is no sales line; "... attributable to shares to be
        # repurchased" is no share repurchase.
        return 0.7 - 0.02 * extra
    return 0.0


def _subsequence(text: tuple[str, ...], part: tuple[str, ...]) -> bool:
    it = iter(text)
    return all(tok in it for tok in part)


def _kind_fits(metric: Metric, row: Row) -> bool:
    """A per-share metric never reads a dollar total, and a dollar metric never reads a % row."""
    if metric.kind == "per_share":
        return row.kind == "per_share"
    if metric.kind == "shares":
        return row.kind == "shares"
    if metric.kind == "percent":
        return True
    return row.kind in ("currency",)
