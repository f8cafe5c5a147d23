"""With several tokens (DOCQA_API_TOKENS) each is its own user: the questions and threads asked with
token A cannot be listed, read, exported, followed up, rated or deleted with token B."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from docqa import Engine
from docqa.config import Settings
from docqa.faces.web.app import create_app
from tests.faces.web_helpers import small_pdf
from tests.hostile.conftest import LOCAL

A, B = "token-of-alice", "token-of-bob"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    folder = tmp_path_factory.mktemp("owners")
    index = folder / "index"
    with Engine.open(index, dense=False) as engine:
        assert engine.ingest([small_pdf(folder / "report.pdf")]).indexed
    settings = Settings(index=index, dense=False, quote_by_meaning=False, api_tokens=f"{A}, {B}")
    with TestClient(create_app(settings, worker=False), base_url=LOCAL) as c:
        yield c


def as_(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def alices(client):
    first = client.post("/api/ask", json={"question": "What was total revenue?"}, headers=as_(A))
    assert first.status_code == 200, first.text
    follow = client.post("/api/ask", json={"question": "and net income?", "thread": first.json()["thread_id"]},
                         headers=as_(A))
    assert follow.status_code == 200, follow.text
    return first.json(), follow.json()


def test_every_listed_token_is_accepted_and_no_other(client):
    assert client.get("/api/health", headers=as_(A)).status_code == 200
    assert client.get("/api/health", headers=as_(B)).status_code == 200
    assert client.get("/api/health", headers=as_("token-of-eve")).status_code == 401
    assert client.get("/api/health").status_code == 401


def test_another_token_cannot_list_or_read_them(client, alices):
    first, follow = alices
    listed = client.get("/api/questions", headers=as_(B)).json()["questions"]
    assert {q["id"] for q in listed}.isdisjoint({first["id"], follow["id"]})
    assert client.get(f"/api/questions/{first['id']}", headers=as_(B)).status_code == 404
    assert client.get(f"/api/questions/{first['id']}/export", headers=as_(B)).status_code == 404
    assert client.get(f"/api/threads/{first['thread_id']}", headers=as_(B)).status_code == 404
    assert client.get(f"/api/threads/{first['thread_id']}/export?format=json", headers=as_(B)).status_code == 404
    assert client.get("/api/questions", params={"q": "revenue"}, headers=as_(B)).json()["questions"] == []


def test_another_token_cannot_follow_rate_or_delete_them(client, alices):
    first, _ = alices
    r = client.post("/api/ask", json={"question": "and in 2019?", "thread": first["thread_id"]}, headers=as_(B))
    assert r.status_code == 404 and r.json()["error"]["code"] == "thread_not_found", r.text
    r = client.post("/api/feedback", json={"answer_id": first["id"], "helpful": False}, headers=as_(B))
    assert r.status_code == 404, r.text
    assert client.delete(f"/api/questions/{first['id']}", headers=as_(B)).status_code == 404
    assert client.delete("/api/questions?all=true", headers=as_(B)).status_code == 200
    mine = client.get(f"/api/questions/{first['id']}", headers=as_(A))
    assert mine.status_code == 200 and mine.json()["helpful"] is None, mine.text


def test_the_owner_sees_its_own_and_not_whose_they_are(client, alices):
    first, follow = alices
    listed = client.get("/api/questions", headers=as_(A)).json()["questions"]
    assert {first["id"], follow["id"]} <= {q["id"] for q in listed}
    assert all("owner" not in q["filters"] for q in listed)
    thread = client.get(f"/api/threads/{first['thread_id']}", headers=as_(A))
    assert thread.status_code == 200 and [q["id"] for q in thread.json()["questions"]] == [first["id"], follow["id"]]
    bobs = client.post("/api/ask", json={"question": "What was cost of revenue?"}, headers=as_(B)).json()
    assert bobs["id"] not in {q["id"] for q in client.get("/api/questions", headers=as_(A)).json()["questions"]}
    assert client.get(f"/api/questions/{bobs['id']}", headers=as_(B)).status_code == 200
