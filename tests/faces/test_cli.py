"""The CLI for people and scripts: one-line user errors with their exit codes, no index made by a
typo, plain unwrapped output in a pipe, plain words on the answer line, ingest's exit codes.

In process through typer's CliRunner (not a terminal, like a pipe), and once as a real process whose
stdout is a pipe.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import fitz
import pytest
from typer.testing import CliRunner

from docqa.faces.cli import app as cli
from docqa.faces.commands.errors import EXIT_ERROR, EXIT_INPUT, EXIT_NOT_FOUND, EXIT_SOME_FAILED

AMAZON = "AMAZON_2017_10K.pdf"
CAPEX = "What is Amazon's FY2017 capital expenditure in USD millions?"
CAPEX_ROW = "Purchases of property and equipment, including internal-use software and website development  (5,387)  (7,804)  (11,955)"


@pytest.fixture(scope="module")
def index(lexical_engine) -> str:
    return str(lexical_engine.settings.index)


def run(*args: str):
    return CliRunner().invoke(cli, list(args), prog_name="docqa")


def one_error_line(result) -> str:
    """The error a user sees: exactly one line on stderr, no traceback."""
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.output and "─" not in result.output
    return lines[0]


@pytest.mark.parametrize("args, says", [
    (["ask", "What was revenue?", "--document", "NOPE.pdf"], ["unknown document 'NOPE.pdf'", AMAZON]),
    (["stats", "AMAZN_2017"], ["unknown document 'AMAZN_2017'", AMAZON, "docqa docs"]),
    (["show", AMAZON, "0"], ["has pages 1-85; page 0 does not exist", "1-based"]),
    (["show", AMAZON, "86"], ["has pages 1-85; page 86 does not exist"]),
    (["search", "revenue", "--k", "0"], ["--k", "0 is not in the range", "docqa search --help"]),
    (["search", "revenue", "--mode", "fuzzy"], ["mode must be hybrid, lexical or vector, not 'fuzzy'"]),
    (["search", "  "], ["query must be a non-empty string"]),
    (["ask", ""], ["question must be a non-empty string"]),
])
def test_user_errors_are_one_line_and_exit_2(index, tmp_path, args, says):
    extra = ["--out", str(tmp_path / "page.png")] if args[0] == "show" else []
    result = run(*args, *extra, "--index", index)
    assert result.exit_code == EXIT_INPUT, result.output
    line = one_error_line(result)
    assert line.startswith("error ")
    for part in says:
        assert part in line, line
    assert not (tmp_path / "page.png").exists()


def test_a_misspelt_command_suggests_once():
    result = run("aks", "What was revenue?")
    assert result.exit_code == EXIT_INPUT
    line = one_error_line(result)
    assert "No such command 'aks'" in line and line.count("Did you mean") == 1 and "'ask'" in line


def test_debug_keeps_the_traceback(index):
    from docqa.store import DocumentNotFound

    result = run("--debug", "stats", "NOPE", "--index", index)
    assert result.exit_code != 0 and isinstance(result.exception, DocumentNotFound)


@pytest.mark.parametrize("args", [["ask", "What was revenue?"], ["search", "revenue"], ["docs"],
                                  ["show", AMAZON, "1"], ["stats", AMAZON], ["export-log"], ["mcp"],
                                  ["eval", "answers", "--questions", "q.jsonl"],
                                  ["eval", "retrieval", "--questions", "q.jsonl"]])
def test_read_commands_refuse_an_index_that_does_not_exist(tmp_path, args):
    missing = tmp_path / "idnex"
    result = CliRunner().invoke(cli, [*args, "--index", str(missing)], catch_exceptions=False)
    assert result.exit_code == EXIT_INPUT, result.output
    line = one_error_line(result)
    assert f"no index at {missing}" in line and f"docqa ingest FILES --index {missing}" in line
    assert not missing.exists()  # nothing was created


def test_ask_answer_line_uses_plain_words_and_keeps_quotes_whole(index):
    result = run("ask", CAPEX, "--index", index)
    assert result.exit_code == 0, result.output
    first, *rest = result.stdout.splitlines()
    assert first.startswith("Verified · read from the statements · ") and first.endswith(" ms")
    assert not {"figures", "extractive", "router"} & set(first.replace("·", " ").split())
    assert any(CAPEX_ROW in line for line in rest), result.stdout  # one line, however long


def test_ask_not_found_exits_4_with_the_reason(index):
    result = run("ask", "What was Amazon's total net sales?", "--year", "1999", "--index", index)
    assert result.exit_code == EXIT_NOT_FOUND, result.output
    first = result.stdout.splitlines()[0]
    assert first.startswith("Not found · ") and "router" not in first
    assert "why:" in result.stdout


def test_docs_shows_whole_file_names_plainly(index):
    result = run("docs", "--index", index)
    assert result.exit_code == 0, result.output
    names = {line.split()[0] for line in result.stdout.splitlines()[1:] if line.strip()}
    assert names == {"ADOBE_2022_10K.pdf", AMAZON, "NETFLIX_2017_10K.pdf"}
    assert not set("┏┃│└━─…") & set(result.stdout)  # no box drawing or ellipsis in a pipe


def test_piped_output_of_a_real_process_is_not_wrapped(index):
    """The shell case: `docqa ask ... | cat` and `docqa search ... | grep`."""
    done = subprocess.run([sys.executable, "-m", "docqa", "ask", CAPEX, "--index", index],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert any(CAPEX_ROW in line for line in done.stdout.splitlines()), done.stdout
    searched = subprocess.run([sys.executable, "-m", "docqa", "search", "capital expenditure", "--k", "3",
                               "--index", index], capture_output=True, text=True, timeout=300)
    snippets = [line for line in searched.stdout.splitlines() if line.startswith("    ")]
    assert snippets and max(len(line) for line in snippets) > 100  # a 220-character snippet stays on one line
    failed = subprocess.run([sys.executable, "-m", "docqa", "show", AMAZON, "0", "--index", index],
                            capture_output=True, text=True, timeout=300)
    assert failed.returncode == EXIT_INPUT and "Traceback" not in failed.stderr
    assert failed.stderr.strip().splitlines() == [
        "error AMAZON_2017_10K.pdf has pages 1-85; page 0 does not exist (pages are 1-based physical pages of the PDF)"]


def _tiny_pdf(path: Path) -> Path:
    doc = fitz.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Acme Widgets Inc. Annual Report 2020", fontsize=14)
    page.insert_text((72, 100), "Total revenue was $1,234 million in fiscal 2020.", fontsize=11)
    doc.save(path)
    return path


def test_ingest_exit_codes_say_how_many_files_failed(tmp_path, bad_files):
    good = _tiny_pdf(tmp_path / "acme-2020.pdf")
    bad = [str(bad_files["not_pdf"]), str(bad_files["corrupt"])]

    some = run("ingest", str(good), *bad, "--index", str(tmp_path / "index"), "--no-dense")
    assert some.exit_code == EXIT_SOME_FAILED, some.output
    assert "2 of 3 file(s) failed" in some.stderr
    assert "1 indexed, 0 unchanged, 2 failed" in some.stdout
    # Into a pipe there is no bar: a line as each file's pages are read.
    assert "[1] read acme-2020.pdf: " in some.stderr

    every = run("ingest", *bad, "--index", str(tmp_path / "other"), "--no-dense")
    assert every.exit_code == EXIT_ERROR, every.output
    assert "all 2 file(s) failed" in every.stderr


def test_a_missing_questions_file_is_one_line(index, tmp_path):
    missing = tmp_path / "questions.jsonl"
    result = run("eval", "answers", "--questions", str(missing), "--index", index, "--runs-dir", str(tmp_path))
    assert result.exit_code == EXIT_INPUT, result.output
    assert one_error_line(result) == f"error {missing}: No such file or directory"


@pytest.mark.parametrize("args, key", [
    (["search", "capital expenditure", "--k", "2"], "hits"),
    (["docs"], None),
    (["ask", CAPEX], "citations"),
    (["stats", AMAZON, "--term", "net sales"], "count"),
    (["show", AMAZON, "38", "--quote", "Total net sales"], "boxes"),
    (["export-log"], "questions"),
])
def test_every_read_command_speaks_json(index, tmp_path, args, key):
    import json

    out = ["--out", str(tmp_path / ("page.png" if args[0] == "show" else "log.jsonl"))] \
        if args[0] in ("show", "export-log") else []
    result = run(*args, *out, "--json", "--index", index)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)  # the whole of stdout is one JSON document
    if key is None:
        assert {d["file_name"] for d in data} == {"ADOBE_2022_10K.pdf", AMAZON, "NETFLIX_2017_10K.pdf"}
    else:
        assert data[key], data
    if args[0] == "show":
        assert data["boxed"] == "quote" and (tmp_path / "page.png").stat().st_size == data["bytes"]


def test_question_logging_is_a_setting_and_says_it_came_from_the_cli(index, lexical_engine):
    question = "What was Netflix's FY2017 total revenue?"

    def logged() -> list:
        return [r for r in lexical_engine.store.questions(10_000) if r.answer.question == question]

    result = CliRunner().invoke(cli, ["ask", question, "--index", index], env={"DOCQA_CLI_LOG_QUESTIONS": "false"})
    assert result.exit_code == 0, result.output
    assert logged() == []
    result = run("ask", question, "--index", index)
    assert result.exit_code == 0, result.output
    [record] = logged()
    assert record.filters == {"origin": "cli"}
