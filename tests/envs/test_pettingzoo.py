"""The PettingZoo environment (hukum.envs.pettingzoo): PettingZoo's own API and seed tests
for every preset and game, illegal actions refused with nothing changed, unknown options
refused with the valid ones, hidden cards never in an observation, bots as agents."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from hukum.encoding import ActionError
from hukum.envs.agents import BotAgent
from hukum.envs.pettingzoo import env
from hukum.game import RulesError
from hukum.games import GAMES

#: (game, preset, options): every Mindi preset, 6 and 8 players, Ganjifa by day and by night.
CASES = [
    *(("mindi", preset, {}) for preset in GAMES["mindi"].presets),
    ("mindi", "hidden", {"players": 6, "deck": 48, "reveal": "on_request"}),
    ("mindi", "classic", {"players": 8, "deck": 48}),
    ("ganjifa", "cardavia", {}),
    ("ganjifa", "cardavia", {"time": "night", "void_rule": "trump_first"}),
]


def _id(case: tuple[str, str, dict[str, object]]) -> str:
    game, preset, options = case
    return "-".join([game, preset, *(f"{k}={v}" for k, v in options.items())])


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_pettingzoo_api_and_seed_tests_pass(case) -> None:
    game, preset, options = case
    with warnings.catch_warnings():
        # PettingZoo suggests Box observations; ours are MultiBinary, which it accepts.
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(game, preset, options), num_cycles=300)
        seed_test(lambda: env(game, preset, options), num_cycles=100)


def _play(e, choose) -> dict[str, float]:
    rewards: dict[str, float] = {}
    for agent in e.agent_iter():
        observation, rewards[agent], terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else choose(agent, observation))
    return rewards


@pytest.mark.parametrize("game", ["mindi", "ganjifa"])
def test_a_deal_ends_with_zero_sum_rewards_and_its_outcome(game: str) -> None:
    e = env(game, reward="points")
    rng = random.Random(1)
    for seed in range(3):
        e.reset(seed=seed)
        rewards = _play(e, lambda a, o: rng.choice(np.flatnonzero(o["action_mask"])))
        assert sum(rewards.values()) == 0 and any(rewards.values())
        assert set(rewards) == set(e.possible_agents)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    e = env("mindi", "hidden")
    e.reset(seed=2)
    agent = e.agent_selection
    before = e.observe(agent)
    legal = np.flatnonzero(before["action_mask"])
    illegal = next(a for a in range(e.game.encoding.actions) if a not in legal)
    for bad in (illegal, -1, 10_000, None, "52", True):
        with pytest.raises(ActionError, match="is not legal now; legal: ") as error:
            e.step(bad)  # type: ignore[arg-type]
        assert f"{legal[0]} (" in str(error.value)
    after = e.observe(agent)
    assert e.agent_selection == agent
    assert all(np.array_equal(before[k], after[k]) for k in before)
    assert e.play is not None and e.play.deal.history == []


def test_unknown_games_presets_and_options_are_refused_with_the_valid_ones() -> None:
    with pytest.raises(Exception, match="choose one of mindi, ganjifa"):
        env("chess")
    with pytest.raises(RulesError, match="choose one of classic, hidden"):
        env("mindi", "bridge")
    with pytest.raises(RulesError, match="the options are players, deck"):
        env("mindi", options={"jokers": 2})
    with pytest.raises(RulesError, match="choose one of win, points"):
        env("mindi", reward="money")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="render_mode='human'"):
        env("mindi", render_mode="human")


def test_an_observation_is_the_same_whatever_the_others_hold() -> None:
    """M-20, G-11: deal the cards a seat has not seen differently (a world agreeing with its
    view, the moves replayed): its observation does not change."""
    rng = random.Random(3)
    for game in ("mindi", "ganjifa"):
        e = env(game, "hidden" if game == "mindi" else None)
        e.reset(seed=11)
        for _ in range(23):
            agent = e.agent_selection
            e.step(int(np.flatnonzero(e.observe(agent)["action_mask"])[-1]))
        play = e.play
        assert play is not None
        for seat in range(len(e.possible_agents)):
            world = play.game.learning.sample_deal(play.view(seat), rng)
            other = type(play)(play.game, world)
            other.pending = play.pending
            assert np.array_equal(other.observe(seat), play.observe(seat))


def test_render_ansi_shows_the_table() -> None:
    e = env("mindi", render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert text is not None and "seat 0:" in text and "trick: -" in text
    assert env("mindi").render() is None


@pytest.mark.parametrize("game", ["mindi", "ganjifa"])
def test_hukum_bots_are_agents(game: str) -> None:
    """The rules bot as an agent beats random in most deals."""
    e = env(game)
    rules = BotAgent(game, "rules", seed=1)
    rng = random.Random(2)
    first = e.possible_agents[0]
    wins = 0
    for seed in range(6):
        e.reset(seed=seed)
        rewards = _play(
            e,
            lambda a, o: (
                rules(e, a) if a == first else rng.choice(np.flatnonzero(o["action_mask"]))
            ),
        )
        wins += rewards[first] > 0
    assert wins >= 4
