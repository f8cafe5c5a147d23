"""How often the instruction detector (docqa.injection) fires on real filings: every flagged
sentence is printed, then the count. The detector must stay quiet on ordinary filing text.

    .venv/bin/python benchmarks/injection_false_positives.py ../shared/data/pdfs/*.pdf samples/*.pdf
"""

from __future__ import annotations

import re
import sys

import fitz

from docqa.injection import instruction_in


def main(files: list[str]) -> int:
    hits = sentences = 0
    for name in files:
        try:
            doc = fitz.open(name)
        except Exception:  # an unreadable file is not this benchmark's concern
            continue
        for number, page in enumerate(doc, start=1):
            for sentence in re.split(r"(?<=[.!?:;])\s+", page.get_text().replace("\n", " ")):
                sentences += 1
                found = instruction_in(sentence)
                if found:
                    hits += 1
                    print(f"{name.split('/')[-1]} p{number} {found!r} :: {sentence[:160]}")
    print(f"sentences {sentences:,} · flagged {hits}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
