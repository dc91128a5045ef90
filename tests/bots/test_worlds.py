"""Sampled worlds (hukum.bots.worlds): the determinizer deals only what the seat cannot rule
out, a world's weight, and play-outs that agree with the engine's views."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from hukum.bots.rules import RulesBot
from hukum.bots.worlds import (
    build_deal,
    deal_knowledge,
    play_move_out,
    playout_value,
    push_noting_voids,
    replay,
    rules_likelihood,
    sample_world,
    shown_voids,
)
from hukum.cards import SUIT_MASKS
from hukum.mindi import Deal, Move, Rules

RULES = [
    Rules(),
    Rules.preset("hidden"),
    Rules.preset("hidden", reveal="on_request"),
    Rules.preset("dehla-pakad"),
    Rules(must_trump=True),
    Rules(trump="open"),
    Rules.preset("mindi-world", players=6, deck=48),
]


def random_position(rules: Rules, seed: int, steps: int) -> Deal:
    """A deal after ``steps`` random moves (at least past the hide/announce decision)."""
    rng = random.Random(seed)
    deal = Deal.new(rules, dealer=seed % rules.players, seed=seed)
    done = 0
    while not deal.is_over() and (done < steps or deal.phase != "play"):
        moves = deal.legal_moves()
        deal.push(moves[rng.randrange(len(moves))])
        done += 1
    return deal


@settings(max_examples=60, deadline=None)
@given(
    rules=st.sampled_from(RULES),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 60),
    seat=st.integers(0, 7),
    world_seed=st.integers(0, 1000),
)
def test_the_determinizer_deals_only_what_the_seat_cannot_rule_out(
    rules: Rules, seed: int, steps: int, seat: int, world_seed: int
) -> None:
    deal = random_position(rules, seed, steps)
    me = seat % rules.players
    view = deal.view(me)
    hands, face_down = sample_world(view, random.Random(world_seed))
    assert hands[me] == view.hand.mask
    dealt = 0
    for s, hand in enumerate(hands):
        assert not dealt & hand, "a card dealt twice"
        dealt |= hand
        if s == me:
            continue
        assert hand.bit_count() == view.hand_sizes[s]
        known = view.known[s].mask
        assert hand & known == known
        assert not (hand & ~known) & ~view.unseen.mask, "a seen card dealt"
        for suit in view.voids[s]:
            assert not (hand & ~known) & SUIT_MASKS[suit], "a card dealt into a shown void"
        for number in range(4):
            if shown_voids(view)[s] >> number & 1:
                assert not (hand & ~known) & SUIT_MASKS[number]
    hidden = view.chooser not in (None, me) and not view.trump_known and view.phase == "play"
    assert (face_down is not None) == hidden
    if face_down is not None:
        assert view.unseen.mask >> face_down & 1 and not dealt >> face_down & 1
    # The rebuilt deal looks exactly the same from this seat.
    assert build_deal(view, (hands, face_down)).view(me) == view


def test_play_out_facts_agree_with_the_view() -> None:
    bot = RulesBot()
    for rules in RULES[:4]:
        deal = random_position(rules, 3, 0)
        voids = [0] * rules.players
        while not deal.is_over():
            turn = deal.turn
            assert turn is not None
            move = bot.choose(deal.view(turn))
            legal = deal.legal_moves()
            assert bot.play(deal_knowledge(deal, voids), legal) == move
            push_noting_voids(deal, move, voids)


def test_the_true_world_of_rule_based_players_keeps_full_weight() -> None:
    bot = RulesBot()
    rules = Rules.preset("hidden")
    deal = Deal.new(rules, dealer=0, seed=21)
    while len(deal.history) < 30:
        turn = deal.turn
        assert turn is not None
        deal.push(bot.choose(deal.view(turn)))
    view = deal.view(2)
    truth = tuple(deal.hand(s).mask for s in range(4))
    hidden = deal.face_down if not deal.trump_known and deal.chooser != 2 else None
    assert replay(view, (truth, hidden), rules_likelihood(bot, 0.5))[1] == 1.0
    rng = random.Random(1)
    weights = [
        replay(view, sample_world(view, rng), rules_likelihood(bot, 0.5))[1] for _ in range(20)
    ]
    assert min(weights) < 1.0


def _played_out_by_views(deal: Deal, move: Move) -> tuple[float, int]:
    """The play-out value of ``move`` for the mover's team and the moves made, the deal
    played out by the rule-based player from each seat's view (the engine's path, not the
    play-outs'); the deal is left as it was."""
    assert deal.turn is not None
    team = deal.turn % 2
    made = 1
    deal.push(move)
    while not deal.is_over():
        assert deal.turn is not None
        deal.push(RulesBot().choose(deal.view(deal.turn)))
        made += 1
    value = playout_value(deal, team)
    for _ in range(made):
        deal.pop()
    return value, made


def test_a_move_played_out_scores_as_from_the_views_and_is_taken_back() -> None:
    """play_move_out works out each seat's facts from the deal, not from a view: its value
    and moves are those of the rule-based player playing from the views, and the deal is
    left as it was."""
    for rules in RULES[:4]:
        for seed in range(3):
            deal = random_position(rules, seed, 12)
            assert deal.turn is not None
            view = deal.view(deal.turn)
            history = list(deal.history)
            for move in deal.legal_moves():
                out = play_move_out(deal, move, view.seat % 2, shown_voids(view), RulesBot())
                assert out == _played_out_by_views(deal, move), (rules, seed, move)
                assert list(deal.history) == history
