"""`docqa ingest` says what is wrong with a bad file as the web upload does: what it is first (empty,
not a PDF), a looping page tree by name, never "looks truncated" for a file that is no PDF at all."""

from __future__ import annotations

import os

import pytest

from docqa.engine import Engine
from tests.hostile.test_upload_messages import CYCLIC


@pytest.mark.parametrize("name, data, says, never", [
    ("empty.pdf", b"", "empty", "truncated"),
    ("noise.pdf", os.urandom(4096), "not a PDF", "truncated"),
    ("loop.pdf", CYCLIC, "page tree is broken", "OCR read nothing"),
])
def test_a_bad_file_is_said_to_be_what_it_is(tmp_path, name, data, says, never):
    path = tmp_path / name
    path.write_bytes(data)
    good = tmp_path / "also.pdf"
    import fitz

    doc = fitz.open()
    doc.new_page().insert_text((72, 72), "Example Corporation annual report 2023 revenue 1,234", fontsize=11)
    doc.save(good)
    report = Engine.open(tmp_path / "idx").ingest([path, good])
    bad, ok = report.files
    assert bad.status == "failed" and says in bad.reason and never not in bad.reason, bad.reason
    assert ok.status == "indexed"  # the rest of the batch goes on
