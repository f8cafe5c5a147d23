import pytest


def test_capex_question_finds_the_cash_flow_statement(lexical_engine):
    result = lexical_engine.search_detailed("What was Amazon's capital expenditure in FY2017?", k=5)
    assert result.plan.companies and "Amazon" in result.plan.companies[0]
    assert all(h.document == "AMAZON_2017_10K.pdf" for h in result.hits)
    top = result.hits[0]
    assert top.page >= 1 and top.text
    assert any("property and equipment" in h.text.lower() for h in result.hits[:3])


def test_hits_are_pages_not_chunks(lexical_engine):
    hits = lexical_engine.search("net sales", k=20)
    keys = [(h.document, h.page) for h in hits]
    assert len(keys) == len(set(keys))
    assert hits == sorted(hits, key=lambda h: -h.score) or len({h.company for h in hits}) > 1


def test_two_companies_share_the_ranking(lexical_engine):
    hits = lexical_engine.search("Compare Netflix and Adobe revenue", k=6)
    companies = [h.company for h in hits]
    assert companies[0] != companies[1]
    assert len(set(companies)) == 2


def test_explicit_filters(lexical_engine):
    hits = lexical_engine.search("revenue", k=5, company="Netflix")
    assert hits and {h.document for h in hits} == {"NETFLIX_2017_10K.pdf"}
    assert lexical_engine.search("revenue", k=5, year=2001) == []


def test_modes_and_bad_arguments(lexical_engine):
    with pytest.raises(ValueError, match="mode"):
        lexical_engine.search("revenue", mode="fuzzy")
    with pytest.raises(ValueError):
        lexical_engine.search("", k=3)
    with pytest.raises(ValueError, match="k must"):
        lexical_engine.search("revenue", k=0)
    with pytest.raises(ValueError, match="dense"):
        lexical_engine.search("revenue", mode="vector")
    with pytest.raises(KeyError, match="NETFLIX_2017_10K.pdf"):
        lexical_engine.search("revenue", document="NETFLX_2017")


class _PerGroupStore:
    """The same store as a store without one-query group search or chunk heads is seen: the
    searcher then searches each company group on its own and builds every candidate's Chunk."""

    def __init__(self, store):
        self._store = store

    def __getattr__(self, name):
        if name in ("lexical_search_groups", "chunk_heads"):
            raise AttributeError(name)
        return getattr(self._store, name)


@pytest.mark.parametrize("question", [
    "Compare Netflix and Adobe revenue",
    "What were the total net sales of Amazon and Netflix in 2017, and Adobe's revenue in FY2022?",
    "Compare the cash and cash equivalents of Adobe, Amazon and Netflix",
    "What was Amazon's capital expenditure in FY2017?",
    "Which risks do the filings list about competition?",
])
def test_one_query_for_all_groups_gives_the_hits_of_one_search_per_group(lexical_engine, question):
    """A question naming several companies is one lexical query over all their filings: the pages
    found, their order and their scores are those of one search per company group."""
    from docqa.search.hybrid import HybridSearcher

    store = lexical_engine.store
    docs = lexical_engine.documents()
    together = HybridSearcher(store, None).search(question, docs, k=10, mode="lexical")
    alone = HybridSearcher(_PerGroupStore(store), None).search(question, docs, k=10, mode="lexical")
    assert together.hits and together.hits == alone.hits
    if question.startswith("Compare"):
        assert len(together.plan.groups) > 1


def test_a_row_label_is_read_from_the_stored_tables(segment_engine):
    searcher = segment_engine.searcher()
    assert searcher.prints_label("operating, selling, general and administrative expenses")   # Walmart FY2018 p. 57
    assert not searcher.prints_label("net sales and operating income")                         # words, not a row
