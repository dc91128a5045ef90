"""hukum's bots as agents of the environments, and any policy as a hukum player.

- :class:`BotAgent`: a bot of the game (``random``, ``rules``, ``search``, ``expert``) that
  answers with actions: the baselines of :mod:`hukum.envs.pettingzoo` and
  :mod:`hukum.envs.openspiel`. It decides from the agent's view, which holds nothing the
  agent's observation does not.
- :class:`PolicyPlayer`: a policy on observations (``policy(observation, action_mask) ->
  action``) as a hukum player, to seat it in the arena against hukum's bots in duplicate
  (:func:`hukum.arena.run_arena` takes a function from a seed to a player).

>>> from hukum.envs.pettingzoo import env
>>> e = env(game="mindi")
>>> e.reset(seed=4)
>>> rules_bot, rewards = BotAgent("mindi", "rules"), {}
>>> for agent in e.agent_iter():
...     observation, rewards[agent], terminated, truncated, info = e.last()
...     e.step(None if terminated else rules_bot(e, agent))
>>> rewards
{'player_2': 1.0, 'player_3': -1.0, 'player_0': 1.0, 'player_1': -1.0}

A policy that plays its first legal action, in duplicate against ``random``:

>>> import numpy as np
>>> from hukum.arena import run_arena
>>> from hukum.games import GAMES
>>> first = lambda observation, mask: int(np.flatnonzero(mask)[0])
>>> report = run_arena(PolicyPlayer.factory("mindi", first, "first"), "random", deals=2,
...                    rules=GAMES["mindi"].make_rules(), seed=1)
>>> report.bot_a, report.deals
('first', 2)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, Protocol, SupportsIndex

import numpy as np
import numpy.typing as npt

from hukum.encoding import Encoding, action_number, from_bits
from hukum.envs.core import learning_of
from hukum.game import AnyGame, Player
from hukum.games import game_named

__all__ = ["BotAgent", "Policy", "PolicyPlayer"]

#: A policy on observations: the action to take from the observation and the action mask.
Policy = Callable[[npt.NDArray[np.int8], npt.NDArray[np.int8]], SupportsIndex]


class _Seat(Protocol):
    """What an environment tells an agent: its view and its pending actions."""

    def view(self, agent: Any) -> Any: ...

    @property
    def pending(self) -> tuple[int, ...]: ...


class BotAgent:
    """A hukum bot of ``game`` by name (options as for :func:`hukum.games.make_bot`) giving
    actions: call it with an environment and an agent (``agent(env, "player_0")``), or
    :meth:`act` with a view and the pending actions. A move of several actions (a Ganjifa
    answer) is given one action a call."""

    def __init__(self, game: str, bot: str = "rules", seed: int = 0, **options: Any) -> None:
        self.spec: AnyGame = game_named(game)
        self.bot: Player[Any, Any] = self.spec.make_bot(bot, seed=seed, **options)
        self.name = bot
        self._plan: list[int] = []

    def __call__(self, env: _Seat, agent: Any) -> int:
        return self.act(env.view(agent), env.pending)

    def act(self, view: Any, pending: Sequence[int] = ()) -> int:
        """The next action of the bot's move for ``view``'s seat."""
        encoding = _encoding(self.spec, view.rules)
        chosen = list(pending)
        if not chosen or len(self._plan) <= len(chosen) or self._plan[: len(chosen)] != chosen:
            planned = encoding.encode(self.bot.choose(view))
            if set(chosen) <= set(planned):
                self._plan = chosen + [a for a in planned if a not in chosen]
            else:  # someone else chose the pending actions: go on with a legal one
                self._plan = chosen + encoding.legal_actions(view.legal_moves, chosen)[:1]
        return self._plan[len(chosen)]


class PolicyPlayer:
    """A policy on observations as a hukum player of ``game`` (a :class:`~hukum.game.Player`):
    it is shown the observation and action mask of its seat's view and gives actions until
    a move is complete. An illegal action raises ActionError naming the legal ones."""

    def __init__(self, game: str, policy: Policy, name: str = "policy") -> None:
        self.spec: AnyGame = game_named(game)
        self.policy = policy
        self.name = name

    @classmethod
    def factory(cls, game: str, policy: Policy, name: str = "policy") -> _Factory:
        """A function from a seed to this player, as the arena seats one (it is picklable
        when ``policy`` is, for ``workers > 1``)."""
        return _Factory(game, policy, name)

    def choose(self, view: Any) -> Any:
        """The move the policy makes from ``view``."""
        encoding = _encoding(self.spec, view.rules)
        legal = view.legal_moves
        pending: tuple[int, ...] = ()
        while True:
            observation = encoding.observe(view, pending)
            mask = from_bits(encoding.action_mask(legal, pending), encoding.actions)
            chosen = self.policy(observation, mask)
            action = action_number(chosen)
            if action is None:
                raise encoding.refuse(legal, pending, chosen)
            move = encoding.decode(legal, pending, action)
            if move is not None:
                return move
            pending = (*pending, action)


class _Factory:
    """A picklable function from a seed to a :class:`PolicyPlayer`."""

    def __init__(self, game: str, policy: Policy, name: str) -> None:
        self.game = game
        self.policy = policy
        self.name = name

    def __call__(self, seed: int) -> PolicyPlayer:
        return PolicyPlayer(self.game, self.policy, self.name)


@functools.lru_cache(maxsize=64)
def _encoding(spec: AnyGame, rules: Any) -> Encoding[Any, Any, Any]:
    return learning_of(spec).encoding(rules)
