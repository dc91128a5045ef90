"""Issue 41, end to end in real browsers, as a person does it: on a computer a guest makes
an account, chooses four-colour cards and sits down to play; on a phone they sign in with
the user name and password (no cookie copied): the phone has the same settings and, opening
the table's address, is in the same seat with the same hand, and plays for it."""

from __future__ import annotations

import secrets

from playwright.sync_api import Browser, BrowserContext, expect

from tests.server.test_account_page import PASSWORD, open_account, sign_in
from tests.server.test_seat_follows import cards
from tests.server.web import (
    HAND,
    LEGAL,
    SCREENSHOTS,
    TABLE_URL,
    my_turn_or_over,
    play_now,
)


def test_sign_in_on_a_second_device_brings_the_settings_and_the_seat(
    server: str, browser: Browser, context: BrowserContext
) -> None:
    username = "Asha_" + secrets.token_hex(3)
    computer = context.new_page()
    open_account(computer, server)
    computer.fill("#claim-username", username)
    computer.fill("#claim-password", PASSWORD)
    computer.click("#claim-form button[type=submit]")
    expect(computer.locator("#account-who")).to_have_attribute("data-guest", "false")
    computer.goto(server + "/settings")
    computer.select_option("#set-cards", "four")
    expect(computer.locator("html")).to_have_attribute("data-cards", "four")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    computer.screenshot(path=str(SCREENSHOTS / "settings.png"))
    play_now(computer, server, "Asha")
    expect(computer).to_have_url(TABLE_URL(server))
    code = computer.url.rsplit("/", 1)[1]
    assert my_turn_or_over(computer)
    hand, legal = cards(computer, HAND), cards(computer, LEGAL)

    phone_context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    phone_context.set_default_timeout(15_000)
    try:
        phone = phone_context.new_page()
        open_account(phone, server)
        expect(phone.locator("#account-who")).to_have_attribute("data-guest", "true")
        expect(phone.locator("html")).not_to_have_attribute("data-cards", "four")
        sign_in(phone, username)
        expect(phone.locator("#account-who")).to_have_attribute("data-guest", "false")
        expect(phone.locator("html")).to_have_attribute("data-cards", "four")
        expect(phone.locator("#sessions .account-session")).to_have_count(2)  # both devices
        phone.screenshot(path=str(SCREENSHOTS / "account-phone.png"), full_page=True)
        phone.goto(f"{server}/t/{code}")
        expect(phone.locator(HAND)).to_have_count(len(hand))
        assert phone.evaluate(f"localStorage.getItem('hukum.token.{code}')") is None
        expect(phone.locator(LEGAL)).to_have_count(len(legal))
        assert cards(phone, HAND) == hand
        phone.locator(LEGAL).first.click()
        phone.click("#play-card")
        expect(phone.locator(HAND)).to_have_count(len(hand) - 1)
        expect(computer.locator(HAND)).to_have_count(len(hand) - 1)
        expect(phone.locator("#message.error")).to_have_count(0)
    finally:
        phone_context.close()
