"""An HTML filing's page in its own layout: the filing's HTML for that page, sanitised to a tree of
allowed elements, with the quoted rows and the cited cells marked.

The evidence image of an HTML page is the stored words drawn in Courier (evidence.html_page): faithful
to every stored box, but not the filing's look. This is the other view, the filing's own tables and
paragraphs, for a person to read the quote where the filer printed it.

Safe by construction: the filing is parsed by lxml with network access off, and what is sent is not
HTML but a JSON tree of allow-listed elements (tables, paragraphs, headings, lists, inline emphasis)
with only ``colspan``/``rowspan`` kept; scripts, styles, images, links, forms, frames and hidden
content are dropped, unknown elements (``ix:nonFraction``, ``font``, ``a``) unwrapped to their text.
The page builds it with createElement and textContent, so nothing of the filing is ever run or
loaded.

Pages: cut where the filing breaks its pages (a ``page-break-before/after`` or ``break-before/after``
style, else ``<hr>``), as ingest cuts them; the stored page is matched to the cut page whose words it
shares most, near its number (ingest drops empty pages and running headers). A filing with no breaks
has no page of its own to show: ``None``, and the viewer shows the page image.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docqa.types import Figure

if TYPE_CHECKING:
    from docqa.engine import Engine

Node = dict[str, Any]   # {"t": tag, "a": {colspan, rowspan}, "k": [classes], "c": [Node | str]}

KEEP = frozenset("table thead tbody tfoot tr td th caption p div span b strong i em u sup sub br h1 h2 h3 h4 h5 h6 "
                 "ul ol li blockquote pre hr".split())
DROP = frozenset("script style head title noscript template object embed iframe frame frameset svg math applet "
                 "img picture video audio canvas source track input button select option textarea form link "
                 "meta base map area".split())
_BREAK_BEFORE = re.compile(r"(?:page-)?break-before\s*:\s*(?:always|page|left|right)", re.I)
_BREAK_AFTER = re.compile(r"(?:page-)?break-after\s*:\s*(?:always|page|left|right)", re.I)
_HIDDEN = re.compile(r"display\s*:\s*none", re.I)
_NUMBER = re.compile(r"^[\s$€£¥(]*-?[\d.,]+[)%]?\s*$")
_CACHE: dict[tuple[str, int, int], "_Paged"] = {}
_CACHE_SIZE = 2
NEAR = 4  # cut pages either side of the expected one compared with the stored page


@dataclass(frozen=True)
class HtmlPage:
    page: int
    nodes: list[Node]
    quoted: int = 0          # rows or paragraphs marked as quoted
    cited: int = 0           # cells marked as the figure read


@dataclass
class _Paged:
    """A filing cut into pages: each element's first and last page, each text's page."""

    body: Any
    pages: int = 1
    span: dict[Any, tuple[int, int]] = field(default_factory=dict)
    tail: dict[Any, int] = field(default_factory=dict)
    words: list[set[str]] = field(default_factory=list)


def _tag(el) -> str:
    tag = el.tag if isinstance(el.tag, str) else ""
    return tag.rsplit("}", 1)[-1].split(":")[-1].lower() if tag else ""


def _skipped(el) -> bool:
    return not isinstance(el.tag, str) or _tag(el) in DROP or bool(_HIDDEN.search(el.get("style") or ""))


def _words(text: str | None) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9][a-z0-9,.]*", (text or "").lower()) if len(w) > 1}


def _cut(body, use_hr: bool) -> _Paged:
    paged = _Paged(body=body)
    page = 0
    words: list[set[str]] = [set()]

    def add(text: str | None) -> None:
        words[page].update(_words(text))

    def turn() -> None:
        nonlocal page
        page += 1
        words.append(set())

    def walk(el) -> None:
        style = el.get("style") or ""
        if (_BREAK_BEFORE.search(style) or (use_hr and _tag(el) == "hr")) and words[page]:
            turn()
        start = page
        add(el.text)
        for child in el:
            if not _skipped(child):
                walk(child)
            paged.tail[child] = page
            add(child.tail)
        paged.span[el] = (start, page)
        if _BREAK_AFTER.search(style):
            turn()

    walk(body)
    paged.pages, paged.words = page + 1, words
    return paged


def _paged(path: Path) -> _Paged:
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if key in _CACHE:
        return _CACHE[key]
    from lxml import html as lhtml

    parser = lhtml.HTMLParser(no_network=True, remove_comments=True, remove_pis=True, huge_tree=True)
    root = lhtml.parse(str(path), parser).getroot()
    body = root.find(".//body") if root is not None else None
    body = body if body is not None else root
    raw = lhtml.tostring(body, encoding="unicode") if body is not None else ""
    paged = _cut(body, use_hr=not (_BREAK_BEFORE.search(raw) or _BREAK_AFTER.search(raw)))
    while len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = paged
    return paged


def _match(paged: _Paged, number: int, stored_words: set[str]) -> int | None:
    """The cut page that is stored page ``number``: of the non-empty ones near it, the one sharing most words."""
    filled = [i for i, w in enumerate(paged.words) if w]
    if len(filled) <= 1 or not stored_words:
        return None
    guess = min(max(number - 1, 0), len(filled) - 1)
    near = filled[max(0, guess - NEAR): guess + NEAR + 1]

    def share(i: int) -> float:
        w = paged.words[i]
        return len(w & stored_words) / max(1, len(w | stored_words))

    best = max(near, key=share)
    return best if share(best) >= 0.3 else None


def _emit(el, page: int, paged: _Paged) -> list[Node | str]:
    """The element's content on ``page``: itself when allowed (else its children unwrapped)."""
    start, end = paged.span.get(el, (0, -1))
    if end < page or start > page:
        return []
    children: list[Node | str] = []
    if start == page and el.text:
        children.append(el.text)
    for child in el:
        if not _skipped(child):
            children += _emit(child, page, paged)
        if paged.tail.get(child) == page and child.tail:
            children.append(child.tail)
    tag = _tag(el)
    if tag not in KEEP or tag == "body":
        return children
    node: Node = {"t": tag, "c": children}
    spans = {k: el.get(k) for k in ("colspan", "rowspan") if (el.get(k) or "").isdigit() and 1 < int(el.get(k)) <= 60}
    if spans:
        node["a"] = spans
    return [node]


def _text(node: Node | str) -> str:
    return node if isinstance(node, str) else " ".join(_text(c) for c in node.get("c", []))


def _tokens(text: str) -> list[str]:
    """Words and figures as a row prints them: '$' cells dropped, '( 600 )' as '(600)'."""
    joined = re.sub(r"\(\s+", "(", re.sub(r"\s+\)", ")", text))
    return [t for t in joined.replace("\u00a0", " ").lower().split() if t not in ("$", "€", "£")]


def _contains(row: list[str], quote: list[str]) -> bool:
    n = len(quote)
    return bool(n) and any(row[i:i + n] == quote for i in range(len(row) - n + 1))


def _walk(nodes: list[Node | str]):
    for node in nodes:
        if isinstance(node, dict):
            yield node
            yield from _walk(node.get("c", []))


def _mark(node: Node, mark: str) -> None:
    node.setdefault("k", [])
    if mark not in node["k"]:
        node["k"].append(mark)


def mark_evidence(nodes: list[Node | str], quotes: list[str], figures: list[Figure]) -> tuple[int, int]:
    """Mark the rows (or paragraphs) that print a quote, and in them the cells that print a figure read."""
    quoted: list[Node] = []
    for quote in quotes:
        wanted = _tokens(quote)
        rows = [n for n in _walk(nodes) if n["t"] == "tr" and _contains(_tokens(_text(n)), wanted)]
        if not rows:  # prose: the innermost block that holds the whole quote
            blocks = [n for n in _walk(nodes) if n["t"] in ("p", "div", "li", "td", "span", "blockquote")
                      and _contains(_tokens(_text(n)), wanted)]
            rows = blocks[-1:]
        quoted += rows
    for row in quoted:
        _mark(row, "quoted")
    cited = 0
    for figure in figures:
        number = _tokens(figure.text)[-1:] if figure.text else []
        rows = quoted or [n for n in _walk(nodes) if n["t"] == "tr"]
        for row in rows:
            cells = [n for n in _walk(row.get("c", [])) if n["t"] in ("td", "th") and _tokens(_text(n))[-1:] == number]
            if number and cells:
                _mark(cells[0], "cited")
                cited += 1
                break
    for cell in (n for n in _walk(nodes) if n["t"] in ("td", "th") and _NUMBER.match(_text(n) or "x")):
        _mark(cell, "num")
    return len(quoted), cited


def html_page(engine: "Engine", document: str, page: int, answer_id: str | None = None) -> HtmlPage | None:
    """Stored page ``page`` of an HTML filing in the filing's own layout, the answer's evidence there
    marked; None for a PDF or a filing whose pages cannot be told apart in its HTML."""
    from docqa.evidence import is_html_file
    from docqa.viewer import evidence_on_page

    doc = engine.document(document)
    stored = engine.page(doc.id, page)  # PageOutOfRange for a page the filing does not have
    path = engine.pdf_path(doc)
    if not is_html_file(path):
        return None
    paged = _paged(path)
    cut = _match(paged, page, _words(stored.text))
    if cut is None:
        return None
    nodes = _emit(paged.body, cut, paged)
    quoted = cited = 0
    if answer_id:
        record = engine.store.question(answer_id)
        if record is not None:
            evidence = evidence_on_page(record.answer, doc.id, doc.file_name, page)
            quoted, cited = mark_evidence(nodes, evidence.quotes, evidence.figures)
    return HtmlPage(page=page, nodes=[n for n in nodes if not isinstance(n, str) or n.strip()], quoted=quoted,
                    cited=cited)


def is_html_document(engine: "Engine", document: str) -> bool:
    from docqa.evidence import is_html_file

    try:
        return is_html_file(engine.pdf_path(engine.document(document)))
    except Exception:  # the kept copy gone: no layout of its own to offer
        return False


__all__ = ["HtmlPage", "html_page", "is_html_document", "mark_evidence"]
