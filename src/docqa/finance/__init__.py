"""Financial domain knowledge shared by ingest, search and answer.

- ``lexicon``: analysts' terms <-> printed line items, and named formulas (data: lexicon.yaml)
- ``statements``: tables on a page -> line items x period columns, with cell boxes
- ``formulas``: pure functions that compute and show their arithmetic; requested formats
"""

from docqa.finance.formulas import Format, FormulaError, FormulaResult, compute
from docqa.finance.lexicon import FormulaDef, Lexicon, Metric, MetricMatch, load_lexicon
from docqa.finance.statements import LineItemMatch, find_line_items, read_tables
from docqa.finance.tables import Cell, Column, Row, StatementTable

__all__ = [
    "Cell", "Column", "Format", "FormulaDef", "FormulaError", "FormulaResult", "Lexicon", "LineItemMatch",
    "Metric", "MetricMatch", "Row", "StatementTable", "compute", "find_line_items", "load_lexicon",
    "read_tables",
]
