"""What a figure question asks of its measures, one component each: a verdict (``yes_no``), the
largest or smallest of the items named (``ranking``), a change, growth or average over periods
(``over_time``), a quarter's share of its year (``share_of_year``), or the figure itself
(``value``). Each reads with the shared kit (``reading/``); ``answerer`` tries them in order.
"""
