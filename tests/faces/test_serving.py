"""No cold start and several processes: the sentence model loads in the background, the first
answers say they were made without it, and `docqa serve` answers in several processes while one
indexes, each upload exactly once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr

from docqa.config import Settings
from docqa.faces.web.serving import IngestLock, settings_blob
from tests.faces.web_helpers import ROOT, Server

TEXT_QUESTION = "What does Netflix say about competition for members' entertainment time?"


def _python(script: str, timeout: float = 600) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOCQA_")}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env=env)


def test_answers_while_the_model_loads_say_so_and_then_use_it(lexical_engine):
    """A fresh process (the model is not in it yet): the model is kept 'loading' by holding its
    lock, so the first answer cannot race the load; after the load the same question has no notice."""
    pytest.importorskip("sentence_transformers")
    out = _python(f"""
        import json, time
        from docqa import Engine, embed
        engine = Engine.open({str(lexical_engine.settings.index)!r})
        with embed._CACHE_LOCK:  # the loader thread waits here: the model is 'still loading'
            assert engine.load_model_in_background()
            t = time.perf_counter()
            first = engine.ask({TEXT_QUESTION!r})
            first_s = time.perf_counter() - t
        assert embed.wait_loaded("minilm", 128, timeout=300) is not None
        second = engine.ask({TEXT_QUESTION!r})
        print(json.dumps({{"first": first.model_dump(mode="json"), "second": second.model_dump(mode="json"),
                          "first_s": first_s}}))
    """)
    assert out.returncode == 0, out.stderr[-3000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    first, second = got["first"], got["second"]
    assert first["answerer"] == "extractive" and first["found"], first
    assert first["notice"] and "sentence model is still loading" in first["notice"]
    assert second["answerer"] == "extractive" and second["notice"] is None
    assert "loading the sentence model" not in out.stderr  # a server never announces a wait: it does not wait


def test_a_figure_answer_never_waits_for_or_mentions_the_model(lexical_engine):
    out = _python(f"""
        import json
        from docqa import Engine, embed
        engine = Engine.open({str(lexical_engine.settings.index)!r})
        with embed._CACHE_LOCK:
            engine.load_model_in_background()
            answer = engine.ask("What was Amazon's total net sales in 2017?")
        print(json.dumps(answer.model_dump(mode="json")))
    """)
    assert out.returncode == 0, out.stderr[-3000:]
    answer = json.loads(out.stdout.strip().splitlines()[-1])
    assert answer["found"] and answer["figures"], answer
    assert answer["notice"] is None


def test_the_cli_says_when_it_must_wait_for_the_model(lexical_engine, tmp_path):
    pytest.importorskip("sentence_transformers")
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOCQA_")}
    out = subprocess.run([sys.executable, "-m", "docqa.faces.cli", "ask", TEXT_QUESTION,
                          "--index", str(lexical_engine.settings.index)],
                         capture_output=True, text=True, timeout=600, cwd=ROOT, env=env)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "loading the sentence model..." in out.stderr
    assert "loading the sentence model" not in out.stdout
    assert "note:" not in out.stdout  # the CLI waited, so its answer is the full one


def test_the_ingest_lock_admits_one_process_at_a_time(tmp_path):
    held = IngestLock(tmp_path)
    assert held.acquire(threading.Event())
    # Another process: the kernel's flock, not a flag in this one.
    probe = _python(f"""
        import threading
        from docqa.faces.web.serving import IngestLock
        stop = threading.Event()
        threading.Timer(0.5, stop.set).start()
        print(IngestLock({str(tmp_path)!r}).acquire(stop, poll_s=0.1))
    """, timeout=120)
    assert probe.stdout.strip().splitlines()[-1] == "False", probe.stderr
    held.release()
    again = _python(f"""
        import threading
        from docqa.faces.web.serving import IngestLock
        print(IngestLock({str(tmp_path)!r}).acquire(threading.Event()))
    """, timeout=120)
    assert again.stdout.strip().splitlines()[-1] == "True", again.stderr


def test_children_get_the_parents_settings_with_secrets(tmp_path):
    settings = Settings(index=tmp_path / "idx", port=8123, api_token=SecretStr("s3cret"), web_workers=3)
    again = Settings(**json.loads(settings_blob(settings)))
    assert again.index == settings.index and again.web.port == 8123 and again.web.web_workers == 3
    assert again.web.api_token is not None and again.web.api_token.get_secret_value() == "s3cret"


def _answering_pids(parent: int) -> set[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(parent)], capture_output=True, text=True)
    return {int(p) for p in out.stdout.split()}


def test_serve_answers_in_several_processes_and_indexes_each_upload_once(tmp_path):
    pdf = ROOT / "samples" / "NETFLIX_2017_10K.pdf"
    server = Server(tmp_path / "idx", tmp_path / "serve.log",
                    env={"DOCQA_WEB_WORKERS": "2", "DOCQA_QUOTE_BY_MEANING": "false"}).start(timeout=180)
    try:
        assert server.process is not None
        children = _answering_pids(server.process.pid)
        assert len(children) >= 3, server.log()  # two answering processes, one indexing (+ multiprocessing's tracker)
        with pdf.open("rb") as fh:
            r = httpx.post(f"{server.url}/api/documents", files=[("files", (pdf.name, fh, "application/pdf"))],
                           timeout=120)
        assert r.status_code == 202, r.text
        doc_id = r.json()["files"][0]["id"]
        deadline = time.monotonic() + 300
        while (body := httpx.get(f"{server.url}/api/documents/{doc_id}", timeout=30).json())["status"] != "ready":
            assert body["status"] in ("queued", "processing"), body
            assert time.monotonic() < deadline, server.log()
            time.sleep(0.5)
        assert body["attempts"] == 1
        # Fresh connections: the kernel spreads them over the answering processes.
        answers = [httpx.post(f"{server.url}/api/ask", json={"question": "What was Netflix's net income in 2017?"},
                              timeout=120) for _ in range(6)]
        assert all(a.status_code == 200 and a.json()["found"] for a in answers), [a.text[:300] for a in answers]
        docs = httpx.get(f"{server.url}/api/documents", timeout=30).json()
        listed = docs["documents"] if isinstance(docs, dict) else docs
        assert [d["id"] for d in listed].count(doc_id) == 1
        # The indexing process dies (as on a file that crashes the parser): another takes its place.
        # The one that holds the ingest lock writes its pid into it.
        indexer = int((tmp_path / "idx" / "ingest.lock").read_text().split()[0])
        assert indexer in children
        os.kill(indexer, signal.SIGKILL)
        second = ROOT / "samples" / "ADOBE_2022_10K.pdf"
        with second.open("rb") as fh:
            r = httpx.post(f"{server.url}/api/documents", files=[("files", (second.name, fh, "application/pdf"))],
                           timeout=120)
        second_id = r.json()["files"][0]["id"]
        deadline = time.monotonic() + 300
        while httpx.get(f"{server.url}/api/documents/{second_id}", timeout=30).json()["status"] != "ready":
            assert time.monotonic() < deadline, server.log()
            time.sleep(0.5)
        children = _answering_pids(server.process.pid)
        # kill -9 of `docqa serve`: its children go with it (no orphan keeps the port or a job)
        server.process.send_signal(signal.SIGKILL)
        server.process.wait(30)
        deadline = time.monotonic() + 30
        while any(Path(f"/proc/{pid}").exists() and "zombie" not in _state(pid) for pid in children):
            assert time.monotonic() < deadline, f"children still running: {children}"
            time.sleep(0.2)
    finally:
        server.stop()


def _state(pid: int) -> str:
    try:
        return "zombie" if Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z" else "running"
    except OSError:
        return "zombie"


def test_the_model_remembers_a_lines_vector_by_its_text():
    pytest.importorskip("sentence_transformers")
    import numpy as np

    from docqa.embed import MiniLMEmbedder, get_embedder

    model = get_embedder("minilm", 128, 1)
    assert isinstance(model, MiniLMEmbedder)
    lines = ["Net revenues from external customers were $2,031 million.", "Deutsche Bank Trust Company Americas"]
    first = model.embed(lines)
    calls = []
    encode = model._model.encode
    model._model.encode = lambda texts, **kw: calls.append(list(texts)) or encode(texts, **kw)
    try:
        again = model.embed([lines[1], "Total assets at January 31, 2018", lines[0]])
    finally:
        model._model.encode = encode
    assert calls == [["Total assets at January 31, 2018"]]  # only the new line went through the model
    assert np.array_equal(again[0], first[1]) and np.array_equal(again[2], first[0])
    alone = encode(["Total assets at January 31, 2018"], normalize_embeddings=True)
    assert np.allclose(again[1], alone[0], atol=1e-5)
