"""A game as a learning program sees it: whole-number actions and 0/1 observation arrays.

Every :class:`~hukum.game.GameSpec` with a learning facet gives an :class:`Encoding` for
its rules (``spec.learning.encoding(rules)``); the reinforcement-learning environments of
:mod:`hukum.envs` (PettingZoo, OpenSpiel) are built on it once for every such game.

- **Actions** are the numbers ``0 … actions - 1``. A move that puts down several cards (a
  Ganjifa answer to a Dukal) is chosen one card an action: the actions chosen so far are
  the *pending* actions, and the move is made when the last one is chosen.
- **Observations** are arrays of 0s and 1s of ``observation_size`` (``int8``), made of named
  :attr:`Encoding.segments`. An observation is a function of the seat's view (what it may
  see, M-20, G-11) and of its own pending actions, nothing else: :meth:`Encoding.observe`
  builds it from a view. A :class:`Tracker` builds the same array from a deal in progress
  much faster (the environments use it); the tests check that the two always agree.
- **Rewards** are given when a deal ends, per seat: ``win`` (+1 a win, -1 a loss; zero-sum)
  or ``points`` (what the game counts: match points, cards captured).

>>> from hukum.games import GAMES
>>> spec = GAMES["mindi"]
>>> enc = spec.learning.encoding(spec.make_rules("classic"))
>>> deal = spec.new_deal(spec.make_rules("classic"), dealer=0, seed=1)
>>> view = deal.view(deal.turn)
>>> obs = enc.observe(view)
>>> obs.shape == (enc.observation_size,), obs.dtype.name, int(obs[:52].sum())  # 13 in hand
(True, 'int8', 13)
>>> legal = enc.legal_actions(view.legal_moves)
>>> enc.decode(view.legal_moves, (), legal[0]) == view.legal_moves[0]
True
"""

from __future__ import annotations

import functools
import math
import operator
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Generic, Literal, TypeVar

import numpy as np
import numpy.typing as npt

__all__ = [
    "REWARDS",
    "ActionError",
    "Encoding",
    "RewardKind",
    "Segment",
    "Tracker",
    "action_number",
    "from_bits",
    "offsets_of",
    "one_hot",
]

M = TypeVar("M")
V = TypeVar("V")
D = TypeVar("D")

#: How rewards are counted at the end of a deal.
RewardKind = Literal["win", "points"]
REWARDS: tuple[RewardKind, ...] = ("win", "points")

#: One named part of an observation: (name, shape).
Segment = tuple[str, tuple[int, ...]]


class ActionError(ValueError):
    """An action that is not legal now; the message names it and the legal ones."""


def action_number(action: object) -> int | None:
    """An action as an ``int`` (numpy's integers too), or None if it is no whole number (a
    bool is none either)."""
    if isinstance(action, bool):
        return None
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        return None


def offsets_of(segments: Sequence[Segment]) -> dict[str, int]:
    """Where each of ``segments`` starts when they are laid end to end."""
    offsets, start = {}, 0
    for name, shape in segments:
        offsets[name] = start
        start += math.prod(shape)
    return offsets


def from_bits(value: int, size: int) -> npt.NDArray[np.int8]:
    """The ``size`` low bits of ``value`` as an array of 0s and 1s (bit 0 first)."""
    data = np.frombuffer(value.to_bytes((size + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(data, bitorder="little")[:size].view(np.int8)


def one_hot(index: int | None, size: int) -> int:
    """Bit ``index`` of ``size`` bits as an int (0 for None): a small one-hot field."""
    return 0 if index is None or not 0 <= index < size else 1 << index


class Encoding(ABC, Generic[V, M, D]):
    """Actions, observations and rewards of one game under one set of rules.

    Type parameters: a seat's view ``V``, a move ``M`` and a deal ``D`` of the game."""

    game: str
    """The game's name (``mindi``)."""
    players: int
    """Seats in a deal."""
    actions: int
    """How many distinct actions there are (the size of the action space)."""
    pack: tuple[int, ...]
    """The cards in play under the rules (the engine's card numbers), in index order."""
    hand_size: int
    """Cards dealt to each seat."""
    shows_card: bool
    """Whether a card of the pack is shown to all before the deal (Mindi's open hukum)."""
    segments: tuple[Segment, ...]
    """The named parts of an observation, in order, with their shapes. Seats are counted
    from the observer: row 0 is the observer, row 1 the next seat in seat order, …"""

    @functools.cached_property
    def offsets(self) -> dict[str, int]:
        """Where each segment starts in an observation."""
        return offsets_of(self.segments)

    @functools.cached_property
    def observation_size(self) -> int:
        """The length of an observation array."""
        return sum(math.prod(shape) for _, shape in self.segments)

    def segment(self, observation: npt.NDArray[np.int8], name: str) -> npt.NDArray[np.int8]:
        """One named part of an observation, in its shape."""
        shape = dict(self.segments).get(name)
        if shape is None:
            raise KeyError(f"no segment {name!r}; the segments are " + ", ".join(self.names))
        start = self.offsets[name]
        return observation[start : start + math.prod(shape)].reshape(shape)

    @property
    def names(self) -> list[str]:
        """The segments' names."""
        return [name for name, _ in self.segments]

    @abstractmethod
    def card_index(self, card: int) -> int:
        """A card's index (a Mindi card ``13 * suit + rank - 2``, a Ganjifa card its number):
        the action that plays it, its place in the card parts of an observation."""

    # ------------------------------------------------------------------ actions

    @abstractmethod
    def action_text(self, action: int) -> str:
        """What an action does, for people (``play 10S``)."""

    @abstractmethod
    def action_mask(self, legal: Sequence[M], pending: Sequence[int] = ()) -> int:
        """The actions allowed now as the bits of an int, given the seat's legal moves and
        its pending actions."""

    def legal_actions(self, legal: Sequence[M], pending: Sequence[int] = ()) -> list[int]:
        """The actions allowed now, in increasing order."""
        mask = self.action_mask(legal, pending)
        return [a for a in range(self.actions) if mask >> a & 1]

    @abstractmethod
    def decode(self, legal: Sequence[M], pending: Sequence[int], action: int) -> M | None:
        """The move an allowed action completes, or None if it only adds to the pending
        actions (ActionError if it is not allowed)."""

    @abstractmethod
    def encode(self, move: M) -> list[int]:
        """The actions that make ``move``, in order (one for most moves)."""

    def refuse(self, legal: Sequence[M], pending: Sequence[int], action: object) -> ActionError:
        """The error for an action that is not allowed: it names the action and the legal
        ones."""
        allowed = self.legal_actions(legal, pending)
        shown = ", ".join(f"{a} ({self.action_text(a)})" for a in allowed[:20])
        more = f" and {len(allowed) - 20} more" if len(allowed) > 20 else ""
        number = action_number(action)
        what = (
            f"{number} ({self.action_text(number)})"
            if number is not None and 0 <= number < self.actions
            else repr(action)
        )
        return ActionError(f"action {what} is not legal now; legal: {shown}{more}")

    # ------------------------------------------------------------------ observations

    @abstractmethod
    def observe(self, view: V, pending: Sequence[int] = ()) -> npt.NDArray[np.int8]:
        """The observation of the view's seat: from its view and its pending actions only."""

    @abstractmethod
    def tracker(self, deal: D) -> Tracker[M]:
        """A fast observer of ``deal``, begun or not (to be told of every move pushed on it
        from now on)."""

    # ------------------------------------------------------------------ rewards

    @abstractmethod
    def rewards(self, deal: D, kind: RewardKind = "win") -> tuple[float, ...]:
        """Each seat's reward for a finished deal (``win``: zero-sum, +1 for a win;
        ``points``: what the game scores, zero-sum)."""

    @abstractmethod
    def reward_range(self, kind: RewardKind = "win") -> tuple[float, float]:
        """The least and the most one seat's reward can be."""


class Tracker(ABC, Generic[M]):
    """Observations of one deal in progress, kept up to date move by move: the same arrays
    as :meth:`Encoding.observe` of each seat's view, without building views."""

    @abstractmethod
    def pushed(self) -> None:
        """Take note of the move just pushed on the deal."""

    @abstractmethod
    def observe(self, seat: int, pending: Sequence[int] = ()) -> npt.NDArray[np.int8]:
        """What :meth:`Encoding.observe` gives for ``seat``'s view now."""

    @abstractmethod
    def copy(self, deal: object) -> Tracker[M]:
        """This tracker for a copy of its deal (the copy's moves are told to the copy)."""
