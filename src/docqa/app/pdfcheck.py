"""What is wrong with a file that could not be indexed, said as what it is (uploads, ingestjobs.py).

The ingest pipeline calls a file without a PDF end-of-file marker truncated whatever else it found,
so a file of random bytes or an empty one read "looks truncated"; and a PDF whose page tree loops
back on itself read "OCR read nothing", as if its pages were scans. Here the reason is put right:
what a file is (empty, not a PDF) comes before whether it ends well, and a looping page tree is named.
"""

from __future__ import annotations

import re
from pathlib import Path

TRUNCATED_PREFIX = "the file looks truncated (no PDF end-of-file marker): add the complete file ("
# Reasons that say what the file is: a cut-off download is not the matter with them.
WHAT_IT_IS = ("empty file", "not a PDF")
BROKEN_PAGE_TREE = ("the PDF's page tree is broken (a list of pages contains itself), so its pages cannot be "
                    "found; re-export or re-download the file")
MAX_TREE_NODES = 200_000  # a page tree with more nodes than any filing has pages is not walked further
_REF = re.compile(r"(\d+)\s+\d+\s+R")


def broken_page_tree(path: Path) -> bool:
    """Whether the PDF's page tree (/Pages and its /Kids) reaches a node twice: a loop, which MuPDF
    reports per page ("cycle in page tree") and the parser then takes for pages without text."""
    import fitz

    try:
        with fitz.open(path, filetype="pdf") as doc:
            kind, value = doc.xref_get_key(doc.pdf_catalog(), "Pages")
            roots = [int(m.group(1)) for m in _REF.finditer(value)] if kind == "xref" else []
            seen: set[int] = set(roots)
            stack = list(roots)
            while stack and len(seen) < MAX_TREE_NODES:
                kind, kids = doc.xref_get_key(stack.pop(), "Kids")
                if kind != "array":
                    continue  # a page (a leaf)
                for ref in (int(m.group(1)) for m in _REF.finditer(kids)):
                    if ref in seen:
                        return True
                    seen.add(ref)
                    stack.append(ref)
    except Exception:  # cannot be opened at all: the pipeline's own reason says so
        return False
    return False


def failure_reason(path: Path, reason: str, shown_name: str | None = None) -> str:
    """``reason`` (the pipeline's) put right for ``path``: what the file is first, a looping page tree
    named, and the server's own path to the file replaced by the name the user gave it."""
    inner = reason[len(TRUNCATED_PREFIX):-1] if reason.startswith(TRUNCATED_PREFIX) and reason.endswith(")") else reason
    if inner.startswith(WHAT_IT_IS):
        reason = inner
    elif broken_page_tree(path):
        reason = BROKEN_PAGE_TREE
    if shown_name:
        reason = reason.replace(str(path), shown_name)
    return reason


__all__ = ["BROKEN_PAGE_TREE", "broken_page_tree", "failure_reason"]
