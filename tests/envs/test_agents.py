"""Bots as agents and policies as players (hukum.envs.agents): a policy's numpy action is
taken, an illegal one is refused naming the legal ones, a Ganjifa answer is chosen card by
card, and the arena seats a policy in duplicate on both cores."""

from __future__ import annotations

import numpy as np
import pytest

from hukum.arena import run_arena
from hukum.encoding import ActionError
from hukum.envs.agents import BotAgent, PolicyPlayer
from hukum.envs.core import learning_of
from hukum.games import GAMES
from hukum.play import play_deal


def last_legal(observation: np.ndarray, mask: np.ndarray) -> np.intp:
    legal: np.ndarray = np.flatnonzero(mask)
    return legal.astype(np.intp)[-1]  # type: ignore[no-any-return]  # a numpy integer


@pytest.mark.parametrize("game", ["mindi", "ganjifa"])
def test_a_policy_plays_whole_deals_as_a_player(game: str) -> None:
    spec = GAMES[game]
    rules = spec.make_rules()
    for seed in range(3):
        deal = spec.new_deal(rules, 0, seed)
        players = [PolicyPlayer(game, last_legal) for _ in range(spec.players(rules))]
        play_deal(deal, players)
        assert deal.is_over()


def test_a_policy_that_gives_an_illegal_action_is_told_the_legal_ones() -> None:
    spec = GAMES["mindi"]
    deal = spec.new_deal(spec.make_rules(), 0, 1)
    for bad in (108, 2.5, True):
        player = PolicyPlayer("mindi", lambda o, m, bad=bad: bad)  # type: ignore[misc]
        with pytest.raises(ActionError, match="is not legal now; legal: "):
            player.choose(deal.view(deal.turn))


def test_the_arena_seats_a_policy_on_both_cores() -> None:
    rules = GAMES["ganjifa"].make_rules()
    entrant = PolicyPlayer.factory("ganjifa", last_legal, "last")
    report = run_arena(entrant, "random", deals=2, rules=rules, seed=3, game="ganjifa", workers=2)
    assert report.bot_a == "last" and report.deals == 2 and len(report.plays) == 6


def test_a_bot_agent_finishes_an_answer_someone_else_began() -> None:
    """A Ganjifa answer chosen card by card: the bot plans its move, and when the pending
    cards are not its own it completes the answer with legal cards."""
    spec = GAMES["ganjifa"]
    rules = spec.make_rules()
    encoding = learning_of(spec).encoding(rules)
    agent = BotAgent("ganjifa", "rules")
    for seed in range(40):
        deal = spec.new_deal(rules, 0, seed)
        while not deal.is_over() and deal.phase != "answer":
            legal = deal.legal_moves()
            dukals = [m for m in legal if m.size > 1]
            deal.push(dukals[0] if dukals else legal[0])
        if deal.phase != "answer":
            continue
        view = deal.view(deal.turn)
        pending = (encoding.legal_actions(view.legal_moves)[-1],)
        actions = list(pending)
        while True:
            action = agent.act(view, tuple(actions))
            move = encoding.decode(view.legal_moves, tuple(actions), action)
            if move is not None:
                break
            actions.append(action)
        assert move in view.legal_moves and len(actions) + 1 == view.need
        return
    pytest.fail("no deal of the 40 had a Dukal to answer")
