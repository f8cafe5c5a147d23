"""The text the detectors read: a page or a run of pages on one line, whitespace folded."""

from __future__ import annotations


def flat_text(text: str) -> str:
    return " ".join(text.split())
