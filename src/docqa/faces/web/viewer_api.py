"""The document viewer's routes under /api: every page's size, a page's printed number, the page drawn
with an answer's evidence boxed, its words (the text layer), and an HTML filing's page in its own
layout. The logic is in app/pageview.py, app/htmlpage.py and docqa.viewer; this checks input and
shapes the replies."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query, Request, Security
from fastapi.responses import Response
from fastapi.security import HTTPBearer
from pydantic import BaseModel, Field

from docqa.app import htmlpage, pageview, uploads
from docqa.app.threads import visible
from docqa.engine import AnswerNotFound, Engine
from docqa.faces.web.api import ERRORS, ApiError, _engine
from docqa.limits import shown
from docqa.types import Document
from docqa.viewer import MAX_SCALE, MIN_SCALE


class PageSizeOut(BaseModel):
    number: int
    width: float
    height: float


class PageList(BaseModel):
    document_id: str
    file_name: str
    format: Literal["pdf", "html"] = Field("pdf", description="html: an EDGAR HTML filing, whose pages can also "
                                                              "be read in the filing's own layout (…/pages/{n}/html)")
    pages: list[PageSizeOut]


class WordOut(BaseModel):
    t: str = Field(description="the word")
    b: tuple[float, float, float, float] = Field(description="its box in PDF points: x0, y0, x1, y1")


class PageWordsOut(BaseModel):
    document_id: str
    page: int
    width: float
    height: float
    source: Literal["pdf", "html", "rows"] = Field(description="pdf: the page's own words; html: an HTML filing's "
                                                              "words at their stored boxes; rows: a page read by "
                                                              "OCR, one box a row")
    lines: list[list[WordOut]] = Field(description="each line's words, in reading order")


class HtmlPageOut(BaseModel):
    document_id: str
    page: int
    nodes: list[dict | str] = Field(description="the filing's HTML for the page as a tree of allowed elements: "
                                          "{t: tag, a: {colspan, rowspan}, k: [quoted | cited | num], c: children "
                                          "(nodes or text)}; no script, style, image or link survives")
    quoted: int = Field(0, description="rows or paragraphs marked as printing a quote of the answer")
    cited: int = Field(0, description="cells marked as printing a figure the answer read")


class PageLabelOut(BaseModel):
    page: int
    label: str | None = None


# The token itself is checked by the middleware (guard.py) for every /api path; this only documents it.
router = APIRouter(prefix="/api", dependencies=[Security(HTTPBearer(auto_error=False))], responses=ERRORS)


@router.get("/documents/{doc_id}/pages", response_model=PageList,
            summary="Every page's size (PDF points), for a viewer to lay out the whole filing")
def page_list(request: Request, doc_id: str) -> PageList:
    engine = _engine(request)
    doc = _ready(engine, doc_id)
    return PageList(document_id=doc.id, file_name=doc.file_name,
                    format="html" if htmlpage.is_html_document(engine, doc.id) else "pdf",
                    pages=[PageSizeOut(number=p.number, width=p.width, height=p.height)
                           for p in engine.page_sizes(doc.id)])


@router.get("/documents/{doc_id}/pages/{page}/label", response_model=PageLabelOut,
            summary="The page number the filing prints on a physical page")
def page_label(request: Request, doc_id: str, page: int) -> PageLabelOut:
    engine = _engine(request)
    doc = _ready(engine, doc_id)
    return PageLabelOut(page=page, label=engine.page_label(doc.id, page))


@router.get(
    "/documents/{doc_id}/pages/{page}.png", summary="A page as PNG at the zoom asked, with an answer's evidence boxed",
    response_class=Response, responses={200: {"content": {"image/png": {}}, "description": "the page"}},
)
def page_image(request: Request, doc_id: str, page: int,
               answer: str | None = Query(None, description="an answer id: box its quotes and figures"),
               scale: float | None = Query(None, ge=MIN_SCALE, le=MAX_SCALE,
                                           description="pixels per PDF point (2 unless given)")) -> Response:
    engine = _engine(request)
    doc = _ready(engine, doc_id)
    record = engine.store.question(answer) if answer else None
    if answer and (record is None or not visible(record)):  # another token's answer boxes nothing here
        raise ApiError(404, "answer_not_found", f"no answer with id {shown(answer)}")
    try:
        image = pageview.page_image(engine, doc.id, page, answer, scale)  # a figure's cell, where it is known
    except AnswerNotFound as exc:
        raise ApiError(404, "answer_not_found", str(exc)) from exc
    label = engine.page_label(doc.id, page)
    headers = {"X-Evidence": image.used, "X-Evidence-Boxes": str(len(image.boxes)), "X-Scale": f"{image.zoom:g}",
               "Cache-Control": "private, max-age=300"}
    if label:
        headers["X-Page-Label"] = label
    if image.boxes:  # where the evidence is, in PDF points: a zoomed viewer scrolls it into view
        x0, y0 = min(b[0] for b in image.boxes), min(b[1] for b in image.boxes)
        x1, y1 = max(b[2] for b in image.boxes), max(b[3] for b in image.boxes)
        headers["X-Evidence-Region"] = f"{x0:.1f},{y0:.1f},{x1:.1f},{y1:.1f}"
    return Response(image.png, media_type="image/png", headers=headers)


@router.get("/documents/{doc_id}/pages/{page}/words", response_model=PageWordsOut,
            summary="A page's words with their boxes: the viewer's text layer, to select and copy quotes and figures")
def page_words(request: Request, doc_id: str, page: int) -> PageWordsOut:
    engine = _engine(request)
    doc = _ready(engine, doc_id)
    words = pageview.page_words(engine, doc.id, page)
    return PageWordsOut(document_id=doc.id, page=page, width=words.width, height=words.height, source=words.source,
                        lines=[[WordOut(t=t, b=b) for t, b in line] for line in words.lines])


@router.get("/documents/{doc_id}/pages/{page}/html", response_model=HtmlPageOut,
            summary="An HTML filing's page in the filing's own layout, an answer's quoted rows and cited cells marked")
def page_html(request: Request, doc_id: str, page: int,
              answer: str | None = Query(None, description="an answer id: mark its quotes and figures")) -> HtmlPageOut:
    engine = _engine(request)
    doc = _ready(engine, doc_id)
    record = engine.store.question(answer) if answer else None
    if answer and (record is None or not visible(record)):
        raise ApiError(404, "answer_not_found", f"no answer with id {shown(answer)}")
    shown_page = htmlpage.html_page(engine, doc.id, page, answer)
    if shown_page is None:
        raise ApiError(404, "no_html_layout", f"{doc.file_name} has no page {page} in a layout of its own (a PDF, or "
                                              "an HTML filing without page breaks): show the page image instead")
    return HtmlPageOut(document_id=doc.id, page=page, nodes=shown_page.nodes, quoted=shown_page.quoted,
                       cited=shown_page.cited)


def _ready(engine: Engine, doc_id: str) -> Document:
    entry = uploads.find(engine, doc_id)
    if entry.document is None:
        job = entry.job
        raise ApiError(409, "not_ready", f"{job.file_name} is {job.status}; pages can be shown once it is ready")  # type: ignore[union-attr]
    return entry.document
