"""The default server (no token) answers only to its own Host and takes writes only from its own pages."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from docqa.config import Settings
from docqa.faces.origin import HostPolicy
from docqa.faces.web.app import create_app
from tests.faces.web_helpers import small_pdf

LOCAL = "http://127.0.0.1:8000"


@pytest.fixture()
def client(tmp_path):
    with TestClient(create_app(Settings(index=tmp_path / "index", dense=False), worker=False), base_url=LOCAL) as c:
        yield c


def upload(client, tmp_path, **headers):
    pdf = small_pdf(tmp_path / "report.pdf")
    return client.post("/api/documents", files=[("files", ("report.pdf", pdf.read_bytes(), "application/pdf"))],
                       headers=headers)


def test_cross_site_upload_is_refused(client, tmp_path):
    r = upload(client, tmp_path, Origin="http://evil.example")
    assert r.status_code == 403, r.text
    assert r.json()["error"]["code"] == "cross_origin"
    r = upload(client, tmp_path, Referer="http://evil.example/page.html")
    assert r.status_code == 403, r.text
    r = upload(client, tmp_path, Origin="null")  # a sandboxed frame or a file:// page
    assert r.status_code == 403, r.text
    r = upload(client, tmp_path, Origin="http://127.0.0.1:9999")  # another local app: another origin
    assert r.status_code == 403, r.text
    assert client.delete("/api/documents?all=true", headers={"Origin": "https://evil.example"}).status_code == 403
    assert client.get("/api/documents").json() == {"documents": []}


def test_same_origin_and_headerless_writes_work(client, tmp_path):
    r = upload(client, tmp_path, Origin=LOCAL)
    assert r.status_code == 202, r.text
    r = upload(client, tmp_path, Referer=LOCAL + "/")
    assert r.status_code == 202, r.text
    r = upload(client, tmp_path)  # curl, scripts: no Origin, no Referer
    assert r.status_code == 202, r.text
    # reads from another origin are the browser's business (no CORS headers are sent); they are not refused here
    assert client.get("/api/documents", headers={"Origin": "http://evil.example"}).status_code == 200


@pytest.mark.parametrize("host", ["attacker.example", "attacker.example:8000", "127.0.0.1.nip.io:8000", "evil"])
def test_foreign_host_is_refused(client, host):
    for method, path in [("GET", "/api/documents"), ("GET", "/"), ("DELETE", "/api/documents?all=true")]:
        r = client.request(method, path, headers={"Host": host})
        assert r.status_code == 421, (method, path, r.status_code, r.text)
        assert r.json()["error"]["code"] == "misdirected_request"


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "localhost", "LOCALHOST:8000"])
def test_loopback_hosts_are_served(client, host):
    assert client.get("/api/documents", headers={"Host": host}).status_code == 200


def test_a_configured_public_name_is_served(tmp_path):
    settings = Settings(index=tmp_path / "index", dense=False, allowed_hosts="docs.example.com, other.example")
    with TestClient(create_app(settings, worker=False), base_url="https://docs.example.com") as c:
        assert c.get("/api/documents").status_code == 200
        pdf = small_pdf(tmp_path / "r.pdf")
        r = c.post("/api/documents", files=[("files", ("r.pdf", pdf.read_bytes(), "application/pdf"))],
                   headers={"Origin": "https://docs.example.com"})
        assert r.status_code == 202, r.text
        assert c.get("/api/documents", headers={"Host": "attacker.example"}).status_code == 421


def test_with_a_token_the_bearer_check_is_the_guard(tmp_path):
    settings = Settings(index=tmp_path / "index", dense=False, api_token="t0ken")
    with TestClient(create_app(settings, worker=False), base_url="http://docs.internal") as c:
        r = c.get("/api/documents", headers={"Authorization": "Bearer t0ken"})
        assert r.status_code == 200, r.text


def test_policy_unit():
    p = HostPolicy("127.0.0.1")
    assert p.host_ok("127.0.0.1:8000") and p.host_ok("localhost") and p.host_ok("[::1]:1")
    assert not p.host_ok("127.0.0.1.evil.example") and not p.host_ok("localhost.evil") and not p.host_ok("[::1")
    assert p.origin_ok("http://localhost:8000", "localhost:8000")
    assert not p.origin_ok("http://localhost:8001", "localhost:8000")
    assert not p.origin_ok("http://127.0.0.1:8000", "localhost:8000")  # another origin, though the same machine
    assert not p.origin_ok("javascript:alert(1)", "localhost:8000")
    assert HostPolicy("192.168.1.5").host_ok("192.168.1.5:8000")
    assert HostPolicy("0.0.0.0").host_ok("192.168.1.5:8000")  # an address cannot be rebound by DNS
    assert not HostPolicy("0.0.0.0").host_ok("attacker.example:8000")
    assert not HostPolicy("192.168.1.5").host_ok("10.0.0.1:8000")


def test_mcp_http_uses_the_same_guard(tmp_path):
    from docqa import Engine
    from docqa.faces.mcp import build_server, http_app

    engine = Engine.open(tmp_path / "mcp-index", dense=False)
    try:
        app = http_app(build_server(engine), token=None, host="127.0.0.1", allowed_hosts="")
        c = TestClient(app, base_url="http://127.0.0.1:8765")  # no lifespan: refused before the transport
        body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        r = c.post("/mcp", json=body, headers={"Host": "attacker.example:8765"})
        assert r.status_code == 421, r.text
        r = c.post("/mcp", json=body, headers={"Origin": "http://evil.example"})
        assert r.status_code == 403, r.text
        r = c.get("/mcp", headers={"Origin": "http://evil.example"})  # MCP checks reads too
        assert r.status_code == 403, r.text
    finally:
        engine.close()
