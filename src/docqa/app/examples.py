"""Example questions built from what is indexed: one per document before a second of any."""

from __future__ import annotations

from docqa.types import Document


def example_questions(documents: list[Document], limit: int = 6) -> list[str]:
    """Questions a person could ask of these documents: figures by company and year, and exact counts."""
    if not documents:
        return []
    per_doc: list[list[str]] = []
    for doc in documents[:limit]:
        meta = doc.meta
        who = (meta.aliases[0] if meta.aliases else None) or meta.company
        asks = []
        if who and meta.fiscal_year:
            asks.append(f"What was {who}'s total revenue in {meta.fiscal_year}?")
            asks.append(f"What were {who}'s capital expenditures in {meta.fiscal_year}?")
        asks.append(f"How many pages does {doc.file_name} have?")
        asks.append(f"How many times does 'risk' appear in {doc.file_name}?")
        per_doc.append(asks)
    out: list[str] = []
    for round_ in range(max(len(a) for a in per_doc)):  # one of each document before the second of any
        for asks in per_doc:
            if round_ < len(asks) and len(out) < limit:
                out.append(asks[round_])
    return out
