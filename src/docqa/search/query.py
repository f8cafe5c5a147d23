"""SearchQuery: what the search engine is told, derived from a QuestionPlan (never from the words).

The plan names the filings each company's question reads (its groups); the query carries the
lexical terms and printed phrases to look for, and the statements and sections to favour.
"""

from __future__ import annotations

from dataclasses import dataclass

from docqa.plan import QuestionPlan
from docqa.types import SearchFilters, StatementKind


@dataclass(frozen=True)
class SearchQuery:
    text: str                                  # embedded for dense search
    terms: tuple[str, ...]
    phrases: tuple[str, ...]
    groups: tuple[SearchFilters, ...]          # searched in turn, results interleaved
    statements: frozenset[StatementKind] = frozenset()
    sections: frozenset[str] = frozenset()


def search_query(plan: QuestionPlan) -> SearchQuery:
    return SearchQuery(text=plan.question, terms=plan.terms, phrases=plan.phrases, groups=plan.groups,
                       statements=plan.statements, sections=plan.sections)
