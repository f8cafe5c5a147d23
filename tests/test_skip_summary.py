"""The run's closing list of skipped groups: what did not run and the one command that installs it."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from tests.conftest import ROOT, skip_group


def test_each_service_reason_lands_in_its_group():
    assert skip_group("PostgreSQL + pgvector (no PostgreSQL server binaries with pgvector) not available here")[0] \
        == "PostgreSQL + pgvector"
    assert skip_group("tesseract-ocr not available here") == ("OCR (tesseract)", "make test-deps")
    assert skip_group("chromium (/usr/bin/chromium) not available here")[1] == "make test-deps"
    assert skip_group("the MCP Inspector CLI not available here")[0] == "MCP Inspector (npm)"
    assert skip_group("/x/shared/data/pdfs/3M_2018_10K.pdf not available on this machine")[0].startswith("shared data")
    assert skip_group("needs /proc (Linux) to read the peak RSS") == ("other (needs /proc (Linux) to read the peak RSS)", "")


def test_a_run_ends_with_the_groups_and_the_install_command(tmp_path):
    (tmp_path / "test_some.py").write_text(textwrap.dedent("""
        import pytest

        def test_runs():
            assert True

        @pytest.mark.parametrize("n", [1, 2])
        def test_needs_postgres(n):
            pytest.skip("PostgreSQL + pgvector (no server) not available here")

        def test_needs_ocr():
            pytest.skip("tesseract-ocr not available here")
    """))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "tests.conftest", "-p", "no:cacheprovider",
         "--rootdir", str(tmp_path), str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    tail = done.stdout[done.stdout.index("skipped groups"):]
    assert "   2  PostgreSQL + pgvector: make test-deps" in tail
    assert "   1  OCR (tesseract): make test-deps" in tail
    assert "Install the rest (root; apt + npm): make test-deps" in tail
