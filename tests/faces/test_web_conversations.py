"""Conversations over the REST API: the question log grouped by thread, named by the first question,
renamed, paged past the first page, deleted, and all of it still there once the index is opened again."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from docqa.app import asking
from docqa.config import Settings
from docqa.engine import Engine
from docqa.faces.web.app import create_app
from tests.faces.web_helpers import small_pdf

LOCAL = "http://127.0.0.1:8000"
PAGES = "How many pages does filing.pdf have?"


@pytest.fixture
def index(tmp_path):
    engine = Engine.open(Settings(index=tmp_path / "index", dense=False))
    engine.ingest([small_pdf(tmp_path / "filing.pdf", pages=2)])
    engine.close()
    return tmp_path / "index"


def serve(index):
    engine = Engine.open(Settings(index=index, dense=False))
    return engine, TestClient(create_app(engine=engine, worker=False), base_url=LOCAL)


def ask(client, question, thread=None) -> dict:
    r = client.post("/api/ask", json={"question": question, **({"thread": thread} if thread else {})})
    assert r.status_code == 200, r.text
    return r.json()


def test_conversations_are_listed_renamed_paged_and_deleted_and_outlast_a_restart(index):
    engine, client = serve(index)
    with client:
        first = ask(client, PAGES)
        follow = ask(client, "How many times does 'revenue' appear in filing.pdf?", thread=first["thread_id"])
        assert follow["thread_id"] == first["thread_id"]
        asking.ask(engine, "How many times does 'income' appear in filing.pdf?", origin="cli", log=True)
        for n in range(23):  # 25 conversations in all: more than a page
            ask(client, f"How many times does 'word{n}' appear in filing.pdf?")

        page = client.get("/api/conversations?limit=20").json()
        assert page["total"] == 25 and len(page["conversations"]) == 20 and page["offset"] == 0
        rest = client.get("/api/conversations?limit=20&offset=20").json()["conversations"]
        assert len(rest) == 5 and not {c["id"] for c in rest} & {c["id"] for c in page["conversations"]}
        listed = {c["id"]: c for c in page["conversations"] + rest}
        thread = listed[first["thread_id"]]
        assert thread["title"] == PAGES and thread["named"] is False and thread["questions"] == 2
        assert thread["badge"] == "Verified" and thread["last_question"].startswith("How many times does 'revenue'")
        lone = [c for c in listed.values() if c["thread_id"] is None]
        assert len(lone) == 1 and lone[0]["origin"] == "cli" and lone[0]["questions"] == 1

        r = client.patch(f"/api/conversations/{first['thread_id']}", json={"title": "  Filing\tsize  "})
        assert r.status_code == 200 and r.json()["title"] == "Filing size" and r.json()["named"] is True
        assert client.patch(f"/api/conversations/{first['thread_id']}", json={"title": "x" * 201}).status_code == 400
        assert client.patch("/api/conversations/0123456789ab", json={"title": "x"}).status_code == 404
        found = client.get("/api/conversations?q=filing size").json()["conversations"]
        assert [c["id"] for c in found] == [first["thread_id"]]  # found by its name too
    engine.close()

    engine, client = serve(index)  # a restart: the list, the name, the turns are all still there
    with client:
        opened = client.get(f"/api/conversations/{first['thread_id']}").json()
        assert opened["title"] == "Filing size" and [t["id"] for t in opened["turns"]] == [first["id"], follow["id"]]
        assert opened["turns"][1]["answer"]["citations"] and opened["turns"][1]["answer"]["pages"]  # its evidence
        # a follow-up after the restart carries on the same conversation, under its name
        more = ask(client, "and how many times does 'net' appear in filing.pdf?", thread=first["thread_id"])
        again = client.get(f"/api/conversations/{first['thread_id']}").json()
        assert more["thread_id"] == first["thread_id"] and again["questions"] == 3 and again["title"] == "Filing size"
        r = client.patch(f"/api/conversations/{first['thread_id']}", json={"title": ""})
        assert r.json()["title"] == PAGES and r.json()["named"] is False

        assert client.delete(f"/api/conversations/{first['thread_id']}").json() == {"deleted": 3}
        assert client.get(f"/api/conversations/{first['thread_id']}").status_code == 404
        assert client.delete(f"/api/conversations/{first['thread_id']}").status_code == 404
        assert client.get("/api/conversations").json()["total"] == 24
    engine.close()


def test_with_several_tokens_each_sees_only_its_own_conversations(index):
    engine = Engine.open(Settings(index=index, dense=False, api_tokens="alpha-token-1,beta-token-2"))
    with TestClient(create_app(engine=engine, worker=False), base_url=LOCAL) as client:
        alpha, beta = ({"Authorization": f"Bearer {t}"} for t in ("alpha-token-1", "beta-token-2"))
        mine = client.post("/api/ask", json={"question": PAGES}, headers=alpha).json()
        assert [c["id"] for c in client.get("/api/conversations", headers=alpha).json()["conversations"]] == [
            mine["thread_id"]]
        assert client.get("/api/conversations", headers=beta).json()["total"] == 0
        for call in (client.get, client.delete):
            assert call(f"/api/conversations/{mine['thread_id']}", headers=beta).status_code == 404
        assert client.patch(f"/api/conversations/{mine['thread_id']}", json={"title": "x"},
                            headers=beta).status_code == 404
    engine.close()
