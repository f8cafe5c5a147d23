"""A filing whose text holds terminal control sequences (ESC [..m recolours, ESC ]52 writes the
clipboard, a C1 CSI clears the screen, CR and backspace overwrite what was printed) or rich markup
("[link=...]" would become a terminal hyperlink, "[/b]" broke the output): the CLI prints its text as
text, in a pipe and on a terminal, for search, ask, docs and stats, and as valid JSON with --json."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import fitz
import pytest
from typer.testing import CliRunner

from docqa.faces.cli import app as cli
from docqa.faces.commands.output import printable

ESC_RED = "\x1b[38;5;196m"         # a colour rich itself never prints for this CLI
CLIPBOARD = "\x1b]52;c;aGVsbG8=\x07"  # OSC 52: write "hello" to the user's clipboard
CLEAR = "\x9b2J"                   # C1 CSI: clear the screen
HOSTILE = (f"Net sales were {ESC_RED}$1,234 million{CLEAR}\x1b[0m in 2023 {CLIPBOARD}"
           "compared with $1,100 million in 2022.\r\x08 See [link=https://evil.example]our site[/link] [/b]")
CONTROL = ["\x1b", "\x9b", "\x07", "\r", "\x08"]


def make_filing(path: Path) -> Path:
    doc = fitz.open()
    cover = doc.new_page()
    cover.insert_text((72, 90), f"ACME{ESC_RED} Corporation", fontsize=14)
    cover.insert_text((72, 120), "Annual Report on Form 10-K for the fiscal year ended December 31, 2023", fontsize=11)
    body = doc.new_page()
    body.insert_text((72, 90), "Item 7. Management's Discussion and Analysis", fontsize=12)
    body.insert_text((72, 120), HOSTILE, fontsize=8)
    body.insert_text((72, 140), "Net sales increased because of higher volumes.", fontsize=10)
    doc.save(path)
    return path


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("escapes")
    pdf = make_filing(folder / f"acme{ESC_RED}-10k.pdf")  # a file name can hold them too
    index = folder / "index"
    result = run("ingest", str(pdf), "--index", str(index))
    assert result.exit_code == 0, result.output
    assert not [c for c in CONTROL if c in result.stdout + result.stderr], result.output
    return index


@pytest.fixture(scope="module")
def document(index) -> str:
    return json.loads(run("docs", "--json", "--index", str(index)).stdout)[0]["id"]


def run(*args: str):
    return CliRunner().invoke(cli, list(args), prog_name="docqa", env={"DOCQA_DENSE": "false"})


COMMANDS = [
    ["search", "net sales 2023"],
    ["ask", "What were net sales in 2023?", "--document", "{document}"],  # quotes the hostile line
    ["docs"],
    ["stats", "{document}", "--term", "net sales"],
]


def command(args: list[str], document: str) -> list[str]:
    return [a.replace("{document}", document) for a in args]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
def test_no_control_character_reaches_a_pipe(index, document, args):
    result = run(*command(args, document), "--index", str(index))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    found = [repr(c) for c in CONTROL if c in result.stdout + result.stderr]
    assert not found, (found, result.output)


def test_the_filing_text_is_still_printed(index):
    out = run("search", "net sales 2023", "--index", str(index)).stdout
    assert "$1,234 million" in out and "2J" in out  # the sequences' harmless rest is shown as text
    assert "[link=https://evil.example]our site[/link] [/b]" in out  # markup in a filing is text too


def test_the_answer_quotes_the_line(index, document):
    out = run(*command(COMMANDS[1], document), "--index", str(index)).stdout
    assert "verified" in out.lower() and "$1,234 million" in out, out


@pytest.mark.parametrize("args", [*COMMANDS, ["ingest"]], ids=lambda a: a[0])
def test_json_output_escapes_them(index, document, args):
    if args[0] == "ingest":  # the same file again: skipped, its name still in the report
        args = ["ingest", str(next(index.parent.glob("*.pdf")))]
    result = run(*command(args, document), "--json", "--index", str(index))
    assert not [c for c in CONTROL if c in result.stdout]
    assert json.loads(result.stdout)  # still JSON, the characters as \u escapes


def test_on_a_terminal_only_the_cli_styles_its_text(index):
    """On a terminal rich styles the CLI's own words with escape sequences; none of the filing's get through."""
    leader, follower = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "200", "DOCQA_DENSE": "false"}
    env.pop("NO_COLOR", None)
    process = subprocess.Popen([sys.executable, "-m", "docqa.faces.cli", "search", "net sales 2023", "--index",
                                str(index)], stdout=follower, stderr=follower, stdin=subprocess.DEVNULL, env=env)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the process closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert process.wait(timeout=120) == 0
    out = b"".join(chunks).decode("utf-8", "replace")
    assert "\x1b[" in out  # it is a terminal: rich styled something (else this test proves nothing)
    for sequence in (ESC_RED, "\x1b]52", "\x1b]8;", "\x9b"):
        assert sequence not in out, (sequence, out)
    assert "$1,234 million" in out


@pytest.mark.parametrize("text, plain, as_json", [
    ("a\x1b[31mb\x1b[0m\tc\nd\re\x07\x08\x9b2J\x00", "a[31mb[0m\tc\nde2J", "a\\u001b[31mb\\u001b[0m\tc\nd\\u000de\\u0007\\u0008\\u009b2J\\u0000"),
    ("plain text, € and 日本", "plain text, € and 日本", "plain text, € and 日本"),
])
def test_printable(text, plain, as_json):
    assert printable(text) == plain
    assert printable(text, as_json=True) == as_json
