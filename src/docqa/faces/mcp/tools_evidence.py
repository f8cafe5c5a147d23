"""The ``show_evidence`` tool: the page as an image with the quote boxed, and a line saying what is shown."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import Image
from mcp_types import TextContent
from pydantic import Field

from docqa.app import pageview
from docqa.faces.mcp.errors import agent_errors
from docqa.faces.mcp.registry import DocumentArg, PageArg, Tools

MAX_IMAGE_BYTES = 75_000        # show_evidence: an image a model reads well, at most 100 kB as base64


def _boxed(quote: str | None, figure: str | None, image) -> str:
    """What the image boxes, in words."""
    count = f"({len(image.boxes)} box{'es' if len(image.boxes) != 1 else ''})"
    if image.used == "none":
        return "the quote was not found on this page, so nothing is boxed" if quote else "nothing boxed"
    if figure and image.used == "figures":
        return f"boxed: the cell printing {figure} {count}"
    if figure and image.used == "quote":
        return f"boxed: the quote {count}; {figure} is not printed on it"
    if quote and image.used != "quote":
        return "the quote was not found on this page, so nothing is boxed"
    return f"boxed: {image.used} {count}"


def register_show_evidence(tools: Tools) -> None:
    engine = tools.engine

    @tools.tool('Show the evidence on the page')
    def show_evidence(
        document: DocumentArg,
        page: PageArg,
        quote: Annotated[str | None, Field(description="text on the page to box, e.g. a citation's quote")] = None,
        figure: Annotated[str | None, Field(description="a figure as printed on the quoted row, e.g. an answer "
                                                        "figure's text '81,797': its cell is boxed, not the "
                                                        "whole row")] = None,
        crop: Annotated[bool, Field(description="show only the boxed rows and about two inches above and below "
                                                "them, at the page's full width; false: the whole page")] = True,
        width: Annotated[int, Field(ge=300, le=2000, description="image width in pixels: larger shows small "
                                                                  "print better and costs more context")] = 1000,
    ) -> list[Image | TextContent]:
        """The page rendered as an image with the quote boxed in yellow (PNG, or JPEG when a PNG
        would be too large; under 100 kB as base64), followed by a line saying what was boxed and
        what is shown. With a quote the image is cropped to the boxed rows (crop=false for the whole
        page). Use it to look at a table or chart, or to show proof of a citation (pass its
        document, page and quote, and for a figure the answer read from that row its text: its
        cell is boxed). Without a quote the whole page is shown unmarked."""
        from docqa.evidence import fit_image

        with agent_errors():
            tools.named(document)
            doc = engine.document(document)
            image = pageview.evidence_image(engine, doc.id, page, [quote] if quote else [], [figure] if figure else [])
        fitted = fit_image(image, crop=crop, width=width, max_bytes=MAX_IMAGE_BYTES)
        boxed = _boxed(quote, figure, image)
        shown = "the boxed rows, cropped (crop=false for the whole page)" if fitted.cropped else "the whole page"
        caption = (f"{doc.file_name} page {page} of {doc.pages}; {boxed}; showing {shown}, "
                   f"{fitted.width}x{fitted.height} px {fitted.format.upper()}.")
        return [Image(data=fitted.data, format=fitted.format), TextContent(type="text", text=caption)]
