"""The layer rules as a test: import-linter's contracts in .importlinter (faces -> engine -> answer ->
search -> plan -> ingest -> store -> finance; nothing points back up)."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_hold(capsys):
    cli = pytest.importorskip("importlinter.cli", reason="import-linter comes with the dev extra")
    here = os.getcwd()
    # import-linter configures logging and so disables every logger that exists already: the tests
    # after this one that read docqa's warnings would see none
    loggers = {name: (lg.disabled, lg.level) for name, lg in logging.root.manager.loggerDict.items()
               if isinstance(lg, logging.Logger)}
    root_handlers, root_level = list(logging.root.handlers), logging.root.level
    os.chdir(ROOT)
    try:
        exit_code = cli.lint_imports(config_filename=str(ROOT / ".importlinter"))
    finally:
        os.chdir(here)
        for name, (disabled, level) in loggers.items():
            logger = logging.getLogger(name)
            logger.disabled, logger.level = disabled, level
        logging.root.handlers[:], logging.root.level = root_handlers, root_level
    assert exit_code == 0, capsys.readouterr().out[-4000:]
