"""Same-origin protection for the HTTP faces (the web app/REST API and the MCP Streamable HTTP server).

A server on 127.0.0.1 without a token is reachable by every web page its user opens: a page can
POST a form to it (cross-site request forgery), and a page whose name is made to resolve to
127.0.0.1 (DNS rebinding) can read and delete with the browser's help. Two checks stop both:

- **Host**: the request's ``Host`` must name the server: ``127.0.0.1``, ``localhost`` or
  ``[::1]`` (any port), the address it is bound to (any IP address when it is bound to all of
  them: DNS rebinding needs a name), or a name in ``DOCQA_ALLOWED_HOSTS`` (comma-separated; for
  a deliberate public name). Else 421.
- **Origin**: a state-changing request (POST, PUT, PATCH, DELETE — or every request, for MCP)
  that carries ``Origin`` (or, without it, ``Referer``) must come from the server's own origin:
  the same host and port as its ``Host`` header, or an allowed host. Else 403. A request with
  neither header (curl, scripts, the CLI) is not a browser's cross-site request and passes.

A bearer token defeats both attacks by itself (a browser never attaches it across sites), so the
faces apply this guard when they run without one.
"""

from __future__ import annotations

import ipaddress
import json
from typing import Iterable
from urllib.parse import urlsplit

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_WILDCARD_BINDS = ("", "0.0.0.0", "::")


def _split_host(value: str) -> tuple[str, int | None]:
    """``"[::1]:8000"`` -> ``("::1", 8000)``; ``"Example.COM."`` -> ``("example.com", None)``."""
    value = value.strip()
    try:
        parts = urlsplit("//" + value)
        host, port = parts.hostname or "", parts.port
    except ValueError:  # a port that is not a number, a bracket left open
        return "\x00invalid", None
    return host.rstrip(".").lower(), port


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return False


def parse_allowed_hosts(value: str | Iterable[str] | None) -> tuple[str, ...]:
    if not value:
        return ()
    items = value.split(",") if isinstance(value, str) else list(value)
    return tuple(h for h in (_split_host(i)[0] for i in items if i and i.strip()) if h)


class HostPolicy:
    """Which Host names a server answers to and which origins may change its state."""

    def __init__(self, bind_host: str = "127.0.0.1", allowed_hosts: str | Iterable[str] | None = None):
        self.public = frozenset(parse_allowed_hosts(allowed_hosts))  # deliberate names, maybe behind a proxy
        bind = _split_host(bind_host)[0] if bind_host not in _WILDCARD_BINDS else ""
        self.names = self.public | ({bind} if bind and bind not in _WILDCARD_BINDS else set())
        # Bound to every address (0.0.0.0, ::), the server is reached by whichever address the
        # client used; an address, unlike a name, cannot be rebound to this machine by DNS.
        self.any_address = bind_host in _WILDCARD_BINDS

    def host_ok(self, host_header: str | None) -> bool:
        if host_header is None:  # HTTP/1.0 without Host: no browser sends that
            return True
        host, _ = _split_host(host_header)
        return _is_loopback(host) or host in self.names or (self.any_address and _is_address(host))

    def origin_ok(self, origin: str, host_header: str | None) -> bool:
        """Is ``origin`` (an Origin or Referer value) the server's own?"""
        if not origin or origin == "null":
            return False
        try:
            parts = urlsplit(origin)
            o_host, o_port = (parts.hostname or "").rstrip(".").lower(), parts.port
        except ValueError:
            return False
        if parts.scheme not in ("http", "https") or not o_host:
            return False
        if o_host in self.public:  # a deliberate public name (perhaps behind a TLS proxy)
            return True
        default = 443 if parts.scheme == "https" else 80
        h_host, h_port = _split_host(host_header or "")
        return o_host == h_host and (o_port or default) == (h_port or default)

    def refusal(self, method: str, headers: dict[bytes, bytes], all_methods: bool = False) -> tuple[int, str, str] | None:
        """``(status, code, message)`` when the request must be refused, else None."""
        host = headers.get(b"host")
        host_text = host.decode("latin-1") if host is not None else None
        if not self.host_ok(host_text):
            return (421, "misdirected_request",
                    f"this server does not answer to the host {host_text!r}; use http://127.0.0.1 or "
                    "http://localhost (or add the name to DOCQA_ALLOWED_HOSTS)")
        if all_methods or method.upper() in UNSAFE_METHODS:
            origin = headers.get(b"origin")
            source, value = ("Origin", origin) if origin is not None else ("Referer", headers.get(b"referer"))
            if value is not None and not self.origin_ok(value.decode("latin-1"), host_text):
                return (403, "cross_origin",
                        f"refused a {method.upper()} from another site ({source}: {value.decode('latin-1')[:200]!r}); "
                        "only pages served by this docqa may change it (or run it with a token)")
        return None


class SameOrigin:
    """ASGI middleware applying a :class:`HostPolicy` to every HTTP request."""

    def __init__(self, app, policy: HostPolicy, all_methods: bool = False):
        self.app = app
        self.policy = policy
        self.all_methods = all_methods

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = self.policy.refusal(scope["method"], dict(scope.get("headers") or []), self.all_methods)
        if refused is None:
            await self.app(scope, receive, send)
            return
        status, code, message = refused
        body = json.dumps({"error": {"code": code, "message": message}}).encode()
        await send({"type": "http.response.start", "status": status, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            (b"vary", b"Origin"),
        ]})
        await send({"type": "http.response.body", "body": body})


__all__ = ["HostPolicy", "LOOPBACK_NAMES", "SameOrigin", "UNSAFE_METHODS", "parse_allowed_hosts"]
