"""The ``search`` tool: ranked page-level hits with snippets, for an agent that gathers its own evidence."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from docqa.faces.mcp.errors import agent_errors
from docqa.faces.mcp.registry import DOC_TYPE_HELP, DocTypeArg, Tools
from docqa.faces.mcp.replies import SearchHit, SearchResults

SNIPPET_CHARS = 400


def register_search(tools: Tools) -> None:
    engine = tools.engine

    @tools.tool('Search the filings')
    def search(
        query: Annotated[str, Field(description="what to look for, in plain words or the filing's own terms")],
        k: Annotated[int, Field(ge=1, le=50, description="how many pages to return")] = 8,
        mode: Annotated[Literal["hybrid", "lexical", "vector"],
                        Field(description="hybrid (default) fuses keyword and semantic ranking; lexical is "
                                          "keywords only; vector needs an index built with embeddings")] = "hybrid",
        company: Annotated[str | None, Field(description="only this company, e.g. 'Amazon'")] = None,
        year: Annotated[int | None, Field(description="only this fiscal year, e.g. 2017")] = None,
        doc_type: Annotated[DocTypeArg | None, Field(description=DOC_TYPE_HELP)] = None,
        document: Annotated[str | None, Field(description="only this document (file name or id)")] = None,
    ) -> SearchResults:
        """Find the pages that discuss something: ranked page-level hits, each with document,
        company, fiscal year, 1-based page, section, the best-matching snippet and scores.

        Use it to locate evidence yourself, to gather material from several pages or companies, or
        to check an answer; then read_page for the full text. Companies and years named in the
        query are understood as filters; the explicit filters narrow further. For a direct
        question prefer `ask`, which also verifies its answer; for exact counts use
        document_stats."""
        with agent_errors():
            tools.named(document)
            result = engine.search_detailed(query, k=k, mode=mode, company=company, year=year,
                                            doc_type=doc_type, document=document)
        hits = [
            SearchHit(
                rank=i, document=h.document, company=h.company, year=h.year,
                doc_type=h.doc_type.value if h.doc_type else None, page=h.page, section=h.section,
                statement=h.statement.value if h.statement else None,
                snippet=" ".join(h.text.split())[:SNIPPET_CHARS], score=round(h.score, 4),
                scores={k_: round(v, 4) for k_, v in h.scores.items()},
            )
            for i, h in enumerate(result.hits, 1)
        ]
        plan = result.plan
        return SearchResults(query=query, mode=mode, companies=list(plan.companies), years=list(plan.years),
                             notes=list(plan.notes), hits=hits)
