"""Amounts written in the filing's own currency, not a bare "$"."""

from __future__ import annotations

import re

from docqa.store.base import Store
from docqa.types import Draft


def in_reporting_currency(draft: Draft, store: Store) -> Draft:
    """Amounts written in the filing's own currency: an Australian report's "$" is A$, a Canadian
    one's C$; the answer says "AUD 3,480,120", never a bare "$" that reads as US dollars. The cells
    quoted "as printed" keep their own signs."""
    doc = store.document(draft.citations[0].document_id) if draft.citations else None
    code = doc.meta.currency if doc is not None else None
    if not code or code == "USD":
        return draft
    text = re.sub(r"(?<![A-Za-z$])\$(?=-?\d)", f"{code} ", draft.text)  # "$-19.00" too
    figures = tuple(f.model_copy(update={"unit": code}) if f.unit == "USD" else f for f in draft.figures)
    return draft.model_copy(update={"text": text, "figures": figures})
