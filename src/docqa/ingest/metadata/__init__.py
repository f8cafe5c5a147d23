"""What a filing is, read from its own pages: company, filing type, fiscal period, and per page
the 10-K/10-Q Item and the primary statement printed on it.

Nothing here looks at the file name: users name their files anything. Document fields come
from the first pages (the SEC cover, or a press release's headline), so detection costs a few
regexes per document; per page only cheap regexes run over a page's first lines.

One module per seam: ``document`` puts a document's fields together from ``filing_type``,
``period`` (with ``dates``), ``registrant`` (who filed it, from every place that names the filer;
``names`` for how a name is printed, shortened and aliased; ``former_names``), ``listing``
(ticker, exchange) and ``currency``; ``sections`` labels each page with its Item and
``statements`` with the primary statement printed on it.
"""

from docqa.ingest.metadata.dates import fiscal_year_ending, parse_date
from docqa.ingest.metadata.document import detect_document
from docqa.ingest.metadata.names import is_generic_name, short_name
from docqa.ingest.metadata.sections import detect_pages
from docqa.ingest.metadata.statements import statement_kind

__all__ = ["detect_document", "detect_pages", "fiscal_year_ending", "is_generic_name", "parse_date", "short_name",
           "statement_kind"]
