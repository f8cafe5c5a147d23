"""The one object every face calls: store + embedder + searcher (+ answerers), from settings.

``Engine.build(settings)`` is the composition root: each part comes from its kind's registry,
by name: the store from ``store/factory.py:STORES`` (DOCQA_STORE), the embedder from
``embed.py:EMBEDDERS`` (DOCQA_EMBEDDER, loaded on first use), the answerers from
``answer/factory.py`` (DOCQA_ANSWERER picks the text answerer).
"""

from __future__ import annotations

import difflib
import logging
import threading
import uuid
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Sequence

from docqa.config import Settings
from docqa.embed import (
    CachedEmbedder,
    Embedder,
    EmbedderUnavailable,
    embedder_identity,
    get_embedder,
    load_in_background,
    loaded_embedder,
    still_loading,
)
from docqa.ingest.parse import ParseError
from docqa.ingest.pipeline import IngestOptions, Ingestor, Progress
from docqa.search.hybrid import HybridSearcher, SearchResult
from docqa.store import DocumentNotFound, Store, StoredPage, open_store
from docqa.answer.ask import Asker, AskRequest
from docqa.stats import document_stats
from docqa.types import (
    Answer,
    Citation,
    DocStats,
    DocType,
    Document,
    DocumentMeta,
    Figure,
    Hit,
    IngestReport,
    SearchFilters,
    SearchMode,
)

if TYPE_CHECKING:
    from docqa.progress import StageReporter
    from docqa.viewer import PageSize

log = logging.getLogger(__name__)

MODEL_LOADING_NOTICE = ("the sentence model is still loading (the server just started): this answer was found by "
                        "words alone; ask again in a few seconds for quotes chosen by meaning too")
# Set per ask: whether some step went on without the sentence model because it was still loading.
_went_lexical: ContextVar[list[bool] | None] = ContextVar("docqa_went_lexical", default=None)


class PageOutOfRange(ValueError):
    def __init__(self, document: Document, page: int):
        self.document = document
        self.page = page
        super().__init__(f"{document.file_name} has pages 1-{document.pages}; page {page} does not exist")


class AnswerNotFound(KeyError):
    def __init__(self, answer_id: str):
        self.answer_id = answer_id
        super().__init__(answer_id)

    def __str__(self) -> str:
        return f"no answer with id {self.answer_id!r}; ask again"


class Engine:
    def __init__(self, settings: Settings, store: Store):
        self.settings = settings
        self.store = store
        self._embedder: Embedder | None = None
        self._embedder_lock = threading.Lock()
        self._dense_failed: str | None = None
        # Servers set this off (load_model_in_background): a question then never waits for the model.
        self.wait_for_model = True
        self._searcher: HybridSearcher | None = None
        self._kept_checked: set[tuple[str, int, int]] = set()  # kept copies whose sha256 was checked

    @classmethod
    def open(cls, index: str | Path | Settings | None = None, **overrides) -> "Engine":
        """Open (or create) an index. ``index`` is a folder or full Settings; overrides (flat names) win."""
        if isinstance(index, Settings):
            settings = index.with_(**overrides) if overrides else index
        else:
            if index is not None:
                overrides["index"] = Path(index)
            settings = Settings(**overrides)
        return cls.build(settings)

    @classmethod
    def build(cls, settings: Settings) -> "Engine":
        """The engine ``settings`` describe: its store opened (the index folder made), the index's
        embedder checked against the one configured; the model and the answerers come on first use."""
        settings.index.mkdir(parents=True, exist_ok=True)
        store = open_store(settings)
        engine = cls(settings, store)
        identity = store.embedder_identity()
        ingest = settings.ingest
        if identity and ingest.dense:
            configured = embedder_identity(ingest.embedder, ingest.embed_max_tokens)
            if configured and configured != identity:
                from docqa.store import EmbedderMismatch

                raise EmbedderMismatch(
                    f"index {settings.index} was built with {identity!r}; DOCQA_EMBEDDER={ingest.embedder!r} "
                    f"gives {configured!r}. Use the same embedder or another index folder."
                )
        return engine

    # --- embedder, loaded on first use ---------------------------------------------------
    @property
    def dense_available(self) -> bool:
        return self.settings.ingest.dense and self.store.embedder_identity() is not None

    def embedder(self, for_ingest: bool = False) -> Embedder | None:
        if not self.settings.ingest.dense or self._dense_failed:
            return None
        if not for_ingest and self.store.embedder_identity() is None:
            return None  # a lexical-only index: nothing to compare a query vector with
        with self._embedder_lock:
            if self._embedder is None:
                model = self._model("dense search off", wait=for_ingest or self.wait_for_model)
                if model is None:
                    return None
                self._embedder = model
                self.store.bind_embedder(model.identity)
        if for_ingest:  # only chunk texts are worth remembering, not every query
            return CachedEmbedder(self._embedder, self.settings.index / "embedding-cache.sqlite")
        return self._embedder

    def _quote_embedder(self) -> Embedder | None:
        """The sentence model that helps choose quotes (not the index's: no index needs vectors)."""
        if not self.settings.answer.quote_by_meaning:
            return None
        return self._model("quotes are chosen by their words alone", wait=self.wait_for_model)

    def _model(self, without_it: str, wait: bool = True) -> Embedder | None:
        """The sentence model (shared by the process), or None, said once, when it cannot load.
        With ``wait`` off a model still loading gives None at once, and the ask says so (notice)."""
        if self._dense_failed:
            return None
        ingest = self.settings.ingest
        if not wait:
            model = loaded_embedder(ingest.embedder, ingest.embed_max_tokens)
            if model is None and still_loading(ingest.embedder, ingest.embed_max_tokens):
                if (flag := _went_lexical.get()) is not None:
                    flag.append(True)
                return None
            if model is not None:
                return model
        try:
            return get_embedder(ingest.embedder, ingest.embed_max_tokens, ingest.model_threads or None)
        except EmbedderUnavailable as exc:
            self._dense_failed = str(exc)
            log.warning("%s: %s", without_it, exc)
            return None

    def load_model_in_background(self) -> bool:
        """Servers: start loading the sentence model now, and answer without it until it is loaded.
        False when nothing here needs the model (no quote re-ranking, no dense index). The answering
        code is readied beside it (warm_up_in_background)."""
        self.warm_up_in_background()
        if not self.settings.ingest.dense and not self.settings.answer.quote_by_meaning:
            return False
        self.wait_for_model = False
        ingest = self.settings.ingest
        load_in_background(ingest.embedder, ingest.embed_max_tokens, ingest.model_threads or None)
        return True

    def warm_up_in_background(self) -> None:
        """Servers: ready what the first question would otherwise wait for (the answerers' modules
        and their patterns, the planner's table of the index's company names, the lexical index),
        on a thread, so that the first figure question of a new server costs what the next does."""
        def warm() -> None:
            try:
                self.asker()
                self.searcher().search("total revenue", self.documents(), k=1, mode="lexical")
            except Exception:  # a warm-up that fails leaves the first question to do the work
                log.debug("warm-up failed", exc_info=True)

        threading.Thread(target=warm, name="docqa-warm-up", daemon=True).start()

    # --- ingest --------------------------------------------------------------------------
    def ingest(
        self,
        paths: Iterable[str | Path],
        progress: Progress | None = None,
        overrides: DocumentMeta | None = None,
    ) -> IngestReport:
        return self._ingestor(overrides).run(paths, progress)

    def unread_pages(self, document: Document, path: Path) -> int:
        """Pages of a stored document indexed without text that OCR can read now: ingesting the file
        again reads them (Ingestor.unread_pages)."""
        return self._ingestor(None).unread_pages(document, Path(path))

    def ingest_file(self, path: Path, display_name: str | None = None, progress: Progress | None = None,
                    overrides: DocumentMeta | None = None):
        return self._ingestor(overrides).ingest_file(Path(path), progress, display_name)

    def fetch(self, ticker: str, forms: Iterable[str] | None = None, years: str | None = None,
              refresh: bool = False, progress: Progress | None = None, on_filing=None):
        """A company's filings from SEC EDGAR by ticker, downloaded (or found in the cache under the
        index) and ingested; a FetchReport whose ``ingest`` says what each file became
        (sources/edgar.py). Raises EdgarError for an unknown ticker, a form not filed, no network."""
        from docqa.sources.edgar import fetch_filings

        report = fetch_filings(self.settings, ticker, forms, years, refresh=refresh, on_filing=on_filing)
        paths = [Path(f.path) for f in report.filings if f.path]
        ingested = self.ingest(paths, progress) if paths else IngestReport()
        return report.model_copy(update={"ingest": ingested})

    def ingest_parallel(
        self,
        paths: Iterable[str | Path],
        workers: int | None = None,
        cluster: str | None = None,
        progress: Progress | None = None,
        overrides: DocumentMeta | None = None,
        client=None,
    ) -> IngestReport:
        """``ingest`` with each file built on worker processes: ``workers`` local ones, or the Dask
        scheduler at ``cluster`` (or an existing ``client``); this process writes (docs/cluster.md)."""
        from docqa.ingest.parallel import run_parallel

        embedder = self.embedder(for_ingest=True)
        ingest = self.settings.ingest
        spec = (ingest.embedder, ingest.embed_max_tokens) if embedder is not None else None
        return run_parallel(self._ingestor(overrides), paths, workers=workers, cluster=cluster, client=client,
                            embedder=spec, progress=progress)

    def _ingestor(self, overrides: DocumentMeta | None) -> Ingestor:
        s = self.settings
        options = IngestOptions(chunk_words=s.ingest.chunk_words, ocr=s.ingest.ocr, max_pages=s.limits.max_pages,
                                overrides=overrides)
        return Ingestor(self.store, self.embedder(for_ingest=True), self.settings.files_dir, options)

    # --- documents -----------------------------------------------------------------------
    def documents(self) -> list[Document]:
        return self.store.documents()

    def document(self, name_or_id: str) -> Document:
        """By id, file name, or file name without '.pdf'; unknown names raise with close matches first.
        A name more than one document answers to raises AmbiguousDocument listing them with their ids."""
        from docqa.store import AmbiguousDocument

        docs = self.store.documents()
        key = str(name_or_id).strip()
        for doc in docs:
            if key == doc.id:
                return doc
        # exact name first, then any case, then without the suffix: the first tier with a match decides
        for matches in ([d for d in docs if d.file_name == key],
                        [d for d in docs if d.file_name.lower() == key.lower()],
                        [d for d in docs if Path(d.file_name).stem.lower() == key.lower()]):
            if len(matches) == 1:
                return matches[0]
            if matches:
                raise AmbiguousDocument(key, [(d.file_name, d.id) for d in matches])
        names = [d.file_name for d in docs]
        by_lower = {n.lower(): n for n in names}
        close = difflib.get_close_matches(key.lower(), list(by_lower), n=max(1, len(names)), cutoff=0.0)
        raise DocumentNotFound(key, [by_lower[c] for c in close])

    def page(self, document: str, number: int) -> StoredPage:
        doc = self.document(document)
        if not isinstance(number, int) or number < 1 or number > doc.pages:
            raise PageOutOfRange(doc, number)
        page = self.store.page(doc.id, number)
        if page is None:
            raise PageOutOfRange(doc, number)
        return page

    def pdf_path(self, document: Document) -> Path:
        """The kept copy, once its sha256 is the document's (checked once per size and mtime); a
        damaged copy is replaced from the original file when that is still there and unchanged."""
        from docqa.ingest.pipeline import file_sha256, keep_copy, kept_name

        kept = self.settings.files_dir / kept_name(document.id, document.path, document.file_name)
        legacy = self.settings.files_dir / f"{document.id}.pdf"  # before kept copies had their own suffix
        if not kept.exists() and legacy.exists():
            kept = legacy
        try:
            stat = kept.stat()
        except FileNotFoundError:
            return Path(document.path)
        stamp = (str(kept), stat.st_size, stat.st_mtime_ns)
        if stamp in self._kept_checked or file_sha256(kept) == document.sha256:
            self._kept_checked.add(stamp)
            return kept
        source = Path(document.path)
        if source.is_file() and file_sha256(source) == document.sha256:
            log.warning("the kept copy of %s was damaged; copied it again from %s", document.file_name, source)
            return keep_copy(source, kept, document.sha256)
        raise ParseError(f"the kept copy of {document.file_name} is damaged (its sha256 is not the one indexed) "
                         f"and the original at {source} is gone or changed; delete the document and add it again")

    def delete(self, document: str) -> bool:
        doc = self.document(document)
        removed = self.store.delete_document(doc.id)
        from docqa.ingest.pipeline import kept_name

        for name in {kept_name(doc.id, doc.path, doc.file_name), f"{doc.id}.pdf"}:
            (self.settings.files_dir / name).unlink(missing_ok=True)
        return removed

    # --- search --------------------------------------------------------------------------
    def searcher(self) -> HybridSearcher:
        # One per embedder, kept: its word and owner caches then last the process, not one question.
        embedder = self.embedder()
        kept = self._searcher
        if kept is None or kept.embedder is not embedder:
            s = self.settings.search
            kept = self._searcher = HybridSearcher(self.store, embedder, s.candidates, s.rrf_k, s.statement_boost,
                                                   s.section_boost, s.dense_weight)
        return kept

    def search_detailed(
        self,
        query: str,
        k: int = 10,
        mode: SearchMode = "hybrid",
        company: str | None = None,
        year: int | None = None,
        doc_type: str | DocType | None = None,
        document: str | None = None,
    ) -> SearchResult:
        if not isinstance(query, str) or not query.strip():
            raise ValueError("query must be a non-empty string")
        from docqa.question import check_length

        check_length(query, self.settings.limits.max_question_chars, "query")
        if not isinstance(k, int) or k < 1:
            raise ValueError("k must be a positive integer")
        filters = self._filters(company, year, doc_type, document)
        return self.searcher().search(query, self.documents(), k=k, mode=mode, filters=filters)

    def _filters(self, company, year, doc_type, document) -> SearchFilters:
        if doc_type is not None and str(getattr(doc_type, "value", doc_type)) not in {d.value for d in DocType}:
            raise ValueError(f"doc_type must be one of {', '.join(d.value for d in DocType)}, not {doc_type!r}")
        if year is not None and not str(year).isdigit():
            raise ValueError(f"year must be a number like 2022, not {year!r}")
        return SearchFilters(
            companies=(company,) if company else (),
            years=(int(year),) if year else (),
            doc_types=(DocType(doc_type),) if doc_type else (),
            document_ids=(self.document(document).id,) if document else (),
        )

    def search(self, query: str, k: int = 10, mode: SearchMode = "hybrid", **filters) -> list[Hit]:
        return self.search_detailed(query, k=k, mode=mode, **filters).hits

    # --- answers -------------------------------------------------------------------------
    def asker(self) -> Asker:
        from docqa.answer.factory import Needs, route_answerers

        needs = Needs(quote_embedder=self._quote_embedder, page_text=lambda document_id, number: (
            p.text if (p := self.store.page(document_id, number)) else None))
        return Asker(self.store, self.searcher(), route_answerers(self.settings, needs))

    def ask(
        self,
        question: str,
        document: str | None = None,
        company: str | None = None,
        year: int | None = None,
        doc_type: str | DocType | None = None,
        documents: Sequence[str] = (),
        progress: "StageReporter | None" = None,
    ) -> Answer:
        """A verified answer; ``found=False`` with a reason is a normal result. ``documents``
        widens ``document`` to several (ids or file names). ``progress`` is told each stage of
        the work as it begins (progress.py)."""
        from docqa.progress import StageReporter

        from docqa.question import check_length, clean_question, nothing_to_look_for

        if not isinstance(question, str) or not clean_question(question):
            raise ValueError("question must be a non-empty string")
        check_length(question, self.settings.limits.max_question_chars)  # the same limit and message on every face
        question = clean_question(question)
        filters = self._filters(company, year, doc_type, document)
        if documents:
            ids = tuple(dict.fromkeys([*filters.document_ids, *(self.document(d).id for d in documents)]))
            filters = filters.model_copy(update={"document_ids": ids})
        if (why := nothing_to_look_for(question)) is not None:
            return Answer(id=uuid.uuid4().hex[:12], question=question, text="Not found in the documents.",
                          found=False, reason=why, answerer="router", verification="not_found")
        progress = progress or StageReporter()
        progress("understanding", "reading the question")
        went_lexical: list[bool] = []
        token = _went_lexical.set(went_lexical)
        try:
            answer = self.asker().ask(AskRequest(question=question, filters=filters, progress=progress))
        finally:
            _went_lexical.reset(token)
        return answer.model_copy(update={"notice": MODEL_LOADING_NOTICE}) if went_lexical else answer

    def feedback(self, answer_id: str, helpful: bool, note: str | None = None) -> bool:
        """Whether a logged answer helped; False when the log holds no such answer."""
        return self.store.add_feedback(answer_id, helpful, note)

    def stats(self, document: str, term: str | None = None) -> DocStats:
        """Exact counts over the document's full text (not retrieval)."""
        doc = self.document(document)
        texts = [p.text for p in self.store.pages(doc.id)]
        return document_stats(texts, doc.file_name, term)

    def evidence(self, citation: Citation, figures: Iterable[Figure] = ()) -> bytes:
        """The cited page as PNG with the quote (or, failing that, the figures) boxed."""
        return self.evidence_image(citation.document, citation.page, [citation.quote] if citation.quote else [],
                                   list(figures), list(citation.boxes)).png

    def evidence_image(self, document: str, page: int, quotes: list[str] | None = None,
                       figures: list[Figure] | None = None, boxes: list | None = None, zoom: float = 2.0):
        from docqa.evidence import render_evidence

        doc = self.document(document)
        if not isinstance(page, int) or not 1 <= page <= doc.pages:
            raise PageOutOfRange(doc, page)
        return render_evidence(self.pdf_path(doc), page, quotes or [], figures or [], boxes or [], zoom=zoom,
                               max_pixels=self.settings.limits.max_render_pixels,
                               time_budget_s=self.settings.limits.render_timeout_s)

    # --- the document viewer ----------------------------------------------------------------
    def page_sizes(self, document: str) -> list["PageSize"]:
        """Every page's size in PDF points, so that a viewer lays out the whole filing at once."""
        from docqa.viewer import page_sizes

        doc = self.document(document)
        path = self.pdf_path(doc)
        stored = None
        from docqa.evidence import is_html_file

        if is_html_file(path):
            stored = [(p.number, p.width, p.height) for p in self.store.pages(doc.id)]
        return page_sizes(path, stored)

    def page_label(self, document: str, page: int) -> str | None:
        """The page number the filing prints on physical page ``page`` ("21" on page 23), or None."""
        from docqa.viewer import page_label

        doc = self.document(document)
        if not isinstance(page, int) or not 1 <= page <= doc.pages:
            raise PageOutOfRange(doc, page)
        return page_label(self.pdf_path(doc), page)

    def page_image(self, document: str, page: int, answer_id: str | None = None, scale: float | None = None):
        """Page ``page`` drawn at ``scale`` pixels per point, with the logged answer's evidence there boxed.
        Raises AnswerNotFound for an answer id the question log does not hold."""
        from docqa.viewer import clamp_scale, evidence_on_page

        doc = self.document(document)
        quotes, figures, boxes = [], [], []
        if answer_id:
            record = self.store.question(answer_id)
            if record is None:
                raise AnswerNotFound(answer_id)
            evidence = evidence_on_page(record.answer, doc.id, doc.file_name, page)
            quotes, figures, boxes = evidence.quotes, evidence.figures, evidence.boxes
        return self.evidence_image(doc.id, page, quotes, figures, boxes, zoom=clamp_scale(scale))

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

