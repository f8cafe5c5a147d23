"""Lexical + dense retrieval over chunks, fused by reciprocal rank, reported per page."""

from __future__ import annotations

import operator
import re
import time
import weakref
from collections import Counter
from dataclasses import dataclass, field

from docqa.embed import Embedder
from docqa.finance.abbreviations import definitions
from docqa.plan import QuestionPlan, build_plan
from docqa.plan.companies import canonical_companies
from docqa.search.query import SearchQuery, search_query
from docqa.store.base import Store
from docqa.types import Chunk, Document, Hit, SearchFilters, SearchMode

OWNER_SAMPLE = 50   # chunks that print a word, looked at to see whose filings they are
OWNER_SHARE = 0.8   # share of them one company's filings must hold for the word to name it
RRF_SCALE = 100.0  # fused scores are reported x100 so they read as small numbers, not 0.0164


@dataclass
class SearchResult:
    hits: list[Hit]
    plan: QuestionPlan
    timings: dict[str, float] = field(default_factory=dict)


LABEL_SAMPLE = 8  # chunks read for a phrase's printed rows: a label prints on few pages


def _label_key(text: str) -> str:
    """A label as words only: case, punctuation, footnote marks ("(1)", "*") and a leading "Total" aside."""
    return " ".join(re.findall(r"[a-z]+", re.sub(r"\(\d\)|\*|^\W*total\b", " ", text.lower())))


def _name_key(text: str) -> str:
    """A name as its words only, articles aside: "Europe, the Middle East and Africa" is "europe middle east and africa"."""
    return " ".join(w for w in re.findall(r"[a-z&]+", text.lower()) if w != "the")


@dataclass
class _Lookups:
    """What planning asked the lexical index about words, for one set of documents. The engine makes
    a searcher per question; these answers outlive it (each costs an unfiltered FTS5 query)."""

    documents: tuple[str, ...] = ()
    words: dict[str, bool] = field(default_factory=dict)
    owners: dict[str, str | None] = field(default_factory=dict)
    labels: dict[str, bool] = field(default_factory=dict)
    # The documents (the same objects until the store is written) and each one's company, canonical.
    canonical: tuple[tuple[Document, ...], dict[str, str]] | None = None


_LOOKUPS: "weakref.WeakKeyDictionary[Store, _Lookups]" = weakref.WeakKeyDictionary()


def _lookups(store: Store, documents: list[Document]) -> _Lookups:
    """The store's lookups, started afresh when the documents changed (a filing added or removed
    changes which words are printed and whose they are)."""
    try:
        found = _LOOKUPS.get(store)
    except TypeError:  # a store that cannot be weakly referenced keeps them per searcher
        found = None
    if found is not None and found.canonical is not None and _same_objects(found.canonical[0], documents):
        return found  # the very Document objects of the last question: the same ids, without reading them all
    ids = tuple(d.id for d in documents)
    if found is None or found.documents != ids:
        found = _Lookups(documents=ids)
        try:
            _LOOKUPS[store] = found
        except TypeError:
            pass
    return found


def _same_objects(kept: tuple[Document, ...], documents: list[Document]) -> bool:
    """The store hands out the same Document objects until it is written: identity is the quick test."""
    return len(kept) == len(documents) and all(map(operator.is_, kept, documents))


class HybridSearcher:
    def __init__(self, store: Store, embedder: Embedder | None, candidates: int = 200, rrf_k: int = 60,
                 statement_boost: float = 1.0, section_boost: float = 0.5, dense_weight: float = 1.0):
        self.store = store
        self.embedder = embedder
        self.candidates = candidates
        self.rrf_k = rrf_k
        self.statement_boost = statement_boost
        self.section_boost = section_boost
        self.dense_weight = dense_weight
        self._cache = _Lookups()

    def plan(self, question: str, documents: list[Document], filters: SearchFilters | None = None,
             inherited: tuple[str, ...] = ()) -> QuestionPlan:
        """The question's plan, with the index answering what planning asks about words."""
        self._cache = _lookups(self.store, documents)
        return build_plan(question, documents, filters, is_word=self.is_word, owner=self._owner(documents),
                          inherited=inherited, labels=self.prints_label)

    def search(
        self,
        question: str | QuestionPlan,
        documents: list[Document],
        k: int = 10,
        mode: SearchMode = "hybrid",
        filters: SearchFilters | None = None,
    ) -> SearchResult:
        """Search for a question (planned here) or for a plan made before."""
        if mode not in ("hybrid", "lexical", "vector"):
            raise ValueError(f"mode must be hybrid, lexical or vector, not {mode!r}")
        if mode != "lexical" and self.embedder is None:
            if mode == "vector":
                raise ValueError("vector search needs an index built with dense embeddings")
            mode = "lexical"
        timings: dict[str, float] = {}
        t0 = time.perf_counter()
        plan = question if isinstance(question, QuestionPlan) else self.plan(question, documents, filters)
        query = search_query(plan)
        timings["plan_ms"] = (time.perf_counter() - t0) * 1000
        vector = None
        if mode != "lexical":
            t1 = time.perf_counter()
            vector = self.embedder.embed([query.text])[0]  # type: ignore[union-attr]
            timings["embed_ms"] = (time.perf_counter() - t1) * 1000
        lexical = (self._lexical_rankings(query) if mode in ("hybrid", "lexical")
                   else [[] for _ in query.groups])
        per_group = [self._search_group(query, group, ranked, vector, mode, k)
                     for group, ranked in zip(query.groups, lexical)]
        hits = _interleave(per_group, k)
        timings["total_ms"] = (time.perf_counter() - t0) * 1000
        return SearchResult(hits=hits, plan=plan, timings=timings)

    def is_word(self, word: str) -> bool:
        """Does any indexed page print this word? A typo of a company name does not."""
        words = self._cache.words
        cached = words.get(word)
        if cached is None:
            if len(words) > 50_000:
                words.clear()
            cached = words[word] = bool(self.store.lexical_search([word], [], SearchFilters(), 1))
        return cached

    def prints_label(self, phrase: str) -> bool:
        """Does a stored table print this phrase as a row's whole label ("Accrued vacation, salaries and
        wages")? Read from the tables of the pages that print the phrase at all."""
        key = _label_key(phrase)
        labels = self._cache.labels
        if key not in labels:
            if len(labels) > 50_000:
                labels.clear()
            ranked = self.store.lexical_search([], [phrase], SearchFilters(), LABEL_SAMPLE)
            pages = dict.fromkeys((c.document_id, c.page) for c in self.store.chunks([cid for cid, _ in ranked]))
            labels[key] = any(_label_key(row.label) == key
                              for document_id, number in pages if (page := self.store.page(document_id, number))
                              for table in page.tables for row in table.rows) or self._defines_short_form(phrase)
        return labels[key]

    def _defines_short_form(self, phrase: str) -> bool:
        """Does a filing's text give the phrase a short form of its own ("Europe, Middle East and Africa
        (“EMEA”)"): one name, however many commas it holds (articles and commas aside)."""
        key = _name_key(phrase)
        if len(key.split()) < 2:
            return False
        # the pages that print its longest run without a comma ("Middle East and Africa")
        run = max((r.strip() for r in re.split(r",|\bthe\b", phrase)), key=len)
        ranked = self.store.lexical_search([], [run], SearchFilters(), 4 * LABEL_SAMPLE)
        texts = [chunk.text for chunk in self.store.chunks([cid for cid, _ in ranked])]
        return any(_name_key(long) == key for long in definitions(texts).values())

    def _owner(self, documents: list[Document]):
        """The company whose filings (nearly) alone print a word: "Lockheed" is Lockheed Martin's."""
        if self._cache.canonical is None or not _same_objects(self._cache.canonical[0], documents):
            self._cache.canonical = (tuple(documents), canonical_companies(documents))
        canonical = self._cache.canonical[1]
        owners = self._cache.owners

        def owner(word: str) -> str | None:
            if word not in owners:
                # a name of several words is searched as the phrase ("digital media": Adobe's segment)
                terms, phrases = ([], [word]) if " " in word else ([word], [])
                ranked = self.store.lexical_search(terms, phrases, SearchFilters(), OWNER_SAMPLE)
                heads = self._heads([cid for cid, _ in ranked])[0]
                counts = Counter(canonical.get(head[0]) for head in heads.values())
                top = counts.most_common(1)
                total = sum(counts.values())
                owners[word] = top[0][0] if top and top[0][0] and top[0][1] >= OWNER_SHARE * total else None
            return owners[word]

        return owner

    def _lexical_rankings(self, query: SearchQuery) -> list[list[tuple[str, float]]]:
        """Each company group's lexical ranking: one query for them all where the store can (tantivy
        behind SQLite), the same lists as one search per group."""
        terms, phrases = list(query.terms), list(query.phrases)
        together = getattr(self.store, "lexical_search_groups", None)
        if together is not None and len(query.groups) > 1:
            return together(terms, phrases, list(query.groups), self.candidates)
        return [self.store.lexical_search(terms, phrases, group, self.candidates) for group in query.groups]

    def _heads(self, chunk_ids) -> tuple[dict[str, tuple], dict[str, Chunk] | None]:
        """(document id, page, section, statement) of each chunk, and the built Chunks when the store
        had to build them anyway (a store without chunk_heads)."""
        heads = getattr(self.store, "chunk_heads", None)
        if heads is not None:
            return heads(chunk_ids), None
        chunks = {c.id: c for c in self.store.chunks(chunk_ids)}
        return {cid: (c.document_id, c.page, c.section, c.statement) for cid, c in chunks.items()}, chunks

    def _search_group(self, plan: SearchQuery, filters: SearchFilters, lexical: list[tuple[str, float]], vector,
                      mode: SearchMode, k: int) -> list[Hit]:
        fused = {cid: RRF_SCALE / (self.rrf_k + rank + 1) for rank, (cid, _) in enumerate(lexical)}
        dense: list[tuple[str, float]] = []
        if mode in ("hybrid", "vector") and vector is not None:
            dense = self.store.vector_search(vector, filters, self.candidates)
            weight = self.dense_weight if mode == "hybrid" else 1.0
            for rank, (cid, _) in enumerate(dense):
                fused[cid] = fused.get(cid, 0.0) + weight * RRF_SCALE / (self.rrf_k + rank + 1)
        if not fused:
            return []
        # Pages are ranked from each candidate's head; only the chunks that speak for the k pages kept
        # are read in full (building all 200 candidates was a quarter of a search, and their garbage
        # the collector's pauses), and only their scores are itemised.
        heads, chunks = self._heads(fused)
        best: dict[tuple[str, int], tuple[float, str]] = {}
        for cid, score in fused.items():
            head = heads.get(cid)
            if head is None:
                continue
            document_id, page, section, statement = head
            if plan.statements and statement in plan.statements:
                score += self.statement_boost
            if plan.sections and section in plan.sections:
                score += self.section_boost
            key = (document_id, page)
            if key not in best or score > best[key][0]:
                best[key] = (score, cid)
        ranked_pages = sorted(best.values(), key=lambda sc: -sc[0])[:k]
        if chunks is None:
            chunks = {c.id: c for c in self.store.chunks([cid for _, cid in ranked_pages])}
        return self._hits(plan, ranked_pages, chunks, dict(lexical), dict(dense))

    def _hits(self, plan: SearchQuery, ranked_pages: list[tuple[float, str]], chunks: dict[str, Chunk],
              lexical: dict[str, float], dense: dict[str, float]) -> list[Hit]:
        """Each kept page's Hit, its score itemised: the retrievers' own scores and the boosts it got."""
        hits = []
        for score, cid in ranked_pages:
            c = chunks.get(cid)
            if c is None:
                continue
            parts = {}
            if cid in lexical:
                parts["lexical"] = round(lexical[cid], 4)
            if cid in dense:
                parts["dense"] = round(dense[cid], 4)
            if plan.statements and c.statement in plan.statements:
                parts["statement_boost"] = self.statement_boost
            if plan.sections and c.section in plan.sections:
                parts["section_boost"] = self.section_boost
            hits.append(Hit(
                document=c.document, document_id=c.document_id, page=c.page, score=round(score, 4), text=c.text,
                chunk_id=c.id, company=c.company, year=c.fiscal_year, doc_type=c.doc_type, section=c.section,
                statement=c.statement, scores=parts,
            ))
        return hits


def _interleave(groups: list[list[Hit]], k: int) -> list[Hit]:
    """Rank 1 of each company, then rank 2 of each... so no company crowds out another."""
    if len(groups) == 1:
        return groups[0][:k]
    out: list[Hit] = []
    for rank in range(max((len(g) for g in groups), default=0)):
        for group in groups:
            if rank < len(group):
                out.append(group[rank])
    return out[:k]
