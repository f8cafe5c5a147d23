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

The package is split by what is asked. ``answerer`` is the entry: it builds the measures and
periods, then tries the intents of its table in order. ``intents/`` holds one component per thing
asked of the measures (``yes_no``, ``ranking``, ``over_time``, ``share_of_year``, ``value``);
``reading/`` the kit they share (the measures asked, the filings, rows and cells, values and their
arithmetic, the drafts). Reading never imports an intent (``.importlinter``).
"""

from docqa.answer.figures.answerer import FiguresAnswerer
from docqa.answer.figures.reading.asked import Asked, asked_measures
from docqa.answer.figures.reading.evaluated import Evaluated, Measure
from docqa.plan.judgement import judgement
from docqa.answer.figures.reading.located import Located, locate
from docqa.answer.figures.reading.measures import Combined, Either, ExprMeasure, FormulaMeasure, MetricMeasure
from docqa.answer.figures.reading.printed_rows import RowMeasure
from docqa.answer.figures.reading.reporting_currency import in_reporting_currency
from docqa.answer.figures.reading.sources import Source

__all__ = ["Asked", "Combined", "Either", "Evaluated", "ExprMeasure", "FiguresAnswerer", "FormulaMeasure", "Located",
           "Measure", "MetricMeasure", "RowMeasure", "Source", "asked_measures", "in_reporting_currency", "judgement",
           "locate"]
