"""Moves and their notation (hukum.mindi.move)."""

from __future__ import annotations

import copy
import pickle

import pytest

from hukum.cards import Card, Suit, bits, deck
from hukum.mindi import InvalidMoveError, Move, MoveKind


def every_move() -> list[Move]:
    pack = list(bits(deck(52)))
    return [
        *(Move.play(c) for c in pack),
        *(Move.hide(c) for c in pack),
        *(Move.announce(s) for s in Suit),
        Move.REVEAL_TRUMP,
    ]


def test_moves_round_trip_through_their_notation():
    moves = every_move()
    assert len(set(moves)) == 52 + 52 + 4 + 1
    for move in moves:
        assert Move.parse(str(move)) is move
        assert eval(repr(move)) is move


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("10S", Move.play("10S")),
        ("play ts", Move.play(Card.parse("10S"))),
        ("  PLAY  ♠10 ", Move.play("10S")),
        ("hide qh", Move.hide("QH")),
        ("Hide Q♥", Move.hide("QH")),
        ("reveal", Move.REVEAL_TRUMP),
        ("REVEAL", Move.REVEAL_TRUMP),
        ("announce ♠", Move.announce(Suit.SPADES)),
        ("announce spades", Move.announce("S")),
        ("announce h", Move.announce(2)),
    ],
)
def test_move_notations(text, move):
    assert Move.parse(text) is move


@pytest.mark.parametrize(
    "text",
    ["", "ace", "play", "hide", "announce", "play 1S", "hide X", "announce X", "reveal S",
     "play 10S now", "discard 10S", "10S 10H"],
)  # fmt: skip
def test_bad_move_text_is_a_clear_error(text):
    with pytest.raises(InvalidMoveError, match="not a move") as info:
        Move.parse(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_bad_move_arguments_are_invalid_move_errors():
    with pytest.raises(InvalidMoveError):
        Move.play("1S")
    with pytest.raises(InvalidMoveError):
        Move.play(13)  # no rank 15
    with pytest.raises(InvalidMoveError):
        Move.play(64)
    with pytest.raises(InvalidMoveError):
        Move.play(-1)
    with pytest.raises(InvalidMoveError):
        Move.hide("XX")
    with pytest.raises(InvalidMoveError):
        Move.announce("X")
    with pytest.raises(InvalidMoveError):
        Move.announce(4)
    with pytest.raises(InvalidMoveError):
        Move.parse(None)  # type: ignore[arg-type]


def test_moves_are_interned_and_immutable():
    assert Move.play("10S") is Move.play(Card.parse("10S")) is Move.parse("T♠")
    m = Move.play("10S")
    assert (m.kind, m.card, m.suit) == (MoveKind.PLAY, Card.parse("10S"), None)
    a = Move.announce("D")
    assert (a.kind, a.card, a.suit) == (MoveKind.ANNOUNCE, None, Suit.DIAMONDS)
    with pytest.raises(AttributeError):
        m.card = None
    assert Move.play("10S") != Move.hide("10S")
    assert Move.play("10S") != "10S"


def test_the_hidden_move_others_see():
    assert Move.HIDDEN.kind is MoveKind.HIDE
    assert Move.HIDDEN.card is None
    assert str(Move.HIDDEN) == "hide ??"
    assert Move.hide("2C") != Move.HIDDEN


def test_moves_pickle_and_copy_to_the_interned_move():
    for move in [*every_move(), Move.HIDDEN]:
        assert pickle.loads(pickle.dumps(move)) is move
        assert copy.deepcopy(move) is move
