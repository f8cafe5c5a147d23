"""What is wrong with a file that could not be indexed, said as what it is (pipeline.failure_reason).

What a file is (empty, not a PDF) comes before whether it ends well, and a PDF whose page tree
loops back on itself is named as such, not taken for pages without text ("OCR read nothing").
"""

from __future__ import annotations

import re
from pathlib import Path

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


__all__ = ["BROKEN_PAGE_TREE", "WHAT_IT_IS", "broken_page_tree"]
