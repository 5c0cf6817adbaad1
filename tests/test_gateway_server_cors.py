"""`toolkit.gateway.server`: a browser's CORS preflight. An `OPTIONS` request (what a learner's web
page or JupyterLite sends before its POST) was a 405, so no page could call the local gateway."""

import pytest
from starlette.testclient import TestClient

from toolkit.gateway.server import Gateway, create_app

CHAT = "/v1/chat/completions"
BODY = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
PREFLIGHT = {"access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type"}


@pytest.mark.parametrize(
    "origin", ["http://localhost:8888", "http://127.0.0.1:8000", "https://localhost", "http://[::1]:3000"]
)
def test_a_preflight_from_a_page_on_this_machine_is_allowed(origin):
    gateway = Gateway(faults=["rate_limit"])
    response = TestClient(create_app(gateway)).options(CHAT, headers={"origin": origin, **PREFLIGHT})
    assert response.status_code == 204 and response.content == b""
    assert response.headers["access-control-allow-origin"] == origin
    assert response.headers["access-control-allow-methods"] == "GET, POST, OPTIONS"
    assert response.headers["access-control-allow-headers"] == "authorization, content-type"
    assert response.headers["vary"] == "origin"
    assert gateway.pending_faults == ["rate_limit"]  # a preflight is no chat request


def test_the_answer_to_a_page_on_this_machine_carries_the_cors_headers():
    app = TestClient(create_app(Gateway()))
    response = app.post(CHAT, json=BODY, headers={"origin": "http://localhost:8888"})
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == "http://localhost:8888"
    assert response.headers["access-control-expose-headers"] == "x-request-id, retry-after"
    assert "access-control-allow-origin" not in app.post(CHAT, json=BODY).headers  # no Origin: none


@pytest.mark.parametrize("origin", ["https://example.com", "http://localhost.example.com", "null", "file://"])
def test_a_page_from_another_site_is_refused(origin):
    app = TestClient(create_app(Gateway()))
    response = app.options(CHAT, headers={"origin": origin, **PREFLIGHT})
    assert response.status_code == 403
    assert "access-control-allow-origin" not in response.headers
    assert response.json()["error"] == {
        "message": f"Origin {origin!r} may not call this gateway: it answers pages served on this machine "
        "(http(s)://localhost, 127.0.0.1 or [::1], any port).",
        "type": "invalid_request_error",
        "param": None,
        "code": "origin_not_allowed",
    }
    assert "access-control-allow-origin" not in app.post(CHAT, json=BODY, headers={"origin": origin}).headers


def test_options_without_an_origin_says_what_is_allowed():
    response = TestClient(create_app(Gateway())).options(CHAT)
    assert (response.status_code, response.headers["allow"]) == (204, "GET, POST, OPTIONS")
