"""Which HTML library reads EDGAR iXBRL filings: parse time, peak memory and text correctness.

    .venv/bin/python benchmarks/html_parsers.py [--data ../shared/data/html]

Each candidate parses every filing under DATA (one subprocess per library and file, so the
peak resident memory is the library's own) and extracts the visible text and the
``ix:nonFraction`` facts. Correct text: the number of facts found equals the number of
``<ix:nonFraction`` tags in the raw bytes, and the first fact's printed text is the same as
lxml's XML reading (the XHTML is well formed, so libxml2's XML parser is the reference).

Candidates: lxml's XML parser (tree), lxml's HTML parser (tree), lxml's XML parser driven as a
stream of start/end/data events into a target (no tree: docqa.ingest.html's way), selectolax
(lexbor, HTML5 tree), BeautifulSoup over lxml's HTML parser.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CANDIDATES = ("lxml-xml", "lxml-html", "lxml-stream", "selectolax", "bs4-lxml")


def _run(lib: str, path: str) -> dict:
    data = Path(path).read_bytes()
    started = time.perf_counter()
    facts: list[str] = []
    text_len = 0
    if lib == "lxml-xml":
        from lxml import etree

        root = etree.fromstring(data, etree.XMLParser(huge_tree=True, resolve_entities=False, no_network=True))
        ix = "{http://www.xbrl.org/2013/inlineXBRL}nonFraction"
        facts = ["".join(e.itertext()) for e in root.iter(ix)]
        text_len = len(" ".join(root.itertext()))
    elif lib == "lxml-html":
        import lxml.html

        root = lxml.html.document_fromstring(data, parser=lxml.html.HTMLParser(huge_tree=True, no_network=True))
        facts = ["".join(e.itertext()) for e in root.iter("ix:nonfraction")]
        text_len = len(root.text_content())
    elif lib == "lxml-stream":
        from lxml import etree

        class Target:
            def __init__(self):
                self.depth = 0
                self.buf: list[str] = []
                self.text = 0

            def start(self, tag, attrib):
                if tag.endswith("}nonFraction"):
                    self.depth += 1
                    self.buf = []

            def end(self, tag):
                if tag.endswith("}nonFraction"):
                    self.depth -= 1
                    facts.append("".join(self.buf))

            def data(self, text):
                self.text += len(text)
                if self.depth:
                    self.buf.append(text)

            def close(self):
                return self.text

        parser = etree.XMLParser(target=Target(), huge_tree=True, resolve_entities=False, no_network=True)
        for start in range(0, len(data), 1 << 20):
            parser.feed(data[start:start + (1 << 20)])
        text_len = parser.close()
    elif lib == "selectolax":
        from selectolax.lexbor import LexborHTMLParser

        tree = LexborHTMLParser(data.decode("utf-8", "replace"))
        facts = [n.text(deep=True) for n in tree.root.traverse() if n.tag == "ix:nonfraction"]
        text_len = len(tree.root.text(deep=True))
    elif lib == "bs4-lxml":
        from bs4 import BeautifulSoup

        soup = BeautifulSoup(data, "lxml")
        facts = [t.get_text() for t in soup.find_all("ix:nonfraction")]
        text_len = len(soup.get_text())
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "facts": len(facts), "first": facts[0] if facts else None, "text_chars": text_len,
            "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "html"))
    ap.add_argument("--one", nargs=2, help=argparse.SUPPRESS)
    ap.add_argument("--big", type=int, default=0, metavar="N",
                    help="also time docqa.ingest.html.parse_html on the Pfizer 10-Q's body repeated N times "
                         "(13: a 40 MB file), peak memory included")
    ap.add_argument("--parse", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(_run(*args.one)))
        return
    if args.parse:
        sys.path.insert(0, str(ROOT / "src"))
        from docqa.ingest.html import parse_html

        started = time.perf_counter()
        parsed = parse_html(args.parse)
        print(f"parse_html: {Path(args.parse).stat().st_size / 1e6:.1f} MB in {time.perf_counter() - started:.1f} s, "
              f"{len(parsed.pages)} pages, {len(parsed.facts)} facts, peak RSS "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
        return
    files = sorted(p for p in Path(args.data).rglob("*") if p.suffix.lower() in (".htm", ".html"))
    if not files:
        sys.exit(f"no .htm/.html files under {args.data}")
    baseline = subprocess.run([sys.executable, "-c", "import resource;print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss/1024)"],
                              capture_output=True, text=True)
    base_mb = float(baseline.stdout.strip())
    print(f"{len(files)} files, {sum(f.stat().st_size for f in files) / 1e6:.1f} MB; memory is peak RSS less "
          f"a bare interpreter's ({base_mb:.0f} MB)\n")
    truth = {f: len(re.findall(rb"<ix:nonFraction\b", f.read_bytes())) for f in files}
    reference: dict[Path, str | None] = {}
    print(f"{'library':<12} {'total s':>8} {'max MB':>7} {'facts right':>12} {'first fact same':>16}")
    import importlib.util

    needs = {"selectolax": "selectolax", "bs4-lxml": "bs4"}
    for lib in CANDIDATES:
        if lib in needs and importlib.util.find_spec(needs[lib]) is None:
            print(f"{lib:<12} not installed (.venv/bin/pip install selectolax beautifulsoup4 to measure it)")
            continue
        total, peak, right, same = 0.0, 0.0, 0, 0
        for f in files:
            out = subprocess.run([sys.executable, __file__, "--one", lib, str(f)], capture_output=True, text=True)
            if out.returncode:
                print(f"  {lib} failed on {f.name}: {out.stderr.strip().splitlines()[-1:]}")
                continue
            r = json.loads(out.stdout)
            total += r["seconds"]
            peak = max(peak, r["max_rss_mb"] - base_mb)
            right += r["facts"] == truth[f]
            if lib == "lxml-xml":
                reference[f] = r["first"]
            same += r["first"] is not None and (r["first"] or "").strip() == (reference.get(f) or "").strip()
        print(f"{lib:<12} {total:8.2f} {peak:7.0f} {right:>7}/{len(files):<4} {same:>11}/{len(files):<4}")
    if args.big:
        import tempfile

        src = Path(args.data) / "pfe-10-q-2023-07-02.html"
        data = src.read_bytes()
        i, j = data.index(b"<body>") + 6, data.rindex(b"</body>")
        with tempfile.TemporaryDirectory() as tmp:
            big = Path(tmp) / "big.html"
            big.write_bytes(data[:i] + data[i:j] * args.big + data[j:])
            print()
            subprocess.run([sys.executable, __file__, "--parse", str(big)])


if __name__ == "__main__":
    main()
