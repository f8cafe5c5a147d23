"""The parse's cheaper paths build exactly what the plain ones did (issue 13: same index, faster).

Each fast path is checked against the straightforward code it replaced, on the words and pages of
a real filing: row grouping, the models assembled without validation, chunk regions, and the
garbage collector pause around a document build.
"""

from __future__ import annotations

import gc
import pickle
from statistics import median

import fitz
import pytest

from docqa.ingest import chunk, parse
from docqa.ingest.pipeline import gc_paused
from docqa.types import Line, Page, Word
from tests.conftest import SAMPLES

PDF = SAMPLES / "AMAZON_2017_10K.pdf"


@pytest.fixture(scope="module")
def page_words():
    doc = fitz.open(PDF)
    try:
        return [parse._clean_words(doc[i].get_text("words", sort=False)) for i in range(doc.page_count)]
    finally:
        doc.close()


@pytest.fixture(scope="module")
def amazon():
    return parse.parse_pdf(PDF)


def _rows_reference(words):
    """The row grouping as first written: a key function per word, rows re-measured as they grow."""
    if not words:
        return []
    tolerance = max(1.5, 0.45 * median([w[3] - w[1] for w in words]))
    rows, centre = [], None
    for word in sorted(words, key=lambda w: ((w[1] + w[3]) / 2, w[0])):
        c = (word[1] + word[3]) / 2
        if rows and centre is not None and abs(c - centre) <= tolerance:
            row = rows[-1]
            row.append(word)
            centre = (centre * (len(row) - 1) + c) / len(row)
        else:
            rows.append([word])
            centre = c
    return [sorted(r, key=lambda w: w[0]) for r in rows]


def test_rows_are_grouped_as_the_reference_does_on_every_page(page_words):
    assert sum(map(len, page_words)) > 10_000
    for words in page_words:
        assert parse._rows(words) == _rows_reference(words)


def test_rows_keep_input_order_for_words_at_the_same_place():
    a, b, c = (10.0, 0.0, 20.0, 10.0, "a"), (10.0, 0.0, 20.0, 10.0, "b"), (5.0, 0.5, 8.0, 9.5, "c")
    assert parse._rows([a, b, c]) == _rows_reference([a, b, c]) == [[c, a, b]]
    assert parse._rows([b, a, c]) == [[c, b, a]]


def test_lines_and_words_built_without_validation_equal_validated_ones(amazon):
    lines = [line for page in amazon.pages for line in page.lines]
    assert len(lines) > 1000
    for line in lines[::7]:
        again = Line.model_validate(line.model_dump())
        assert again == line and hash(again) == hash(line)
        assert again.model_fields_set == line.model_fields_set
        assert all(type(w) is Word and type(w.bbox) is tuple and type(w.text) is str for w in line.words)
        assert line.model_dump_json() == again.model_dump_json()
    line = lines[100]
    assert pickle.loads(pickle.dumps(line)) == line
    assert line.model_copy(update={"text": "x"}).text == "x" and line.text != "x"
    with pytest.raises(Exception):  # frozen like a validated instance
        line.words[0].text = "changed"


def _regions_reference(page: Page, max_words: int):
    """Chunk regions as first written: every region's words recounted for every line that joins it."""
    mask = chunk.table_mask(page.lines)
    regions = []
    for line, is_table in zip(page.lines, mask):
        kind = "table" if is_table else "text"
        if regions and regions[-1][0] == kind:
            current = regions[-1][1]
            if kind == "text" and sum(len(l.text.split()) for l in current) >= max_words:
                regions.append((kind, [line]))
            else:
                current.append(line)
        else:
            regions.append((kind, [line]))
    merged = []
    for kind, lines in regions:
        if kind == "table" and len(lines) < 3:
            kind = "text"
        if merged and merged[-1][0] == kind == "text" and chunk._words(merged[-1][1]) + chunk._words(lines) <= max_words:
            merged[-1][1].extend(lines)
        else:
            merged.append((kind, list(lines)))
    return merged


@pytest.mark.parametrize("max_words", [40, 250])
def test_chunk_regions_are_those_of_the_reference(amazon, max_words):
    kinds = set()
    for page in amazon.pages:
        got = chunk._regions(page, max_words)
        assert got == _regions_reference(page, max_words)
        kinds.update(k for k, _ in got)
    assert kinds == {"text", "table"}


@pytest.mark.parametrize("words", [
    ["Net", "sales", "(1,577)", "—", "$", "......", "“Group’s”", "U.S.", "½", "x_y", "__", "2017."] * 3,
    "=F97HCFG 5B8 C: H<9 CFDCF5H9 7CAACB GHC7? IB89F@M=B; 5K5F8G K=@@ 5779@9F5H9 CF 8=F97HCF".split(),
])
def test_garbled_check_takes_the_same_tokens_as_the_regex_alone(words):
    fast = [t if t.isalnum() else t.strip(parse._STRIP) for t in words if t.isalnum() or parse._ALNUM.search(t)]
    assert fast == [t.strip(parse._STRIP) for t in words if parse._ALNUM.search(t)]


def test_the_collector_is_paused_for_a_build_and_back_on_after_it_even_on_error():
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():  # nested: the inner one leaves it off
            pass
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError):
        with gc_paused():
            raise ValueError("a file that fails to build")
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()  # off before: left off
    finally:
        gc.enable()
