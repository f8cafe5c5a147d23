"""The pages and drafts the verify tests share: an income statement and a page of prose."""

from __future__ import annotations

from docqa.types import Citation, Draft

INCOME = """CONSOLIDATED STATEMENTS OF OPERATIONS
(in millions, except per share data)
Year Ended December 31,
2015  2016  2017
Total net sales  107,006  135,987  177,866
Cost of sales  71,651  88,265  111,934
Operating income  2,233  4,186  4,106
Interest expense  (459)  (484)  (848)
Net income  $  596  $  2,371  $  3,033
Diluted earnings per share  $  1.25  $  4.90  $  6.15"""

PROSE = """We believe that our future results of operations will be significantly affected by our abil-
ity to manage inventory. The company\u2019s \u201ccustomer obsession\u201d remains \u2014 as always \u2014 central.
Capital expenditures were $1,577 million in fiscal 2018, and our effective tax rate was 4.81%.
See Item 7 of this Form 10-K."""

PAGES = {("d1", 38): INCOME, ("d1", 20): PROSE}
Q = "What was net income in 2017?"
NET_INCOME_ROW = "Net income $ 596 $ 2,371 $ 3,033"

MARGIN_Q = "What was the FY2017 gross margin?"


def cite(quote: str, page: int = 38, doc: str = "d1") -> Citation:
    return Citation(document="AMAZON_2017_10K.pdf", document_id=doc, page=page, quote=quote)


def draft(text: str, *citations: Citation, **kw) -> Draft:
    return Draft(text=text, found=True, citations=citations, answerer="test", **kw)


ROWS = (cite("Total net sales  107,006  135,987  177,866"), cite("Cost of sales  71,651  88,265  111,934"))
