"""Illegal moves: each raises IllegalMoveError naming the rule and leaves the deal exactly as
it was (every view, every hand, the legal moves and the history)."""

from __future__ import annotations

import pytest

from hukum.mindi import Deal, IllegalMoveError, Move, Rules
from tests.mindi.helpers import (
    BAND_HANDS,
    CUT_HANDS,
    GROUP_HANDS,
    VOID_HANDS,
    assert_illegal,
    deal_of,
    fingerprint,
    play,
    play_lowest,
)

ON_REQUEST = Rules.preset("hidden", reveal="on_request")


def test_illegal_move_error_is_a_value_error():
    assert issubclass(IllegalMoveError, ValueError)


def test_not_your_turn():
    deal = deal_of(Rules(), 3, *CUT_HANDS)
    assert_illegal(deal, "AS", r"not your turn: seat 0 is to move \(M-7, M-9\)", seat=1)
    play(deal, "AS")
    assert_illegal(deal, "2H", r"not your turn: seat 1 is to move", seat=0)
    deal.push(Move.play("2H"), seat=1)
    assert deal.turn == 2


def test_not_your_turn_to_hide_or_announce():
    band = deal_of(Rules.preset("hidden"), 3, *BAND_HANDS)
    assert_illegal(band, "hide AH", "not your turn: seat 0", seat=1)
    announce = deal_of(Rules(trump="announce"), 3, *GROUP_HANDS)
    assert_illegal(announce, "announce S", "not your turn: seat 0", seat=2)


def test_card_not_in_hand():
    deal = deal_of(Rules(), 3, *CUT_HANDS)
    assert_illegal(deal, "2H", "2♥ is not in seat 0's hand")
    play(deal, "AS")
    assert_illegal(deal, "AS", "A♠ is not in seat 1's hand")  # already played


def test_must_follow():
    deal = deal_of(Rules(), 3, *CUT_HANDS)
    play(deal, "AS", "2H")
    assert_illegal(deal, "AH", r"seat 2 must follow ♠ \(M-8\)")
    assert_illegal(deal, "8C", r"seat 2 must follow ♠ \(M-8\)", seat=2)


def test_must_trump_under_must_trump():
    deal = deal_of(Rules(trump="open", must_trump=True), 3, *VOID_HANDS, shown_card="7C")
    play(deal, "2H")
    assert_illegal(deal, "QD", r"seat 1 must play a trump \(♣\) \(must_trump, M-8\)")


def test_must_trump_after_asking_for_the_reveal():
    deal = deal_of(ON_REQUEST, 3, *BAND_HANDS)
    play(deal, "hide 9H", "QS", "reveal")
    assert_illegal(deal, "8D", r"must play a trump \(♥\) after asking for the reveal \(M-12\)")


def test_reveal_when_not_void():
    deal = deal_of(ON_REQUEST, 3, *BAND_HANDS)
    play(deal, "hide 9H")
    assert_illegal(deal, "reveal", r"only a player who cannot follow suit may ask.*\(M-12\)")
    play(deal, "QS", "AH", "6H")
    assert_illegal(deal, "reveal", r"only a player who cannot follow suit may ask.*\(M-12\)")


@pytest.mark.parametrize(
    "rules", [Rules(), Rules.preset("hidden"), Rules(trump="open"), Rules(trump="announce")]
)
def test_reveal_not_allowed_by_the_rules(rules):
    deal = Deal.new(rules, 0, seed=11)
    while deal.phase != "play":
        deal.push(deal.legal_moves()[0])
    assert_illegal(deal, "reveal", r"only to band hukum with reveal=on_request \(M-12\)")
    play_lowest(deal, until=3)
    assert_illegal(deal, "reveal", r"\(M-12\)")


def test_reveal_when_already_revealed():
    deal = deal_of(ON_REQUEST, 3, *BAND_HANDS)
    play(deal, "hide 9H", "QS", "reveal")
    assert_illegal(deal, "reveal", r"already face up \(M-12\)")
    play(deal, "AH")
    assert_illegal(deal, "reveal", r"already face up \(M-12\)")  # seat 2 is void too


def test_hide_at_the_wrong_time():
    band = deal_of(Rules.preset("hidden"), 3, *BAND_HANDS)
    play(band, "hide 9H")
    assert_illegal(band, "hide QS", r"laid face down only at the start of band hukum \(M-12\)")
    cut = deal_of(Rules(), 3, *CUT_HANDS)
    assert_illegal(cut, "hide AS", r"\(M-12\)")


def test_hide_a_card_not_held():
    band = deal_of(Rules.preset("hidden"), 3, *BAND_HANDS)
    assert_illegal(band, "hide AS", "A♠ is not in seat 0's hand")


def test_announce_at_the_wrong_time():
    cut = deal_of(Rules(), 3, *CUT_HANDS)
    assert_illegal(cut, "announce S", r"announced only at the start of announce hukum \(M-15\)")
    announce = deal_of(Rules(trump="announce"), 3, *GROUP_HANDS)
    play(announce, "announce C")
    assert_illegal(announce, "announce S", r"\(M-15\)")
    band = deal_of(Rules.preset("hidden"), 3, *BAND_HANDS)
    assert_illegal(band, "announce S", r"must first lay a card face down.*\(M-12\)")


def test_play_or_reveal_before_hiding_or_announcing():
    band = deal_of(ON_REQUEST, 3, *BAND_HANDS)
    assert_illegal(band, "QS", r"must first lay a card face down as the hidden trump \(M-12\)")
    assert_illegal(band, "reveal", r"must first lay a card face down.*\(M-12\)")
    announce = deal_of(Rules(trump="announce"), 3, *GROUP_HANDS)
    assert_illegal(announce, "AC", r"must first announce the trump suit \(M-15\)")
    assert_illegal(announce, "hide AC", r"must first announce the trump suit \(M-15\)")


def test_face_down_card_while_hidden():
    deal = deal_of(ON_REQUEST, 3, *BAND_HANDS)
    play(deal, "hide 9H")
    assert_illegal(deal, "9H", r"9♥ is face down until the trump is revealed \(M-12\)")


@pytest.mark.parametrize("rules", [Rules(), Rules.preset("hidden"), Rules(trump="announce")])
def test_move_after_the_deal_is_over(rules):
    deal = Deal.new(rules, 2, seed=5)
    play_lowest(deal)
    assert deal.is_over()
    assert deal.turn is None
    assert deal.legal_moves() == ()
    last = deal.tricks[-1].winner
    for move in (Move.play("2C"), Move.REVEAL_TRUMP, Move.hide("2C"), Move.announce("S")):
        assert_illegal(deal, move, "the deal is over")
        assert_illegal(deal, move, "the deal is over", seat=last)
        assert_illegal(deal, move, "the deal is over", seat=(last + 1) % 4)


def test_a_failed_push_leaves_pop_working():
    deal = deal_of(Rules(), 3, *CUT_HANDS)
    play(deal, "AS", "2H")
    with pytest.raises(IllegalMoveError):
        deal.push(Move.play("AH"))
    assert deal.pop() == Move.play("2H")
    assert deal.pop() == Move.play("AS")
    with pytest.raises(IndexError):
        deal.pop()
    assert deal.trump is None


def test_push_takes_a_move_not_text():
    deal = deal_of(Rules(), 3, *CUT_HANDS)
    before = fingerprint(deal)
    with pytest.raises(TypeError, match=r"Move.parse\('10S'\)"):
        deal.push("AS")  # type: ignore[arg-type]
    assert fingerprint(deal) == before
