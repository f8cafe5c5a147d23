"""HTTP to SEC EDGAR that a broken or hostile server cannot stretch: the SEC's fair-access rules
(a named User-Agent, at most 10 requests a second) and, for every download, a size cap read as the
body streams in, one deadline for the whole download, and redirects followed only within the SEC
hosts the settings name (``sec_tickers_url``, ``sec_submissions_url``, ``sec_archives_url``).
"""

from __future__ import annotations

import math
import socket
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx

from docqa.config import Settings

RETRIES = 3                    # for 429 / 5xx answers, waiting Retry-After (at most MAX_RETRY_WAIT s)
MAX_RETRY_WAIT = 10.0
MAX_REDIRECTS = 5              # EDGAR redirects once at most (http -> https, a moved path)
REDIRECTS = (301, 302, 303, 307, 308)
RETRYABLE = (429, 500, 502, 503, 504)
_USER_AGENT_HELP = ("set DOCQA_SEC_USER_AGENT to your name and e-mail, e.g. DOCQA_SEC_USER_AGENT=\"Jane Doe "
                    "jane@example.com\": the SEC asks every automated client to say who it is "
                    "(https://www.sec.gov/os/accessing-edgar-data) and refuses those that do not")


class EdgarError(RuntimeError):
    """A fetch that cannot go on; the message says what to do."""


@dataclass(frozen=True)
class Cap:
    """The most one download may hold, and the setting that raises it."""
    mb: float
    setting: str

    @property
    def bytes(self) -> int:
        return int(self.mb * (1 << 20))


class TooLarge(EdgarError):
    """One download over its cap: reading stopped there."""

    def __init__(self, url: str, cap: Cap):
        self.limit = f"larger than {cap.mb:g} MB ({cap.setting})"
        super().__init__(f"{url} is {self.limit}: stopped reading it; check the URL setting or raise {cap.setting}")


class _Late(Exception):
    """The download's deadline passed (turned into an EdgarError that names the host)."""


def show(value: object, limit: int = 80) -> str:
    """A value from the network as a short repr: quoted, control characters escaped, cut to ``limit``."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def user_agent(settings: Settings) -> str:
    agent = (settings.edgar.sec_user_agent or "").strip()
    if not agent:
        raise EdgarError(f"DOCQA_SEC_USER_AGENT is not set: {_USER_AGENT_HELP}")
    if "@" not in agent or len(agent.split()) < 2:
        raise EdgarError(f"DOCQA_SEC_USER_AGENT={agent!r} does not name a person and an e-mail: {_USER_AGENT_HELP}")
    return agent


class RateLimiter:
    """Requests start at least 1/rate seconds apart, measured from when each really started (a late
    wake-up does not let the next one in early); threads wait their turn."""

    def __init__(self, per_second: float):
        self.interval = 1.0 / per_second
        self._next = 0.0
        self._lock = threading.Lock()

    def wait(self) -> None:
        with self._lock:
            delay = self._next - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            self._next = time.monotonic() + self.interval


class Deadline:
    """One download's wall-clock budget. httpx's timeouts bound each read, not the whole answer, so a
    server sending a byte a second could hold a download for ever; here every request is given what is
    left of the budget, and when it runs out a timer shuts the download's sockets (found through
    httpcore's trace events as each connection opens), which ends even a read that is under way."""

    def __init__(self, seconds: float):
        self.at = time.monotonic() + seconds
        self.expired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True
        self._timer.start()

    def remaining(self) -> float:
        return self.at - time.monotonic()

    def passed(self) -> bool:
        return self.expired or self.remaining() <= 0

    def trace(self, event: str, info: dict) -> None:
        """httpcore's trace hook: keeps each new connection's socket (TCP, then TLS over it)."""
        if not event.endswith((".connect_tcp.complete", ".start_tls.complete")):
            return
        stream = info.get("return_value")
        sock = stream.get_extra_info("socket") if hasattr(stream, "get_extra_info") else None
        if isinstance(sock, socket.socket):
            with self._lock:
                self._sockets.append(sock)
                if self.expired:
                    self._shut(sock)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._sockets:
                self._shut(sock)

    @staticmethod
    def _shut(sock: socket.socket) -> None:
        try:  # the plain socket call: for TLS too, it wakes a blocked read without touching the TLS state
            socket.socket.shutdown(sock, socket.SHUT_RDWR)
        except OSError:
            pass  # closed already

    def stop(self) -> None:
        self._timer.cancel()
        with self._lock:
            self._sockets.clear()


@dataclass(frozen=True)
class _Answer:
    """A non-200 answer: what get() needs to redirect, retry or explain."""
    status: int
    location: str | None
    retry_after: str | None


def _host(url: str) -> str:
    """host:port as messages name it."""
    return urlsplit(url).netloc or url


def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
    return url.scheme, url.host, url.port or {"https": 443, "http": 80}.get(url.scheme)


def _read_capped(response: httpx.Response, url: str, cap: Cap, deadline: Deadline) -> bytes:
    """The body, decoded as it streams in, stopped at the cap and at the deadline."""
    declared = response.headers.get("Content-Length", "")
    identity = response.headers.get("Content-Encoding", "identity").strip().lower() in ("", "identity")
    if identity and declared.isdigit() and int(declared) > cap.bytes:
        raise TooLarge(url, cap)
    body = bytearray()
    for block in response.iter_bytes():
        body += block
        if len(body) > cap.bytes:
            raise TooLarge(url, cap)
        if deadline.passed():
            raise _Late
    if deadline.passed():  # a body that ends when the connection does was cut by the deadline, not complete
        raise _Late
    return bytes(body)


class EdgarHttp:
    """GET from EDGAR with the User-Agent, the rate limit, retries, caps, a deadline and checked redirects."""

    def __init__(self, settings: Settings, transport: httpx.BaseTransport | None = None):
        self.settings = settings
        self.limiter = RateLimiter(min(settings.edgar.sec_requests_per_second, 10.0))
        # No kept-alive connections: each request opens its own, so the deadline knows its socket (a
        # fetch makes a handful of requests; the extra handshakes cost little).
        self.http = httpx.Client(headers={"User-Agent": user_agent(settings), "Accept-Encoding": "gzip, deflate"},
                                 timeout=settings.edgar.sec_timeout_s, follow_redirects=False, transport=transport,
                                 limits=httpx.Limits(max_keepalive_connections=0))
        self.origins = set()
        for name in ("sec_tickers_url", "sec_submissions_url", "sec_archives_url"):
            try:
                self.origins.add(_origin(httpx.URL(getattr(settings.edgar, name))))
            except httpx.InvalidURL:
                raise EdgarError(f"DOCQA_{name.upper()}={show(getattr(settings.edgar, name))} is not a URL") from None
        self.requests = 0

    def close(self) -> None:
        self.http.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def get(self, url: str, cap: Cap | None = None) -> bytes:
        """The body of a 200 answer (following redirects within the SEC hosts), read within ``cap``
        and ``sec_timeout_s`` in all; EdgarError saying what to do otherwise (404 -> FileNotFoundError)."""
        cap = cap or Cap(self.settings.edgar.sec_max_listing_mb, "DOCQA_SEC_MAX_LISTING_MB")
        deadline = Deadline(self.settings.edgar.sec_timeout_s)
        try:
            return self._follow(url, cap, deadline)
        finally:
            deadline.stop()

    def _follow(self, url: str, cap: Cap, deadline: Deadline) -> bytes:
        attempt = redirects = 0
        while True:
            answer = self._once(url, cap, deadline)
            if isinstance(answer, bytes):
                return answer
            host = _host(url)
            if answer.status in REDIRECTS:
                redirects += 1
                url = self._redirect(url, answer.location, redirects)
                continue
            if answer.status == 404:
                raise FileNotFoundError(url)
            if answer.status == 403:
                raise EdgarError(f"the SEC refused {url} (403): it refuses clients whose User-Agent does not name "
                                 "a person and an e-mail, and clients over 10 requests a second; check "
                                 "DOCQA_SEC_USER_AGENT")
            wait = _retry_wait(answer.retry_after, attempt)
            if answer.status in RETRYABLE and attempt < RETRIES and wait < deadline.remaining():
                attempt += 1
                time.sleep(wait)
                continue
            raise EdgarError(f"{host} answered {answer.status} for {url}; try again later")

    def _once(self, url: str, cap: Cap, deadline: Deadline) -> bytes | _Answer:
        """One request: the body of a 200 answer, or the status and headers of another."""
        host = _host(url)
        late = EdgarError(f"{host} did not finish answering within {self.settings.edgar.sec_timeout_s:g} s ({url}); "
                          "try again later, or raise DOCQA_SEC_TIMEOUT_S (it bounds each whole download)")
        self.limiter.wait()
        if deadline.passed():
            raise late
        self.requests += 1
        try:
            with self.http.stream("GET", url, timeout=max(deadline.remaining(), 0.001),
                                  extensions={"trace": deadline.trace}) as response:
                if response.status_code != 200:
                    return _Answer(response.status_code, response.headers.get("Location"),
                                   response.headers.get("Retry-After"))
                return _read_capped(response, url, cap, deadline)
        except (_Late, httpx.TimeoutException):
            raise late from None
        except httpx.ConnectError as exc:
            raise EdgarError(f"cannot reach {host} ({type(exc).__name__}: {exc}): docqa fetch needs the "
                             "network (www.sec.gov and data.sec.gov); what was fetched before is used from "
                             "the cache") from exc
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            if deadline.passed():  # the timer shut the socket: a read broke off
                raise late from None
            raise EdgarError(f"{host} sent a broken answer for {url} ({type(exc).__name__}: {exc}); "
                             "try again later") from exc

    def _redirect(self, url: str, location: str | None, count: int) -> str:
        """Where a redirect leads, if it stays within the SEC hosts and the redirect limit."""
        host = _host(url)
        if count > MAX_REDIRECTS:
            raise EdgarError(f"{host} redirected more than {MAX_REDIRECTS} times from {url} (a redirect loop); "
                             "try again later")
        try:
            target = httpx.URL(url).join(location or "")
        except (httpx.InvalidURL, ValueError, TypeError):
            raise EdgarError(f"{host} redirected {url} to an address that is not a URL, {show(location)}") from None
        if not location or _origin(target) not in self.origins:
            hosts = ", ".join(sorted({f"{h}:{p}" for _, h, p in self.origins}))
            raise EdgarError(f"{host} redirected {url} to {show(location)}, outside the SEC hosts docqa fetches "
                             f"from ({hosts}, as DOCQA_SEC_TICKERS_URL, DOCQA_SEC_SUBMISSIONS_URL and "
                             "DOCQA_SEC_ARCHIVES_URL name them); not followed")
        return str(target)


def _retry_wait(retry_after: str | None, attempt: int) -> float:
    """Seconds to wait before asking again: Retry-After when it is a sane number, within MAX_RETRY_WAIT."""
    try:
        wait = float(retry_after) if retry_after else 1.0 + attempt
    except ValueError:
        wait = 1.0 + attempt
    if not math.isfinite(wait):  # "nan" and "inf" parse as floats, and time.sleep refuses NaN
        wait = 1.0 + attempt
    return min(max(wait, 0.0), MAX_RETRY_WAIT)
