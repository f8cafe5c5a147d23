"""Each slot's phrasings, tested as data: a table of question -> slot value.

The question is read in one place, the planner (docqa/plan/), into typed slots that every later
stage reads instead of the words. So the way to test reading is the table of how analysts word
things: every phrasing class ("Q2 FY2024", "the six months ended June 30, 2023", "as of December
31, 2022", "in USD millions", "per diluted share", "did X report a net loss", "is the ratio above
1.5", "revenue and operating income in 2022" ...) is a row, and each row names only the slots it
checks. A new phrasing is a new row, not a new test function.

``phrasings/<slot group>.jsonl`` holds the rows, one JSON object a line::

    {"question": ..., "expect": {"<slot>": <value>, ...}, "why": "<the phrasing class>"}

The expected values say what the English asks, as a careful analyst reads it; they are not copied
from what the planner prints. A row the planner misreads keeps its correct expectation and says
so: ``"known": "<the class of misreading>"``. It runs as a strict xfail, so a fix to the planner
shows up as XPASS and the row's ``known`` is then taken off.

Slots are compared through ``SLOTS`` (one small accessor per slot name); tuples and lists compare
alike, and slots that are sets (``doc_types``, ``kinds``) compare as sets.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

from docqa.plan import build_plan
from docqa.plan.model import QuestionPlan
from docqa.types import DocType
from tests.plan.test_build import DOCS, ORBIT, doc

HERE = Path(__file__).resolve().parent / "phrasings"

# The catalogue of held documents: test_build's (3M, Adobe, Best Buy; Orbit Widgets, whose fiscal
# year ends in June) and a few more filers of the kinds analysts ask about, so that names, tickers
# and held-beside-unheld companies have something to be read against.
CATALOGUE = [
    *DOCS,
    *ORBIT,
    doc("p22", "PepsiCo, Inc.", 2022, aliases=("PepsiCo",), ticker="PEP"),
    doc("z17", "Amazon.com, Inc.", 2017, aliases=("Amazon",), ticker="AMZN"),
    doc("w18", "Walmart Inc.", 2018, aliases=("Walmart",), ticker="WMT"),
    doc("v21", "Verizon Communications Inc.", 2021, aliases=("Verizon",), ticker="VZ"),
    doc("j23", "JPMorgan Chase & Co.", 2023, DocType.QUARTERLY, aliases=("JPMorgan",), ticker="JPM"),
]


def _threshold(plan: QuestionPlan) -> dict[str, Any] | None:
    t = plan.threshold
    return None if t is None else {"above": t.above, "level": t.level, "unit": t.unit}


SLOTS: dict[str, Callable[[QuestionPlan], Any]] = {
    # periods
    "years": lambda p: p.years,
    "quarter": lambda p: p.quarter,
    "period_end": lambda p: p.period_end,
    "balance_day": lambda p: p.balance_day,
    "day": lambda p: p.day,
    "ytd_months": lambda p: p.ytd_months,
    "latest": lambda p: p.latest,
    "forward_looking": lambda p: p.forward_looking,
    "periods": lambda p: [[x.fiscal_year, x.quarter] for x in p.asked_periods()],  # [year, quarter or null]
    "filing_years": lambda p: p.periods.filings,
    # filings
    "doc_types": lambda p: [t.value for t in p.doc_types],
    # what kind of answer
    "intent": lambda p: p.intent.value,
    "statistic": lambda p: None if p.statistic is None else [p.statistic.kind, p.statistic.term],
    # subject
    "companies": lambda p: p.companies,
    "unheld": lambda p: p.unheld,
    # format and kinds
    "format.scale": lambda p: p.format.scale,
    "format.decimals": lambda p: p.format.decimals,
    "format.percent": lambda p: p.format.percent,
    "kinds": lambda p: p.kinds,
    "filers_own": lambda p: p.filers_own,
    "counted": lambda p: p.counted,
    "asks_figure": lambda p: p.asks_figure,
    "measures": lambda p: [m.key for m in p.measures],
    # the line items the question qualifies ("capital expenditures on information technology"), as written
    "qualified": lambda p: sorted(p.asked[a:b] for a, b in p.reading.qualified),
    "part_of_whole": lambda p: p.part_of_whole,
    "currency": lambda p: None if p.currency is None else p.currency.code,
    # verdict and judgement
    "verdict": lambda p: p.verdict,
    "judgement": lambda p: p.judgement,
    "judged": lambda p: p.judged,
    "tied": lambda p: p.tied,
    "sides": lambda p: None if p.sides is None else [p.sides.left.strip(), p.sides.right.strip()],
    "threshold": _threshold,
    "sign": lambda p: p.sign,
    "bottom_line": lambda p: p.bottom_line,
    # parts and scope
    "parts": lambda p: p.parts,
    "n_parts": lambda p: len(p.parts),
    "scope": lambda p: p.scope,
    "section_named": lambda p: p.section_named,
    "lines_hold": lambda p: p.lines_hold,
    "ranked": lambda p: None if p.ranked is None else [p.ranked.group, p.ranked.measure, p.ranked.most, p.ranked.change,
                                                       p.ranked.percent],
}
UNORDERED = frozenset({"doc_types", "kinds"})


def _normal(slot: str, value: Any) -> Any:
    """Tuples and lists alike (JSON has only lists); a set-valued slot as a sorted list."""
    if isinstance(value, (tuple, list, frozenset, set)):
        items = [_normal(slot, v) for v in value]
        return sorted(items) if slot in UNORDERED else items
    return value


def load_rows() -> list[tuple[str, dict[str, Any]]]:
    rows = []
    for path in sorted(HERE.glob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip():
                rows.append((f"{path.stem}:{number}", json.loads(line)))
    return rows


ROWS = load_rows()


def _params():
    for where, row in ROWS:
        marks = [pytest.mark.xfail(strict=True, raises=AssertionError, reason=row["known"])] if row.get("known") else []
        yield pytest.param(row, id=where, marks=marks)


@pytest.mark.parametrize("row", list(_params()))
def test_the_question_is_read_into_its_slots(row):
    plan = build_plan(row["question"], CATALOGUE)
    wrong = {}
    for slot, expected in row["expect"].items():
        got = _normal(slot, SLOTS[slot](plan))
        if got != _normal(slot, expected):
            wrong[slot] = {"expected": expected, "got": got}
    assert not wrong, f"{row['question']!r} ({row.get('why', '')}): {wrong}"


def test_the_table_is_well_formed():
    """Every row names a question and only slots the table knows; questions are not repeated
    within a file; the table stays hundreds of rows, and misreadings a minority."""
    assert len(ROWS) >= 300
    seen: set[tuple[str, str]] = set()
    for where, row in ROWS:
        assert set(row) <= {"question", "expect", "why", "known"}, where
        assert row["question"].strip() and row["expect"], where
        unknown = set(row["expect"]) - set(SLOTS)
        assert not unknown, f"{where}: no accessor for {sorted(unknown)}"
        key = (where.split(":")[0], row["question"])
        assert key not in seen, f"{where}: the same question twice in one file"
        seen.add(key)
    known = sum(1 for _, row in ROWS if row.get("known"))
    assert known <= 0.15 * len(ROWS), f"{known} of {len(ROWS)} rows are known misreadings"
