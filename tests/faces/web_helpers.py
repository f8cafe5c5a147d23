"""Helpers for the web tests: small real PDFs, a highlight-pixel counter, a server in a subprocess."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import fitz
import httpx
import numpy as np

from docqa.evidence import HIGHLIGHT_RGB

ROOT = Path(__file__).resolve().parents[2]


def small_pdf(path: Path, title: str = "Example Corp Annual Report 2021", pages: int = 1) -> Path:
    """A real PDF with a text layer: a short statement table per page."""
    doc = fitz.open()
    for n in range(pages):
        page = doc.new_page()
        lines = [title, f"Consolidated Statements of Operations (page {n + 1})", "",
                 "Total revenue            1,234      1,000", "Cost of revenue          (600)      (550)",
                 "Net income                 321        280"]
        for i, line in enumerate(lines):
            page.insert_text((72, 90 + 18 * i), line, fontsize=11)
    doc.save(path)
    doc.close()
    return path


def highlight_pixels(png: bytes, tolerance: int = 0) -> int:
    """How many pixels are the highlight's outline colour (exactly, or within ``tolerance`` per channel)."""
    pix = fitz.Pixmap(png)
    rgb = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)[..., :3].astype(int)
    return int((np.abs(rgb - np.array(HIGHLIGHT_RGB)) <= tolerance).all(axis=-1).sum())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``docqa serve`` in a subprocess on a free port, lexical-only for speed."""

    def __init__(self, index: Path, log: Path, env: dict[str, str] | None = None):
        self.index = index
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log
        base = {k: v for k, v in os.environ.items() if k not in ("DOCQA_API_TOKEN", "DOCQA_INDEX", "DOCQA_STORE")}
        self.env = {**base, "DOCQA_DENSE": "false", "PYTHONUNBUFFERED": "1", **(env or {})}
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 180.0) -> "Server":
        self._log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "docqa.faces.cli", "serve", "--index", str(self.index), "--port", str(self.port)],
            cwd=ROOT, env=self.env, stdout=self._log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited with {self.process.returncode}:\n{self.log()}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        self.stop()  # not left running behind a failed test
        raise RuntimeError(f"server did not start in {timeout}s:\n{self.log()}")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20.0) -> int:
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self._log.close()
        return self.process.returncode

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:] if self.log_path.exists() else ""

    def __enter__(self) -> "Server":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
