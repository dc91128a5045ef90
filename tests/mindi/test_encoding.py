"""Mindi for learning programs (hukum.mindi.encoding): the tracker's observations are the
view's, for every seat of every position; nothing hidden reaches an observation (M-20);
actions round-trip; an illegal action is refused naming the legal ones."""

from __future__ import annotations

import random

import numpy as np
import pytest

from hukum.encoding import ActionError
from hukum.envs.core import learning_of
from hukum.games import GAMES
from hukum.mindi import Deal, Move, Rules
from hukum.mindi.encoding import MindiEncoding

SPEC = GAMES["mindi"]

#: Every preset, and the options that change what a seat may see.
RULES = [
    *(Rules.preset(name) for name in SPEC.presets),
    Rules(trump="band", reveal="on_request"),
    Rules(trump="band", must_trump=True),
    Rules(trump="band", reveal="on_request", must_trump=True),
    Rules(must_trump=True),
    Rules(trump="open", capture="dehla"),
    Rules(players=6, deck=48, trump="band", reveal="on_request"),
    Rules(players=8, deck=48, trump="announce"),
]


def _random_deals(rules: Rules, count: int):
    """Deals of ``rules`` played at random, position by position (the deal after each move)."""
    for number in range(count):
        deal = Deal.new(rules, dealer=number % rules.players, seed=1000 + number)
        rng = random.Random(number)
        yield deal
        while not deal.is_over():
            legal = deal.legal_moves()
            deal.push(legal[rng.randrange(len(legal))])
            yield deal


@pytest.mark.parametrize("rules", RULES, ids=lambda r: str(r.differences()) or "classic")
def test_tracker_observes_what_the_view_shows(rules: Rules) -> None:
    """M-20: the fast observer and the view-built observation agree everywhere, and so does
    a tracker copied mid-deal (what OpenSpiel's clone uses)."""
    encoding = MindiEncoding(rules)
    checked = 0
    for deal in _random_deals(rules, 12):
        if not deal.history:
            tracker = encoding.tracker(deal)
        else:
            tracker.pushed()
        for seat in range(rules.players):
            expected = encoding.observe(deal.view(seat))
            got = tracker.observe(seat)
            assert got.shape == (encoding.observation_size,) and got.dtype == np.int8
            if not np.array_equal(got, expected):
                wrong = [
                    name
                    for name in encoding.names
                    if not np.array_equal(
                        encoding.segment(got, name), encoding.segment(expected, name)
                    )
                ]
                pytest.fail(f"seat {seat} after {deal.history}: {wrong} differ")
            checked += 1
        if len(deal.history) == 20:  # a copy goes on from here on its own
            twin = deal.copy()
            twin_tracker = tracker.copy(twin)
            legal = twin.legal_moves()
            twin.push(legal[-1])
            twin_tracker.pushed()
            for seat in range(rules.players):
                assert np.array_equal(twin_tracker.observe(seat), encoding.observe(twin.view(seat)))
    assert checked > 500


@pytest.mark.parametrize("preset", ["classic", "hidden", "dehla-pakad"])
def test_observation_never_shows_hidden_cards(preset: str) -> None:
    """M-20: reshuffling the cards a seat has not seen (a world sampled from its view, the
    history replayed) never changes its observation."""
    rules = Rules.preset(preset)
    encoding = MindiEncoding(rules)
    rng = random.Random(5)
    worlds = 0
    for deal in _random_deals(rules, 6):
        if len(deal.history) % 7 != 3 or deal.is_over():
            continue
        for seat in range(rules.players):
            view = deal.view(seat)
            world = learning_of(SPEC).sample_deal(view, rng)
            tracker = encoding.tracker(world)
            assert np.array_equal(tracker.observe(seat), encoding.observe(view))
            worlds += (
                world.view((seat + 1) % rules.players).hand
                != deal.view((seat + 1) % rules.players).hand
            )
    assert worlds > 20  # the worlds did differ in the others' hands


def test_every_move_is_one_action_and_back() -> None:
    encoding = MindiEncoding(Rules(trump="band", reveal="on_request"))
    seen: set[int] = set()
    for deal in _random_deals(encoding.rules, 10):
        legal = deal.legal_moves()
        actions = encoding.legal_actions(legal)
        assert len(actions) == len(legal)
        for move in legal:
            (action,) = encoding.encode(move)
            assert encoding.decode(legal, (), action) is move
            assert action in actions
            seen.add(action)
    assert 104 in seen and any(52 <= a < 104 for a in seen)  # reveal and hide came up
    assert [encoding.action_text(a) for a in (0, 12, 13, 51, 52, 104, 105, 108)] == [
        "play 2C",
        "play AC",
        "play 2D",
        "play AS",
        "hide 2C",
        "reveal",
        "announce C",
        "announce S",
    ]
    assert encoding.encode(Move.announce("H")) == [107]


@pytest.mark.parametrize("action", [0, 200, -1, True, "3", 2.0])
def test_an_illegal_action_is_refused_with_the_legal_ones(action: object) -> None:
    encoding = MindiEncoding(Rules())
    deal = Deal.new(Rules(), dealer=0, seed=1)
    legal = deal.legal_moves()
    with pytest.raises(ActionError) as error:
        encoding.decode(legal, (), action)  # type: ignore[arg-type]
    message = str(error.value)
    assert repr(action) in message or f"action {action} " in message
    first = encoding.legal_actions(legal)[0]
    assert f"{first} ({encoding.action_text(first)})" in message


@pytest.mark.parametrize("kind", ["win", "points"])
def test_rewards_are_zero_sum_and_within_their_range(kind) -> None:
    rules = Rules(players=6, deck=48)
    encoding = MindiEncoding(rules)
    low, high = encoding.reward_range(kind)
    for deal in _random_deals(rules, 8):
        if deal.is_over():
            rewards = encoding.rewards(deal, kind)
            assert sum(rewards) == 0 and all(low <= r <= high for r in rewards)
            winner = deal.outcome().winner
            assert rewards[winner] > 0 and rewards[1 - winner] < 0
    with pytest.raises(ValueError, match="not over"):
        encoding.rewards(Deal.new(rules, 0, 1))
