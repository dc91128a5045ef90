"""Ganjifa cards and their notation (G-2, G-3)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hukum.ganjifa import CARDS, SUIT_MASKS, Card, CardParseError, CardSet, Suit


def test_g2_deck_has_ten_avatar_suits_of_twelve_cards_in_avatar_order() -> None:
    assert [s.avatar for s in Suit] == [
        "Matsya", "Kurma", "Varaha", "Narasimha", "Vamana",
        "Parashurama", "Rama", "Krishna", "Buddha", "Kalki",
    ]  # fmt: skip
    assert len(CARDS) == 120 and len({c.code for c in CARDS}) == 120
    for suit in Suit:
        ranks = sorted(c.rank for c in CARDS if c.suit == suit)
        assert ranks == sorted([str(n) for n in range(1, 11)] + ["M", "R"])
        assert SUIT_MASKS[suit].bit_count() == 12
    assert Suit.MATSYA.emblem == "fish" and Suit.KALKI.emblem == "horse"


def test_g3_suits_one_to_five_rank_raja_mantri_then_one_high() -> None:
    for suit in list(Suit)[:5]:
        order = [Card.of(suit, r) for r in ["R", "M", *range(1, 11)]]
        assert [c.power for c in order] == list(range(11, -1, -1))
        assert suit.reversed


def test_g3_suits_six_to_ten_rank_raja_mantri_then_ten_high() -> None:
    for suit in list(Suit)[5:]:
        order = [Card.of(suit, r) for r in ["R", "M", *range(10, 0, -1)]]
        assert [c.power for c in order] == list(range(11, -1, -1))
        assert not suit.reversed


def test_g3_edge_matsya_one_beats_ten_kalki_ten_beats_one_raja_over_mantri() -> None:
    assert Card.parse("Ma1").power > Card.parse("Ma10").power
    assert Card.parse("Ka10").power > Card.parse("Ka1").power
    for suit in Suit:
        assert Card.of(suit, "R").power > Card.of(suit, "M").power > Card.of(suit, 1).power


def test_notation_names_and_codes() -> None:
    assert Card.parse("RaR").name == "Raja of Rama"
    assert Card.parse("KrM").name == "Mantri of Krishna"
    assert Card.parse("Vm7").name == "7 of Vamana"
    assert [s.code for s in Suit] == ["Ma", "Ku", "Vr", "Na", "Vm", "Pa", "Ra", "Kr", "Bu", "Ka"]
    assert str(Card.parse("ka10")) == "Ka10" and Card.parse("MA1") == Card.parse("Ma1")


@pytest.mark.parametrize(
    "text", ["", "Ma", "Ma0", "Ma11", "MaK", "Ra 5", " Ra5", "Ra5 ", "Rama5", "10Ma", "RaRR", "Xx1"]
)
def test_notation_is_parsed_strictly(text: str) -> None:
    with pytest.raises(CardParseError):
        Card.parse(text)


def test_suit_parse_and_next_wraps_from_kalki_to_matsya() -> None:
    assert Suit.parse("kalki") is Suit.KALKI and Suit.parse("Vr") is Suit.VARAHA
    assert Suit.KALKI.next() is Suit.MATSYA
    with pytest.raises(CardParseError):
        Suit.parse("Hearts")


@settings(max_examples=50, derandomize=True, database=None)
@given(st.integers(0, (1 << 120) - 1))
def test_cardset_round_trips_through_its_text(mask: int) -> None:
    cards = CardSet(mask)
    assert CardSet.parse(str(cards)) == cards and len(cards) == mask.bit_count()


@settings(max_examples=200, derandomize=True, database=None)
@given(st.text(max_size=6))
def test_fuzz_card_parse_either_fails_cleanly_or_round_trips(text: str) -> None:
    try:
        card = Card.parse(text)
    except CardParseError:
        return
    assert Card.parse(card.code) == card and card.code.lower() == text.lower()
