"""A hukum game as a single-agent Gymnasium environment: the learner plays some seats
(a Mindi team, or one Ganjifa seat), hukum's bots play the others
(``pip install 'hukum[rl]'``).

Single-agent libraries (Stable-Baselines3, sb3-contrib's Maskable PPO …) train on it as it
is: observations and actions are those of :mod:`hukum.encoding`, ``action_masks()`` gives
the legal actions, and the reward comes once, when the deal ends (the learner's seats'
reward: ``win`` ±1, or ``points``). Each ``reset`` deals a new deal from the seeds in turn.

>>> import numpy as np
>>> env = VersusBots("mindi", opponents="rules", seed=3)
>>> observation, info = env.reset()
>>> env.seats, observation.shape, int(env.action_masks().sum()) > 0
((0, 2), (758,), True)
>>> done = False
>>> while not done:
...     action = int(np.flatnonzero(env.action_masks())[0])
...     observation, reward, done, truncated, info = env.step(action)
>>> reward in (-1.0, 1.0), info["outcome"].startswith("Team")
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError("hukum.envs.gym needs Gymnasium: pip install 'hukum[rl]'") from e

from hukum.encoding import RewardKind
from hukum.envs.agents import BotAgent
from hukum.envs.core import EnvGame, EnvPlay

__all__ = ["VersusBots"]


class VersusBots(gymnasium.Env[npt.NDArray[np.int8], np.int64]):
    """``game`` (preset, options, reward as for :class:`~hukum.envs.core.EnvGame`) with the
    learner at ``seats`` (default: seat 0 and its partners, in Ganjifa seat 0 alone) and
    the bot ``opponents`` (a bot's name) at the others. Seed ``seed`` numbers the deals:
    ``reset()`` deals ``seed``, ``seed + 1`` … (``reset(seed=s)`` starts again from s)."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium's attribute)

    def __init__(
        self,
        game: str = "mindi",
        preset: str | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        opponents: str = "random",
        seats: Sequence[int] | None = None,
        reward: RewardKind = "win",
        seed: int = 0,
        render_mode: str | None = None,
    ) -> None:
        self.game = EnvGame(game, preset, options, reward)
        players = self.game.players
        arena = self.game.spec.arena
        if seats is None:  # the seats bot A holds in the game's first arena seating
            seats = arena.seatings(self.game.rules)[0][0].seats if arena is not None else (0,)
        if not seats or any(not 0 <= s < players for s in seats):
            raise ValueError(f"seats must be some of 0 … {players - 1}, not {list(seats)}")
        self.seats = tuple(seats)
        self.bots = {
            s: BotAgent(game, opponents, seed=seed + s) for s in range(players) if s not in seats
        }
        encoding = self.game.encoding
        self.observation_space = spaces.MultiBinary(encoding.observation_size)
        self.action_space = spaces.Discrete(encoding.actions)
        self.render_mode = render_mode
        self._next_seed = seed
        self.play: EnvPlay | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.int8], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._next_seed = seed
        self.play = self.game.new_play(seed=self._next_seed)
        self._next_seed += 1
        self._bots_play()
        return self._observation(), {}

    def step(
        self, action: np.int64
    ) -> tuple[npt.NDArray[np.int8], float, bool, bool, dict[str, Any]]:
        play = self._play()
        play.apply(int(action))
        self._bots_play()
        if not play.is_over():
            return self._observation(), 0.0, False, False, {}
        reward = play.rewards()[self.seats[0]]
        info = {"outcome": self.game.spec.describe_outcome(play.deal)}
        return self._observation(), reward, True, False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now (sb3-contrib's Maskable PPO asks for them by this name)."""
        play = self._play()
        seat = play.turn if play.turn is not None else self.seats[0]
        return play.mask_array(seat).astype(bool)

    def render(self) -> str | None:
        return self._play().describe() if self.render_mode == "ansi" else None

    def _bots_play(self) -> None:
        """Let the bots move until it is the learner's turn or the deal is over."""
        play = self._play()
        while play.turn is not None and play.turn not in self.seats:
            bot = self.bots[play.turn]
            play.apply(bot.act(play.view(play.turn), play.pending))

    def _observation(self) -> npt.NDArray[np.int8]:
        play = self._play()
        seat = play.turn if play.turn in self.seats else self.seats[0]
        assert seat is not None
        return play.observe(seat)

    def _play(self) -> EnvPlay:
        if self.play is None:
            raise RuntimeError("call reset() before using the environment")
        return self.play
