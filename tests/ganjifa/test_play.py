"""Following (G-7) and winning a trick (G-8), with the Ganjifa edge cases of RULES.md Part 3."""

from __future__ import annotations

import pytest

from hukum.ganjifa import CardSet, Deal, IllegalMoveError, Move, Rules
from tests.ganjifa.helpers import ready


def _allowed(deal: Deal) -> set[str]:
    return {str(m) for m in deal.legal_moves()}


def _play(deal: Deal, *cards: str) -> None:
    for c in cards:
        deal.push(Move.parse(c))


def test_g7_a_player_holding_the_led_suit_must_follow() -> None:
    deal = ready({0: "Ku1", 1: "Ku5 Ma3 Ra2"})
    _play(deal, "Ku1")
    assert all(m.card.suit.code == "Ku" for m in deal.legal_moves())
    with pytest.raises(IllegalMoveError, match=r"seat 1 must follow Kurma \(G-7\)"):
        deal.push(Move.parse("Ma3"))
    with pytest.raises(IllegalMoveError, match=r"must follow Kurma"):
        deal.push(Move.parse("Ra2"))  # not even a trump
    deal.push(Move.parse("Ku5"))


def test_g7_void_player_may_play_a_trump_or_a_card_of_the_next_held_suit() -> None:
    # Seat 1 holds no Kurma and no Varaha: S is Narasimha.
    deal = ready({0: "Ku1", 1: "Na4 Na5 Vm2 Ra2 Ma3"}, empty={1: "Ku Vr"})
    _play(deal, "Ku1")
    hand = CardSet(deal.hand(1))
    assert _allowed(deal) == {c.code for c in hand if c.suit.code in ("Na", "Ra")}
    with pytest.raises(IllegalMoveError, match=r"play a trump \(Rama\) or a card of Narasimha"):
        deal.push(Move.parse("Vm2"))
    with pytest.raises(IllegalMoveError, match=r"G-7"):
        deal.push(Move.parse("Ma3"))
    deal.push(Move.parse("Ra2"))  # a trump, though S is held: allowed by default


def test_g7_edge_void_on_kalki_led_searches_s_from_matsya_on() -> None:
    deal = ready({0: "Ka5", 1: "Ma3 Ku4 Ra2", 2: "Ka6"}, empty={1: "Ka"})
    _play(deal, "Ka5")
    hand = CardSet(deal.hand(1))
    assert _allowed(deal) == {c.code for c in hand if c.suit.code in ("Ma", "Ra")}
    with pytest.raises(IllegalMoveError, match="a card of Matsya"):
        deal.push(Move.parse("Ku4"))
    _play(deal, "Ma3", "Ka6")
    assert deal.tricks[-1].winner == 2  # Matsya (S) does not win; Ka6 beats Ka5


def test_g7_edge_void_in_trump_when_trump_is_led_s_is_the_first_suit_after_trump() -> None:
    # Rama (trump) led; seat 1 holds no Rama and no Krishna: S is Buddha.
    deal = ready({0: "Ra9", 1: "Bu3 Ka2 Ma4"}, empty={1: "Ra Kr"})
    _play(deal, "Ra9")
    hand = CardSet(deal.hand(1))
    assert _allowed(deal) == {c.code for c in hand if c.suit.code == "Bu"}
    with pytest.raises(IllegalMoveError, match="a card of Buddha"):
        deal.push(Move.parse("Ka2"))


def test_g7_void_rule_trump_first_forces_a_trump_when_held() -> None:
    rules = Rules(void_rule="trump_first")
    deal = ready({0: "Ku1", 1: "Na4 Ra2 Ra3"}, empty={1: "Ku Vr"}, rules=rules)
    _play(deal, "Ku1")
    hand = CardSet(deal.hand(1))
    assert _allowed(deal) == {c.code for c in hand if c.suit.code == "Ra"}
    with pytest.raises(IllegalMoveError, match=r"must play a trump \(Rama\).*trump_first"):
        deal.push(Move.parse("Na4"))


def test_g7_void_rule_trump_first_without_trumps_plays_s() -> None:
    rules = Rules(void_rule="trump_first")
    deal = ready({0: "Ku1 Ra3", 1: "Na4 Pa2"}, empty={1: "Ku Vr Ra"}, rules=rules)
    _play(deal, "Ku1")
    hand = CardSet(deal.hand(1))
    assert _allowed(deal) == {c.code for c in hand if c.suit.code == "Na"}


def test_g7_night_trump_is_krishna() -> None:
    rules = Rules(time="night")
    deal = ready({0: "Ku1", 1: "Na4 Kr2 Ra2"}, empty={1: "Ku Vr"}, rules=rules)
    _play(deal, "Ku1")
    hand = CardSet(deal.hand(1))
    assert _allowed(deal) == {c.code for c in hand if c.suit.code in ("Na", "Kr")}


def test_g8_edge_in_matsya_a_one_beats_a_ten() -> None:
    deal = ready({0: "Ma10", 1: "Ma1", 2: "Ma5"})
    _play(deal, "Ma10", "Ma1", "Ma5")
    assert deal.tricks[-1].winner == 1 and deal.turn == 1 and deal.phase == "lead"


def test_g8_edge_in_kalki_a_ten_beats_a_one() -> None:
    deal = ready({0: "Ka1", 1: "Ka5", 2: "Ka10"})
    _play(deal, "Ka1", "Ka5", "Ka10")
    assert deal.tricks[-1].winner == 2 and deal.turn == 2


def test_g8_edge_raja_beats_mantri_in_every_suit() -> None:
    deal = ready({0: "KuM", 1: "KuR", 2: "Ku1"})
    _play(deal, "KuM", "KuR", "Ku1")
    assert deal.tricks[-1].winner == 1


def test_g8_highest_trump_wins_over_the_led_suit() -> None:
    deal = ready({0: "KuR", 1: "Ra3", 2: "Ra5"}, empty={1: "Ku", 2: "Ku"})
    _play(deal, "KuR", "Ra3", "Ra5")
    trick = deal.tricks[-1]
    assert trick.winner == 2 and len(trick.cards) == 3
    assert deal.scores[2] == 3


def test_g8_a_card_of_s_never_wins_unless_s_is_trump() -> None:
    deal = ready({0: "Ku10", 1: "VrR", 2: "Ku9"}, empty={1: "Ku"})
    _play(deal, "Ku10", "VrR", "Ku9")
    assert deal.tricks[-1].winner == 2  # Ku9 beats Ku10 (Kurma ranks 1 high); VrR is S


def test_g8_a_card_of_s_wins_when_s_is_the_trump_suit() -> None:
    # Parashurama led; seat 1 void in it: the next suit, Rama, is trump.
    deal = ready({0: "PaR", 1: "Ra1", 2: "Pa1"}, empty={1: "Pa"})
    _play(deal, "PaR", "Ra1", "Pa1")
    assert deal.tricks[-1].winner == 1  # the lowest trump beats the Raja of the led suit


def test_follow_rejects_dukals_and_answers_and_cards_not_held() -> None:
    deal = ready({0: "Ku1", 1: "Ku5 Ku6 Ku7 Ku8"})
    _play(deal, "Ku1")
    with pytest.raises(IllegalMoveError, match=r"Dukal is led only by the player who leads"):
        deal.push(Move.parse("dukal Ku6 Ku7 Ku8"))
    with pytest.raises(IllegalMoveError, match="no Dukal to answer"):
        deal.push(Move.parse("give Ku6 Ku7 Ku8"))
    with pytest.raises(IllegalMoveError, match="not in seat 1's hand"):
        deal.push(Move.parse("Ku1"))
    with pytest.raises(IllegalMoveError, match="not your turn: seat 1"):
        deal.push(Move.parse("Ku5"), seat=2)
    with pytest.raises(TypeError):
        deal.push("Ku5")  # type: ignore[arg-type]
    assert len(deal.history) == 4


def test_check_says_why_and_changes_nothing() -> None:
    deal = ready({0: "Ku1", 1: "Ku5 Ma3"})
    _play(deal, "Ku1")
    before = (deal.history, deal.hand(1), deal.trick)
    with pytest.raises(IllegalMoveError, match="must follow Kurma"):
        deal.check(Move.parse("Ma3"), seat=1)
    deal.check(Move.parse("Ku5"), seat=1)
    assert (deal.history, deal.hand(1), deal.trick) == before
    assert deal.is_legal(Move.parse("Ku5")) and not deal.is_legal(Move.parse("Ma3"))


def test_a_finished_deal_refuses_moves() -> None:
    deal = Deal.new(Rules(), 0, 1)
    while not deal.is_over():
        deal.push(deal.legal_moves()[0])
    assert deal.turn is None and deal.legal_moves() == () and deal.allowed_cards() == 0
    with pytest.raises(IllegalMoveError, match="the deal is over"):
        deal.push(Move.parse("Ma1"), seat=0)
