"""The behavioural battery every store backend passes. Backends plug in through the ``store`` fixture."""

from __future__ import annotations

import numpy as np
import pytest

from docqa.embed import HashingEmbedder
from docqa.finance.tables import Cell, Column, Row, StatementTable, TaggedFact
from docqa.store.base import EmbedderMismatch, StoredLine, StoredPage, tables_as_json
from docqa.types import Chunk, DocType, Document, DocumentMeta, PageInfo, SearchFilters, StatementKind

EMBEDDER = HashingEmbedder(64)


def make_document(doc_id: str, company: str, year: int, doc_type: DocType, texts: list[str]):
    meta = DocumentMeta(company=company, fiscal_year=year, doc_type=doc_type)
    document = Document(id=doc_id, file_name=f"{doc_id}.pdf", path=f"/x/{doc_id}.pdf", sha256=doc_id * 4,
                        pages=len(texts), chunks=len(texts), meta=meta)
    pages, chunks = [], []
    for n, text in enumerate(texts, start=1):
        statement = StatementKind.CASH_FLOW if "Purchases of property" in text else None
        pages.append(StoredPage(document_id=doc_id, number=n, width=612, height=792,
                                lines=tuple(StoredLine(text=t, bbox=(10, 10 * i, 300, 10 * i + 8))
                                            for i, t in enumerate(text.split("\n"))),
                                info=PageInfo(number=n, section="Item 8", statement=statement)))
        chunks.append(Chunk(id=f"{doc_id}-{n}", document_id=doc_id, document=document.file_name, page=n, ordinal=0,
                            text=text, kind="table" if statement else "text", section="Item 8", statement=statement,
                            company=company, fiscal_year=year, doc_type=doc_type))
    vectors = EMBEDDER.embed([c.text for c in chunks])
    return document, pages, chunks, vectors


CASH_FLOW = "Consolidated Statement of Cash Flows\nPurchases of property, plant and equipment (PP&E)  (1,577)  (1,373)"
BALANCE = "Balance sheet\nProperty, plant and equipment - net  8.70  8.87\nFY2018 Form 10-K"
PROSE = "Our business sells adhesives and abrasives to industrial customers around the world."


def cash_flow_table() -> StatementTable:
    """A statement table as ingest reads one, with a tagged fact on a cell (HTML filings)."""
    fact = TaggedFact(value=-1_577_000_000.0, unit="USD", scale=6, start="2018-01-01", end="2018-12-31",
                      dimensions=(("srt:ConsolidationItemsAxis", "us-gaap:OperatingSegmentsMember"),))
    cells = (Cell(value=-1577.0, raw="(1,577)", column=1, bbox=(320, 20, 360, 28),
                  concept="us-gaap:PaymentsToAcquirePPE", context="c-1", fact=fact),
             Cell(value=-1373.0, raw="(1,373)", column=2, bbox=(380, 20, 420, 28)))
    return StatementTable(
        page=1, statement=StatementKind.CASH_FLOW, title="Consolidated Statement of Cash Flows", unit="millions",
        unit_text="(Millions)", bbox=(10, 10, 420, 28),
        columns=(Column(index=1, header="2018", fiscal_year=2018, period="year", x0=320, x1=360),
                 Column(index=2, header="2017", fiscal_year=2017, period="year", x0=380, x1=420)),
        rows=(Row(label="Purchases of property, plant and equipment (PP&E)", cells=cells, bbox=(10, 20, 420, 28),
                  indent=10),))


@pytest.fixture
def two_documents(store):
    a = make_document("aaaa1111", "3M Company", 2018, DocType.ANNUAL, [CASH_FLOW, BALANCE, PROSE])
    b = make_document("bbbb2222", "Adobe Inc.", 2022, DocType.QUARTERLY, [PROSE.replace("adhesives", "software"), CASH_FLOW])
    store.add_document(*a)
    store.add_document(*b)
    return a, b


class StoreBattery:
    def test_another_instance_sees_writes_to_the_document_list(self, store, second_store):
        # Both stores keep the document list between writes; a write elsewhere must still show.
        assert second_store.documents() == []
        store.add_document(*make_document("aaaa1111", "3M Company", 2018, DocType.ANNUAL, [CASH_FLOW]))
        assert [d.id for d in second_store.documents()] == ["aaaa1111"]
        assert [d.id for d in store.documents()] == ["aaaa1111"]
        store.delete_document("aaaa1111")
        assert second_store.documents() == [] and store.documents() == []

    def test_empty_store(self, store):
        assert store.documents() == []
        assert store.lexical_search(["sales"], [], SearchFilters(), 5) == []
        assert store.vector_search(EMBEDDER.embed(["sales"])[0], SearchFilters(), 5) == []
        assert store.embedder_identity() is None

    def test_documents_pages_chunks_round_trip(self, store, two_documents):
        (doc_a, pages_a, chunks_a, _), _ = two_documents
        assert [d.id for d in store.documents()] == ["aaaa1111", "bbbb2222"]
        got = store.document("aaaa1111")
        assert got.meta.company == "3M Company" and got.meta.fiscal_year == 2018 and got.chunks == 3
        assert store.document_by_sha(doc_a.sha256).id == doc_a.id
        page = store.page("aaaa1111", 1)
        assert page.lines[1].text.startswith("Purchases of property")
        assert page.info.statement == StatementKind.CASH_FLOW
        assert [p.number for p in store.pages("aaaa1111")] == [1, 2, 3]
        assert store.page("aaaa1111", 9) is None
        chunk = store.chunks(["aaaa1111-1"])[0]
        assert chunk == chunks_a[0]

    @pytest.mark.parametrize("term", ["1577", "8.70", "fy2018", "10k", "pp&e"])
    def test_figures_and_forms_are_matchable(self, store, two_documents, term):
        hits = store.lexical_search([term], [], SearchFilters(document_ids=("aaaa1111",)), 5)
        assert hits, term
        assert all(cid.startswith("aaaa1111") for cid, _ in hits)

    def test_phrase_outranks_scattered_words(self, store, two_documents):
        hits = store.lexical_search(["property"], ["purchases of property plant and equipment"],
                                    SearchFilters(document_ids=("aaaa1111",)), 5)
        assert hits[0][0] == "aaaa1111-1"
        assert hits[0][1] > hits[-1][1] or len(hits) == 1

    @pytest.mark.parametrize("filters, expected", [
        (SearchFilters(companies=("Adobe Inc.",)), {"bbbb2222-2"}),
        (SearchFilters(years=(2018,)), {"aaaa1111-1"}),
        (SearchFilters(doc_types=(DocType.QUARTERLY,)), {"bbbb2222-2"}),
        (SearchFilters(document_ids=("aaaa1111",)), {"aaaa1111-1"}),
        (SearchFilters(), {"aaaa1111-1", "bbbb2222-2"}),
    ])
    def test_filters(self, store, two_documents, filters, expected):
        lexical = {cid for cid, _ in store.lexical_search(["1577"], [], filters, 10)}
        assert lexical == expected
        vec = EMBEDDER.embed([CASH_FLOW])[0]
        dense = [cid for cid, _ in store.vector_search(vec, filters, 10)]
        assert expected <= set(dense)
        assert set(dense) <= {c for c in dense if any(c.startswith(e.split("-")[0]) for e in expected)}

    def test_vector_search_ranks_nearest_first(self, store, two_documents):
        vec = EMBEDDER.embed([BALANCE])[0]
        ranked = store.vector_search(vec, SearchFilters(), 3)
        assert ranked[0][0] == "aaaa1111-2"
        assert ranked[0][1] >= ranked[1][1]

    def test_re_adding_replaces_without_duplicates(self, store, two_documents):
        a, _ = two_documents
        store.add_document(*a)
        assert len(store.documents()) == 2
        hits = store.lexical_search(["1577"], [], SearchFilters(document_ids=("aaaa1111",)), 10)
        assert len(hits) == 1

    def test_delete_removes_everything(self, store, two_documents):
        assert store.delete_document("aaaa1111") is True
        assert store.delete_document("aaaa1111") is False
        assert [d.id for d in store.documents()] == ["bbbb2222"]
        assert store.page("aaaa1111", 1) is None
        assert all(not c.startswith("aaaa") for c, _ in store.lexical_search(["1577"], [], SearchFilters(), 10))
        vec = EMBEDDER.embed([CASH_FLOW])[0]
        assert all(not c.startswith("aaaa") for c, _ in store.vector_search(vec, SearchFilters(), 10))

    def test_failed_write_leaves_nothing_behind(self, store):
        document, pages, chunks, vectors = make_document("cccc3333", "X Corp", 2020, DocType.ANNUAL, [PROSE, CASH_FLOW])
        broken = [chunks[0], chunks[0]]  # duplicate chunk id violates uniqueness mid-transaction
        with pytest.raises(Exception):
            store.add_document(document, pages, broken, np.vstack([vectors[0], vectors[0]]))
        assert store.documents() == []
        assert store.page("cccc3333", 1) is None
        assert store.lexical_search(["adhesives"], [], SearchFilters(), 5) == []

    def test_embedder_identity_is_enforced(self, store):
        store.bind_embedder("model-a")
        store.bind_embedder("model-a")
        assert store.embedder_identity() == "model-a"
        with pytest.raises(EmbedderMismatch, match="model-a"):
            store.bind_embedder("model-b")

    def test_statement_tables_round_trip_typed(self, store):
        document, pages, chunks, vectors = make_document("eeee5555", "3M Company", 2018, DocType.ANNUAL,
                                                         [CASH_FLOW, PROSE])
        table = cash_flow_table()
        pages[0] = pages[0].model_copy(update={"tables": (table,)})
        pages[1] = pages[1].model_copy(update={"tables": (table,)}).packed()  # as an ingest worker sends it
        store.add_document(document, pages, chunks, vectors)
        first, second = store.pages("eeee5555")
        assert tuple(first.tables) == (table,) and tuple(second.tables) == (table,)
        assert isinstance(first.tables[0], StatementTable) and first.tables[0].rows[0].cells[0].fact.scale == 6
        assert tables_as_json(first.tables) == [table.model_dump(mode="json")]
        store.add_document(document, [p.model_copy(update={"tables": ()}) for p in pages], chunks, vectors)
        assert not store.page("eeee5555", 1).tables and list(store.page("eeee5555", 1).tables) == []

    def test_lexical_only_documents(self, store):
        document, pages, chunks, _ = make_document("dddd4444", "Y Inc.", 2021, DocType.ANNUAL, [PROSE])
        store.add_document(document, pages, chunks, None)
        assert store.lexical_search(["adhesives"], [], SearchFilters(), 5)[0][0] == "dddd4444-1"
        assert store.vector_search(EMBEDDER.embed([PROSE])[0], SearchFilters(), 5) == []
        assert store.document("dddd4444").embedded is False


# --- service state: background ingest jobs and the question log ---------------------------------

from docqa.types import Answer, Citation, Figure, Job, QuestionRecord  # noqa: E402


def make_job(job_id: str, created_at: str, **changes) -> Job:
    return Job(id=job_id, file_name=f"{job_id} report.pdf", stored_path=f"/srv/uploads/{job_id}.pdf",
               sha256=job_id * 8, created_at=created_at, updated_at=created_at, **changes)


def make_record(answer_id: str, created_at: str, question: str = "What was 3M's FY2018 capex?") -> QuestionRecord:
    answer = Answer(
        id=answer_id, question=question, text="$1,577 million", found=True, answerer="figures",
        verification="verified", formula="capex = purchases of PP&E",
        citations=(Citation(document="3M_2018_10K.pdf", document_id="aaaa1111", page=60,
                            quote="Purchases of property, plant and equipment (PP&E)  (1,577)",
                            boxes=((10.0, 20.0, 300.0, 28.0),)),),
        figures=(Figure(name="capital expenditure", value=1577.0, text="(1,577)", unit="USD", scale=1e6,
                        period="2018", document="3M_2018_10K.pdf", page=60, bbox=(250.0, 20.0, 300.0, 28.0)),),
        timings={"total_ms": 12.5},
    )
    return QuestionRecord(answer=answer, filters={"company": "3M", "year": 2018, "document": None},
                          created_at=created_at)


class ServiceStateBattery:
    def test_no_jobs_or_questions_yet(self, store):
        assert store.jobs() == []
        assert store.job("nope") is None
        assert store.delete_job("nope") is False
        assert store.questions() == []
        assert store.question("nope") is None
        assert store.add_feedback("nope", True) is False

    def test_job_round_trip_and_replace(self, store):
        job = make_job("job1", "2025-01-01T10:00:00Z")
        store.put_job(job)
        assert store.job("job1") == job
        done = job.model_copy(update={"status": "failed", "pages_done": 3, "pages_total": 9, "attempts": 2,
                                      "reason": "password-protected PDF", "updated_at": "2025-01-01T10:05:00Z"})
        store.put_job(done)
        assert store.job("job1") == done
        assert store.jobs() == [done]  # replaced, not added

    def test_jobs_oldest_first_and_delete(self, store):
        late = make_job("late", "2025-01-02T00:00:00Z")
        early = make_job("early", "2025-01-01T00:00:00Z")
        middle = make_job("middle", "2025-01-01T12:00:00Z", status="processing", document_id="dddd")
        for job in (late, early, middle):
            store.put_job(job)
        assert [j.id for j in store.jobs()] == ["early", "middle", "late"]
        store.put_job(early.model_copy(update={"status": "ready", "updated_at": "2025-01-03T00:00:00Z"}))
        assert [j.id for j in store.jobs()] == ["early", "middle", "late"]  # updating keeps its place
        assert store.delete_job("middle") is True
        assert store.delete_job("middle") is False
        assert [j.id for j in store.jobs()] == ["early", "late"]

    def test_question_round_trip(self, store):
        record = make_record("ans1", "2025-01-01T10:00:00Z")
        store.log_question(record)
        got = store.question("ans1")
        assert got == record
        assert got.answer.citations[0].boxes == ((10.0, 20.0, 300.0, 28.0),)
        assert got.answer.figures[0].scale == 1e6 and got.filters["year"] == 2018

    def test_questions_newest_first_with_limit(self, store):
        for i, stamp in enumerate(["2025-01-01T10:00:00Z", "2025-01-03T10:00:00Z", "2025-01-02T10:00:00Z"]):
            store.log_question(make_record(f"ans{i}", stamp, question=f"question {i}"))
        assert [r.answer.id for r in store.questions()] == ["ans1", "ans2", "ans0"]
        assert [r.answer.id for r in store.questions(limit=2)] == ["ans1", "ans2"]

    def test_feedback(self, store):
        store.log_question(make_record("ans1", "2025-01-01T10:00:00Z"))
        assert store.question("ans1").helpful is None
        assert store.add_feedback("ans1", False, "wrong year") is True
        got = store.question("ans1")
        assert got.helpful is False and got.note == "wrong year"
        assert store.add_feedback("ans1", True) is True  # the latest word wins
        got = store.question("ans1")
        assert got.helpful is True and got.note is None
        assert got.answer.text == "$1,577 million"  # feedback leaves the answer alone

    def test_service_state_survives_document_changes(self, store, two_documents):
        store.put_job(make_job("aaaa1111", "2025-01-01T00:00:00Z", status="ready", document_id="aaaa1111"))
        store.log_question(make_record("ans1", "2025-01-01T10:00:00Z"))
        store.delete_document("aaaa1111")
        assert store.job("aaaa1111") is not None  # the web app decides what a deleted document's job becomes
        assert store.question("ans1") is not None  # the log keeps history of deleted documents

    def test_delete_questions_one_several_or_all(self, store):
        for i, stamp in enumerate(["2025-01-01T10:00:00Z", "2025-01-02T10:00:00Z", "2025-01-03T10:00:00Z",
                                   "2025-01-04T10:00:00Z"]):
            store.log_question(make_record(f"ans{i}", stamp, question=f"question {i}"))
        store.add_feedback("ans1", True)
        assert store.delete_questions(["ans1"]) == 1
        assert store.question("ans1") is None and store.add_feedback("ans1", False) is False
        assert store.delete_questions(["ans1", "nope"]) == 0  # gone already, or never there: nothing counted
        assert store.delete_questions([]) == 0
        assert [r.answer.id for r in store.questions()] == ["ans3", "ans2", "ans0"]
        # a name given twice is one question deleted, once
        assert store.delete_questions(["ans2", "ans2", "ans0"]) == 2
        assert [r.answer.id for r in store.questions()] == ["ans3"]
        store.log_question(make_record("ans5", "2025-01-05T10:00:00Z"))
        assert store.delete_questions(None) == 2
        assert store.questions() == [] and store.question("ans3") is None
        assert store.delete_questions(None) == 0
        store.log_question(make_record("ans6", "2025-01-06T10:00:00Z"))  # the log takes new questions after a clear
        assert [r.answer.id for r in store.questions()] == ["ans6"]
