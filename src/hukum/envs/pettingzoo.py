"""Every hukum game as a PettingZoo AEC environment (``pip install hukum[rl]``).

One episode is one deal. Agents are ``player_0`` … (seat numbers); the agent to act is
the seat to move. Each observation is a dict: ``observation`` (0/1 ``int8``, built from the
agent's own view only: :mod:`hukum.encoding` lists its parts) and ``action_mask`` (1 for
each legal action, all 0 when it is not the agent's turn). Rewards come when the deal
ends: ``reward="win"`` gives +1 to each winner and -1 to each loser (Ganjifa: +1 to the
winner, -1/2 to each loser, shared on a tie; zero-sum), ``reward="points"`` the match
points won or lost (Mindi) or the cards captured less 40 (Ganjifa).

>>> e = env(game="mindi", preset="classic")
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> e.agent_selection, int(obs["action_mask"].sum()), obs["observation"].shape
('player_2', 13, (758,))
>>> e.step(0)          # 2C, which player_1 does not hold
Traceback (most recent call last):
...
hukum.encoding.ActionError: action 0 (play 2C) is not legal now; legal: 1 (play 3C), ...

A whole deal with random legal actions:

>>> import numpy as np
>>> e = env(game="mindi", preset="hidden")
>>> e.reset(seed=3)
>>> rng, rewards = np.random.default_rng(3), {}
>>> for agent in e.agent_iter():
...     obs, rewards[agent], terminated, truncated, info = e.last()
...     action = None if terminated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
...     e.step(action)
>>> sorted(rewards.values()), info["outcome"]
([-1.0, -1.0, 1.0, 1.0], 'Team 1 wins with mendikot: 4–0 tens')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError("hukum.envs.pettingzoo needs PettingZoo: pip install 'hukum[rl]'") from e

from hukum.encoding import RewardKind
from hukum.envs.core import EnvGame, EnvPlay

__all__ = ["env", "raw_env"]


def env(
    game: str = "mindi",
    preset: str | None = None,
    options: Mapping[str, Any] | None = None,
    reward: RewardKind = "win",
    render_mode: str | None = None,
) -> raw_env:
    """A hukum game as a PettingZoo AEC environment. The environment checks every action
    itself (an illegal one raises ActionError naming the legal ones and changes nothing;
    acting out of turn after the end is PettingZoo's dead step), so it needs none of
    PettingZoo's checking wrappers, which would cost most of its speed."""
    return raw_env(game, preset, options, reward, render_mode)


class raw_env(AECEnv[str, dict[str, npt.NDArray[np.int8]], int | None]):
    """The AEC environment of :func:`env` (PettingZoo's name for an unwrapped one)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "hukum_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str = "mindi",
        preset: str | None = None,
        options: Mapping[str, Any] | None = None,
        reward: RewardKind = "win",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode={render_mode!r}; choose None or 'ansi'")
        self.render_mode = render_mode
        self.game = EnvGame(game, preset, options, reward)
        encoding = self.game.encoding
        self.possible_agents = [f"player_{s}" for s in range(self.game.players)]
        self._seats = {a: s for s, a in enumerate(self.possible_agents)}
        low, high = encoding.reward_range(reward)
        space = spaces.Dict(
            {
                "observation": spaces.MultiBinary(encoding.observation_size),
                "action_mask": spaces.MultiBinary(encoding.actions),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(encoding.actions) for a in self.possible_agents}
        self.reward_range = (low, high)
        self.play: EnvPlay | None = None
        self._seed: int | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new deal: from ``seed``, or the next seed of the last one given (random
        if none was ever given). ``options={"dealer": seat}`` chooses the dealer."""
        if seed is not None:
            self._seed = seed
        elif self._seed is not None:
            self._seed = (self._seed * 6364136223846793005 + 1442695040888963407) % 2**63
        dealer = (options or {}).get("dealer")
        self.play = self.game.new_play(self._seed, dealer)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._agent_to_act()

    def _agent_to_act(self) -> str:
        assert self.play is not None
        turn = self.play.turn
        return self.possible_agents[turn if turn is not None else 0]

    def observe(self, agent: str) -> dict[str, npt.NDArray[np.int8]]:
        play = self._play()
        seat = self._seats[agent]
        return {"observation": play.observe(seat), "action_mask": play.mask_array(seat)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        play = self._play()
        play.apply(action)  # type: ignore[arg-type]  # None is refused with the legal actions
        self._cumulative_rewards[agent] = 0.0
        if play.is_over():
            for seat, reward in enumerate(play.rewards()):
                self.rewards[self.possible_agents[seat]] = reward
            self.terminations = dict.fromkeys(self.agents, True)
            outcome = self.game.spec.describe_outcome(play.deal)
            self.infos = {a: {"outcome": outcome} for a in self.agents}
        self.agent_selection = self._agent_to_act()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``): every hand, the trick, the result."""
        if self.render_mode is None:
            return None
        return self._play().describe()

    def view(self, agent: str) -> Any:
        """The agent's view of the deal (what a hukum bot decides from)."""
        return self._play().view(self._seats[agent])

    @property
    def pending(self) -> tuple[int, ...]:
        """The actions the agent to act has chosen so far of a move of several cards."""
        return self._play().pending

    def _play(self) -> EnvPlay:
        if self.play is None:
            raise RuntimeError("call reset() before using the environment")
        return self.play

    def close(self) -> None:
        pass
