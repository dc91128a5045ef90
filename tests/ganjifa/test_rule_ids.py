"""Ganjifa's errors carry the ids of the rules they break as data (``rule_ids``), the same
ids their message names: the server sends them to programs without reading the text."""

from __future__ import annotations

import random
import re

import pytest

from hukum.ganjifa import Deal, IllegalMoveError, Move, Rules
from hukum.ganjifa.move import PLAY_MOVES
from tests.ganjifa.helpers import make_deal

#: A rule id as the messages name them.
NAMED = re.compile(r"\b[A-Z]-\d+\b")


def _named(message: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(NAMED.findall(message)))


def test_the_opening_lead_carries_g6() -> None:
    deal = Deal.new(Rules(), 0, 5)
    turn = deal.turn
    assert turn is not None
    hand = deal.view(turn).hand
    held = next(PLAY_MOVES[c] for c in hand if PLAY_MOVES[c] not in deal.legal_moves())
    with pytest.raises(IllegalMoveError) as refused:
        deal.push(held, seat=turn)
    assert refused.value.rule_ids == ("G-6",)
    assert "(G-6)" in str(refused.value)
    with pytest.raises(IllegalMoveError) as refused:
        deal.push(deal.legal_moves()[0], seat=(turn + 1) % 3)
    assert refused.value.rule_ids == ("G-8", "G-9")


def test_a_card_off_the_led_suit_carries_g7() -> None:
    deal = make_deal({0: "Ma1 Ma2 Ku5"})
    lead = deal.legal_moves()[0]
    deal.push(lead, seat=deal.turn)
    while deal.turn != 0:
        deal.push(deal.legal_moves()[0], seat=deal.turn)
    held = [PLAY_MOVES[c] for c in deal.view(0).hand]
    off = [m for m in held if m not in deal.legal_moves()]
    assert off
    with pytest.raises(IllegalMoveError) as refused:
        deal.push(off[0], seat=0)
    assert refused.value.rule_ids == ("G-7",)


def test_every_refusal_carries_the_rules_its_message_names() -> None:
    """Every card and Dukal refused in a deal played at random: its ``rule_ids`` are the
    ids its message names, in order, once each (none named: none)."""
    rng = random.Random(7)
    deal = Deal.new(Rules(dukal="either"), 1, 3)
    seen = 0
    while not deal.is_over():
        turn = deal.turn
        assert turn is not None
        legal = deal.legal_moves()
        hand = list(deal.view(turn).hand)
        tries = [PLAY_MOVES[c] for c in hand[:12]]
        if len(hand) >= 3:
            tries.append(Move.parse("dukal " + " ".join(str(c) for c in hand[:3])))
            tries.append(Move.parse("give " + " ".join(str(c) for c in hand[:2])))
        for move in tries:
            for seat in (turn, (turn + 1) % 3):
                if seat == turn and deal.is_legal(move):
                    continue
                with pytest.raises(IllegalMoveError) as refused:
                    deal.push(move, seat=seat)
                assert refused.value.rule_ids == _named(str(refused.value)), refused.value
                seen += bool(refused.value.rule_ids)
        if legal:
            deal.push(rng.choice(legal), seat=turn)
        else:  # answering a Dukal: any ``need`` cards of the hand
            need = deal.answer_size
            deal.push(Move.parse("give " + " ".join(str(c) for c in hand[:need])), seat=turn)
    assert seen
