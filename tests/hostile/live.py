"""A real HTTP server for hostile tests: the web app under uvicorn in a thread on 127.0.0.1, and raw
HTTP/1.1 over a socket, so that a test can send headers that promise a body it never sends."""

from __future__ import annotations

import json
import socket
import threading
import time
from contextlib import contextmanager
from typing import Iterable, Iterator

import uvicorn

from tests.faces.web_helpers import free_port

START_TIMEOUT_S = 60.0
READ_TIMEOUT_S = 30.0  # a server that waits for a body it will not get would hang the test: it fails instead


@contextmanager
def serving(app) -> Iterator[str]:
    """``app`` on http://127.0.0.1:<free port> until the block ends."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, name="hostile-uvicorn", daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT_S
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield url
    finally:
        server.should_exit = True
        thread.join(15)


def raw_request(url: str, head: str, chunks: Iterable[bytes] = ()) -> tuple[int, dict]:
    """Send ``head`` (request line and headers, no blank line) and then ``chunks`` as they are; the
    status and JSON body of the answer. A write the server refuses (it answered and closed) is fine."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=READ_TIMEOUT_S) as sock:
        sock.sendall(head.replace("\n", "\r\n").encode() + b"\r\n\r\n")
        try:
            for chunk in chunks:
                sock.sendall(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass  # answered before the body ended: read what it said
        raw = b""
        try:
            while b"\r\n\r\n" not in raw or len(raw) < _expected(raw):
                data = sock.recv(65536)
                if not data:
                    break
                raw += data
        except ConnectionResetError:
            pass
    status_line, _, rest = raw.partition(b"\r\n")
    _, _, body = rest.partition(b"\r\n\r\n")
    return int(status_line.split()[1]), json.loads(body or b"null")


def _expected(raw: bytes) -> int:
    """Bytes of the whole response once its headers are in (Content-Length), so reading stops there."""
    head, _, _ = raw.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(head) + 4 + int(value.strip())
    return 1 << 62  # no length: read until the server closes


def chunked(parts: Iterator[bytes]) -> Iterator[bytes]:
    """``parts`` in HTTP/1.1 chunked transfer coding, ending with the last chunk."""
    for part in parts:
        yield f"{len(part):x}\r\n".encode() + part + b"\r\n"
    yield b"0\r\n\r\n"
