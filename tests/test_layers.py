"""The layer rules as a test: import-linter's contracts in .importlinter (faces -> engine -> answer ->
search -> plan -> ingest -> finance/store; nothing points back up)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_hold(capsys):
    cli = pytest.importorskip("importlinter.cli", reason="import-linter comes with the dev extra")
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        exit_code = cli.lint_imports(config_filename=str(ROOT / ".importlinter"))
    finally:
        os.chdir(here)
    assert exit_code == 0, capsys.readouterr().out[-4000:]
