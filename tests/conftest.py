"""Shared fixtures: real filings from samples/ (always in the repo) and ../shared/data (when present)."""

from __future__ import annotations

from pathlib import Path

import fitz
import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
SHARED_PDFS = ROOT.parent / "shared" / "data" / "pdfs"
SHARED_QUESTIONS = ROOT.parent / "shared" / "data" / "questions" / "financebench.jsonl"


def shared_pdf(name: str) -> Path:
    path = SHARED_PDFS / name
    if not path.exists():
        pytest.skip(f"{path} not available on this machine")
    return path


@pytest.fixture(scope="session")
def sample_pdfs() -> list[Path]:
    return sorted(SAMPLES.glob("*.pdf"))


@pytest.fixture(scope="session")
def lexical_engine(tmp_path_factory, sample_pdfs):
    """An index of the bundled samples without embeddings: fast, for tests of everything but dense."""
    from docqa import Engine

    engine = Engine.open(tmp_path_factory.mktemp("lexical-index"), dense=False)
    engine.ingest(sample_pdfs)
    yield engine
    engine.close()


@pytest.fixture(scope="session")
def bad_files(tmp_path_factory) -> dict[str, Path]:
    """One file of each kind of bad input, made from real bytes."""
    folder = tmp_path_factory.mktemp("bad")
    real = (SAMPLES / "NETFLIX_2017_10K.pdf").read_bytes()
    files = {
        "not_pdf": folder / "notes.pdf",
        "corrupt": folder / "corrupt.pdf",
        "encrypted": folder / "locked.pdf",
        "empty": folder / "empty.pdf",
        "zero_pages": folder / "zero-pages.pdf",
    }
    files["not_pdf"].write_text("Quarterly notes, not a PDF at all.\n" * 20)
    files["corrupt"].write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 40)
    files["empty"].write_bytes(b"")
    with fitz.open(stream=real, filetype="pdf") as doc:
        doc.select([0, 1])
        doc.save(files["encrypted"], encryption=fitz.PDF_ENCRYPT_AES_256, user_pw="secret", owner_pw="owner")
    files["zero_pages"].write_bytes(
        b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n"
        b"trailer<</Root 1 0 R>>\n%%EOF\n"
    )
    return files


def require(available: bool, what: str) -> None:
    """Skip when a system service is missing on a developer's machine; in CI (DOCQA_CI=1) fail."""
    import os

    if available:
        return
    if os.environ.get("DOCQA_CI") == "1":
        pytest.fail(f"{what} is required in CI (.ci/setup.d should have installed it)")
    pytest.skip(f"{what} not available here")


def scanned_copy(tmp_path: Path, dpi: int = 150) -> Path:
    """The Netflix 10-K's cover page as an image-only PDF: what a scanner produces."""
    src = fitz.open(SAMPLES / "NETFLIX_2017_10K.pdf")
    pix = src[0].get_pixmap(dpi=dpi)
    scan = fitz.open()
    page = scan.new_page(width=612, height=792)
    page.insert_image(page.rect, pixmap=pix)
    path = tmp_path / "scanned-cover.pdf"
    scan.save(path)
    return path
