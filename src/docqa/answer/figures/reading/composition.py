"""The question's own arithmetic and wording applied to the measures it names.

The question's composition ("EBITDA less capex") and the inputs it defines go first, its convention
(year-end balances) is set on named formulas, and a line item the question qualifies ("King segment
net revenues") gives way to the printed row it names.
"""

from __future__ import annotations

import re
from dataclasses import replace

from docqa.answer.figures.reading.asked import Asked
from docqa.answer.figures.reading.evaluated import Measure
from docqa.answer.figures.reading.line_item_words import qualifiers
from docqa.answer.figures.reading.measures import Either, ExprMeasure, FormulaMeasure, MetricMeasure
from docqa.answer.figures.reading.printed_rows import PrintedAsAsked, RowMeasure, bare_name
from docqa.finance import compose as C
from docqa.plan import QuestionPlan
from docqa.plan.line_text import OF_FILLERS, SOFT_WORDS, leaf_text
from docqa.finance.lexicon import Metric, MetricMatch, load_lexicon
from docqa.finance.text import stems



_OVER_TIME = frozenset({"growth", "cagr", "multi_year_average"})


def names_no_line_item(matches: list[MetricMatch]) -> bool:
    """The lexicon names nothing but what is asked over time ("growth", "CAGR"): the line item,
    if any, is in the question's own words ("net interest income growth")."""
    return all(m.kind == "formula" and m.key in _OVER_TIME for m in matches)


def compose_measures(plan: QuestionPlan, asked: Asked, company_words: frozenset[str], subject: str) -> None:
    """Put the question's own arithmetic first, its convention on named formulas, and replace a
    line item the question qualifies ("King segment net revenues") by the printed row it names."""
    matches = list(plan.measures)
    for measure in asked.measures:
        if isinstance(measure, FormulaMeasure) and plan.convention == "year_end" and measure.formula.average:
            measure.year_end = True
    named = [m for m in asked.measures if isinstance(m, FormulaMeasure)]
    first = _own_arithmetic(plan, named, company_words)
    kept = [k for measure in asked.measures for k in _as_worded(plan, measure, matches, company_words, subject)]
    if plan.reading.qualified and subject and not any(isinstance(k, RowMeasure) for k in kept):
        kept += _qualified_rows(plan, matches, company_words, subject)
    if named:
        # A ratio is asked: one of its inputs is not an answer to it.
        inputs = {i for f in named for i in (*f.formula.inputs, *re.findall(r"[a-z_]+", f.formula.compose))}
        kept = [k for k in kept if not (_metric_key(k) in inputs or (isinstance(k, RowMeasure) and first))]
    if plan.statement_named:
        # "AES 2021 income statement: non-regulated revenue": the statement's row before a note's
        kept = [replace(k, prefer_statements=True) if isinstance(k, RowMeasure) else k for k in kept]
    asked.measures = first + kept
    if not asked.measures and subject and (plan.asks_figure or plan.judged) and names_no_line_item(matches):
        # (a verdict on a figure asks the figure: "did table games drop increase")
        asked.measures = [RowMeasure(subject, asked=subject, kinds=plan.kinds, gross_of=plan.gross_of)]
    if asked.measures:
        asked.measures = _placed_by_asides(plan, company_words, subject, named) + asked.measures


def _placed_by_asides(plan: QuestionPlan, company_words: frozenset[str], subject: str,
                      named: list[FormulaMeasure]) -> list[Measure]:
    """"Property, plant and equipment (deferred tax liabilities)": the row printed under the words in
    brackets, before the item's own line; when no row prints them, the aside only restated the item."""
    if not subject or named or plan.composition is not None:
        return []
    rows: list[Measure] = []
    for aside in plan.asides:
        words = set(stems(aside))
        if not words or words <= (company_words | SOFT_WORDS | set(stems(subject))):
            continue  # "EPI (Holdings)", "(GAAP)", a restatement in the item's own words
        rows.append(RowMeasure(subject, asked=subject, kinds=plan.kinds, gross_of=plan.gross_of, placed=aside))
    return rows


def _own_arithmetic(plan: QuestionPlan, named: list[FormulaMeasure], company_words: frozenset[str]) -> list[Measure]:
    """The question's composition ("EBITDA less capex"), or the inputs it defines for a named ratio."""
    composition, convention = plan.composition, plan.convention
    first: list[Measure] = []
    if composition is not None:
        label, kind = composition.label, composition.kind
        if named and composition.defined:
            label = named[0].label
            kind = kind or (named[0].formula.kind if named[0].formula.kind != "same" else None)
        first.append(ExprMeasure(label[:1].upper() + label[1:], composition.expr, kind, company_words,
                                 year_end=convention == "year_end"))
        expr = composition.expr
        if "share_of" in plan.kinds and isinstance(expr, C.BinOp) and expr.op == "/" and isinstance(expr.left, C.Leaf):
            # "what share of net clinical revenue came from commercial insurance payers": a table that
            # prints the part's share ("Commercial insurance payers 17 %") states it
            first.append(RowMeasure(expr.left.text, asked=label, kinds=frozenset({"share_of"}), gross_of=plan.gross_of))
    elif named and named[0].formula.inputs and len(named[0].formula.inputs) == 2:
        inputs = list(plan.defined_inputs)
        if len(inputs) == 2:
            # "ROA using net income attributable to Walmart and total assets": numerator, denominator.
            avg = named[0].formula.average and convention != "year_end"
            right = C.Avg(C.Leaf(inputs[1])) if avg else C.Leaf(inputs[1])
            first.append(ExprMeasure(named[0].label, C.BinOp("/", C.Leaf(inputs[0]), right), named[0].formula.kind,
                                     company_words))
    return first


def _as_worded(plan: QuestionPlan, measure: Measure, matches: list[MetricMatch], company_words: frozenset[str],
               subject: str) -> list[Measure]:
    """The measure as the question words it: the row its qualifiers name, the row printed as its
    words are, or the lexicon's item."""
    if isinstance(measure, FormulaMeasure) and subject and (
            _a_noun_of(plan, matches, measure)
            or any(x.kind == "formula" and x.key == measure.formula.key and x.span in plan.reading.runs_on for x in matches)):
        # "loss on extinguishment of debt", "debt issuance costs", "foreign currency denominated debt":
        # a row of its own, not the total debt
        return [RowMeasure(subject, asked=subject, kinds=plan.kinds, gross_of=plan.gross_of)]
    if isinstance(measure, FormulaMeasure):
        return [_filers_own(plan, measure, matches)]
    if not isinstance(measure, MetricMeasure):
        return [measure]
    main = plan.main_clause
    m = next((x for x in matches if x.kind == "metric" and x.key == measure.metric.key), None)
    # An amount's line ("condiments and sauces net sales") is read in a table of amounts, not of shares.
    kinds = plan.kinds | {"amount"} if measure.metric.kind == "currency" and not plan.kinds else plan.kinds
    if m is not None and m.span[1] <= len(main) and (
            m.span in plan.reading.runs_on
            or qualifiers(main, m, company_words, dict(plan.nouns_of).get(m.span), dict(plan.narrowed_by).get(m.span))):
        # The words around the line item qualify it ("sales return reserves", "dividends payable"):
        # the item itself is a neighbour, not the answer; only a row that prints them is.
        rows = [RowMeasure(subject, asked=subject, kinds=kinds, gross_of=plan.gross_of)]
        if spelt := _spelt_out(subject, m, measure.metric):
            # "Domestic capex": the row is printed under the item's name ("Capital expenditures")
            rows.append(RowMeasure(spelt, asked=subject, kinds=kinds, gross_of=plan.gross_of))
        return rows
    chosen: Measure = (Either(measure, RowMeasure(subject, asked=subject, kinds=plan.kinds, gross_of=plan.gross_of,
                                                  stands_for=measure.metric)) if subject else measure)
    if m is not None and not _a_printed_form(measure.metric, m.text):
        # "Boeing's cost of services": words the lexicon takes for the item (its COGS) may
        # name a row of their own, printed beside the item's other parts ("Cost of
        # products"); a row printed as the words are is what was asked.
        chosen = PrintedAsAsked(RowMeasure(m.text, asked=m.text, kinds=plan.kinds, gross_of=plan.gross_of,
                                           stands_for=measure.metric, exact=True), chosen)
    return [chosen]


def _qualified_rows(plan: QuestionPlan, matches: list[MetricMatch], company_words: frozenset[str],
                    subject: str) -> list[Measure]:
    """"Revenue of the International segment": the row the qualified words name, not the total;
    "goodwill impairments": the item with the noun that makes it another line. (An amount named,
    "Appliances revenue", is read where the row prints amounts, not its share of sales.)"""
    lexicon = load_lexicon()
    amount = not plan.kinds and any(m.kind == "metric" and lexicon.metric(m.key).kind == "currency"
                                    for m in matches if m.span in plan.reading.qualified)
    kinds = plan.kinds | {"amount"} if amount else plan.kinds
    by_span = {m.span: m for m in matches}
    rows: list[Measure] = []
    for span, head in plan.reading.heads:
        if span in by_span:
            phrase = f"{by_span[span].text} {head}"
            rows.append(RowMeasure(phrase, asked=phrase, kinds=kinds, gross_of=plan.gross_of))
    rows.append(RowMeasure(subject, asked=subject, kinds=kinds, gross_of=plan.gross_of))
    for m in (by_span[span] for span in plan.reading.qualified if span in by_span and by_span[span].kind == "metric"):
        if spelt := _spelt_out(subject, m, lexicon.metric(m.key)):
            rows.append(RowMeasure(spelt, asked=subject, kinds=kinds, gross_of=plan.gross_of))
    if plan.reading.labelled and (item := leaf_text(plan.reading.labelled, company_words)) and item != subject:
        # "Amcor inventories: work in process and finished goods": the line, in the labelled table
        # first (above), else wherever the filing prints it without the label's words
        rows.append(RowMeasure(item, asked=item, kinds=kinds, gross_of=plan.gross_of))
    return rows


def _filers_own(plan: QuestionPlan, measure: FormulaMeasure, matches: list[MetricMatch]) -> FormulaMeasure:
    """A named measure the question does not define (free cash flow, net debt, a return on equity),
    for the filer's own line of it first, under the formula's name or the question's words for it
    ("FCF"). A question that defines the measure, or asks year-end balances, has it computed; one
    that asks the filer's own figure ("as reported by the company") has nothing else."""
    if (plan.composition is not None or plan.defined_inputs or plan.convention == "year_end"
            or measure.formula.needs_subject):
        return measure
    words = [m.text for m in matches if m.kind == "formula" and m.key == measure.formula.key]
    # a bare word ("debt", "borrowings") names many lines; a name of two words or a short form does not
    names = tuple(dict.fromkeys(n for n in (measure.formula.label, *words) if len(bare_name(n)) > 1 or n.isupper()))
    if not names:
        return measure
    label = re.sub(r"\s*\([^)]*\)", "", measure.formula.label)  # "Effective tax rate (computed)"
    row = RowMeasure(label, asked=label, kinds=plan.kinds, gross_of=plan.gross_of, named=names)
    return replace(measure, printed=row, only_printed=plan.filers_own)


def _a_noun_of(plan: QuestionPlan, matches: list[MetricMatch], measure: FormulaMeasure) -> bool:
    """Is the formula's item asked as another noun's ("extinguishment of debt", "interest on debt")?"""
    nouns = dict(plan.nouns_of)
    return measure.formula.kind == "currency" and any(m.kind == "formula" and m.key == measure.formula.key and m.span in nouns
               and not set(stems(nouns[m.span])) & OF_FILLERS for m in matches)


def _spelt_out(subject: str, m: MetricMatch, metric: Metric) -> str | None:
    """The subject with the item's short name ("capex", "R&D") in the words the filings print it
    under, or None when the question already uses a printed name."""
    if _a_printed_form(metric, m.text) or m.text.lower() not in subject.lower():
        return None
    at = subject.lower().index(m.text.lower())
    return f"{subject[:at]}{metric.label.lower()}{subject[at + len(m.text):]}"


def _a_printed_form(metric: Metric, words: str) -> bool:
    asked = stems(words)
    return any(stems(p) in (asked, ("total", *asked)) for p in metric.prints)


def _metric_key(measure: Measure) -> str | None:
    if isinstance(measure, PrintedAsAsked):
        return _metric_key(measure.otherwise)
    if isinstance(measure, Either):
        return _metric_key(measure.first)
    return measure.metric.key if isinstance(measure, MetricMeasure) else None
