"""Issue 41: every response carries the security headers (a Content-Security-Policy with no
inline script, no MIME sniffing, no referrer to other sites, no framing), and every page
still works under that policy in a real browser: no violation reported."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, expect

from hukum.server.app import CSP, DOCS_CSP
from tests.server.web import HAND, TABLE_URL, play_now, play_to_the_end


def policy(header: str) -> dict[str, list[str]]:
    """A Content-Security-Policy as {directive: sources}."""
    parts = (p.split() for p in header.split(";") if p.strip())
    return {p[0]: p[1:] for p in parts}


def test_every_response_carries_the_security_headers(client: TestClient) -> None:
    made = client.post("/api/tables", json={}).json()
    answers = [
        client.get("/"),
        client.get("/account"),
        client.get("/static/app.js"),
        client.get("/sw.js"),
        client.get("/api/rules"),
        client.get(f"/api/tables/{made['code']}"),
        client.get("/api/nothing"),  # 404
        client.post("/api/tables", json={"bots": "nobody"}),  # 400
        client.post("/api/tables", json={}, headers={"origin": "https://evil.example"}),  # 403
        client.get("/api/account/sessions"),  # 401
    ]
    for r in answers:
        where = f"{r.request.method} {r.request.url.path} {r.status_code}"
        assert r.headers["content-security-policy"] == CSP, where
        assert r.headers["x-content-type-options"] == "nosniff", where
        assert r.headers["referrer-policy"] == "same-origin", where
        assert r.headers["x-frame-options"] == "DENY", where
    found = policy(CSP)
    assert found["script-src"] == ["'self'"]  # no inline script, no other site's
    assert found["default-src"] == ["'self'"] and found["object-src"] == ["'none'"]
    assert found["frame-ancestors"] == ["'none'"] and found["base-uri"] == ["'none'"]
    assert found["form-action"] == ["'self'"] and found["connect-src"] == ["'self'"]


def test_the_api_pages_get_a_policy_that_lets_them_load(client: TestClient) -> None:
    """FastAPI's /docs and /redoc load from a CDN and start with an inline script: their own
    policy allows exactly that; the site's pages never get it."""
    for path in ("/docs", "/redoc"):
        r = client.get(path)
        assert r.status_code == 200
        assert r.headers["content-security-policy"] == DOCS_CSP
        for source in re.findall(r'(?:src|href)="(https://[^/"]+)', r.text):
            assert source in DOCS_CSP, (path, source)
    assert "unsafe-inline" not in policy(CSP)["script-src"]


def watch_policy(page: Page) -> list[str]:
    """The policy violations the browser reports on the page (its console)."""
    violations: list[str] = []

    def seen(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            violations.append(message.text)

    page.on("console", seen)
    return violations


def test_every_page_works_under_the_policy(context: BrowserContext, server: str) -> None:
    page = context.new_page()
    violations = watch_policy(page)
    page.goto(server + "/")
    expect(page.locator("#name")).to_be_visible()
    page.goto(server + "/rooms/new")
    expect(page.locator("#create-form")).to_be_visible()
    page.goto(server + "/how-to-play")
    expect(page.locator(".howto-step").first).to_be_visible()
    page.goto(server + "/account")
    expect(page.locator("#account-who")).to_be_visible()
    play_now(page, server, "Asha")  # a table: cards placed with style attributes
    expect(page.locator(HAND).first).to_be_visible()
    expect(page).to_have_url(TABLE_URL(server))
    code = page.url.rsplit("/", 1)[1]
    play_to_the_end(page)
    page.goto(f"{server}/t/{code}/deals/1")  # a deal's board
    expect(page.locator("#analysis-board")).to_be_visible()
    assert violations == []
    # The watch sees a violation: an injected inline script is refused, and reported.
    with page.expect_console_message(lambda m: "Content Security Policy" in m.text):
        page.evaluate(
            """() => { const s = document.createElement("script");
                       s.textContent = "window.ran = 1"; document.head.append(s); }"""
        )
    assert page.evaluate("window.ran") is None
    assert violations
