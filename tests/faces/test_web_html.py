"""HTML filings on the web face: an EDGAR .htm is accepted as an upload and indexed, and its cited page is
shown in the filing's own layout with the quoted row and the cited cell marked, as a tree of allowed
elements in which no script, image, link or hidden content of the filing survives."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from docqa.config import Settings
from docqa.faces.web.app import create_app

APPLE_10Q = Path("/work/shared/data/html/aapl-10-q-2023-07-01.html")
LOCAL = "http://127.0.0.1:8000"
HOSTILE = ('<script>window.pwned = 1</script><img src="http://127.0.0.1:9/track.png" onerror="window.pwned = 2"/>'
           '<a href="http://127.0.0.1:9/leak" onclick="window.pwned = 3">a link</a>'
           '<div style="display:none">HIDDEN-TEXT</div><style>body { background: url(http://127.0.0.1:9/x) }</style>'
           '<iframe src="http://127.0.0.1:9/frame"></iframe>')


def hostile_filing(folder: Path) -> Path:
    """Apple's 10-Q for Q3 2023 with a script, a remote image, a link, hidden text, a style and a frame
    on its first page."""
    if not APPLE_10Q.exists():
        pytest.skip(f"{APPLE_10Q} (the shared filings) is not here")
    text = APPLE_10Q.read_text(encoding="utf-8")
    out = folder / "aapl-10-q-2023-07-01.htm"
    out.write_text(text.replace("<body>", "<body>" + HOSTILE, 1), encoding="utf-8")
    return out


def wait_ready(client, ident: str) -> dict:
    for _ in range(900):
        body = client.get(f"/api/documents/{ident}").json()
        if body["status"] in ("ready", "failed"):
            return body
        time.sleep(0.2)
    raise AssertionError(f"{ident} still {body['status']}")


def tags(nodes) -> set[str]:
    out: set[str] = set()
    for n in nodes:
        if isinstance(n, dict):
            out.add(n["t"])
            out |= tags(n.get("c", []))
    return out


def marked(nodes, mark: str) -> list[dict]:
    found = []
    for n in nodes:
        if isinstance(n, dict):
            if mark in n.get("k", []):
                found.append(n)
            found += marked(n.get("c", []), mark)
    return found


def text(node) -> str:
    return node if isinstance(node, str) else " ".join(text(c) for c in node.get("c", []))


def test_an_html_filing_is_uploaded_and_its_cited_page_shown_in_its_own_layout(tmp_path):
    filing = hostile_filing(tmp_path)
    app = create_app(Settings(index=tmp_path / "index", dense=False))
    with TestClient(app, base_url=LOCAL) as client:
        r = client.post("/api/documents", files=[("files", (filing.name, filing.read_bytes(), "text/html"))])
        assert r.status_code == 202, r.text
        result = r.json()["files"][0]
        assert result["accepted"] and result["status"] == "queued"
        doc = wait_ready(client, result["id"])
        assert doc["status"] == "ready", doc
        assert doc["meta"]["company"] == "Apple Inc." and doc["pages"] == 25

        pages = client.get(f"/api/documents/{doc['id']}/pages").json()
        assert pages["format"] == "html"
        answer = client.post("/api/ask", json={"question": "What was Apple's net income in Q3 2023?"}).json()
        assert answer["badge"] == "Verified" and answer["citations"][0]["page"] == 3
        shown = client.get(f"/api/documents/{doc['id']}/pages/3/html?answer={answer['id']}").json()
        [row] = marked(shown["nodes"], "quoted")
        assert row["t"] == "tr" and text(row).split()[:2] == ["Net", "income"]
        [cell] = marked(shown["nodes"], "cited")
        assert cell["t"] == "td" and "19,881" in text(cell)
        assert shown["quoted"] == 1 and shown["cited"] == 1

        first = client.get(f"/api/documents/{doc['id']}/pages/1/html").json()
        dump = json.dumps(first)
        assert not tags(first["nodes"]) & {"script", "img", "a", "style", "iframe"}
        assert "pwned" not in dump and "HIDDEN-TEXT" not in dump and "127.0.0.1:9" not in dump
        assert "a link" in dump  # a link's words stay, unlinked
        assert not marked(first["nodes"], "quoted")  # no answer asked: nothing marked

        assert client.get(f"/api/documents/{doc['id']}/pages/99/html").status_code == 404
        assert client.get(f"/api/documents/{doc['id']}/pages/3/html?answer=0123456789ab").status_code == 404


def test_a_text_file_named_htm_is_still_refused(tmp_path):
    app = create_app(Settings(index=tmp_path / "index", dense=False), worker=False)
    with TestClient(app, base_url=LOCAL) as client:
        r = client.post("/api/documents", files=[("files", ("notes.htm", b"just some notes\n" * 20, "text/html"))])
        assert r.status_code == 422
        assert r.json()["files"][0]["code"] == "not_pdf" and "not a PDF or an HTML filing" in r.json()["files"][0]["reason"]
