"""Play: teams (M-1), ranks (M-3), following suit and must_trump (M-8), trick winner (M-9)."""

from __future__ import annotations

from hukum.cards import Card, bits, deck
from hukum.mindi import Deal, Move, Rules
from tests.mindi.helpers import (
    BAND_HANDS,
    CUT_HANDS,
    VOID_HANDS,
    assert_illegal,
    deal_of,
    play,
    play_trick,
)

OPEN = Rules(trump="open")


def open_deal(must_trump: bool = False) -> Deal:
    """VOID_HANDS with clubs shown as trump: seats 1 and 3 are void in hearts, hold clubs."""
    return deal_of(OPEN.replace(must_trump=must_trump), 3, *VOID_HANDS, shown_card="7C")


def moves(text: str) -> set[Move]:
    return {Move.play(c) for c in text.split()}


def test_m1_seats_alternate_between_the_two_teams_with_six_players():
    rules = Rules(players=6, deck=48)
    spades = [c for c in bits(deck(48)) if c.suit == 3]  # 3♠ … A♠
    rest = [c for c in bits(deck(48)) if c.suit != 3]
    # Each seat holds two spades; seat 4 holds the A♠ and wins the spade trick.
    pairs = [(0, 6), (1, 7), (2, 8), (3, 9), (11, 4), (5, 10)]
    hands = [[spades[a], spades[b], *rest[s * 6 : s * 6 + 6]] for s, (a, b) in enumerate(pairs)]
    deal = Deal(rules, 5, hands)
    assert deal.turn == 0
    for seat in range(6):
        deal.push(Move.play(hands[seat][0]), seat=seat)
    assert deal.tricks[0].winner == 4
    assert deal.tricks_won == (1, 0)  # seat 4 is on team 0 (4 mod 2)
    assert len(deal.captured[0]) == 6
    assert deal.turn == 4


def test_m1_partners_sit_opposite_with_eight_players():
    rules = Rules(players=8, deck=48)
    deal = Deal.new(rules, 0, seed=4)
    winners: list[int] = []
    while not deal.is_over():
        deal.push(deal.legal_moves()[-1])
        if deal.tricks and len(winners) < len(deal.tricks):
            winners.append(deal.tricks[-1].winner)
    won = (sum(1 for w in winners if w % 2 == 0), sum(1 for w in winners if w % 2 == 1))
    assert deal.tricks_won == won
    assert sum(won) == 6
    assert {len(c) for c in deal.captured} <= set(range(0, 49, 8))


def test_m3_higher_rank_wins_a_plain_suit_and_the_jack_beats_the_ten():
    deal = open_deal()
    assert play_trick(deal, "10H AS JH AD") == 2  # J♥ beats 10♥
    assert play_trick(deal, "KH 2D 9H QD") == 2  # K♥ beats 9♥
    assert play_trick(deal, "AH 2C 5H JC") == 1  # only trumps beat the A♥: J♣ over 2♣
    deal = open_deal()
    assert play_trick(deal, "10H AS 4H AD") == 0  # 10♥ beats 4♥


def test_m8_leader_may_lead_any_card_trump_included():
    deal = open_deal()
    assert set(deal.legal_moves()) == {Move.play(c) for c in deal.hand(0)}
    play(deal, "2H", "AS", "3H", "AD")  # seat 2 wins and leads
    play(deal, "4H", "3C", "5H", "AC")  # seat 1 trumps highest and wins
    assert deal.turn == 1
    assert set(deal.legal_moves()) == {Move.play(c) for c in deal.hand(1)}
    play(deal, "KC")  # leading a trump is fine
    assert deal.trick[0].trump


def test_m8_must_follow_suit_when_able():
    deal = open_deal()
    play(deal, "2H", "AS")
    assert set(deal.legal_moves()) == moves("3H 4H JH QH KH AH")
    assert_illegal(deal, "7S", r"seat 2 must follow ♥ \(M-8\)")
    assert_illegal(deal, "KD", r"must follow ♥ \(M-8\)")


def test_m8_void_player_may_play_any_card_and_need_not_trump():
    deal = open_deal()
    play(deal, "2H")
    assert set(deal.legal_moves()) == {Move.play(c) for c in deal.hand(1)}
    play(deal, "QD")  # seat 1 holds six clubs (trumps) but discards
    assert not deal.trick[1].trump


def test_m8_must_trump_option_obliges_a_void_player_to_trump():
    deal = open_deal(must_trump=True)
    play(deal, "2H")
    assert set(deal.legal_moves()) == moves("4C 10C JC QC KC AC")
    assert_illegal(deal, "AS", r"seat 1 must play a trump \(♣\) \(must_trump, M-8\)")
    play(deal, "4C")
    # A player who can follow must still follow, not trump.
    assert set(deal.legal_moves()) == moves("3H 4H JH QH KH AH")


def test_m8_must_trump_void_player_without_trumps_plays_anything():
    deal = open_deal(must_trump=True)
    play(deal, "2H", "4C", "3H", "3C")
    assert deal.tricks[0].winner == 1  # 4♣ over 3♣
    play(deal, "QD", "KD", "AD")  # seat 0 holds neither diamonds nor clubs
    assert set(deal.legal_moves()) == {Move.play(c) for c in deal.hand(0)}


def test_m8_must_trump_applies_only_once_cut_hukum_has_set_trump():
    deal = deal_of(Rules(must_trump=True), 3, *CUT_HANDS)
    play(deal, "AS")
    # Seat 1 is the first void player: no trump yet, so any card (M-11).
    assert set(deal.legal_moves()) == {Move.play(c) for c in deal.hand(1)}
    play(deal, "QD")  # cuts: diamonds are trump
    play(deal, "7S")
    assert set(deal.legal_moves()) == moves("AD 7D 6D 5D 4D 3D 2D")
    assert_illegal(deal, "3H", r"must play a trump \(♦\) \(must_trump, M-8\)")


def test_m8_must_trump_under_band_hukum_only_after_the_reveal():
    rules = Rules.preset("hidden", reveal="on_request", must_trump=True)
    deal = deal_of(rules, 3, *BAND_HANDS)
    play(deal, "hide 9H", "QS")
    # Seat 1 is void but trump is unknown: any card, or ask.
    assert set(deal.legal_moves()) == {Move.play(c) for c in deal.hand(1)} | {Move.REVEAL_TRUMP}
    play(deal, "8D", "reveal", "5H", "AS")  # seat 2 asks and trumps: wins
    assert deal.tricks[0].winner == 2
    play(deal, "2C", "AC")
    # Seat 0 is void in clubs and now holds the turned-up 9♥: trump is known, so it must
    # trump although it did not ask.
    assert set(deal.legal_moves()) == moves("9H")
    assert_illegal(deal, "AD", r"must play a trump \(♥\) \(must_trump, M-8\)")


def test_m8_must_trump_under_band_auto_names_must_trump_not_a_request():
    deal = deal_of(Rules.preset("hidden", must_trump=True), 3, *BAND_HANDS)
    play(deal, "hide 9H", "QS")
    assert deal.trump_known  # turned up at seat 1's void; nobody asked
    assert set(deal.legal_moves()) == moves("AH KH QH JH 10H 8H 7H")
    assert_illegal(deal, "8D", r"must play a trump \(♥\) \(must_trump, M-8\)")


def test_m9_highest_card_of_the_led_suit_wins_without_a_trump():
    deal = open_deal()
    winner = play_trick(deal, "2H AS 3H AD")
    # The A♠ and the A♦ are neither trumps nor of the led suit: the 3♥ wins.
    assert winner == 2
    assert [p.trump for p in deal.tricks[0].plays] == [False] * 4
    assert deal.tricks[0].winning_card.card == Card.parse("3H")


def test_m9_highest_trump_wins_and_the_winner_leads_the_next_trick():
    deal = open_deal()
    play_trick(deal, "2H AS 3H AD")
    assert deal.turn == 2
    winner = play_trick(deal, "4H 3C 5H 4C")
    assert winner == 1
    assert [p.trump for p in deal.tricks[1].plays] == [False, True, False, True]
    assert deal.turn == 1
    assert deal.tricks_won == (1, 1)


def test_m9_a_lower_trump_after_a_higher_one_does_not_win():
    deal = open_deal()
    play_trick(deal, "2H AS 3H AD")
    assert play_trick(deal, "4H 9C 5H 4C") == 3


def test_m4_clockwise_play_order():
    rules = Rules(trump="open", direction="clockwise")
    # Clockwise with dealer 1: seat 0 leads, then 3, 2, 1.
    deal = deal_of(rules, 1, *VOID_HANDS, shown_card="7C")
    assert deal.turn == 0
    play(deal, "2H")
    assert deal.turn == 3
    assert_illegal(deal, "3H", "not your turn", seat=2)
    play(deal, "AD", "3H", "AS")
    assert deal.tricks[0].winner == 2
    assert [p.seat for p in deal.tricks[0].plays] == [0, 3, 2, 1]
