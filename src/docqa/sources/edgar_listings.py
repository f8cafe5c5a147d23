"""EDGAR's JSON listings as typed models, every value from the network checked against its documented
shape before docqa uses it (several become parts of a cache path): an accession number is
``##########-##-######``, a CIK at most ten digits, a date ``YYYY-MM-DD``, a primary document or a
submissions page a plain file name. A listing of the wrong shape is one EdgarError; one filing with a
value of the wrong shape is skipped with a one-line warning and the others go on.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
)

from docqa.ingest.ixbrl import fiscal_year_of
from docqa.sources.edgar_http import show

FORMS = ("10-K", "10-Q", "8-K", "20-F", "40-F")
FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,254}", re.ASCII)  # one path part; never "." or ".."
MAX_WARNED = 5  # malformed filings named one by one per listing; the rest are counted in one line


class Malformed(ValueError):
    """A listing of the wrong shape; the message says where (``filings.recent.form should be an array``)."""


def _calendar_date(text: str) -> str:
    date.fromisoformat(text)  # 2023-02-30 has the right shape and is no date
    return text


def _cik(value: object) -> int:
    """A CIK as EDGAR writes it: a whole number of at most ten digits, or a string of them."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError("a CIK is a number")  # noqa: TRY004 - pydantic turns only ValueError into a ValidationError
    text = str(value)
    if not re.fullmatch(r"[0-9]{1,10}", text) or int(text) == 0:
        raise ValueError("a CIK is 1-10 digits")
    return int(text)


Cik = Annotated[int, BeforeValidator(_cik)]
Accession = Annotated[str, Field(pattern=r"^[0-9]{10}-[0-9]{2}-[0-9]{6}$")]
# 10-K, 10-K/A, SC 13G/A, DEF 14A, ATS-N/MA: parts of letters and digits joined by one space, - or /
_FORM = re.compile(r"[A-Za-z0-9]+(?:[ /-][A-Za-z0-9]+)*", re.ASCII)
FormName = Annotated[str, Field(max_length=40, pattern=rf"^{_FORM.pattern}$")]
IsoDate = Annotated[str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"), AfterValidator(_calendar_date)]
FileName = Annotated[str, Field(pattern=rf"^{FILE_NAME.pattern}$")]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True)


class Filing(_Model):
    cik: Cik
    accession: Accession           # 0000078003-23-000123
    form: FormName                 # 10-Q
    filing_date: IsoDate           # 2023-08-09
    report_date: IsoDate | None    # the period the filing reports, 2023-07-02
    primary_document: FileName     # pfe-20230702.htm
    description: str = ""

    @property
    def fiscal_year(self) -> int:
        """As docqa names fiscal years: the year the reported period ends in (a 52/53-week year that
        ends in the first week of January belongs to the year before); the filing date without one."""
        return fiscal_year_of(date.fromisoformat(self.report_date or self.filing_date))


# EDGAR's JSON: only the fields docqa reads are checked (and the rest ignored).
class _Json(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class Columns(_Json):
    """A columnar filing list: submissions' filings.recent, or an older-filings page."""
    accessionNumber: list[Any] | None = None
    form: list[Any] | None = None
    filingDate: list[Any] | None = None
    reportDate: list[Any] | None = None
    primaryDocument: list[Any] | None = None
    primaryDocDescription: list[Any] | None = None


class Page(_Json):
    name: str
    filingFrom: str | None = None
    filingTo: str | None = None


class _FilingLists(_Json):
    recent: Columns | None = None
    files: list[Page] | None = None


class Submissions(_Json):
    name: str | None = None
    filings: _FilingLists | None = None

    @property
    def recent(self) -> Columns:
        return (self.filings.recent if self.filings else None) or Columns()

    @property
    def pages(self) -> list[Page]:
        return list(self.filings.files or []) if self.filings else []


class Company(_Json):
    cik_str: Cik
    ticker: Annotated[str, Field(max_length=20)]
    title: Annotated[str, Field(max_length=500)] = ""


class TickerMap(_Model):
    rows: tuple[Company, ...]
    malformed: int = 0


# --- checking a listing -------------------------------------------------------------------------

_EXPECTED = {"model_type": "an object", "model_attributes_type": "an object", "dict_type": "an object",
             "list_type": "an array", "string_type": "a string", "int_type": "a number"}


def json_kind(value: object) -> str:
    if isinstance(value, bool):
        return "true or false"
    return {dict: "an object", list: "an array", str: "a string", int: "a number", float: "a number",
            type(None): "null"}.get(type(value), type(value).__name__)


def _shape_error(exc: ValidationError) -> Malformed:
    error = exc.errors(include_url=False)[0]
    where = ".".join(str(part) for part in error["loc"]) or "the top level"
    if error["type"] == "missing":
        return Malformed(f"{where} is missing")
    expected = _EXPECTED.get(error["type"], error["msg"][:1].lower() + error["msg"][1:])
    return Malformed(f"{where} should be {expected}, not {json_kind(error['input'])}")


def parse_model(model: type[_Json], data: object) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise _shape_error(exc) from None


def parse_submissions(data: object) -> Submissions:
    return parse_model(Submissions, data)


def parse_page(data: object) -> Columns:
    return parse_model(Columns, data)


def parse_tickers(data: object) -> TickerMap:
    """The SEC's ticker map ({"0": {"cik_str": 320193, "ticker": "AAPL", "title": "Apple Inc."}, ...});
    rows of the wrong shape are counted and left out."""
    if isinstance(data, dict):
        data = list(data.values())
    if not isinstance(data, list):
        raise Malformed(f"the top level should be an object or an array, not {json_kind(data)}")
    rows, malformed = [], 0
    for row in data:
        try:
            rows.append(Company.model_validate(row))
        except ValidationError:
            malformed += 1
    return TickerMap(rows=tuple(rows), malformed=malformed)


# --- filings out of a columnar list ------------------------------------------------------------

_COLUMNS = {  # Filing field -> EDGAR's column, and the shape its values have
    "accession": ("accessionNumber", "an accession number ##########-##-######"),
    "form": ("form", "a form name such as 10-K"),
    "filing_date": ("filingDate", "a date YYYY-MM-DD"),
    "report_date": ("reportDate", "a date YYYY-MM-DD"),
    "primary_document": ("primaryDocument", "a plain file name"),
    "description": ("primaryDocDescription", "text"),
}


def fetchable(form: str) -> bool:
    return form.upper().removesuffix("/A") in FORMS


def _why_skipped(exc: ValidationError, values: dict[str, object]) -> str:
    field = str(exc.errors(include_url=False)[0]["loc"][0])
    column, shape = _COLUMNS.get(field, (field, "of the right shape"))
    return f"its {column} {show(values.get(field))} is not {shape}"


def _rows(block: Columns):
    """Each listed filing as {Filing field: value}; rows EDGAR leaves blank (no primary document: a
    paper filing) are left out quietly, as EDGAR lists them."""
    accession = block.accessionNumber or []
    blank = [""] * len(accession)
    columns = (accession, block.form or blank, block.filingDate or blank, block.reportDate or blank,
               block.primaryDocument or blank, block.primaryDocDescription or blank)
    for row in zip(*columns):
        values = dict(zip(_COLUMNS, row))
        if all(values[k] for k in ("accession", "form", "filing_date", "primary_document")):
            values["report_date"] = values["report_date"] or None
            values["description"] = "" if values["description"] is None else values["description"]
            yield values


def filings_of(block: Columns, cik: int, source: str) -> tuple[list[Filing], Counter[str], list[str]]:
    """The filings of the forms docqa fetches, the count of every form listed (for the messages), and
    a warning for each filing skipped for a value of the wrong shape."""
    filings: list[Filing] = []
    forms: Counter[str] = Counter()
    problems: list[str] = []
    for values in _rows(block):
        form = values["form"]
        if isinstance(form, str) and _FORM.fullmatch(form) and not fetchable(form):
            forms[form] += 1  # a form docqa does not fetch (Form 4, S-1...): counted, not read further
            continue
        try:
            filing = Filing(cik=cik, **values)
        except ValidationError as exc:
            problems.append(_why_skipped(exc, values))
            continue
        forms[filing.form] += 1
        filings.append(filing)
    warnings = [f"skipped a filing {source} lists: {why}" for why in problems[:MAX_WARNED]]
    if len(problems) > MAX_WARNED:
        warnings.append(f"skipped {len(problems) - MAX_WARNED} more filing(s) {source} lists with values of the "
                        "wrong shape")
    return filings, forms, warnings


def page_name_ok(name: str) -> bool:
    return bool(FILE_NAME.fullmatch(name))
