"""The badge an answer carries, the same on every face (CLI, REST, the web page, MCP, exports).

It is read from one field: the answer's ``verification``, which the engine's verdict computes
(verify/verdict.py). "Verified" says the answer states what was asked and every part of it is
on a cited page; quotes that only mention the topic are "passages", never Verified. A face does
not decide this for itself: it shows ``badge(answer).words`` (and may colour by ``key``).

The one thing a face adds is what happened since: an answer whose cited document was deleted is
"Document deleted", whatever it was, because the pages that proved it are gone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from docqa.types import Answer

BadgeKey = Literal["verified", "partial", "passages", "not_found", "deleted"]

WORDS: dict[str, str] = {
    "verified": "Verified",
    "partial": "Partially verified",
    "passages": "Passages found — not an answer",
    "not_found": "Not found",
    "deleted": "Document deleted",
}


@dataclass(frozen=True)
class Badge:
    key: BadgeKey
    words: str


def badge(answer: Answer, document_deleted: bool = False) -> Badge:
    """The answer's badge: its ``verification`` in words; "Document deleted" once a cited document is gone.

    An answer that is not found is "Not found" even if a stale record says otherwise: a badge never
    says more than ``found`` allows."""
    if document_deleted:
        key: BadgeKey = "deleted"
    elif not answer.found:
        key = "not_found"
    else:
        key = answer.verification if answer.verification in WORDS else "passages"  # type: ignore[assignment]
    return Badge(key=key, words=WORDS[key])


__all__ = ["Badge", "BadgeKey", "WORDS", "badge"]
