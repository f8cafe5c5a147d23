"""The workbench over the REST API, on real filings: the viewer's pages, conversations, scope, history."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from docqa.config import Settings
from docqa.faces.web.app import create_app
from tests.conftest import SAMPLES
from tests.faces.web_helpers import highlight_pixels

NETFLIX = SAMPLES / "NETFLIX_2017_10K.pdf"
AMAZON = SAMPLES / "AMAZON_2017_10K.pdf"
LOCAL = "http://127.0.0.1:8000"


def doc_id(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from docqa.engine import Engine

    index = tmp_path_factory.mktemp("workbench-index")
    engine = Engine.open(Settings(index=index, dense=False))
    engine.ingest([NETFLIX, AMAZON])
    with TestClient(create_app(engine=engine, worker=False), base_url=LOCAL) as c:
        yield c


def ask(client, **body) -> dict:
    r = client.post("/api/ask", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def test_the_viewer_lays_out_every_page_and_draws_one_at_the_zoom_asked(client):
    pages = client.get(f"/api/documents/{doc_id(NETFLIX)}/pages").json()
    assert len(pages["pages"]) == 73 and pages["pages"][0] == {"number": 1, "width": 612.0, "height": 792.0}
    answer = ask(client, question="What was Netflix's operating income in 2017?")
    link = answer["pages"][0]
    assert (link["page"], link["label"], link["pages"]) == (42, "40", 73)  # physical 42 prints "40"
    small = client.get(link["image_url"] + "&scale=1")
    large = client.get(link["image_url"] + "&scale=3")
    assert small.headers["x-page-label"] == "40" and small.headers["x-evidence"] in ("quote", "figures")
    assert float(large.headers["x-scale"]) == 3.0 and len(large.content) > len(small.content)
    # the box is drawn at every zoom, and its region is given in PDF points
    assert highlight_pixels(small.content) > 0 and highlight_pixels(large.content) > 4 * highlight_pixels(small.content)
    x0, y0, x1, y1 = map(float, large.headers["x-evidence-region"].split(","))
    assert 0 <= x0 < x1 <= 612 and 0 <= y0 < y1 <= 792
    plain = client.get(f"/api/documents/{doc_id(NETFLIX)}/pages/10.png?scale=0.5")
    assert plain.headers["x-evidence"] == "none"
    assert client.get(f"/api/documents/{doc_id(NETFLIX)}/pages/42/label").json() == {"page": 42, "label": "40"}
    assert client.get(f"/api/documents/{doc_id(NETFLIX)}/pages/42.png?scale=9").status_code == 422
    assert client.get(f"/api/documents/{doc_id(NETFLIX)}/pages/99/label").status_code == 404


def test_a_follow_up_inherits_company_and_metric_and_is_answered_on_its_own(client):
    first = ask(client, question="What was Netflix's operating income in 2017?")
    assert first["verification"] == "verified" and first["understood"] == "Netflix operating income, FY2017"
    follow = ask(client, question="and in 2016?", thread=first["thread_id"])
    assert follow["thread_id"] == first["thread_id"]
    assert follow["question"] == "What was Netflix's operating income in 2016?" and follow["asked"] == "and in 2016?"
    assert follow["understood"] == "Netflix operating income, FY2016"
    assert set(follow["inherited"]) >= {"company", "metric"}
    assert follow["verification"] == "verified" and "379,793" in follow["text"]  # 2016's figure, not 2017's
    other = ask(client, question="What about Amazon?", thread=first["thread_id"])
    assert other["understood"] == "Amazon.com operating income, FY2016" and other["found"]  # follows the last
    thread = client.get(f"/api/threads/{first['thread_id']}").json()
    assert [q["answer"]["asked"] or q["question"] for q in thread["questions"]] == [
        "What was Netflix's operating income in 2017?", "and in 2016?", "What about Amazon?"]
    r = client.post("/api/ask", json={"question": "and in 2016?", "thread": "0123456789ab"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "thread_not_found"
    assert client.post("/api/ask", json={"question": "x", "thread": "not a thread"}).status_code == 422


def test_a_scope_that_leaves_out_the_company_asked_about_says_so(client):
    answer = ask(client, question="What was Amazon's total net sales in 2017?", document=doc_id(NETFLIX))
    assert answer["found"] is False and answer["verification"] == "not_found"
    assert "NETFLIX_2017_10K.pdf" in answer["reason"] and "Amazon" in answer["reason"]
    assert answer["scope"]["document_names"] == ["NETFLIX_2017_10K.pdf"]
    both = ask(client, question="What was Amazon's total net sales in 2017?",
               documents=[doc_id(NETFLIX), doc_id(AMAZON)])
    assert both["found"] and len(both["scope"]["documents"]) == 2
    by_company = ask(client, question="What was the operating income in 2017?", company="Netflix")
    assert by_company["found"] and by_company["scope"]["company"] == "Netflix"
    assert all(c["document"] == NETFLIX.name for c in by_company["citations"])


def test_history_search_export_delete_and_clear(client):
    answer = ask(client, question="What was Netflix's operating income in 2017?")
    found = client.get("/api/questions?q=netflix operating").json()["questions"]
    assert answer["id"] in [q["id"] for q in found]
    assert all("netflix" in (q["question"] + q["answer"]["text"]).lower() for q in found)
    assert client.get("/api/questions?q=zzzz-nothing").json()["questions"] == []
    assert all(q["origin"] == "web" for q in client.get("/api/questions?origin=web").json()["questions"])

    md = client.get(f"/api/questions/{answer['id']}/export?format=markdown")
    assert md.headers["content-type"].startswith("text/markdown")
    assert "NETFLIX_2017_10K.pdf, page 42 (printed 40)" in md.text and "838,679" in md.text
    body = json.loads(client.get(f"/api/questions/{answer['id']}/export?format=json").text)
    assert body["questions"][0]["answer"]["citations"][0]["page"] == 42
    thread_md = client.get(f"/api/threads/{answer['thread_id']}/export").text
    assert thread_md.startswith("# Conversation:")

    assert client.delete(f"/api/questions/{answer['id']}").json() == {"deleted": [answer["id"]]}
    assert client.get(f"/api/questions/{answer['id']}").status_code == 404
    assert client.delete(f"/api/questions/{answer['id']}").status_code == 404
    assert client.delete("/api/questions").status_code == 400  # needs ?all=true
    assert client.delete("/api/questions?all=true").json()["deleted"] >= 1
    assert client.get("/api/questions").json()["questions"] == []


def test_an_answer_whose_document_was_deleted_is_marked(client):
    answer = ask(client, question="What were Amazon's total net sales in 2017?")
    assert answer["verification"] == "verified"
    assert client.delete(f"/api/documents/{doc_id(AMAZON)}").status_code == 200
    entry = client.get(f"/api/questions/{answer['id']}").json()
    assert entry["document_deleted"] is True and entry["deleted_documents"] == [AMAZON.name]
    assert entry["answer"]["pages"] == []  # no image link to a page that is gone
    assert "was deleted since" in client.get(f"/api/questions/{answer['id']}/export").text


def test_the_cited_cell_is_boxed_and_the_page_words_are_given_for_a_text_layer(client):
    answer = ask(client, question="What was Netflix's operating income in 2017?")
    image = client.get(answer["pages"][0]["image_url"] + "&scale=1")
    assert image.headers["x-evidence"] == "figures"  # the figure's cell, not its whole row
    x0, y0, x1, y1 = map(float, image.headers["x-evidence-region"].split(","))
    assert x1 - x0 < 80 and y1 - y0 < 20, (x0, y0, x1, y1)  # a cell: the row spans the page (19 to 588 pt)
    words = client.get(f"/api/documents/{doc_id(NETFLIX)}/pages/42/words").json()
    assert words["source"] == "pdf" and (words["width"], words["height"]) == (612.0, 792.0)
    [figure] = [w for line in words["lines"] for w in line if w["t"] == "838,679"][:1]
    fx0, fy0, fx1, fy1 = figure["b"]
    assert x0 - 2 <= fx0 and fx1 <= x1 + 2 and y0 - 2 <= fy0 and fy1 <= y1 + 2  # the boxed cell holds the figure
    row = next(line for line in words["lines"] if any(w["t"] == "Operating" for w in line))
    assert " ".join(w["t"] for w in row).startswith("Operating income")
    assert client.get(f"/api/documents/{doc_id(NETFLIX)}/pages/99/words").status_code == 404
