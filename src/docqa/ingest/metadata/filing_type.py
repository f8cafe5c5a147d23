"""The filing type, read from the document's own title block: an SEC form (10-K, 10-Q, 8-K, 20-F,
40-F, 6-K), a report without an SEC cover (annual or interim report, financial statements), an
earnings release, or other; and where the SEC cover sits."""

from __future__ import annotations

import re
from collections.abc import Sequence

from docqa.types import DocType, Page

_FORM_TITLE = re.compile(
    r"^(?:[☒☐xý¨o■\s]*)(?:form\s+(10-?k|10-?q|8-?k|20-?f|40-?f|6-?k)\b"
    r"|(annual|quarterly|current)\s+report\s+(?:pursuant|under)\b"
    r"|(current)\s+report\s*$)",
    re.I,
)
_FORM_TYPES = {
    "10k": DocType.ANNUAL, "20f": DocType.F20, "40f": DocType.F40, "annual": DocType.ANNUAL,
    "10q": DocType.QUARTERLY, "quarterly": DocType.QUARTERLY,
    "8k": DocType.CURRENT, "6k": DocType.CURRENT, "current": DocType.CURRENT,
}
_RELEASE = re.compile(
    r"\b(?:reports?|reported|announces?|announced|posts?|delivers?)\b[^.]{0,100}?\b(?:results|earnings)\b"
    r"|for immediate release"
    r"|\bresults\s+for\s+the\s+(?:\w+[\s-]+){0,3}(?:quarter|year|half|months|weeks)\b"
    r"|\b(?:first|second|third|fourth|full|half)[\s-]+(?:quarter|year)\b[^.]{0,40}?\bresults\b"
    r"|\bQ[1-4]\s+(?:FY\s?)?(?:20)?\d\d\s+results\b",
    re.I,
)
_REPORT_TITLE = re.compile(
    r"\b(annual report|annual financial report|financial report|integrated report|annual review"
    r"|report and (?:financial statements|accounts)|half[- ]year(?:ly)? report|interim report"
    r"|(?:interim |condensed |consolidated )*financial statements)\b",
    re.I,
)
_SEC_COVER = re.compile(r"exact\s+name\s+of\s+(?:the\s+)?registrant|securities\s+and\s+exchange\s+commission", re.I)
COVER_PAGES = 12  # a glossy annual report may carry the SEC cover a few pages in
DEEP_COVER_PAGES = 100  # ... or after a proxy statement, where only the cover's label is trusted


def _form_on(lines: list[str]) -> DocType | None:
    """The form a cover's title block names: a numbered form ("FORM 20-F") beats "Annual report pursuant"."""
    found: list[str] = []
    for line in lines[:150]:
        m = _FORM_TITLE.match(line)
        if m and (len(line) <= 40 or not m.group(1)):  # "FORM 10-K" stands alone on its line
            found.append(next(g for g in m.groups() if g).lower().replace("-", ""))
    numbered = [k for k in found if k[0].isdigit()]
    key = (numbered or found or [None])[0]
    return _FORM_TYPES[key] if key else None


def _title_type(head_lines: list[str]) -> DocType | None:
    """A report without an SEC cover announces itself in a short title line ("Annual Report 2022",
    "Report and Financial Statements", "Consolidated Financial Statements")."""
    short = [line for line in head_lines[:40] if len(line.split()) <= 8]
    # a title broken over lines ("Annual" / "Report") is read joined
    joined = short + [f"{a} {b}" for a, b in zip(short, short[1:]) if len(f"{a} {b}".split()) <= 8]
    kinds = []
    for line in joined:
        m = _REPORT_TITLE.search(line)
        if m:
            title = m.group(1).lower()
            if re.search(r"half|interim", title):
                kinds.append(DocType.QUARTERLY)
            elif title.endswith("financial statements") and "report" not in title:
                # the title itself, not "Notes to the financial statements" in a contents list
                if re.match(r"^(?:(?:19|20)\d\d\s+)?(?:audited\s+|annual\s+)?(?:consolidated\s+|combined\s+)?"
                            r"financial\s+statements\b", line, re.I):
                    kinds.append(DocType.FINANCIAL_STATEMENTS)
            else:
                kinds.append(DocType.ANNUAL_REPORT)
    for kind in (DocType.QUARTERLY, DocType.ANNUAL_REPORT, DocType.FINANCIAL_STATEMENTS):
        if kind in kinds:
            return kind
    return None


def filing_type(head_lines: list[str], headline: str) -> DocType:
    # The SEC cover names the form in its title block. Matching whole title lines (not "our
    # Annual Report on Form 10-K" in prose) keeps press releases apart.
    if form := _form_on(head_lines):
        return form
    # No SEC cover: a non-US annual/interim report announces itself in a short title line, an
    # earnings release in its headline ("X reports fourth quarter results"). An 8-K that carries
    # a release has the 8-K cover and was caught above.
    if title := _title_type(head_lines):
        return title
    if _RELEASE.search(headline):
        return DocType.EARNINGS
    return DocType.OTHER


def find_cover(pages: Sequence[Page]) -> int | None:
    """Index of the SEC cover: page 1 of a filing, a few pages into a glossy annual report."""
    for i, page in enumerate(pages[:COVER_PAGES]):
        text = page.text
        if re.search(r"exact\s+name\s+of\s+(?:the\s+)?registrant", text, re.I):
            return i
        if _SEC_COVER.search(text) and _form_on([line.text.strip() for line in page.lines]):
            return i
    # a proxy statement and letters may come first ("annual report" = proxy + 10-K): deeper in,
    # only the cover's own label counts
    for i in range(COVER_PAGES, min(len(pages), COVER_PAGES + DEEP_COVER_PAGES)):
        if re.search(r"exact\s+name\s+of\s+(?:the\s+)?registrant", pages[i].text, re.I):
            return i
    return None
