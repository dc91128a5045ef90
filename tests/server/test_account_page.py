"""Issue 41: the account page (/account) in a real browser on a real server: a guest claims
an account, signs out, signs in from a second browser; sign-out everywhere ends the other
browser's session; a display name with markup is shown as text; errors in the page's words;
the page fits a phone."""

from __future__ import annotations

import secrets

from playwright.sync_api import Browser, BrowserContext, Page, expect

PASSWORD = "mango lassi at noon"


def open_account(page: Page, server: str) -> None:
    page.goto(server + "/account")
    expect(page.locator("#account-who")).to_be_visible()


def who(page: Page) -> str:
    return page.locator("#account-who").inner_text()


def sign_in(page: Page, username: str, password: str = PASSWORD) -> None:
    page.fill("#sign-in-username", username)
    page.fill("#sign-in-password", password)
    page.click("#sign-in-form button[type=submit]")


def test_claim_sign_out_sign_in_elsewhere_and_sign_out_everywhere(
    browser: Browser, context: BrowserContext, server: str
) -> None:
    username = "Tara_" + secrets.token_hex(3)
    page = context.new_page()
    open_account(page, server)
    expect(page.locator("#account-who")).to_have_attribute("data-guest", "true")
    # A display name with markup is shown as text, never as HTML.
    markup = "<b>Tara</b><img src=x onerror=hacked=1>"  # 38 characters: a whole name
    status = page.evaluate(
        """async (name) => (await fetch("/api/me", {method: "PATCH",
             headers: {"content-type": "application/json"},
             body: JSON.stringify({name})})).status""",
        markup,
    )
    assert status == 200
    open_account(page, server)
    expect(page.locator("#account-who")).to_contain_text(markup)
    expect(page.locator("#account-who b, #account-who img")).to_have_count(0)
    assert page.evaluate("window.hacked") is None

    # Claim: the same player (the same name) becomes an account.
    page.fill("#claim-username", username)
    page.fill("#claim-password", "short")
    page.click("#claim-form button[type=submit]")
    expect(page.locator('.message.error[data-code="bad_password"]')).to_contain_text(
        "10 to 128 characters"
    )
    page.fill("#claim-password", PASSWORD)
    page.click("#claim-form button[type=submit]")
    expect(page.locator("#account-who")).to_have_attribute("data-guest", "false")
    expect(page.locator("#account-who")).to_contain_text(username)
    expect(page.locator("#account-who")).to_contain_text(markup)

    # Sign out: this browser is a new guest.
    page.click("#sign-out")
    expect(page.locator("#account-who")).to_have_attribute("data-guest", "true")
    expect(page.locator("#account-who")).not_to_contain_text(username)

    # A second browser: a wrong password is refused in the page's words, then it signs in.
    other_context = browser.new_context(viewport={"width": 1100, "height": 860}, locale="en-US")
    other_context.set_default_timeout(15_000)
    try:
        other = other_context.new_page()
        open_account(other, server)
        sign_in(other, username, "not the password at all")
        expect(other.locator('.message.error[data-code="bad_credentials"]')).to_have_text(
            "Wrong user name or password"
        )
        sign_in(other, username.upper())
        expect(other.locator("#account-who")).to_have_attribute("data-guest", "false")
        expect(other.locator("#account-who")).to_contain_text(markup)

        # The first browser signs in again: two sessions, each page knows which is its own.
        sign_in(page, username)
        expect(page.locator("#account-who")).to_have_attribute("data-guest", "false")
        open_account(other, server)
        expect(other.locator("#sessions li")).to_have_count(2)
        expect(other.locator("#sessions li.current")).to_have_count(1)

        # Sign out everywhere (from the second): the first browser's session ends too.
        other.click("#sign-out-everywhere")
        expect(other.locator("#account-who")).to_have_attribute("data-guest", "true")
        open_account(page, server)
        expect(page.locator("#account-who")).to_have_attribute("data-guest", "true")
        expect(page.locator("#account-who")).not_to_contain_text(username)
    finally:
        other_context.close()


def test_delete_after_a_confirmation(context: BrowserContext, server: str) -> None:
    username = "Ravi_" + secrets.token_hex(3)
    page = context.new_page()
    open_account(page, server)
    page.fill("#claim-username", username)
    page.fill("#claim-password", PASSWORD)
    page.click("#claim-form button[type=submit]")
    expect(page.locator("#account-who")).to_contain_text(username)
    expect(page.locator("#download-data")).to_have_attribute("href", "/api/account/data")
    page.click("#delete-start")
    expect(page.locator("#delete-form [role=alert]")).to_be_visible()
    page.click("#delete-cancel")
    expect(page.locator("#delete-form")).to_have_count(0)
    page.click("#delete-start")
    page.fill("#delete-password", PASSWORD)
    page.click("#delete-confirm")
    expect(page.locator("#account-who")).to_have_attribute("data-guest", "true")
    status = page.evaluate(
        """async (username) => (await fetch("/api/account/sign-in", {method: "POST",
             headers: {"content-type": "application/json"},
             body: JSON.stringify({username, password: "mango lassi at noon"})})).status""",
        username,
    )
    assert status == 401  # the account is gone


def test_the_account_page_fits_a_phone_in_punjabi(browser: Browser, server: str) -> None:
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="pa-IN")
    phone.set_default_timeout(15_000)
    try:
        page = phone.new_page()
        open_account(page, server)
        expect(page.locator("h1")).to_have_text("ਤੁਹਾਡਾ ਖਾਤਾ")
        expect(page.locator("#claim-form button[type=submit]")).to_be_visible()
        width = page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    finally:
        phone.close()
