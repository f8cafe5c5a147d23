"""The sentence model of a server runs in a child process (embed.ModelProcess)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from docqa.embed import EmbedderUnavailable, ModelProcess

ROOT = Path(__file__).resolve().parent.parent
LINES = ["Net revenues from external customers were $2,031 million.", "Deutsche Bank Trust Company Americas"]


def test_a_model_that_cannot_load_says_why():
    with pytest.raises(EmbedderUnavailable, match="unknown embedder 'no-such-model'"):
        ModelProcess("no-such-model", 128, 1)


def test_the_child_gives_the_vectors_the_model_gives_in_process():
    pytest.importorskip("sentence_transformers")
    from docqa.embed import MiniLMEmbedder

    child = ModelProcess("minilm", 128, 1)
    try:
        here = MiniLMEmbedder(128, 1)
        assert child.identity == here.identity and child.dim == here.dim == 384
        got = child.embed(LINES)
        assert got.shape == (2, 384) and got.dtype == np.float32
        assert np.allclose(got, here.embed(LINES), atol=1e-5)
        assert child.embed([]).shape == (0, 384)
    finally:
        child.close()
    with pytest.raises(EmbedderUnavailable, match="process ended"):
        child.embed(LINES)


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text().split()
    except OSError:
        return False
    return stat[2] != "Z"


def test_the_models_process_ends_when_its_server_is_killed():
    # A server killed with SIGKILL runs no clean-up: the model's process must notice by itself.
    script = textwrap.dedent("""
        import json, sys, time
        from docqa import embed
        child = embed.ModelProcess("hashing", 128, 1)  # the child's loop is the same for any model
        print(json.dumps({"child": child._process.pid}), flush=True)
        time.sleep(600)
    """)
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, cwd=ROOT,
                              env={k: v for k, v in os.environ.items() if not k.startswith("DOCQA_")})
    try:
        child = json.loads(parent.stdout.readline())["child"]
        assert _alive(child)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=30)
        deadline = time.monotonic() + 30
        while _alive(child) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(child)
    finally:
        if parent.poll() is None:
            parent.kill()
