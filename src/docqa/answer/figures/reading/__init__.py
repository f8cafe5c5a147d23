"""The figures answerer's shared kit: what every intent reads a figure with.

``asked``/``asked_kind``/``composition`` (the measures a question names, in its own arithmetic and
wording, and the kind of number asked), ``line_item_words`` (which words name the line item),
``sources`` (the filings, their tables and fiscal calendars), ``located``/``printed_rows``/
``summed_parts`` (a line item's row and cell, a row by its printed label, an item printed only in
parts), ``measures``/``scoped``/``evaluated`` (what is evaluated for a period, and its value with
the printed figures it rests on), ``drafts`` (the answer a value makes) and ``reporting_currency``
(amounts in the filing's own currency). Nothing here knows an intent (``intents/``).
"""
