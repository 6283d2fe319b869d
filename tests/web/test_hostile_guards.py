"""Issue 38, the guard and compression: `Host` parsed strictly, a cross-site GET of a page that
computes refused like a POST (an `<img>` of another site), `gzip;q=0` honoured."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from judge.web.caching import accepts_gzip


@pytest.mark.parametrize("host", ["127.0.0.1:1@evil.example", "127.0.0.1:evil", "localhost:80:80", "local host"])
def test_a_malformed_host_is_refused(client: TestClient, host: str) -> None:
    response = client.get("/api/rule/300", headers={"host": host})  # before: 200
    assert response.status_code == 400 and "hôte" in response.json()["error"]


def test_a_well_formed_host_is_answered(client: TestClient) -> None:
    assert client.get("/api/rule/300", headers={"host": "127.0.0.1:8000"}).status_code == 200


@pytest.mark.parametrize("path", ["/recherche?q=mana", "/api/search?q=mana", "/question?q=mana"])
def test_a_cross_site_get_of_a_computing_page_is_refused(client: TestClient, path: str) -> None:
    image = {"sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors", "sec-fetch-dest": "image"}
    assert client.get(path, headers=image).status_code == 403  # before: computed
    followed = {"sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-user": "?1"}
    assert client.get(path, headers=followed).status_code != 403
    assert client.get("/2004/308.html", headers=image).status_code == 200  # a page of the book


def test_gzip_refused_with_q_0_is_not_sent(client: TestClient) -> None:
    for url in ("/2004/308.html", "/api/rule/300"):
        refused = client.get(url, headers={"accept-encoding": "gzip;q=0, identity"})
        assert refused.status_code == 200 and "content-encoding" not in refused.headers, url
        assert client.get(url, headers={"accept-encoding": "gzip"}).headers.get("content-encoding") == "gzip"


@pytest.mark.parametrize(("header", "accepted"), [
    ("gzip", True), ("gzip;q=0", False), ("gzip; q=0.000", False), ("deflate, gzip;q=0.5", True),
    ("*", True), ("*;q=0", False), ("identity", False), ("gzip;q=0, *", False), ("br, *;q=0.1", True),
])
def test_accept_encoding_weights(header: str, accepted: bool) -> None:
    assert accepts_gzip(header) is accepted


def test_a_client_gone_mid_body_is_one_french_line_in_the_log(app, caplog: pytest.LogCaptureFixture) -> None:
    # Issue 38: before, a `ClientDisconnect` traceback in the server's log.
    import logging
    import socket
    import time
    from urllib.parse import urlsplit

    from judge.web.app import background_server

    with caplog.at_level(logging.INFO), background_server(app, timeout=300) as base_url:  # workers start first
        where = urlsplit(base_url)
        with socket.create_connection((where.hostname, where.port)) as sock:
            sock.sendall(b"POST /api/check HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 5000\r\n\r\n{\"edition\": \"2004\", ")
            time.sleep(0.2)  # the request reaches the app, which waits for the rest of its body
        deadline = time.monotonic() + 30
        while not any("client parti" in r.getMessage() for r in caplog.records) and time.monotonic() < deadline:
            time.sleep(0.05)
    lines = [r for r in caplog.records if "client parti" in r.getMessage()]
    assert [r.getMessage() for r in lines] == ["client parti avant la fin de sa requête : POST /api/check (127.0.0.1)"]
    assert lines[0].levelno == logging.WARNING and lines[0].exc_info is None
    assert not [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()], caplog.text
