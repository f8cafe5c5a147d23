"""The dense source index benchmarks/scale.py grows: a lexical index of the shared corpus plus the
all-MiniLM-L6-v2 vector of each chunk, embedded exactly as ``docqa ingest --dense`` does (a table
chunk is prefixed with its page's title), without parsing the PDFs again.

    .venv/bin/python benchmarks/dense_source.py --lexical /work/idx/v2/docqa.sqlite --out .docqa-corpus

Only the documents whose file is in --pdfs (default ../shared/data/pdfs: the 74 filings) are kept.
Equivalent to ``docqa ingest ../shared/data/pdfs --index .docqa-corpus --dense`` (same chunks, same
vectors) at the cost of the embedding alone, which matters on a busy 2-core machine.

``--embedder hashing`` writes 384-dimensional HashingEmbedder vectors instead (bag of hashed words,
not a semantic model; seconds instead of an hour of MiniLM on a busy machine): the same chunks, text
and metadata, vectors of MiniLM's dimension. Search latency then measures the same work (an HNSW walk
over as many 384-d vectors); recall@10 is of a different vector distribution. scale.py records which.
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from docqa.config import Settings  # noqa: E402
from docqa.embed import HashingEmbedder, get_embedder  # noqa: E402
from docqa.ingest.chunk import page_title  # noqa: E402
from docqa.ingest.pipeline import _embedding_text  # noqa: E402
from docqa.store.sqlite import SQLiteStore, _chunk  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lexical", type=Path, required=True, help="a lexical docqa.sqlite of (at least) the PDFs")
    ap.add_argument("--out", type=Path, default=ROOT / ".docqa-corpus")
    ap.add_argument("--pdfs", type=Path, default=ROOT.parent / "shared" / "data" / "pdfs")
    ap.add_argument("--embedder", choices=("minilm", "hashing"), default="minilm")
    args = ap.parse_args()
    keep = {p.name for p in args.pdfs.glob("*.pdf")}
    args.out.mkdir(parents=True, exist_ok=True)
    target = args.out / "docqa.sqlite"
    with sqlite3.connect(f"file:{args.lexical}?mode=ro", uri=True) as src, sqlite3.connect(target) as dst:
        src.backup(dst)  # a consistent copy even while another process reads the source
    store = SQLiteStore(target)
    for doc in store.documents():
        if doc.file_name not in keep:
            store.delete_document(doc.id)
    pieces = Settings().ingest.embed_max_tokens
    model = HashingEmbedder(384) if args.embedder == "hashing" else get_embedder("minilm", pieces)
    store.bind_embedder(model.identity)
    db = sqlite3.connect(target)
    db.row_factory = sqlite3.Row
    t, done = time.perf_counter(), 0
    docs = store.documents()
    for i, doc in enumerate(docs, 1):
        titles = {p.number: page_title(p) for p in store.pages(doc.id)}
        rows = db.execute("SELECT * FROM chunks WHERE document_id=? ORDER BY rowid", (doc.id,)).fetchall()
        chunks = [_chunk(r) for r in rows]
        vectors = np.vstack([model.embed([_embedding_text(c, titles.get(c.page, "")) for c in chunks[s:s + 64]])
                             for s in range(0, len(chunks), 64)]).astype(np.float32)
        with db:
            db.executemany("UPDATE chunks SET vector=? WHERE rowid=?",
                           [(v.tobytes(), r["rowid"]) for v, r in zip(vectors, rows)])
            db.execute("UPDATE documents SET embedded=1 WHERE id=?", (doc.id,))
        done += len(chunks)
        print(f"{i}/{len(docs)} {doc.file_name}: {done} chunks, {done / (time.perf_counter() - t):.0f} chunks/s",
              flush=True)
    db.close()
    store.close()
    print(f"{target}: {len(docs)} documents, {done} chunks embedded with {model.identity}")


if __name__ == "__main__":
    main()
