"""Small local HTTP servers that stand in for the Anthropic and OpenAI-compatible APIs.

They record each request the real SDK sends (path, headers, JSON body) and answer with whatever
the test scripted: a realistic reply, a malformed one, an HTTP error or a slow one.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: dict


@dataclass
class Scripted:
    status: int = 200
    body: dict | str = field(default_factory=dict)
    delay_s: float = 0.0


class FakeServer:
    """``FakeServer(respond)``: respond(recorded) -> Scripted. Use as a context manager."""

    def __init__(self, respond: Callable[[Recorded], Scripted]):
        self.respond = respond
        self.requests: list[Recorded] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except json.JSONDecodeError:
                    body = {"_raw": raw.decode("utf-8", "replace")}
                recorded = Recorded("POST", self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                outer.requests.append(recorded)
                scripted = outer.respond(recorded)
                if scripted.delay_s:
                    time.sleep(scripted.delay_s)
                payload = scripted.body if isinstance(scripted.body, str) else json.dumps(scripted.body)
                data = payload.encode()
                try:
                    self.send_response(scripted.status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

            def log_message(self, *args) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> "FakeServer":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()


def anthropic_reply(text: str, model: str = "claude-test") -> dict:
    return {
        "id": "msg_01",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 100, "output_tokens": 20},
    }


def openai_reply(text: str, model: str = "qwen-test") -> dict:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1700000000,
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
    }
