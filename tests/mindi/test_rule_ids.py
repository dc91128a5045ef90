"""Mindi's errors carry the ids of the rules they break as data (``rule_ids``), the same ids
their message names: the server sends them to programs without reading the text."""

from __future__ import annotations

import random
import re

import pytest

from hukum.cards import bits, deck
from hukum.mindi import Deal, IllegalMoveError, Move, Rules, RulesError
from tests.mindi.helpers import CUT_HANDS, deal_of, play

#: A rule id as the messages name them.
NAMED = re.compile(r"\b[A-Z]-\d+\b")


def _named(message: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(NAMED.findall(message)))


def test_a_card_off_the_led_suit_carries_m8() -> None:
    deal = Deal.new(Rules(), 0, seed=11)
    while not deal.is_over():
        turn = deal.turn
        assert turn is not None
        legal = set(deal.legal_moves())
        off = [m for c in bits(deck(52)) if (m := Move.play(c)) not in legal]
        held = [m for m in off if m.card is not None and m.card in deal.view(turn).hand]
        if deal.trick and held:
            with pytest.raises(IllegalMoveError) as refused:
                deal.push(held[0], seat=turn)
            assert refused.value.rule_ids == ("M-8",)
            assert "(M-8)" in str(refused.value)
            return
        deal.push(deal.legal_moves()[0], seat=turn)
    pytest.fail("no trick where a held card was off the led suit")


def test_not_your_turn_carries_m7_and_m9() -> None:
    deal = deal_of(Rules(), 3, *CUT_HANDS)
    with pytest.raises(IllegalMoveError) as refused:
        deal.push(Move.play("AS"), seat=1)
    assert refused.value.rule_ids == ("M-7", "M-9")
    play(deal, "AS")


def test_rules_errors_carry_their_rule() -> None:
    with pytest.raises(RulesError) as refused:
        Rules(players=5)
    assert refused.value.rule_ids == ("M-1",)
    with pytest.raises(RulesError) as refused:
        Rules(players=6, deck=52)
    assert refused.value.rule_ids == ("M-2",)


@pytest.mark.parametrize("trump", ["cut", "band", "announce"])
def test_every_refusal_carries_the_rules_its_message_names(trump: str) -> None:
    """Every move refused in a few deals played at random: its ``rule_ids`` are the ids its
    message names, in order, once each (none named: none)."""
    rng = random.Random(trump)
    for seed in range(3):
        rules = Rules(trump=trump)  # type: ignore[arg-type]
        deal = Deal.new(rules, seed % 4, seed)
        specials = [Move.parse(t) for t in ("reveal", "hide 10S", "announce S")]
        seen = 0
        while not deal.is_over():
            turn = deal.turn
            assert turn is not None
            legal = set(deal.legal_moves())
            for move in [Move.play(c) for c in bits(deck(52))] + specials:
                for seat in (turn, (turn + 1) % 4):
                    if seat == turn and move in legal:
                        continue
                    with pytest.raises(IllegalMoveError) as refused:
                        deal.push(move, seat=seat)
                    assert refused.value.rule_ids == _named(str(refused.value)), refused.value
                    seen += bool(refused.value.rule_ids)
            deal.push(rng.choice(sorted(legal, key=str)), seat=turn)
        assert seen
