"""What each player may see (M-20)."""

from __future__ import annotations

import dataclasses

import pytest

from hukum.cards import Card, CardSet, Suit, deck
from hukum.mindi import Deal, Move, Rules, View
from hukum.mindi.view import shown_voids
from tests.mindi.helpers import (
    BAND_HANDS,
    CHOOSER_HANDS,
    CUT_HANDS,
    GROUP_HANDS,
    deal_of,
    play,
    play_group,
    play_lowest,
    step,
)

HIDDEN = Rules.preset("hidden")
FULL = CardSet(deck(52))


def test_m20_a_view_holds_no_seed_no_deck_order_and_no_other_hand():
    names = {f.name for f in dataclasses.fields(View)}
    assert not names & {"seed", "dealt", "hands", "deck", "shuffle"}
    deal = Deal.new(Rules(), 0, seed=21)
    for seat in range(4):
        view = deal.view(seat)
        assert view.hand == deal.hand(seat)
        assert view.known[seat] == deal.hand(seat)
        others = CardSet()
        for other in range(4):
            if other != seat:
                others |= deal.hand(other)
                assert view.known[other] == CardSet()
        assert view.unseen == others
        assert not view.hand & others


def test_m20_own_hand_and_every_card_played_and_by_whom():
    deal = deal_of(Rules(), 3, *CUT_HANDS)
    play(deal, "AS", "2H", "7S", "AD", "KD")
    for seat in range(4):
        view = deal.view(seat)
        assert view.hand == deal.hand(seat)
        assert view.tricks == deal.tricks
        assert view.trick == deal.trick
        assert [(p.seat, str(p.card)) for p in view.tricks[0].plays] == [
            (0, "A♠"),
            (1, "2♥"),
            (2, "7♠"),
            (3, "A♦"),
        ]
        assert view.history == tuple(deal.history)
        assert view.hand_sizes == (12, 11, 12, 12)
        assert [(p.seat, str(p.card)) for p in view.trick] == [(1, "K♦")]


def test_m20_trump_is_seen_once_known():
    deal = deal_of(Rules(), 3, *CUT_HANDS)
    play(deal, "AS")
    assert all(deal.view(s).trump is None for s in range(4))
    play(deal, "2H")
    assert all(deal.view(s).trump is Suit.HEARTS for s in range(4))
    assert all(deal.view(s).trump_known for s in range(4))


def test_m20_band_chooser_knows_trump_and_sees_the_face_down_card():
    deal = deal_of(HIDDEN, 3, *BAND_HANDS)
    play(deal, "hide 9H")
    chooser = deal.view(0)
    assert (chooser.trump, chooser.face_down, chooser.trump_known) == (
        Suit.HEARTS,
        Card.parse("9H"),
        False,
    )
    assert chooser.history == ((0, Move.hide("9H")),)
    assert Card.parse("9H") not in chooser.unseen
    assert Card.parse("9H") not in chooser.hand
    assert chooser.hand_sizes == (12, 13, 13, 13)
    for seat in (1, 2, 3):
        view = deal.view(seat)
        assert (view.trump, view.face_down) == (None, None)
        assert view.history == ((0, Move.HIDDEN),)
        assert Card.parse("9H") in view.unseen
        assert all(Card.parse("9H") not in k for k in view.known)
        assert len(view.unseen) == 39


def test_m20_band_auto_trick_of_the_hidden_suit_does_not_give_the_trump_away():
    # Spades are hidden and led; everybody follows. Under auto those spades count as trumps
    # (M-13), but until the reveal no view may show that.
    deal = deal_of(HIDDEN, 3, *CHOOSER_HANDS)
    play(deal, "hide 5S", "2S", "AS", "3S", "4S")
    assert not deal.trump_known
    for seat in range(4):
        view = deal.view(seat)
        assert not any(p.trump for t in view.tricks for p in t.plays)
    assert [t.key for t in deal.view(2).tricks] == [(False, 14)]
    # Once the card is turned up, the earlier spades show as the trumps they were.
    while not deal.trump_known:
        step(deal)
    for seat in range(4):
        assert all(p.trump for p in deal.view(seat).tricks[0].plays)


def test_m20_turned_up_card_is_known_in_the_choosers_hand_until_played():
    deal = deal_of(HIDDEN, 3, *BAND_HANDS)
    play(deal, "hide 9H", "QS")  # turned up at seat 1's void
    for seat in (1, 2, 3):
        view = deal.view(seat)
        assert view.known[0] == CardSet.parse("9H")
        assert view.trump is Suit.HEARTS
        assert Card.parse("9H") not in view.unseen
        assert view.reveal == deal.reveal
    assert deal.view(0).face_down is None  # no longer face down
    assert Card.parse("9H") in deal.view(0).hand


def test_m20_voids_seen_from_play():
    deal = deal_of(Rules(), 3, *CUT_HANDS)
    play(deal, "AS", "2H", "7S", "AD")
    view = deal.view(2)
    assert view.voids[1] == frozenset({Suit.SPADES})
    assert view.voids[3] == frozenset({Suit.SPADES})
    assert view.voids[0] == view.voids[2] == frozenset()


def test_m20_voids_under_must_trump_include_the_trump_suit():
    deal = deal_of(Rules(must_trump=True), 3, *CUT_HANDS)
    play(deal, "AS", "2H", "7S", "3H")
    play(deal, "AD", "9C")  # seat 3 leads diamonds; seat 0 holds neither ♦ nor ♥
    assert deal.view(1).voids[0] == frozenset({Suit.DIAMONDS, Suit.HEARTS})


@pytest.mark.parametrize(
    "rules",
    [
        Rules(must_trump=True),
        HIDDEN,
        Rules.preset("hidden", reveal="on_request", must_trump=True),
        Rules(trump="open", must_trump=True),
        Rules.preset("dehla-pakad"),
    ],
    ids=["cut", "band-auto", "band-on-request", "open", "announce"],
)
def test_m20_voids_are_what_any_observer_works_out_from_a_view(rules: Rules):
    deal = Deal.new(rules, 0, seed=5)
    while not deal.is_over():
        for seat in range(rules.players):
            v = deal.view(seat)
            assert shown_voids(v.rules, v.tricks, v.trick, v.trump, v.reveal) == v.voids
        deal.push(deal.legal_moves()[-1])  # the reveal, when a player may ask for it


def test_m20_tricks_and_tens_per_team_and_the_pile():
    deal = deal_of(Rules.preset("dehla-pakad"), 3, *GROUP_HANDS)
    play(deal, "announce S")
    play_group(deal, "C1")
    play_group(deal, "C3")
    view = deal.view(3)
    assert view.tricks_won == (2, 0)
    assert view.pile == deal.pile
    assert len(view.pile) == 8
    assert view.tens == (CardSet(), CardSet())
    play_group(deal, "S2")  # seat 2's second win in a row: team 0 takes the 10♠ in the pile
    assert deal.view(1).tens == (CardSet.parse("10S"), CardSet())


def test_m20_legal_moves_only_for_the_seat_to_move():
    deal = deal_of(Rules(), 3, *CUT_HANDS)
    assert deal.view(0).legal_moves == deal.legal_moves()
    assert deal.view(0).my_turn
    for seat in (1, 2, 3):
        assert deal.view(seat).legal_moves == ()
        assert not deal.view(seat).my_turn


def test_m20_the_outcome_appears_when_the_deal_is_over():
    deal = Deal.new(Rules(), 1, seed=2)
    play_lowest(deal)
    for seat in range(4):
        view = deal.view(seat)
        assert view.outcome == deal.outcome()
        assert view.phase == "over"
        assert view.turn is None
        assert view.hand == CardSet()
        assert view.unseen == CardSet()


def test_m20_the_full_pack_is_accounted_for_in_every_view():
    deal = deal_of(HIDDEN, 3, *BAND_HANDS)
    play(deal, "hide 9H")
    for seat in range(4):
        view = deal.view(seat)
        played = CardSet(p.card for t in view.tricks for p in t.plays)
        own_down = CardSet([view.face_down]) if view.face_down is not None else CardSet()
        assert view.hand | view.unseen | played | own_down == FULL


def test_view_of_a_seat_that_does_not_exist():
    deal = Deal.new(Rules(), 0, seed=1)
    for bad in (-1, 4, "0", None):
        with pytest.raises(ValueError, match="no seat"):
            deal.view(bad)  # type: ignore[arg-type]


def test_m20_a_void_shown_by_an_automatic_reveal_is_seen_before_the_player_plays():
    import random

    found = 0
    for seed in range(200):
        deal = Deal.new(Rules.preset("hidden"), 0, seed)
        rng = random.Random(seed)
        while not deal.is_over():
            reveal = deal.reveal
            if reveal is not None and deal.trick and reveal.position == len(deal.trick):
                led = deal.trick[0].card.suit
                for seat in range(4):
                    assert led in deal.view(seat).voids[reveal.seat]
                found += 1
                break
            moves = deal.legal_moves()
            deal.push(moves[rng.randrange(len(moves))])
    assert found > 20


@pytest.mark.parametrize(
    "rules",
    [
        Rules(must_trump=True),
        HIDDEN,
        Rules.preset("hidden", reveal="on_request"),
        Rules(trump="open"),
        Rules.preset("dehla-pakad"),
    ],
    ids=["cut", "band-auto", "band-on-request", "open", "announce"],
)
def test_m20_views_of_a_deal_moved_back_and_forth_are_those_of_a_fresh_replay(rules: Rules):
    # The deal builds the public tricks of a position from those of the last one it built
    # (kept while unchanged), and keeps a position's history and a finished deal's outcome;
    # taking moves back and playing others must never show a trick, a trump flag, a move
    # or an outcome as it was before. Each deal is finished three times over.
    import random

    rng = random.Random(11)
    for seed in range(6):
        deal = Deal.new(rules, seed % 4, seed=seed)
        ends = 0
        while ends < 3 or not deal.is_over():
            back = 0
            if deal.is_over():
                ends += 1
                back = rng.randint(1, 8)
            elif deal.history and rng.random() < 0.3:
                back = rng.randint(1, min(6, len(deal.history)))
            for _ in range(back):
                deal.pop()
                deal.view(rng.randrange(rules.players))  # built (and kept) here too
            deal.push(rng.choice(deal.legal_moves()))
            fresh = Deal(rules, deal.dealer, deal.dealt, shown_card=deal.shown_card, seed=seed)
            for seat, move in deal.history:
                fresh.push(move, seat=seat)
            for seat in range(rules.players):
                assert deal.view(seat) == fresh.view(seat)
