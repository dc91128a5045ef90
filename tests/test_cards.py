"""Cards, suits, notation and card sets (hukum.cards)."""

from __future__ import annotations

import copy
import pickle

import pytest

from hukum.cards import CARDS, RANKS, SUIT_MASKS, Card, CardParseError, CardSet, Suit, bits, deck

ALL = list(bits(deck(52)))


def test_the_pack_has_52_cards_and_48_without_the_twos():
    assert len(ALL) == 52
    assert len(set(ALL)) == 52
    assert len(list(bits(deck(48)))) == 48
    assert {c.rank for c in bits(deck(52)) if not deck(48) >> c & 1} == {2}
    with pytest.raises(ValueError, match="52 or 48"):
        deck(32)


def test_card_is_an_int_of_suit_and_rank():
    c = Card.of(Suit.SPADES, 10)
    assert c == 3 * 16 + 10 - 2
    assert isinstance(c, int)
    assert (c.suit, c.rank) == (Suit.SPADES, 10)
    assert c.bit == 1 << c
    assert CARDS[c] is c
    assert {Card.of(s, r) for s in Suit for r in RANKS} == set(ALL)


def test_m3_ranks_run_from_two_to_ace():
    # M-3: in every suit A > K > Q > J > 10 > … > 2, and the order of the ints agrees.
    for suit in Suit:
        order = [
            Card.parse(t + suit.letter)
            for t in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
        ]
        assert [c.rank for c in order] == list(range(2, 15))
        assert order == sorted(order)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("10S", "10S"),
        ("TS", "10S"),
        ("ts", "10S"),
        ("10♠", "10S"),
        ("♠10", "10S"),
        ("S10", "10S"),
        ("10♤", "10S"),
        (" 10s ", "10S"),
        ("qh", "QH"),
        ("Q♥", "QH"),
        ("♡Q", "QH"),
        ("AC", "AC"),
        ("a♣", "AC"),
        ("2D", "2D"),
        ("♦2", "2D"),
        ("J♢", "JD"),
        ("K♧", "KC"),
        ("10♠\ufe0f", "10S"),
        ("♠\ufe0f10", "10S"),
    ],
)
def test_card_notations_parse(text, code):
    assert Card.parse(text).code == code


@pytest.mark.parametrize(
    "text",
    ["", " ", "10", "S", "1S", "11S", "0S", "XS", "10X", "AAS", "10SS", "S S", "10 S", "♠♠", "AH2"],
)
def test_bad_card_text_is_a_clear_error(text):
    with pytest.raises(CardParseError, match="not a card") as info:
        Card.parse(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_card_parse_rejects_what_is_not_text():
    with pytest.raises(CardParseError, match="not a card"):
        Card.parse(10)  # type: ignore[arg-type]


def test_every_card_round_trips_through_each_notation():
    for c in ALL:
        assert Card.parse(c.code) is c
        assert Card.parse(str(c)) is c
        assert Card.parse(str(c).lower()) is c
        assert eval(repr(c)) == c
        assert len(c.code) in (2, 3)


def test_card_printing():
    c = Card.parse("10H")
    assert (str(c), c.code, repr(c)) == ("10♥", "10H", "Card.parse('10H')")
    assert str(Card.parse("JC")) == "J♣"


def test_card_of_rejects_impossible_cards():
    with pytest.raises(CardParseError):
        Card.of(Suit.CLUBS, 1)
    with pytest.raises(CardParseError):
        Card.of(Suit.CLUBS, 15)
    with pytest.raises(CardParseError):
        Card.of(4, 10)


@pytest.mark.parametrize(
    ("text", "suit"),
    [("S", Suit.SPADES), ("s", Suit.SPADES), ("♠", Suit.SPADES), ("♤", Suit.SPADES),
     ("spades", Suit.SPADES), ("Hearts", Suit.HEARTS), ("d", Suit.DIAMONDS), ("♣", Suit.CLUBS),
     (" c ", Suit.CLUBS), ("♥\ufe0f", Suit.HEARTS)],
)  # fmt: skip
def test_suit_notations_parse(text, suit):
    assert Suit.parse(text) is suit


@pytest.mark.parametrize("text", ["", "X", "10", "SS", "spade", "♠♥"])
def test_bad_suit_text_is_a_clear_error(text):
    with pytest.raises(CardParseError, match="not a suit"):
        Suit.parse(text)


def test_suit_printing_round_trips():
    for s in Suit:
        assert Suit.parse(s.letter) is s
        assert Suit.parse(s.symbol) is s
        assert Suit.parse(str(s)) is s
        assert Suit.parse(s.name) is s
    assert [s.letter for s in Suit] == ["C", "D", "H", "S"]
    assert "".join(str(s) for s in Suit) == "♣♦♥♠"


def test_cardset_parse_print_round_trip():
    s = CardSet.parse("AS, 10S 3D  ♥Q")
    assert len(s) == 4
    assert str(s) == "3♦ Q♥ 10♠ A♠"
    assert s.codes() == ["3D", "QH", "10S", "AS"]
    assert CardSet.parse(str(s)) == s
    assert CardSet.parse(" ".join(s.codes())) == s
    assert eval(repr(s)) == s
    assert CardSet.parse("") == CardSet() == CardSet([])
    assert not CardSet()
    assert str(CardSet()) == ""


def test_cardset_parse_error_names_the_bad_card():
    with pytest.raises(CardParseError, match="'1S'"):
        CardSet.parse("AS 1S")


def test_cardset_iterates_lowest_first_and_contains():
    s = CardSet.parse("AS 2C 10H")
    assert list(s) == [Card.parse("2C"), Card.parse("10H"), Card.parse("AS")]
    assert Card.parse("10H") in s
    assert Card.parse("10S") not in s
    assert "10H" not in s
    assert -1 not in s
    assert 64 not in s


def test_cardset_operations():
    a = CardSet.parse("AS KS 10H 2C")
    b = CardSet.parse("KS 10H 3D")
    assert a | b == CardSet.parse("AS KS 10H 2C 3D")
    assert a & b == CardSet.parse("KS 10H")
    assert a - b == CardSet.parse("AS 2C")
    assert a ^ b == CardSet.parse("AS 2C 3D")
    assert CardSet.parse("KS 10H") <= a
    assert a <= a
    assert not b <= a
    assert a >= CardSet.parse("2C")
    assert not CardSet.parse("2C") >= a
    assert a.isdisjoint(CardSet.parse("3D QH"))
    assert not a.isdisjoint(b)
    assert a.of_suit(Suit.SPADES) == CardSet.parse("AS KS")
    assert a.of_suit(Suit.DIAMONDS) == CardSet()
    assert a == CardSet(a.mask) == CardSet(iter(a))
    assert hash(a) == hash(CardSet.parse("2C 10H KS AS"))
    assert a != a.mask
    assert (a | b).mask == a.mask | b.mask
    full = CardSet(deck(52))
    assert len(full) == 52
    assert all(len(full.of_suit(s)) == 13 for s in Suit)
    assert full.of_suit(Suit.HEARTS).mask == SUIT_MASKS[Suit.HEARTS]


def test_cardset_is_immutable():
    s = CardSet.parse("AS")
    with pytest.raises(AttributeError):
        s.mask = 0


def test_cardset_rejects_a_mask_outside_the_pack():
    with pytest.raises(ValueError, match="not a card-set mask"):
        CardSet(1 << 13)  # rank 15 of clubs does not exist
    with pytest.raises(ValueError, match="not a card-set mask"):
        CardSet(-1)


def test_cards_and_card_sets_pickle_and_copy():
    c = Card.parse("10S")
    s = CardSet.parse("AS 10H")
    assert pickle.loads(pickle.dumps(c)) == c
    assert pickle.loads(pickle.dumps(s)) == s
    assert copy.copy(s) == s
    assert copy.deepcopy(s) == s
    assert pickle.loads(pickle.dumps(Suit.HEARTS)) is Suit.HEARTS
