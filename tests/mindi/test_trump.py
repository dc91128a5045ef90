"""Trump: cut (M-11), band with auto and on_request reveal (M-12), counting as trump (M-13),
open (M-14) and announce (M-15), with the Mindi edge cases of RULES.md Part 3."""

from __future__ import annotations

import pytest

from hukum.cards import Card, CardSet, Suit, bits, deck
from hukum.mindi import Deal, Move, Reveal, Rules
from tests.mindi.helpers import (
    BAND_HANDS,
    CHOOSER_HANDS,
    CUT_HANDS,
    GROUP_HANDS,
    assert_illegal,
    deal_of,
    play,
    play_lowest,
    play_trick,
    step,
    without_twos,
)

HIDDEN = Rules.preset("hidden")
ON_REQUEST = Rules.preset("hidden", reveal="on_request")


def moves(text: str) -> set[Move]:
    return {Move.play(c) for c in text.split()}


def whole_hand(deal: Deal, seat: int) -> set[Move]:
    return {Move.play(c) for c in deal.hand(seat)}


# ---------------------------------------------------------------- M-11 cut hukum


def cut_deal(**changes: object) -> Deal:
    return deal_of(Rules(**changes), 3, *CUT_HANDS)  # type: ignore[arg-type]


def test_m11_no_trump_at_the_start():
    deal = cut_deal()
    assert deal.trump is None
    assert not deal.trump_known
    play(deal, "AS")
    assert deal.trump is None


def test_m11_cut_card_wins_its_own_trick():
    deal = cut_deal()
    play(deal, "AS", "2H")
    # The first void player's card sets trump at once.
    assert deal.trump is Suit.HEARTS
    assert deal.trump_known
    assert deal.trick[1].trump
    play(deal, "7S", "AD")  # seat 3 discards a diamond: not a trump
    assert deal.tricks[0].winner == 1
    assert [p.trump for p in deal.tricks[0].plays] == [False, True, False, False]


def test_m11_later_void_player_with_a_higher_trump_wins():
    deal = cut_deal()
    assert play_trick(deal, "AS 2H 7S 3H") == 3
    assert deal.trump is Suit.HEARTS


def test_m11_players_after_the_cut_who_can_follow_must_follow():
    deal = cut_deal()
    play(deal, "AS", "2H")
    assert set(deal.legal_moves()) == moves("7S 6S 5S 4S 3S 2S")
    assert_illegal(deal, "AH", r"seat 2 must follow ♠ \(M-8\)")


def test_m11_cut_with_a_ten_makes_that_ten_a_trump():
    deal = cut_deal()
    assert play_trick(deal, "AS 10H 7S 7H") == 1  # 10♥ trump beats the A♠ and the 7♥
    ten = deal.tricks[0].plays[1]
    assert (ten.card, ten.trump) == (Card.parse("10H"), True)
    assert Card.parse("10H") in deal.captured[1]


def test_m11_trump_stays_once_set():
    deal = cut_deal()
    play_trick(deal, "AS 2H 7S AD")
    play(deal, "KD")  # seat 1 leads diamonds; seat 2 is void and discards a club
    play(deal, "8C")
    assert deal.trump is Suit.HEARTS
    assert not deal.trick[1].trump


def test_m11_four_players_52_cards_trump_is_always_set():
    # 13 cards of a suit cannot split evenly among 4 players, so someone is void at some
    # point and cuts: trump is set by the end of every deal, whatever is played.
    rules = Rules()
    for seed in range(150):
        deal = Deal.new(rules, seed % 4, seed)
        moves_ = deal.legal_moves()
        while not deal.is_over():
            moves_ = deal.legal_moves()
            deal.push(moves_[(seed * 7 + len(deal.history)) % len(moves_)])
        assert deal.trump is not None, seed
        assert any(p.trump for t in deal.tricks for p in t.plays)


def test_m11_a_deal_may_end_without_trump_with_six_players():
    # 6 players, 48 cards, two cards of every suit each: whatever is led, everybody follows,
    # so nobody ever cuts.
    rules = Rules(players=6, deck=48)
    pack = list(bits(deck(48)))
    hands = [[c for c in pack if (c.rank - 3) // 2 == seat] for seat in range(6)]
    assert all(len(h) == 8 for h in hands)
    deal = Deal(rules, 0, hands)
    play_lowest(deal)
    assert deal.is_over()
    assert deal.trump is None
    assert not any(p.trump for t in deal.tricks for p in t.plays)
    outcome = deal.outcome()
    assert outcome is not None
    assert sum(outcome.tens) == 4


# ---------------------------------------------------------------- M-12 band hukum


def test_m12_the_first_leader_lays_a_card_face_down():
    deal = deal_of(HIDDEN, 3, *BAND_HANDS)
    assert (deal.phase, deal.turn, deal.chooser) == ("hide", 0, 0)
    assert set(deal.legal_moves()) == {Move.hide(c) for c in deal.hand(0)}
    play(deal, "hide 9H")
    assert deal.phase == "play"
    assert deal.turn == 0  # the chooser leads
    assert deal.face_down == Card.parse("9H")
    assert deal.trump is Suit.HEARTS
    assert not deal.trump_known
    assert Card.parse("9H") not in deal.hand(0)
    assert len(deal.hand(0)) == 12  # set aside: one card fewer
    assert deal.view(0).trump is Suit.HEARTS
    assert deal.view(0).face_down == Card.parse("9H")
    for seat in (1, 2, 3):
        assert deal.view(seat).trump is None
        assert deal.view(seat).face_down is None


def test_m12_auto_reveal_on_the_first_void_in_trick_1():
    deal = deal_of(HIDDEN, 3, *BAND_HANDS)
    play(deal, "hide 9H", "QS")
    # Seat 1 cannot follow spades: the card is turned up before it plays.
    assert deal.trump_known
    assert deal.reveal == Reveal(1, 0, 1, False, Card.parse("9H"))
    assert Card.parse("9H") in deal.hand(0)  # back in the chooser's hand
    assert len(deal.hand(0)) == 12
    assert Move.REVEAL_TRUMP not in deal.legal_moves()
    assert set(deal.legal_moves()) == whole_hand(deal, 1)  # the void player plays any card
    play(deal, "AH", "6H", "AS")
    assert deal.tricks[0].winner == 1  # A♥, now a trump, beats the A♠
    assert [p.trump for p in deal.tricks[0].plays] == [False, True, True, False]


def test_m12_auto_reveal_for_the_chooser_when_the_hidden_suit_is_led():
    deal = deal_of(HIDDEN, 3, *CHOOSER_HANDS)
    play(deal, "hide 2C")
    assert play_trick(deal, "2S AS 3S 4S") == 1
    assert not deal.trump_known  # everybody followed
    play(deal, "AC", "3C", "4C")
    # Clubs, the hidden suit, are led; the chooser's only club is face down: it is void, and
    # the card is turned up at its turn.
    assert deal.trump_known
    assert deal.reveal == Reveal(0, 1, 3, False, Card.parse("2C"))
    assert set(deal.legal_moves()) == whole_hand(deal, 0)
    assert Move.play("2C") in deal.legal_moves()
    play(deal, "AH")
    # Under auto the clubs played before the reveal count as trumps too (M-13).
    assert [p.trump for p in deal.tricks[1].plays] == [True, True, True, False]
    assert deal.tricks[1].winner == 1


def test_m12_leading_the_hidden_suit_reveals_nothing():
    deal = deal_of(HIDDEN, 3, *CHOOSER_HANDS)
    play(deal, "hide 5S", "2S")
    assert not deal.trump_known
    assert deal.reveal is None
    play(deal, "AS", "3S", "4S")
    assert not deal.trump_known
    assert deal.tricks[0].winner == 1


def test_m12_chooser_void_except_for_the_face_down_card_is_void_on_request():
    deal = deal_of(ON_REQUEST, 3, *CHOOSER_HANDS)
    play(deal, "hide 2C", "2S", "AS", "3S", "4S", "AC", "3C", "4C")
    assert not deal.trump_known
    # The chooser holds no club but the face-down 2♣: it may ask, or play any card.
    assert set(deal.legal_moves()) == whole_hand(deal, 0) | {Move.REVEAL_TRUMP}
    play(deal, "reveal")
    assert deal.reveal == Reveal(0, 1, 3, True, Card.parse("2C"))
    # Having asked, it must trump: its only club is the turned-up card.
    assert set(deal.legal_moves()) == moves("2C")
    play(deal, "2C")
    # Cards played before the reveal never count as trumps: the 2♣ wins (M-13).
    assert [p.trump for p in deal.tricks[1].plays] == [False, False, False, True]
    assert deal.tricks[1].winner == 0


def test_m12_on_request_heart_five_wins():
    # RULES.md Part 3: ♠ led, the second player is void and discards the A♥ without asking,
    # the third asks, ♥ is revealed, it plays the 5♥: the 5♥ wins.
    deal = deal_of(ON_REQUEST, 3, *BAND_HANDS)
    play(deal, "hide 9H", "QS")
    assert not deal.trump_known
    assert Move.REVEAL_TRUMP in deal.legal_moves()
    play(deal, "AH")
    assert not deal.trump_known
    play(deal, "reveal")
    assert deal.trump_known
    assert deal.reveal == Reveal(2, 0, 2, True, Card.parse("9H"))
    assert set(deal.legal_moves()) == moves("6H 5H 4H 3H 2H")
    play(deal, "5H", "AS")
    trick = deal.tricks[0]
    assert trick.winner == 2
    assert [p.trump for p in trick.plays] == [False, False, True, False]


def test_m12_on_request_void_player_may_decline_and_a_trick_without_reveal_has_no_trump():
    deal = deal_of(ON_REQUEST, 3, *BAND_HANDS)
    play(deal, "hide 9H", "QS", "AH", "6H", "2S")
    assert not deal.trump_known
    assert deal.reveal is None
    trick = deal.tricks[0]
    assert trick.winner == 0  # the Q♠: hearts did not count
    assert not any(p.trump for p in trick.plays)


def test_m12_on_request_asking_obliges_a_trump():
    deal = deal_of(ON_REQUEST, 3, *BAND_HANDS)
    play(deal, "hide 9H", "QS", "reveal")
    assert set(deal.legal_moves()) == moves("AH KH QH JH 10H 8H 7H")
    assert_illegal(deal, "8D", r"must play a trump \(♥\) after asking for the reveal \(M-12\)")
    play(deal, "7H")
    # The next void player did not ask and must_trump is off: any card.
    assert set(deal.legal_moves()) == whole_hand(deal, 2)


def test_m12_on_request_cannot_ask_when_able_to_follow_or_when_leading():
    deal = deal_of(ON_REQUEST, 3, *BAND_HANDS)
    play(deal, "hide 9H")
    assert_illegal(deal, Move.REVEAL_TRUMP, r"cannot follow suit may ask.*\(M-12\)")
    play(deal, "QS", "AH", "6H")
    assert Move.REVEAL_TRUMP not in deal.legal_moves()  # seat 3 holds spades
    assert_illegal(deal, Move.REVEAL_TRUMP, r"\(M-12\)")


def test_m12_the_empty_handed_chooser_turns_up_and_plays_the_face_down_card_auto():
    # 48 cards, three of every suit each: nobody is void before the last trick, where the
    # chooser holds nothing but the face-down 3♠ (house decision, M-12).
    rules = Rules.preset("hidden", deck=48)
    deal = Deal(rules, 3, without_twos(GROUP_HANDS))
    play(deal, "hide 5S")
    play_lowest(deal, until=10)
    assert not deal.trump_known
    assert deal.hand(0) == CardSet.parse("AS")
    play_trick(deal, "AS 8S 10S 7S")
    # The chooser wins trick 11 and must lead the last one with an empty hand: the card is
    # turned up (house decision, M-12) and is its only move.
    assert deal.turn == 0
    assert deal.reveal == Reveal(0, 11, 0, False, Card.parse("5S"))
    assert deal.hand(0) == CardSet.parse("5S")
    assert deal.legal_moves() == (Move.play("5S"),)
    play(deal, "5S")
    play_lowest(deal)
    last = deal.tricks[-1]
    assert next(p for p in last.plays if p.seat == 0).trump


def test_m12_the_empty_handed_chooser_turns_up_and_plays_the_face_down_card_on_request():
    deal = deal_of(ON_REQUEST, 3, *BAND_HANDS)
    play(deal, "hide 9H")
    play_lowest(deal, until=12)  # nobody asks
    assert not deal.trump_known
    while deal.turn != 0:
        assert not deal.trump_known
        step(deal)
    assert deal.hand(0) == CardSet.parse("9H")
    assert deal.reveal is not None
    assert deal.reveal == Reveal(0, 12, 1, False, Card.parse("9H"))  # after the A♠ lead
    assert deal.legal_moves() == (Move.play("9H"),)
    play_lowest(deal)
    last = deal.tricks[-1]
    assert [(str(p.card), p.trump) for p in last.plays] == [
        ("A♠", False),
        ("9♥", True),
        ("A♥", True),
        ("6♥", True),
    ]
    assert last.winner == 1


def test_m12_face_down_card_cannot_be_played_while_hidden():
    deal = deal_of(HIDDEN, 3, *BAND_HANDS)
    play(deal, "hide 9H")
    assert_illegal(deal, "9H", r"face down until the trump is revealed \(M-12\)")


# ---------------------------------------------------------------- M-13 counting as trump


def test_m13_each_card_records_whether_it_counted_as_trump():
    # Under cut hukum every card of the trump suit counts from the cut on.
    deal = deal_of(Rules(), 3, *CUT_HANDS)
    play_trick(deal, "AS 2H 7S 3H")
    play_trick(deal, "7H 9C 8H AH")  # seat 3 leads a trump; every heart counts
    assert [p.trump for p in deal.tricks[1].plays] == [True, False, True, True]
    # Under band/on_request, a card of the trump suit played before the reveal does not.
    deal = deal_of(ON_REQUEST, 3, *BAND_HANDS)
    play(deal, "hide 9H", "QS", "AH", "reveal", "5H", "AS")
    flags = {str(p.card): p.trump for p in deal.tricks[0].plays}
    assert flags == {"Q♠": False, "A♥": False, "5♥": True, "A♠": False}


@pytest.mark.parametrize("rules", [HIDDEN, Rules(trump="open"), Rules(trump="announce")])
def test_m13_only_band_on_request_leaves_trump_suit_cards_uncounted(rules):
    for seed in range(30):
        deal = Deal.new(rules, seed % 4, seed)
        play_lowest(deal)
        for trick in deal.tricks:
            for p in trick.plays:
                assert p.trump == (p.card.suit == deal.trump), (seed, trick)


def test_m13_under_cut_hukum_cards_count_from_the_cut_on():
    # House decision: before the cut there is no trump, so cards of the suit that later
    # becomes trump, played before the cut, did not count as trumps.
    for seed in range(30):
        deal = Deal.new(Rules(), seed % 4, seed)
        play_lowest(deal)
        plays = [(t.plays[0].card.suit, p) for t in deal.tricks for p in t.plays]
        cut = next(i for i, (led, p) in enumerate(plays) if p.card.suit != led)
        assert plays[cut][1].card.suit == deal.trump
        for i, (_, p) in enumerate(plays):
            assert p.trump == (i >= cut and p.card.suit == deal.trump), seed


# ---------------------------------------------------------------- M-14 open hukum


def test_m14_open_the_shown_card_sets_trump_and_goes_back_into_the_pack():
    rules = Rules(trump="open")
    for seed in range(20):
        deal = Deal.new(rules, 0, seed)
        shown = deal.shown_card
        assert shown is not None
        assert deal.trump is shown.suit
        assert deal.trump_known
        assert any(shown in deal.hand(s) for s in range(4))  # back in the pack, dealt
        assert all(deal.view(s).trump is shown.suit for s in range(4))
        assert all(deal.view(s).shown_card == shown for s in range(4))
        assert deal.phase == "play"
    assert len({Deal.new(rules, 0, seed).shown_card for seed in range(40)}) > 10


def test_m14_given_hands_take_the_shown_card():
    deal = deal_of(Rules(trump="open"), 3, *CUT_HANDS, shown_card="QD")
    assert (deal.trump, deal.trump_known, deal.shown_card) == (
        Suit.DIAMONDS,
        True,
        Card.parse("QD"),
    )
    play(deal, "AS")
    play(deal, "2H")  # a void player's card does not change an open trump
    assert deal.trump is Suit.DIAMONDS
    with pytest.raises(ValueError, match="M-14"):
        deal_of(Rules(trump="open"), 3, *CUT_HANDS)
    with pytest.raises(ValueError, match="M-14"):
        deal_of(Rules(), 3, *CUT_HANDS, shown_card="QD")
    with pytest.raises(ValueError, match="48-card pack"):
        deal_of(Rules(trump="open", deck=48), 3, *without_twos(GROUP_HANDS), shown_card="2D")


# ---------------------------------------------------------------- M-15 announce hukum


def test_m15_announce_after_the_first_batch_of_five():
    rules = Rules(trump="announce")
    deal = deal_of(rules, 3, *GROUP_HANDS)
    assert (deal.phase, deal.turn, deal.trump) == ("announce", 0, None)
    assert set(deal.legal_moves()) == {Move.announce(s) for s in Suit}
    # Before the announcement each player holds only the first batch of five.
    for seat in range(4):
        view = deal.view(seat)
        assert view.hand == CardSet.parse(" ".join(GROUP_HANDS[seat].split()[:5]))
        assert view.hand_sizes == (5, 5, 5, 5)
    assert deal.view(0).legal_moves == deal.legal_moves()
    assert deal.view(1).legal_moves == ()
    assert_illegal(deal, "AC", r"must first announce the trump suit \(M-15\)")
    assert_illegal(deal, "announce S", "not your turn", seat=1)
    play(deal, "announce D")
    assert (deal.phase, deal.turn, deal.trump, deal.trump_known) == (
        "play",
        0,
        Suit.DIAMONDS,
        True,
    )
    for seat in range(4):
        assert deal.view(seat).hand == CardSet.parse(GROUP_HANDS[seat])
        assert deal.view(seat).trump is Suit.DIAMONDS
    assert_illegal(deal, "announce S", r"announced only at the start.*\(M-15\)")


def test_m15_dehla_pakad_preset_announces():
    deal = Deal.new(Rules.preset("dehla-pakad"), 1, seed=3)
    assert (deal.phase, deal.turn) == ("announce", 2)
    deal.push(Move.announce("H"), seat=2)
    assert deal.trump is Suit.HEARTS
    assert deal.turn == 2


def test_m13_a_card_keeps_its_trump_mark_when_its_trick_completes():
    # Under band/auto a card of the hidden suit counts as a trump from the moment it is
    # played (M-13); the engine's record of it must not change when the trick ends.
    import random

    for rules in (Rules.preset("hidden"), Rules.preset("hidden", reveal="on_request")):
        for seed in range(30):
            deal = Deal.new(rules, 0, seed)
            rng = random.Random(seed)
            while not deal.is_over():
                before = deal.trick
                done = len(deal.tricks)
                moves = deal.legal_moves()
                deal.push(moves[rng.randrange(len(moves))])
                if len(deal.tricks) > done and before:
                    assert deal.tricks[-1].plays[: len(before)] == before
