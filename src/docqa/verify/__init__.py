"""Check an answerer's draft against the pages it cites; what cannot be checked does not survive.

Every answerer (extractive, figures, language models) hands its ``Draft`` through ``verify``,
which runs one rule after another (one module each), and the first that refuses decides:

* ``grounding``: whose filing. Citations of other companies' filings are dropped; a figure read
  from one, or a formula fed by two companies' figures, refuses the answer;
* ``measure``: the draft's figures answer the measure the question asks for;
* ``citations``: a citation survives only if its quote occurs on the cited page as stored
  (``quotes``: whitespace, case, curly quotes, dashes, line-end hyphenation and table-cell spacing
  do not matter);
* ``repeats``: the answer repeats no dropped quote and instructs no reader;
* ``stated``: a figure asked and answered by sentences (quotes alone, or a figure whose only
  source is a sentence) stands only where a sentence states the measure's amount for the period
  asked; an interim report prints no total of the year it is part of;
* ``figures`` and ``claims``: every number in the answer text must be printed on a surviving
  cited page (``numbers``: across a unit shift and the answer's own rounding), be given in the
  question, or follow from the draft's arithmetic (``arithmetic``: a formula or a
  ``Figure(computed=True)``) whose inputs are printed on cited pages; years, item/note/page
  numbers, quarters and form names are references, not claims, and are not checked.

``verdict`` says what is left: ``verified`` (everything checked), ``partial`` (something was
dropped but a cited, grounded answer is left), ``passages`` (proven quotes, no line that answers)
or ``not_found`` (nothing verifiable is left: ``found=False``, a reason). ``check.verify``
composes the rules.
"""

from docqa.verify.arithmetic import evaluate
from docqa.verify.check import verify
from docqa.verify.citations import REASON_CITATIONS_NOT_FOUND, REASON_NO_CITATIONS
from docqa.verify.claims import REASON_NUMBERS
from docqa.verify.grounding import Grounding
from docqa.verify.measure import REASON_MEASURE_PREFIX, measure_asked
from docqa.verify.numbers import Number, matches, numbers_in
from docqa.verify.quotes import quote_on_page, quoted_text
from docqa.verify.repeats import REASON_DROPPED_QUOTE, REASON_INSTRUCTION
from docqa.verify.verdict import NOT_FOUND_TEXT

__all__ = [
    "NOT_FOUND_TEXT",
    "REASON_CITATIONS_NOT_FOUND",
    "REASON_DROPPED_QUOTE",
    "REASON_INSTRUCTION",
    "REASON_MEASURE_PREFIX",
    "REASON_NO_CITATIONS",
    "REASON_NUMBERS",
    "Grounding",
    "Number",
    "evaluate",
    "matches",
    "measure_asked",
    "numbers_in",
    "quote_on_page",
    "quoted_text",
    "verify",
]
