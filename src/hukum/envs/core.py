"""What the PettingZoo and OpenSpiel environments share: a game chosen by name, preset and
options, and one deal played by actions (:mod:`hukum.encoding`).

>>> game = EnvGame("mindi", preset="hidden")
>>> play = game.new_play(seed=7)
>>> play.turn, play.phase, game.encoding.action_text(play.legal_actions()[0])
(3, 'hide', 'hide 4C')
>>> play.apply(3)
Traceback (most recent call last):
...
hukum.encoding.ActionError: action 3 (play 5C) is not legal now; legal: 54 (hide 4C), ...
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from hukum.encoding import REWARDS, Encoding, RewardKind, Tracker, action_number, from_bits
from hukum.game import AnyGame, Deal, GameError, LearningFacet, NotOfferedError, RulesError
from hukum.games import game_named

__all__ = ["EnvGame", "EnvPlay", "learning_of"]


def learning_of(spec: AnyGame) -> LearningFacet[Any, Any, Any, Any]:
    """The game's learning facet; NotOfferedError if it has none (no encoding: it is no
    environment)."""
    if spec.learning is None:
        raise NotOfferedError(f"{spec.title} is not offered to learning programs: no encoding")
    return spec.learning


class EnvGame:
    """A game under one set of rules, ready for environments: ``game`` by name, a
    ``preset`` and ``options`` (any rule option of the game), and the kind of ``reward``."""

    def __init__(
        self,
        game: str = "mindi",
        preset: str | None = None,
        options: Mapping[str, Any] | None = None,
        reward: RewardKind = "win",
    ) -> None:
        self.spec: AnyGame = game_named(game)
        self.rules: Any = self.spec.make_rules(preset, options or {})
        if reward not in REWARDS:
            raise RulesError(f"reward={reward!r}; choose one of " + ", ".join(REWARDS))
        self.reward: RewardKind = reward
        self.learning = learning_of(self.spec)
        self.encoding: Encoding[Any, Any, Any] = self.learning.encoding(self.rules)
        self.players = self.spec.players(self.rules)

    @property
    def name(self) -> str:
        """The game and its rules in one line, e.g. ``mindi (trump=band)``."""
        described = self.spec.describe_rules(self.rules)
        return self.spec.name + (f" ({described})" if described else "")

    def new_play(self, seed: int | None = None, dealer: int | None = None) -> EnvPlay:
        """A new deal from ``seed`` (random if None); the dealer is drawn from the seed
        unless given."""
        if seed is None:
            seed = random.randrange(2**63)
        if dealer is None:
            dealer = random.Random(seed).randrange(self.players)
        deal = self.spec.new_deal(self.rules, dealer, seed)
        return EnvPlay(self, deal)


class EnvPlay:
    """One deal played by actions: the deal, its fast observer and the pending actions of
    the seat to move (a Ganjifa answer chosen card by card)."""

    def __init__(self, game: EnvGame, deal: Deal[Any, Any], _tracker: Tracker[Any] | None = None):
        self.game = game
        self.deal = deal
        self.tracker = _tracker or game.encoding.tracker(deal)
        self.pending: tuple[int, ...] = ()
        self.actions: list[tuple[int, int]] = []
        """Every action so far with its seat."""
        self._legal: tuple[int, Sequence[Any]] = (-1, ())  # (moves made, legal moves then)

    def copy(self) -> EnvPlay:
        """An independent copy."""
        deal = self.deal.copy()  # type: ignore[attr-defined]
        other = EnvPlay(self.game, deal, self.tracker.copy(deal))
        other.pending = self.pending
        other.actions = list(self.actions)
        return other

    @property
    def turn(self) -> int | None:
        """The seat to act, or None once the deal is over."""
        return self.deal.turn

    @property
    def phase(self) -> str:
        """The deal's phase."""
        return self.deal.phase

    def is_over(self) -> bool:
        """Whether the deal is over."""
        return self.deal.is_over()

    def legal_moves(self) -> Sequence[Any]:
        """The deal's legal moves now (asked of the deal once a position)."""
        made = len(self.actions)
        if self._legal[0] != made:
            self._legal = (made, self.deal.legal_moves())
        return self._legal[1]

    def action_mask(self) -> int:
        """The legal actions of the seat to act, as bits."""
        if self.deal.is_over():
            return 0
        return self.game.encoding.action_mask(self.legal_moves(), self.pending)

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to act, in increasing order."""
        if self.deal.is_over():
            return []
        return self.game.encoding.legal_actions(self.legal_moves(), self.pending)

    def mask_array(self, seat: int) -> npt.NDArray[np.int8]:
        """``seat``'s action mask as an array (all 0 unless it is to act)."""
        mask = self.action_mask() if seat == self.deal.turn else 0
        return from_bits(mask, self.game.encoding.actions)

    def apply(self, action: int) -> Any:
        """Make an action of the seat to act: the move it completes (pushed), or None if it
        was one card of a move of several. ActionError (nothing changed) if not legal."""
        deal = self.deal
        if deal.is_over():
            raise GameError("the deal is over")
        seat = deal.turn
        assert seat is not None
        legal = self.legal_moves()
        number = action_number(action)
        if number is None:
            raise self.game.encoding.refuse(legal, self.pending, action)
        action = number
        move = self.game.encoding.decode(legal, self.pending, action)
        self.actions.append((seat, action))
        if move is None:
            self.pending = (*self.pending, action)
            return None
        deal.push(move)
        self.tracker.pushed()
        self.pending = ()
        return move

    def observe(self, seat: int) -> npt.NDArray[np.int8]:
        """``seat``'s observation (its pending actions only if it is to act)."""
        pending = self.pending if seat == self.deal.turn else ()
        return self.tracker.observe(seat, pending)

    def view(self, seat: int) -> Any:
        """``seat``'s view of the deal (what a hukum bot decides from)."""
        return self.deal.view(seat)

    def rewards(self) -> tuple[float, ...]:
        """Each seat's reward once the deal is over, else zeros."""
        if not self.deal.is_over():
            return (0.0,) * self.game.players
        return self.game.encoding.rewards(self.deal, self.game.reward)

    def describe(self) -> str:
        """The deal as text for people (``render_mode="ansi"``): every hand, the trick,
        what has been played and the result."""
        return describe_deal(self.game, self.deal, self.pending)


def describe_deal(game: EnvGame, deal: Deal[Any, Any], pending: tuple[int, ...]) -> str:
    """A deal as a few lines of text, all hands shown (for a person watching)."""
    lines = [f"{game.name}: {deal.phase}, dealer {deal.dealer}"]
    for seat in range(game.players):
        view = deal.view(seat)
        mark = "*" if seat == deal.turn else " "
        lines.append(f"{mark} seat {seat}: {view.hand}")
    trick = " ".join(_played_text(p) for p in deal.trick)
    lines.append(f"  trick: {trick or '-'}")
    if pending:
        lines.append("  chosen: " + " ".join(game.encoding.action_text(a) for a in pending))
    if deal.is_over():
        lines.append("  " + game.spec.describe_outcome(deal))
    return "\n".join(lines)


def _played_text(played: Any) -> str:
    """A play of a trick (a Mindi card or a Ganjifa move, with its seat) as text."""
    what = getattr(played, "move", None) or getattr(played, "card", None)
    return f"{played.seat}:{what}"
