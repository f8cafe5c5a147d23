"""The figures answerer: read line items off statement tables and compute formulas in code.

A question that names a metric ("capital expenditure") or a formula ("fixed asset turnover")
is answered from the tables read at ingest: the row that prints the metric, the column of the
fiscal period asked, the cell's box on the page. Formulas take their inputs the same way (the
year before as well, where the convention averages two year-ends). Every input is cited with
the printed row it came from; the formula is shown with the inputs substituted.

What the question asks is built as a *measure*: a line item, a named formula, a line item as a
share of another ("net earnings as a percent of sales"), or two of them combined in the
question's own words ("EBITDA less capex", "fixed assets / total assets"). A measure is then
evaluated for the periods asked: a fiscal year, or a quarter ("Q2 of FY2024"), read from the
column that reports that period (a quarter's three months, a balance at the quarter's end),
with each filing's fiscal calendar mapping printed dates to fiscal periods. Over periods a
measure can be averaged, grown, compounded, or judged (yes/no: up, down, positive, healthy,
stable, capital-intensive, high-growth).

The package's modules, in the order a question passes through them: ``asked`` (the measures a
question names) and ``composition`` (its own arithmetic and wording), ``sources`` (the filings
and their calendars), ``measures``/``printed_rows``/``located``/``summed_parts`` (reading rows and cells; a line item
printed only in parts, or read by another route the lexicon declares) and
``evaluated`` (values and their arithmetic), then ``over_time``, ``ranking``, ``judgement`` and
``yes_no`` for what is asked of them, and ``drafts`` for the answer; ``answerer`` runs them.
"""

from docqa.answer.figures.answerer import FiguresAnswerer
from docqa.answer.figures.asked import Asked, asked_measures
from docqa.answer.figures.evaluated import Evaluated, Measure
from docqa.plan.judgement import judgement
from docqa.answer.figures.located import Located, locate
from docqa.answer.figures.measures import Combined, Either, ExprMeasure, FormulaMeasure, MetricMeasure
from docqa.answer.figures.printed_rows import RowMeasure
from docqa.answer.figures.reporting_currency import in_reporting_currency
from docqa.answer.figures.sources import Source

__all__ = ["Asked", "Combined", "Either", "Evaluated", "ExprMeasure", "FiguresAnswerer", "FormulaMeasure", "Located",
           "Measure", "MetricMeasure", "RowMeasure", "Source", "asked_measures", "in_reporting_currency", "judgement",
           "locate"]
