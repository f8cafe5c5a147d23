"""The figures answerer: read line items off statement tables and compute formulas in code.

A question that names a metric ("capital expenditure") or a formula ("fixed asset turnover")
is answered from the tables read at ingest: the row that prints the metric, the column of the
fiscal year asked, the cell's box on the page. Formulas take their inputs the same way (the
year before as well, where the convention averages two year-ends). Every input is cited with
the printed row it came from; the formula is shown with the inputs substituted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from docqa.finance import formulas as F
from docqa.finance.lexicon import FormulaDef, Metric, load_lexicon
from docqa.finance.lineitems import find_line_items
from docqa.finance.tables import Cell, Row, StatementTable
from docqa.search.query import QueryPlan
from docqa.store.base import Store, StoredPage
from docqa.types import Citation, Draft, EvidencePage, Figure

MAX_DOCUMENTS = 2     # the evidence's leading filings; beyond them the question is elsewhere


@dataclass
class Located:
    metric: Metric
    value: float               # in the table's unit, outflows made positive
    cell: Cell
    row: Row
    table: StatementTable
    document: str
    document_id: str
    year: int
    quote: str                 # the printed line holding the cell, as stored

    def figure(self) -> Figure:
        return Figure(
            name=self.metric.label, value=self.value, text=self.cell.raw, unit=_unit(self.metric),
            scale=self.table.scale or 1.0, period=str(self.year), document=self.document,
            page=self.table.page, bbox=self.cell.bbox,
        )

    def citation(self) -> Citation:
        return Citation(document=self.document, document_id=self.document_id, page=self.table.page,
                        quote=self.quote, boxes=(self.row.bbox,))


class FiguresAnswerer:
    name = "figures"

    def answer(self, question: str, evidence: list[EvidencePage], plan: QueryPlan, store: Store) -> Draft | None:
        lexicon = load_lexicon()
        matches = lexicon.match(question)
        formulas = [lexicon.formula(m.key) for m in matches if m.kind == "formula"]
        metrics = [lexicon.metric(m.key) for m in matches if m.kind == "metric"]
        if not formulas and not metrics:
            return None
        sources = _sources(evidence, store)
        if not sources:
            return None
        year = max(plan.years) if plan.years else evidence[0].year
        if year is None:
            return None
        fmt = F.requested_format(question)
        judged = judgement(question)
        if judged is not None:
            draft = self._yes_no(judged, formulas, metrics, sources, year, plan, fmt)
            if draft is not None:
                return draft
        averaged = [f for f in formulas if f.key == "multi_year_average"]
        ratios = [f for f in formulas if f.key not in F.SUBJECT_FORMULAS]
        if averaged and ratios and len(set(plan.years)) >= 2:
            # "3 year average of capex as a % of revenue": the ratio each year, then the mean.
            draft = self._averaged_formula(ratios[0], sources, sorted(set(plan.years)), fmt)
            if draft is not None:
                return draft
        for formula in formulas:
            if formula.key in F.SUBJECT_FORMULAS:
                draft = self._subject_formula(formula, metrics, sources, year, plan, fmt)
            else:
                draft = self._fixed_formula(formula, sources, year, fmt)
            if draft is not None:
                return draft
        for metric in metrics:
            found = locate(metric, sources, year)
            if found is not None:
                text = (f"{found.value:g}%" if metric.kind == "percent"  # printed as 21.6, not a fraction
                        else F.render(found.value, _kind(metric), fmt, found.table.unit))
                return Draft(
                    text=f"{metric.label} for fiscal {year}: {text} (as printed: {found.cell.raw}"
                         f"{' ' + found.table.unit if found.table.unit else ''}, {found.document} p. {found.table.page}).",
                    found=True, citations=(found.citation(),), figures=(found.figure(),), answerer=self.name,
                )
        return None

    # --- yes/no about a metric's direction, sign or stability -------------------------------
    def _value(self, formula: FormulaDef | None, metric: Metric | None, sources, year: int):
        """(value, kind, used inputs, formula text) of a formula or a metric for one year."""
        if formula is not None:
            result, used = self._inputs(formula, sources, year)
            return (result.value, result.kind, used, result.formula) if result is not None else None
        found = locate(metric, sources, year)  # type: ignore[arg-type]
        if found is None:
            return None
        return found.value, ("percent_points" if metric.kind == "percent" else "currency"), [found], None  # type: ignore[union-attr]

    def _yes_no(self, judged: str, formulas, metrics, sources, year: int, plan: QueryPlan, fmt) -> Draft | None:
        formula = next((f for f in formulas if f.key not in F.SUBJECT_FORMULAS), None)
        metric = None if formula else (metrics[0] if metrics else None)
        if formula is None and metric is None:
            return None
        label = formula.label if formula else metric.label  # type: ignore[union-attr]
        now = self._value(formula, metric, sources, year)
        if now is None:
            return None
        value, kind, used, formula_text = now

        def show(v: float, k: str) -> str:
            if k == "percent_points":
                return f"{v:g}%"
            return F.render(v, k, F.Format(decimals=2 if k in ("ratio", "times") else None), used[0].table.unit)

        if judged == "exists":
            answer = abs(value) > 0
            text = (f"{'Yes' if answer else 'No'}. {label} for fiscal {year}: {show(value, kind)}"
                    f"{'' if formula_text else ' (as printed: ' + used[0].cell.raw + ')'}.")
            return _judged_draft(text, used, formula_text, label, value, kind, year, self.name)
        if judged == "healthy":
            floor = HEALTHY_FLOOR.get(formula.key if formula else "")
            if floor is None:
                return None
            answer = value >= floor
            text = (f"{'Yes' if answer else 'No'}. {label} for fiscal {year} was {show(value, kind)}, "
                    f"{'at or above' if answer else 'below'} {floor:g}, the level usually read as healthy.")
            return _judged_draft(text, used, formula_text, label, value, kind, year, self.name)
        if judged in ("positive", "negative"):
            answer = (value > 0) == (judged == "positive")
            text = f"{'Yes' if answer else 'No'}. {label} for fiscal {year} was {show(value, kind)}."
            return _judged_draft(text, used, formula_text, label, value, kind, year, self.name)
        first_year = min(plan.years) if len(set(plan.years)) >= 2 else year - 1
        before = self._value(formula, metric, sources, first_year)
        if before is None:
            return None
        prior, _, prior_used, prior_formula = before
        used = prior_used + used
        rose = value > prior
        answer = rose if judged == "up" else not rose
        verb = "rose" if rose else ("fell" if value < prior else "was unchanged")
        text = (f"{'Yes' if answer else 'No'}. {label} {verb} from {show(prior, kind)} in fiscal {first_year} "
                f"to {show(value, kind)} in fiscal {year}.")
        formulas_shown = "; ".join(f for f in (prior_formula, formula_text) if f)
        return _judged_draft(text, used, formulas_shown or None, label, value, kind, year, self.name)

    # --- formulas --------------------------------------------------------------------------
    def _inputs(self, formula: FormulaDef, sources, year: int):
        """This year's and last year's values of a formula's inputs (last year's: for averages
        and changes, e.g. the change in inventory inside DPO)."""
        lexicon = load_lexicon()
        current: dict[str, float] = {}
        prior: dict[str, float] = {}
        used: list[Located] = []
        for key in formula.inputs:
            metric = lexicon.metric(key)
            found = locate(metric, sources, year)
            if found is not None:
                current[key] = found.value
                used.append(found)
            before = locate(metric, sources, year - 1)
            if before is not None:
                prior[key] = before.value
        try:
            result = F.compute(formula.key, current, prior)
        except (F.FormulaError, ZeroDivisionError, KeyError):
            return None, used
        # Cite last year's inputs only when the formula used them.
        used += [locate(lexicon.metric(k), sources, year - 1) for k in formula.inputs
                 if k in prior and _uses_prior(result, prior[k], current.get(k))]
        return result, [u for u in used if u is not None]

    def _fixed_formula(self, formula: FormulaDef, sources, year: int, fmt: F.Format) -> Draft | None:
        result, used = self._inputs(formula, sources, year)
        if result is None:
            return None
        return _formula_draft(formula.label, result, used, year, fmt, self.name)

    def _averaged_formula(self, formula: FormulaDef, sources, years: list[int], fmt: F.Format) -> Draft | None:
        results, used = [], []
        for y in range(years[0], years[-1] + 1):
            result, inputs = self._inputs(formula, sources, y)
            if result is None:
                return None
            results.append(result)
            used.extend(inputs)
        mean = sum(r.value for r in results) / len(results)
        # One expression over printed figures only, so that verify can recompute it.
        terms = [f"({r.formula.split(' = ')[1]})" for r in results]
        combined = F.FormulaResult(
            key=f"average_{formula.key}", value=mean, kind=results[0].kind,
            formula=f"mean of ({results[0].formula.split(' = ')[0]}) over {years[0]}–{years[-1]} = "
                    f"({' + '.join(terms)}) / {len(results)} = {F.render(mean, results[0].kind, F.Format(decimals=2))}",
            inputs={},
        )
        return _formula_draft(f"{years[0]}–{years[-1]} average {formula.label.lower()}", combined, used,
                              years[-1], fmt, self.name)

    def _subject_formula(self, formula: FormulaDef, metrics: list[Metric], sources, year: int,
                         plan: QueryPlan, fmt: F.Format) -> Draft | None:
        if not metrics:
            return None
        subject = metrics[0]
        if formula.key == "growth":
            years = sorted(set(plan.years)) if len(set(plan.years)) >= 2 else [year - 1, year]
            first, last = locate(subject, sources, years[0]), locate(subject, sources, years[-1])
            if first is None or last is None:
                return None
            try:
                result = F.growth(last.value, first.value)
            except (F.FormulaError, ZeroDivisionError):
                return None
            return _formula_draft(f"{subject.label} growth", result, [first, last], year, fmt, self.name)
        if formula.key == "cagr" and len(set(plan.years)) >= 2:
            first_year, last_year = min(plan.years), max(plan.years)
            first, last = locate(subject, sources, first_year), locate(subject, sources, last_year)
            if first is None or last is None:
                return None
            try:
                result = F.cagr(first.value, last.value, last_year - first_year)
            except (F.FormulaError, ZeroDivisionError):
                return None
            return _formula_draft(f"{subject.label} CAGR {first_year}–{last_year}", result, [first, last], year, fmt,
                                  self.name)
        if formula.key == "multi_year_average":
            years = list(range(min(plan.years), max(plan.years) + 1)) if len(set(plan.years)) >= 2 else [year]
            found = [locate(subject, sources, y) for y in years]
            if any(f is None for f in found):
                return None
            result = F.average([f.value for f in found], "currency")  # type: ignore[union-attr]
            return _formula_draft(f"average {subject.label}", result, found, year, fmt, self.name)  # type: ignore[arg-type]
        if formula.key == "margin":
            revenue = locate(load_lexicon().metric("revenue"), sources, year)
            part = locate(subject, sources, year)
            if revenue is None or part is None:
                return None
            result = F.margin(part.value, revenue.value, subject.label.lower())
            return _formula_draft(f"{subject.label} margin", result, [part, revenue], year, fmt, self.name)
        return None


def _formula_draft(label: str, result: F.FormulaResult, used: list[Located], year: int, fmt: F.Format,
                   answerer: str) -> Draft:
    unit = used[0].table.unit if used else None
    shown = F.render(result.value, result.kind, fmt, unit)
    citations: list[Citation] = []
    for u in used:
        c = u.citation()
        if c not in citations:
            citations.append(c)
    figures = tuple(u.figure() for u in used) + (
        Figure(name=label, value=result.value * (100 if result.kind == "percent" else 1), text=shown,
               unit="%" if result.kind == "percent" else None, period=str(year), computed=True),
    )
    sources = "; ".join(f"{u.metric.label} {u.year}: {u.cell.raw} ({u.document} p. {u.table.page})" for u in used)
    return Draft(
        text=f"{label} for fiscal {year}: {shown}. Computed as {result.formula}. Inputs: {sources}.",
        found=True, citations=tuple(citations), figures=figures, formula=result.formula, answerer=answerer,
    )


def locate(metric: Metric, sources: list[tuple[str, str, list[StatementTable], dict[int, StoredPage]]],
           year: int) -> Located | None:
    """The metric's value for ``year``: best-matching row with a cell in that year's column."""
    for document, document_id, tables, pages in sources:
        for match in find_line_items(tables, metric):
            cell = match.table.value(match.row, year)
            if cell is None or cell.value is None:
                continue
            value = abs(cell.value) if metric.outflow else cell.value
            page = pages.get(match.table.page)
            quote = _line_for(page, match.row) if page else match.row.label
            return Located(metric=metric, value=value, cell=cell, row=match.row, table=match.table,
                           document=document, document_id=document_id, year=year, quote=quote)
    return None


def _sources(evidence: list[EvidencePage], store: Store):
    """Tables of the leading filings: their primary statements first, then the evidence pages."""
    order: list[tuple[str, str]] = []
    for page in evidence:
        if (page.document_id, page.document) not in order:
            order.append((page.document_id, page.document))
    out = []
    for document_id, document in order[:MAX_DOCUMENTS]:
        pages = {p.number: p for p in store.pages(document_id)}
        statement_pages = [n for n, p in pages.items() if p.info and p.info.statement and p.tables]
        evidence_pages = [e.page for e in evidence if e.document_id == document_id and pages.get(e.page) and pages[e.page].tables]
        seen: list[int] = []
        for n in statement_pages + evidence_pages:
            if n not in seen:
                seen.append(n)
        tables = [StatementTable.model_validate(t) for n in seen for t in pages[n].tables]
        if tables:
            out.append((document, document_id, tables, pages))
    return out


def _line_for(page: StoredPage, row: Row) -> str:
    """The stored line that prints the row (the label's line when a label wraps)."""
    y0, y1 = row.bbox[1], row.bbox[3]
    best, overlap = None, 0.0
    for line in page.lines:
        o = min(y1, line.bbox[3]) - max(y0, line.bbox[1])
        if o > overlap and any(ch.isdigit() for ch in line.text):
            best, overlap = line.text, o
    return best or row.label


def _kind(metric: Metric) -> str:
    return {"currency": "currency", "per_share": "per_share", "shares": "shares", "percent": "percent"}[metric.kind]


def _unit(metric: Metric) -> str | None:
    return {"currency": "USD", "per_share": "USD/share", "shares": "shares", "percent": "%"}.get(metric.kind)


def _uses_prior(result: F.FormulaResult, prior: float, current: float | None) -> bool:
    text = result.formula
    return F.fmt_number(prior) in text and (current is None or F.fmt_number(prior) != F.fmt_number(current))


_YES_NO = re.compile(r"^\s*(?:is|are|does|do|did|has|have|had|was|were|can|will)\b", re.I)
_UP = re.compile(r"\b(improv\w*|increas\w*|grow\w*|grew|rise|rising|rose|higher|expand\w*|accelerat\w*)\b", re.I)
_DOWN = re.compile(r"\b(declin\w*|decreas\w*|drop\w*|fall\w*|fell|lower|shrink\w*|contract\w*|deteriorat\w*)\b", re.I)
_SIGN = re.compile(r"\b(positive|negative)\b", re.I)
_HEALTHY = re.compile(r"\b(healthy|strong|sound|adequate|comfortable|good)\b", re.I)
_EXISTS = re.compile(r"^\s*(?:has|have|had|did|does|do)\b.*\b(pa(?:y|id)|report\w*|record\w*|incur\w*|any)\b", re.I)
# Ratio levels analysts read as healthy: a liquidity ratio of 1 covers current liabilities.
HEALTHY_FLOOR = {"current_ratio": 1.0, "quick_ratio": 1.0}


def judgement(question: str) -> str | None:
    """What a yes/no question about a metric asks: "up", "down", "positive" or "negative"."""
    if not _YES_NO.match(question):
        return None
    first = question.split("?")[0]
    sign = _SIGN.search(first)
    if sign:
        return sign.group(1).lower()
    up, down = _UP.search(first), _DOWN.search(first)
    if up and (not down or up.start() < down.start()):
        return "up"
    if down:
        return "down"
    if _HEALTHY.search(first):
        return "healthy"
    if _EXISTS.match(first):
        return "exists"
    return None


def _judged_draft(text: str, used: list[Located], formula: str | None, label: str, value: float, kind: str,
                  year: int, answerer: str) -> Draft:
    citations: list[Citation] = []
    for u in used:
        c = u.citation()
        if c not in citations:
            citations.append(c)
    figures = tuple(u.figure() for u in used)
    if formula:
        figures += (Figure(name=label, value=value * (100 if kind == "percent" else 1), text=f"{value:.4g}",
                           period=str(year), computed=True),)
    return Draft(text=text, found=True, citations=tuple(citations), figures=figures, formula=formula,
                 answerer=answerer)
