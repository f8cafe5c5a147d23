"""The product's text speaks to its users.

README.md, docs/*.md and the source (comments and strings included) must not name the developers'
work log ("session 13", "issue 13", "this round") or paths that exist only beside the developers'
checkout (`../shared/...`, `/work/...`): a user cannot know either. The README stays a README: at
most 1,500 words, counted as `wc -w` counts them.

Words that are fine and must not match: "an MCP session", "HTTP session", `Mcp-Session-Id`,
"ClientSession", "a GitHub issue", "the issuer", "round to two decimals", "stopped 15 s".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README_MAX_WORDS = 1500

# Each pattern names a kind of word; the test reports every hit with its file and line.
FORBIDDEN: dict[str, re.Pattern[str]] = {
    "a numbered session": re.compile(r"\bsessions?\s+#?\d+", re.I),
    "a numbered issue": re.compile(r"\bissues?\s+#?\d+\b(?!\s*(?:shares|million|billion|notes))", re.I),
    "a numbered stop": re.compile(r"\bstops?\s+#?\d+\b(?!\s*(?:s\b|ms\b|seconds?|min))", re.I),
    "a numbered round": re.compile(r"\bround\s+(?:one|two|three|four|five|#?\d+\b(?!\s*(?:decimal|places?|digits?)))", re.I),
    "a work session named by its place in time": re.compile(
        r"\b(?:this|that|previous|last|next|earlier|other)\s+(?:sessions?|round)\b"
        r"|\bsession-start\b|\bsessions?'s?\s+(?:end|start|code|parser|own)\b"
        r"|\b(?:start|end)\s+of\s+(?:the|this)\s+session\b",
        re.I,
    ),
    "a workspace path": re.compile(r"\.\./shared\b|(?<![\w.])/work/|\bshared/data\b"),
}


def _product_text_files() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    files += sorted((ROOT / "src").rglob("*.py"))
    return [f for f in files if f.is_file()]


def _hits(path: Path) -> list[str]:
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        for kind, pattern in FORBIDDEN.items():
            for match in pattern.finditer(line):
                out.append(f"{path.relative_to(ROOT)}:{number}: {kind}: {match.group(0)!r}")
    return out


def test_the_files_are_found() -> None:
    files = _product_text_files()
    assert ROOT / "README.md" in files
    assert any(f.suffix == ".py" and "src" in f.parts for f in files)


def test_no_work_log_words_or_workspace_paths() -> None:
    hits = [hit for path in _product_text_files() for hit in _hits(path)]
    assert not hits, "words a user cannot know (say what they mean instead):\n" + "\n".join(hits)


def test_readme_is_at_most_1500_words() -> None:
    words = len((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert words <= README_MAX_WORDS, f"README.md has {words} words; keep it to {README_MAX_WORDS} (figures go in docs/benchmarks.md)"


@pytest.mark.parametrize(
    "text",
    [
        "Every call of an MCP session is served from it.",
        "The HTTP session carries the `Mcp-Session-Id` header; see ClientSession.",
        "Open a GitHub issue if a filing is misread.",
        "The issuer's shares; the company may issue 100 shares.",
        "Round to two decimal places; round 2 decimals.",
        "PostgreSQL stopped 15 s while indexing; stop 15 s later.",
        "Index under /tmp/work/index or ./work/out.",
    ],
)
def test_legitimate_words_do_not_match(text: str) -> None:
    assert not [kind for kind, pattern in FORBIDDEN.items() if pattern.search(text)]


@pytest.mark.parametrize(
    "text",
    [
        "measured in session 13",
        "before issue 13's changes",
        "Issue #7 asked for it",
        "see stop 4",
        "the round two figures",
        "before this round",
        "the code at the start of this session",
        "the session-start code",
        "run on ../shared/data/pdfs",
        "cp -r /work/idx/v2 IDX",
        "the conventions of shared/data/README.md",
    ],
)
def test_work_log_words_match(text: str) -> None:
    assert [kind for kind, pattern in FORBIDDEN.items() if pattern.search(text)]
