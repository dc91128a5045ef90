"""Move notation: every move round-trips through ``str`` and ``Move.parse``; bad text fails."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hukum.ganjifa import CARDS, CardSet, InvalidMoveError, Move, MoveKind


def test_single_plays_are_interned_and_round_trip() -> None:
    for card in CARDS:
        move = Move.play(card)
        assert Move.parse(str(move)) is move and Move.parse(f"play {card}") is move
        assert move.kind is MoveKind.PLAY and move.card == card and move.size == 1
    assert Move.play("RaR") is Move.parse("rar")


def test_dukal_and_give_notation() -> None:
    move = Move.dukal("Ra5 Ra3 Ra4")
    assert str(move) == "dukal Ra3 Ra4 Ra5" and move == Move.parse("DUKAL ra4, ra3 ra5")
    assert move.cards == CardSet.parse("Ra3 Ra4 Ra5") and move.size == 3
    give = Move.give(["Ka1", "Ma10", "Ku9"])
    assert str(give) == "give Ma10 Ku9 Ka1" and give != Move.dukal("Ma10 Ku9 Ka1")
    assert pickle.loads(pickle.dumps(give)) == give
    assert pickle.loads(pickle.dumps(Move.play("Ma1"))) is Move.play("Ma1")


@pytest.mark.parametrize(
    "text",
    ["", "Ma1 Ma2", "play", "play Ma1 Ma2", "dukal", "dukal Ma1", "give Ma1 Ma1", "lead Ma1",
     "dukal Ma1 X", "Ma 1", "reveal"],
)  # fmt: skip
def test_bad_text_is_not_a_move(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Move.parse(text)


def test_bad_builders() -> None:
    with pytest.raises(InvalidMoveError):
        Move.play(120)
    with pytest.raises(InvalidMoveError):
        Move.play(True)
    with pytest.raises(InvalidMoveError):
        Move.dukal(["Ma1"])
    with pytest.raises(InvalidMoveError):
        Move.give(["Ma1", "Ma1"])


@settings(max_examples=100, derandomize=True, database=None)
@given(st.sampled_from(list(MoveKind)), st.integers(1, (1 << 120) - 1))
def test_every_move_round_trips(kind: MoveKind, mask: int) -> None:
    if kind is MoveKind.PLAY:
        mask &= -mask
    elif mask.bit_count() < 2:
        mask |= 1 if mask != 1 else 2
    move = Move(kind, mask)
    assert Move.parse(str(move)) == move


@settings(max_examples=200, derandomize=True, database=None)
@given(st.text(alphabet="MaKuRR dukalgive012345,", max_size=20))
def test_fuzz_parse_fails_cleanly_or_round_trips(text: str) -> None:
    try:
        move = Move.parse(text)
    except InvalidMoveError:
        return
    assert Move.parse(str(move)) == move
