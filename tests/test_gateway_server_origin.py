"""`toolkit.gateway.server`: requests from another site's page and DNS rebinding. A browser sends a
cross-site POST with `Content-Type: text/plain` (or a form type) without any preflight, so refusing
the preflight left such a POST reaching the gateway: it consumed the scheduled fault (a 429 meant
for the learner's next request) and was counted. A page whose domain name points at 127.0.0.1 sent
its own name as `Host` and was answered."""

import json

import httpx
import pytest
from starlette.testclient import TestClient

from toolkit.gateway import server
from toolkit.gateway.server import Gateway, create_app, running_gateway

CHAT = "/v1/chat/completions"
BODY = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]})


def origin_error(origin: str) -> dict:
    return {
        "message": f"Origin {origin!r} may not call this gateway: it answers pages served on this machine "
        "(http(s)://localhost, 127.0.0.1 or [::1], any port).",
        "type": "invalid_request_error",
        "param": None,
        "code": "origin_not_allowed",
    }


def host_error(host: str) -> dict:
    return {
        "message": f"Host {host!r} may not call this gateway: on this machine's loopback interface it answers "
        "requests to localhost or an IP address such as 127.0.0.1 (any port), so that a web page whose domain name "
        "points at 127.0.0.1 cannot reach it.",
        "type": "invalid_request_error",
        "param": None,
        "code": "host_not_allowed",
    }


@pytest.mark.parametrize(
    "media", ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data"]
)
@pytest.mark.parametrize("origin", ["https://example.com", "null", "http://localhost.example.com"])
def test_a_simple_post_from_another_site_never_reaches_the_gateway(origin, media):
    gateway = Gateway(faults=["rate_limit"])
    app = TestClient(create_app(gateway))
    response = app.post(CHAT, content=BODY, headers={"origin": origin, "content-type": media})
    assert response.status_code == 403
    assert response.json() == {"error": origin_error(origin)}
    assert "access-control-allow-origin" not in response.headers and "x-request-id" not in response.headers
    assert gateway.pending_faults == ["rate_limit"]  # not consumed by the page
    assert app.post(CHAT, content=BODY, headers={"content-type": "application/json"}).headers["x-request-id"] == (
        f"req_{1:032x}"  # the refused request was not counted
    )


@pytest.mark.parametrize("method", ["GET", "HEAD", "DELETE", "PUT"])
def test_any_method_from_another_site_is_refused(method):
    response = TestClient(create_app(Gateway())).request(method, "/v1/models", headers={"origin": "https://x.test"})
    assert response.status_code == 403


def test_json_sent_as_text_plain_is_a_415_without_an_origin_and_from_a_local_page():
    app = TestClient(create_app(Gateway()))
    for headers in ({}, {"origin": "http://localhost:8888"}):
        response = app.post(CHAT, content=BODY, headers={"content-type": "text/plain", **headers})
        assert response.status_code == 415
        assert response.json()["error"]["code"] == "unsupported_media_type"


def test_a_page_on_this_machine_and_an_sdk_still_get_answers():
    app = TestClient(create_app(Gateway()))
    local = app.post(CHAT, content=BODY, headers={"content-type": "application/json", "origin": "http://[::1]:3000"})
    assert local.status_code == 200 and local.headers["access-control-allow-origin"] == "http://[::1]:3000"
    assert app.post(CHAT, content=BODY, headers={"content-type": "application/json"}).status_code == 200


@pytest.mark.parametrize("host", ["evil.example:18083", "evil.example", "127.0.0.1.nip.io:80", "localhost:x"])
def test_a_request_on_loopback_naming_another_host_is_refused(host):
    gateway = Gateway(faults=["rate_limit"])
    app = TestClient(create_app(gateway), base_url="http://127.0.0.1:18083")
    response = app.get("/v1/models", headers={"host": host})
    assert response.status_code == 403
    assert response.json() == {"error": host_error(host)}
    response = app.post(CHAT, content=BODY, headers={"host": host, "content-type": "text/plain"})
    assert response.status_code == 403 and gateway.pending_faults == ["rate_limit"]


@pytest.mark.parametrize(
    "host", ["127.0.0.1:18083", "localhost:18083", "LOCALHOST", "[::1]:18083", "[::1]", "127.0.0.2:80", "127.0.0.1"]
)
def test_a_request_on_loopback_naming_this_machine_is_answered(host):
    app = TestClient(create_app(Gateway()), base_url="http://127.0.0.1:18083")
    assert app.get("/v1/models", headers={"host": host}).status_code == 200
    assert app.get("/v1/models", headers={"host": host}).status_code == 200  # remembered: the same answer


def test_a_request_that_arrived_on_another_address_may_name_any_host():
    app = TestClient(create_app(Gateway()), base_url="http://192.0.2.7:18083")
    assert app.get("/v1/models", headers={"host": "gateway.lan:18083"}).status_code == 200


def test_the_real_server_refuses_a_rebound_host_and_answers_its_own():
    with running_gateway() as url:
        assert httpx.get(url + "/models").status_code == 200
        assert httpx.get(url.replace("127.0.0.1", "localhost") + "/models").status_code == 200
        response = httpx.get(url + "/models", headers={"host": "rebind.example:18083"})
        assert response.json() == {"error": host_error("rebind.example:18083")}


@pytest.mark.parametrize(
    ("host", "local"),
    [("localhost", True), ("127.9.9.9:1", True), ("[::1]:0", True), ("[::1]x", False), ("::1", False)]
    + [("0.0.0.0:80", True), ("10.0.0.1", True), ("[::2]", True), ("localhost:", True), ("", False)]
    + [("my.localhost", False), ("127.0.0.1.nip.io", False), ("localhost.", False), ("[::1", False)],
)
def test_local_host(host, local):
    assert server.local_host(host) is local
