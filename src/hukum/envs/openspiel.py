"""Every hukum game as an OpenSpiel game (``pip install 'hukum[rl]'``).

Importing this module registers one Python game with OpenSpiel for each hukum game that
offers a learning facet (:func:`game_class`): ``python_hukum_mindi`` and
``python_hukum_ganjifa`` (:func:`game_name`). One episode is one
deal. Their parameters:

- ``preset`` (str): a preset of the game's rules (default: the game's default preset);
- ``options`` (str): rule options as a JSON object, e.g. ``{"players": 6, "deck": 48}``
  (default ``{}``). Inside a game *string* commas separate parameters, so there the pairs
  may be separated by ``;`` instead: ``python_hukum_mindi(options={"players":6;"deck":48})``.
  The game keeps its options in that form, so ``str(game)`` loads again;
- ``reward`` (str): ``win`` (+1 a win, -1 a loss; zero-sum) or ``points``
  (:mod:`hukum.encoding`);
- ``seed`` (int): ``-1`` (default) deals every deal by chance nodes; a seed ``>= 0`` makes
  ``new_initial_state()`` the deal hukum deals from that seed (``EnvGame.new_play(seed)``,
  dealer included), with no chance node: to replay hukum's deals.

**Chance nodes** (``seed < 0``), each uniform over its outcomes: the dealer, then (Mindi's
open hukum, M-14) the card shown to all, then the cards one at a time, seat 0's first, each
seat's in the order it receives them (the first five are Mindi's first batch, which matters
under announce hukum). That is not the order of the cards round the table, but as each card
is drawn evenly from those left, every deal is as likely. Their ids, with ``C`` =
:attr:`HukumGame.card_slots` (52 in Mindi, 120 in Ganjifa) and ``n`` players: ``0 … C-1``
deal the card of that index (``encoding.card_index``: the same number as the action that
plays it), ``C … C+n-1`` choose the dealer, ``C+n … 2C+n-1`` show a card;
``max_chance_outcomes`` is ``C + n``, or ``2C + n`` when a card is shown.
``action_to_string`` tells chance outcomes from player actions by the player.

**Player actions** are the encoding's (:mod:`hukum.encoding`; Mindi 109, Ganjifa 960); a
Ganjifa answer to a Dukal is several actions in a row by the same player.

**Observation** (``observation_tensor``): the encoding's 0/1 observation of the player's view,
its segments as the tensor's named parts (its pending actions only when it is to act).
``observation_string`` lists the set bits of each part that has any.

**Information state** (perfect recall, built from the player's views only;
``information_state_tensor``, ``W = n + 1 + B`` with ``B`` the bits of an action number):

- ``dealt`` (C): the hand as the player first saw it, once the deal is dealt (Mindi's
  announce hukum: the first five cards);
- the observation, as above;
- ``history`` (L, W): the deal's actions as the player saw them, in order, one row each:
  who acted (one-hot, counted from the player: column 0 is the player), a 1 in column ``n``
  for an action the player did not see (another seat's face-down card) and otherwise the
  action's number in binary (bit 0 first) in the last ``B`` columns; then the player's own
  pending actions. ``L`` is :attr:`HukumGame.max_actions` (``max_game_length``: one action
  per card dealt and :data:`EXTRA_ACTIONS` more). A move made of several actions shows as
  the actions that make it (``encoding.encode``) once made.

``information_state_string`` holds the same facts as text: the seat, the hand first seen,
the moves as the player saw them, its pending actions and its observation. While the deal is
being dealt, no player has seen a card yet: every tensor is zeros and the strings say what
is public (the dealer, a shown card, how many cards have been dealt).

``resample_from_infostate(player, sampler)`` deals the cards the player has not seen at
random, agreeing with all it knows (the learning facet's ``sample_deal``), and replays the
moves: a state with a full, consistent history (its chance outcomes are the new deal's). A
seat to move keeps its pending actions; another seat's pending actions, which the player
cannot see, are not kept. Before the first move (where ``sample_deal`` may want more than
the seat has seen: Mindi's announce hukum shows five cards) the unseen cards are dealt until
the deal agrees with the seat's information state; while the cards are being dealt, the
public outcomes are kept and the cards dealt so far drawn anew.

``state.view(player)`` and ``state.pending`` let :class:`hukum.envs.agents.BotAgent` play in
OpenSpiel too, and ``state.play`` is the :class:`~hukum.envs.core.EnvPlay` being played.

>>> import random, pyspiel
>>> game = pyspiel.load_game("python_hukum_mindi(preset=hidden)")
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(4, 109, 56)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), state.action_to_string(state.legal_actions()[0])
(True, 'dealer 0')
>>> rng = random.Random(1)
>>> for _ in range(60):  # the dealer, 52 cards, then a few moves
...     state.apply_action(rng.choice(state.legal_actions()))
>>> state.current_player() >= 0, len(state.history())
(True, 60)
>>> state.apply_action(108)
Traceback (most recent call last):
...
hukum.encoding.ActionError: action 108 (announce S) is not legal now; legal: ...

A deal hukum deals from a seed, with no chance node:

>>> state = load("mindi", preset="classic", seed=7).new_initial_state()
>>> state.is_chance_node(), state.current_player(), state.legal_actions()[:3]
(False, 3, [2, 5, 10])
"""

from __future__ import annotations

import functools
import json
import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError("hukum.envs.openspiel needs OpenSpiel: pip install 'hukum[rl]'") from e

from hukum.encoding import RewardKind
from hukum.envs.core import EnvGame, EnvPlay, learning_of
from hukum.game import AnyGame, GameError, RulesError
from hukum.games import GAMES, game_named

__all__ = [
    "EXTRA_ACTIONS",
    "PREFIX",
    "HukumGame",
    "HukumState",
    "game_class",
    "game_name",
    "load",
]

#: The start of the games' OpenSpiel names: ``python_hukum_mindi``.
PREFIX = "python_hukum_"
#: How many actions a deal may have beyond one for each card dealt: actions that put down
#: no card of the hand (Mindi: laying the face-down card, asking for it, announcing trump).
EXTRA_ACTIONS = 4
#: The parameters of every game.
PARAMETERS = ("preset", "options", "reward", "seed")

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def game_name(game: str) -> str:
    """The OpenSpiel name of a hukum game: ``python_hukum_mindi``."""
    return PREFIX + game


def load(
    game: str = "mindi",
    preset: str | None = None,
    options: Mapping[str, Any] | None = None,
    reward: RewardKind = "win",
    seed: int | None = None,
) -> Any:
    """A hukum game as a ``pyspiel.Game``: ``game`` by name, ``preset`` and rule ``options``
    (as for :class:`hukum.envs.core.EnvGame`), the kind of ``reward``, and ``seed`` (None:
    deals by chance nodes; a seed: the deal hukum deals from it). Unknown names and options
    raise GameError listing the valid ones."""
    spec = game_named(game)
    EnvGame(game, preset, options, reward)  # every mistake refused with the valid choices
    params = {
        "preset": spec.default_preset if preset is None else preset,
        "options": _options_text(dict(options or {})),
        "reward": reward,
        "seed": -1 if seed is None else seed,
    }
    return pyspiel.load_game(game_name(game), params)


# ---------------------------------------------------------------------- parameters


def _options_text(options: Mapping[str, Any]) -> str:
    """Options as JSON a game string can hold: ``;`` between pairs and list items."""
    return json.dumps(dict(options), separators=(";", ":"), sort_keys=True)


def _parse_options(text: object) -> dict[str, Any]:
    """The options of a game parameter: a JSON object, its commas or semicolons."""
    if isinstance(text, Mapping):
        return dict(text)
    if not isinstance(text, str):
        raise RulesError(f"options must be a JSON object as a string, not {text!r}")
    try:
        data = json.loads(text or "{}")
    except json.JSONDecodeError:
        try:
            data = json.loads(text.replace(";", ","))
        except json.JSONDecodeError as e:
            raise RulesError(
                f"options must be a JSON object, e.g. '{{\"players\": 6}}': {e}"
            ) from None
    if not isinstance(data, dict):
        raise RulesError(f"options must be a JSON object, e.g. '{{\"players\": 6}}', not {text!r}")
    return data


def _game_type(spec: AnyGame) -> Any:
    counts = spec.player_counts
    return pyspiel.GameType(
        short_name=game_name(spec.name),
        long_name=f"hukum {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=counts[-1],
        min_num_players=counts[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "preset": spec.default_preset,
            "options": "{}",
            "reward": "win",
            "seed": -1,
        },
    )


# ---------------------------------------------------------------------- the game


class _Table:
    """What every state of one game shares: the rules, the encoding and the numbers derived
    from them (never copied with a state)."""

    def __init__(self, env: EnvGame, seed: int | None) -> None:
        self.env = env
        self.spec: AnyGame = env.spec
        self.encoding = encoding = env.encoding
        self.seed = seed
        self.players = n = env.players
        self.hand_size = encoding.hand_size
        self.pack: tuple[int, ...] = tuple(encoding.pack)
        self.index_of = {card: encoding.card_index(card) for card in self.pack}
        self.card_of = {index: card for card, index in self.index_of.items()}
        self.slots = max(self.index_of.values()) + 1
        self.shows = bool(encoding.shows_card)
        self.dealt_cards = n * self.hand_size
        self.seeded: _Core | None = None
        """The seed's deal before any move (copied by every new state), once made."""
        self.chance_nodes = 1 + self.shows + self.dealt_cards
        self.max_chance_outcomes = self.slots + n + (self.slots if self.shows else 0)
        self.max_actions = self.dealt_cards + EXTRA_ACTIONS
        self.action_bits = max(1, (encoding.actions - 1).bit_length())
        self.row = n + 1 + self.action_bits
        # Each part of an observation: name, start, rows (0: one dimension) and row length;
        # and the part each place of an observation belongs to.
        self.parts: list[tuple[str, int, int, int]] = []
        self.part_of: list[int] = []
        for name, shape in encoding.segments:
            size = math.prod(shape)
            rows = shape[0] if len(shape) > 1 else 0
            self.parts.append((name, len(self.part_of), rows, size // max(rows, 1)))
            self.part_of += [len(self.parts) - 1] * size
        self.key = (
            env.spec.name,
            json.dumps(env.spec.rules_to_dict(env.rules), sort_keys=True),
            env.reward,
            seed,
        )

    def card_text(self, index: int) -> str:
        """A card by its index, as the encoding writes it (``10S``, ``Ma1``)."""
        return self.encoding.action_text(index).rsplit(" ", 1)[-1]

    def chance_text(self, action: int) -> str:
        if 0 <= action < self.slots and action in self.card_of:
            return f"deal {self.card_text(action)}"
        if self.slots <= action < self.slots + self.players:
            return f"dealer {action - self.slots}"
        shown = action - self.slots - self.players
        if self.shows and shown in self.card_of:
            return f"show {self.card_text(shown)}"
        return f"no chance outcome {action}"

    def chance_actions(
        self, dealer: int, hands: Sequence[Sequence[int]], shown: int | None
    ) -> list[int]:
        """The chance outcomes that deal these hands (engine cards) and show this card."""
        out = [self.slots + dealer]
        if self.shows:
            assert shown is not None
            out.append(self.slots + self.players + self.index_of[shown])
        for hand in hands:
            out += (self.index_of[card] for card in hand)
        return out


#: Every game's table by its key, to restore unpickled states (OpenSpiel's deserialize).
_TABLES: dict[tuple[Any, ...], _Table] = {}


class HukumGame(pyspiel.Game):
    """A hukum game under one set of rules as a ``pyspiel.Game`` (made by
    ``pyspiel.load_game`` or :func:`load`). Each game has its own subclass
    (:func:`game_class`), which names it (:attr:`hukum_game`); ``type(game)(params)`` makes
    another."""

    hukum_game: str = ""
    """The hukum game's name (``mindi``)."""
    game_type: Any = None
    """Its ``pyspiel.GameType``."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        game = self.hukum_game
        spec = game_named(game)
        given = dict(params or {})
        unknown = sorted(set(given) - set(PARAMETERS))
        if unknown:
            raise RulesError(
                f"no parameter {', '.join(unknown)} for {game_name(game)}; "
                "the parameters are " + ", ".join(PARAMETERS)
            )
        preset = str(given.get("preset", spec.default_preset))
        options = _parse_options(given.get("options", "{}"))
        reward = given.get("reward", "win")
        seed = int(given.get("seed", -1))
        env = EnvGame(game, preset, options, reward)
        table = _Table(env, None if seed < 0 else seed)
        low, high = env.encoding.reward_range(env.reward)
        info = pyspiel.GameInfo(
            num_distinct_actions=env.encoding.actions,
            max_chance_outcomes=table.max_chance_outcomes,
            num_players=env.players,
            min_utility=float(low),
            max_utility=float(high),
            utility_sum=0.0,
            max_game_length=table.max_actions,
        )
        normal = {
            "preset": preset,
            "options": _options_text(options),
            "reward": reward,
            "seed": seed,
        }
        super().__init__(self.game_type, info, normal)
        self.table = table
        _TABLES.setdefault(table.key, table)

    @property
    def env(self) -> EnvGame:
        """The game and rules, as :mod:`hukum.envs.core` has them."""
        return self.table.env

    @property
    def card_slots(self) -> int:
        """How many card indices there are (52, 120): the first chance outcome ids."""
        return self.table.slots

    @property
    def max_actions(self) -> int:
        """The most actions a deal can have (``max_game_length``)."""
        return self.table.max_actions

    def new_initial_state(self, *args: Any) -> HukumState:
        """The start of a deal: its first chance node, or the seed's deal."""
        if args:
            raise NotImplementedError(
                "hukum games start only from their first chance node or their seed; "
                "use pyspiel.deserialize_game_and_state for a state in progress"
            )
        return HukumState(self)

    def max_chance_nodes_in_history(self) -> int:
        return 0 if self.table.seed is not None else self.table.chance_nodes

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> _Observer:
        """The observer of observations (the default) or information states
        (``perfect_recall``)."""
        if isinstance(iig_obs_type, Mapping):  # OpenSpiel passes the params alone so
            iig_obs_type, params = None, iig_obs_type
        return _Observer(self.table, iig_obs_type, params)


# ---------------------------------------------------------------------- states


class _Core:
    """All that one state holds, in one object so that a clone copies it in one step: the
    chance outcomes so far, the hands dealt (once dealt) and the deal being played."""

    __slots__ = ("cache", "chance", "first", "play", "table", "world")

    def __init__(self, table: _Table) -> None:
        self.table = table
        self.chance: list[int] = []
        self.world: tuple[int, tuple[tuple[int, ...], ...], int | None] | None = None
        """The dealer, the hands as dealt and the shown card, unless dealt from the seed."""
        self.play: EnvPlay | None = None
        self.first: tuple[Any, ...] = ()
        """Each seat's hand as it first saw it (a CardSet), once dealt."""
        self.cache: dict[Any, Any] = {}
        """Views and text of the position now (emptied by every action)."""

    def copy(self) -> _Core:
        other = _Core.__new__(_Core)
        other.table = self.table
        other.chance = list(self.chance)
        other.world = self.world
        other.play = None if self.play is None else self.play.copy()
        other.first = self.first
        other.cache = dict(self.cache)
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        actions = [] if self.play is None else [a for _, a in self.play.actions]
        return (_restore, (self.table.key, list(self.chance), self.world, actions))

    def ready(self) -> _Core:
        """This core, with the seed's deal dealt if the game deals from a seed."""
        table = self.table
        if self.play is None and table.seed is not None:
            start = table.seeded
            if start is None:  # dealt once: OpenSpiel makes initial states often
                start = table.seeded = _Core(table)
                start.begin(table.env.new_play(seed=table.seed))
            copied = start.copy()
            self.play, self.first, self.cache = copied.play, copied.first, copied.cache
        return self

    def apply(self, action: int) -> None:
        """Apply a chance outcome or an action (ActionError, changing nothing, if illegal)."""
        self.cache.clear()
        if self.play is None:
            self.deal_chance(action)
        else:
            self.play.apply(action)

    def view(self, seat: int) -> Any:
        """``seat``'s view of the deal now."""
        key = ("view", seat)
        view = self.cache.get(key)
        if view is None:
            assert self.play is not None
            view = self.cache[key] = self.play.view(seat)
        return view

    def begin(self, play: EnvPlay) -> None:
        self.play = play
        self.cache.clear()
        self.first = tuple(self.view(seat).hand for seat in range(self.table.players))

    def start(self, dealer: int, hands: Sequence[Sequence[int]], shown: int | None) -> None:
        """Play the deal of these hands (engine cards, as dealt)."""
        table = self.table
        self.world = (
            dealer,
            tuple(tuple(int(c) for c in hand) for hand in hands),
            None if shown is None else int(shown),
        )
        deal = table.env.learning.deal_from(table.env.rules, dealer, hands, shown)
        self.begin(EnvPlay(table.env, deal))

    # ------------------------------------------------------------------ chance nodes

    def chance_outcomes(self) -> list[int]:
        """The outcomes of the chance node now, in increasing order."""
        table = self.table
        done = len(self.chance)
        if done == 0:
            return [table.slots + seat for seat in range(table.players)]
        if table.shows and done == 1:
            return [table.slots + table.players + table.index_of[c] for c in table.pack]
        dealt = set(self.chance[1 + table.shows :])
        return [i for i in sorted(table.card_of) if i not in dealt]

    def deal_chance(self, action: int) -> None:
        """Apply a chance outcome; the last card dealt starts the deal."""
        table = self.table
        outcomes = self.chance_outcomes()
        if action not in outcomes:
            shown = ", ".join(f"{a} ({table.chance_text(a)})" for a in outcomes[:20])
            more = f" and {len(outcomes) - 20} more" if len(outcomes) > 20 else ""
            raise ValueError(
                f"chance outcome {action} ({table.chance_text(action)}) is not possible now; "
                f"possible: {shown}{more}"
            )
        self.chance.append(int(action))
        if len(self.chance) == table.chance_nodes:
            dealer = self.chance[0] - table.slots
            card = (
                table.card_of[self.chance[1] - table.slots - table.players] if table.shows else None
            )
            cards = [table.card_of[i] for i in self.chance[1 + table.shows :]]
            h = table.hand_size
            self.start(dealer, [cards[s * h : (s + 1) * h] for s in range(table.players)], card)

    def dealing_text(self) -> str:
        """What everyone knows while the cards are dealt."""
        table = self.table
        parts = ["dealing"]
        if self.chance:
            parts.append(f"dealer {self.chance[0] - table.slots}")
        if table.shows and len(self.chance) > 1:
            parts.append(f"shown {table.card_text(self.chance[1] - table.slots - table.players)}")
        dealt = max(0, len(self.chance) - 1 - table.shows)
        parts.append(f"{dealt} of {table.dealt_cards} cards dealt")
        return ", ".join(parts)


def _restore(
    key: tuple[Any, ...],
    chance: list[int],
    world: tuple[int, tuple[tuple[int, ...], ...], int | None] | None,
    actions: list[int],
) -> _Core:
    """A pickled core, rebuilt by replaying its deal (its game must be loaded)."""
    table = _TABLES.get(key)
    if table is None:
        raise GameError(f"load the game of this state first: {key!r}")
    core = _Core(table)
    if world is not None:
        core.start(*world)
        core.chance = list(chance)
    else:
        for action in chance:
            core.apply(action)
        core.ready()
    for action in actions:
        core.apply(action)
    return core


class HukumState(pyspiel.State):
    """One deal of a hukum game as a ``pyspiel.State`` (see the module's description)."""

    def __init__(self, game: HukumGame) -> None:
        super().__init__(game)
        self._core = _Core(game.table)

    # ------------------------------------------------------------------ hukum's side

    @property
    def play(self) -> EnvPlay | None:
        """The deal being played (:class:`hukum.envs.core.EnvPlay`), or None while dealing."""
        return self._core.ready().play

    def view(self, player: int) -> Any:
        """``player``'s view of the deal (what a hukum bot decides from)."""
        play = self.play
        if play is None:
            raise GameError("the cards are still being dealt (chance nodes)")
        return self._core.view(player)

    @property
    def pending(self) -> tuple[int, ...]:
        """The actions the seat to act has chosen so far of a move of several."""
        play = self.play
        return () if play is None else play.pending

    # ------------------------------------------------------------------ OpenSpiel's API

    def current_player(self) -> int:
        play = self.play
        if play is None:
            return _CHANCE
        if play.is_over():
            return _TERMINAL
        turn = play.turn
        assert turn is not None
        return turn

    def _legal_actions(self, player: int) -> list[int]:
        play = self.play
        if play is None or player != play.turn:
            return []
        return play.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        core = self._core.ready()
        if core.play is not None:
            return []
        outcomes = core.chance_outcomes()
        p = 1.0 / len(outcomes)
        return [(a, p) for a in outcomes]

    def _apply_action(self, action: int) -> None:
        self._core.ready().apply(action)  # ActionError, naming the legal ones, if illegal

    def _action_to_string(self, player: int, action: int) -> str:
        table = self._core.table
        if player == _CHANCE:
            return table.chance_text(action)
        return table.encoding.action_text(action)

    def is_terminal(self) -> bool:
        play = self.play
        return play is not None and play.is_over()

    def returns(self) -> list[float]:
        play = self.play
        if play is None:
            return [0.0] * self._core.table.players
        return [float(r) for r in play.rewards()]

    def __str__(self) -> str:
        core = self._core.ready()
        if core.play is None:
            table = core.table
            cards = core.chance[1 + table.shows :]
            h = table.hand_size
            lines = [core.dealing_text()]
            for seat in range((len(cards) + h - 1) // h):
                got = " ".join(table.card_text(i) for i in cards[seat * h : (seat + 1) * h])
                lines.append(f"  seat {seat}: {got}")
            return "\n".join(lines)
        text = core.cache.get("text")
        if text is None:
            text = core.cache["text"] = core.play.describe()
        return str(text)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> HukumState:
        """A state ``player_id`` cannot tell from this one: the cards it has not seen dealt
        at random, agreeing with everything it knows, and the moves replayed.
        ``probability_sampler`` (a function giving numbers in [0, 1)) seeds the deal."""
        core = self._core.ready()
        table = core.table
        if not 0 <= player_id < table.players:
            raise ValueError(f"no player {player_id}: players are 0 to {table.players - 1}")
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        if core.play is None:  # dealing: only the dealer and a shown card are known
            other: HukumState = self.get_game().new_initial_state()
            for action in core.chance[: 1 + table.shows]:
                other.apply_action(action)
            left = sorted(table.card_of)
            rng.shuffle(left)
            for index in left[: max(0, len(core.chance) - 1 - table.shows)]:
                other.apply_action(index)
            return other
        play = core.play
        view = core.view(player_id)
        seen = sorted(core.first[player_id])
        dealer = play.deal.dealer
        shown = getattr(play.deal, "shown_card", None) if table.shows else None
        pending = play.pending if play.turn == player_id else ()
        sampled = table.env.learning.sample_deal(view, rng)
        hands = [list(hand) for hand in sampled.dealt]  # both engines' deals have it
        # The player's own cards first, those it saw first in front (announce hukum: the
        # first five, seen before the announcement).
        first = set(seen)
        hands[player_id] = seen + [c for c in hands[player_id] if c not in first]
        return self._rebuilt(dealer, hands, shown, sampled.history, pending)

    def _rebuilt(
        self,
        dealer: int,
        hands: Sequence[Sequence[int]],
        shown: int | None,
        moves: Sequence[tuple[int, Any]],
        pending: Sequence[int],
    ) -> HukumState:
        """A new state of this game: these hands dealt (by chance nodes unless the game
        deals from a seed), then the moves and the pending actions."""
        other: HukumState = self.get_game().new_initial_state()
        table = self._core.table
        if table.seed is None:
            for action in table.chance_actions(dealer, hands, shown):
                other.apply_action(action)
        else:
            other._core.start(dealer, hands, shown)
        for _, move in moves:
            for action in table.encoding.encode(move):
                other.apply_action(action)
        for action in pending:
            other.apply_action(action)
        return other


# ---------------------------------------------------------------------- observers


class _Observer:
    """OpenSpiel's Python observer: the observation, or (``perfect_recall``) the
    information state, of one player as a tensor with named parts and as a string."""

    def __init__(self, table: _Table, iig_obs_type: Any, params: Mapping[str, Any] | None):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if iig_obs_type is not None and (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "hukum games observe for one player with public information only "
                "(the observation or the information state)"
            )
        self.table = table
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        encoding = table.encoding
        pieces: list[tuple[str, tuple[int, ...]]] = list(encoding.segments)
        if self.perfect_recall:
            pieces = [
                ("dealt", (table.slots,)),
                *pieces,
                ("history", (table.max_actions, table.row)),
            ]
        assert len({name for name, _ in pieces}) == len(pieces), "segment names clash"
        size = sum(math.prod(shape) for _, shape in pieces)
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        at = 0
        for name, shape in pieces:
            length = math.prod(shape)
            self.dict[name] = self.tensor[at : at + length].reshape(shape)
            at += length
        self._obs_at = table.slots if self.perfect_recall else 0
        self._obs_end = self._obs_at + encoding.observation_size

    def set_from(self, state: HukumState, player: int) -> None:
        """Write ``player``'s observation (or information state) of ``state`` in place."""
        self.tensor.fill(0)
        play = state.play
        if play is None:
            return
        self.tensor[self._obs_at : self._obs_end] = play.observe(player)
        if not self.perfect_recall:
            return
        table = self.table
        dealt = self.dict["dealt"]
        for card in state._core.first[player]:
            dealt[table.index_of[card]] = 1
        steps = _steps(state._core, player)
        if len(steps) > table.max_actions:
            raise GameError(f"{len(steps)} actions in a deal; at most {table.max_actions} fit")
        history = self.dict["history"]
        n = table.players
        for row, (seat, action) in enumerate(steps):
            history[row, (seat - player) % n] = 1
            if action is None:
                history[row, n] = 1
            else:
                for bit in range(table.action_bits):
                    if action >> bit & 1:
                        history[row, n + 1 + bit] = 1

    def string_from(self, state: HukumState, player: int) -> str:
        """``player``'s observation (or information state) of ``state`` as text."""
        table = self.table
        core = state._core.ready()
        play = core.play
        if play is None:
            return f"seat {player} of {table.players}, {core.dealing_text()}"
        observed = _render(table, play.observe(player))
        if not self.perfect_recall:
            return observed
        view = core.view(player)
        moves = ", ".join(f"{seat} {move}" for seat, move in view.history)
        lines = [
            f"seat {player} of {table.players}, dealer {view.dealer}",
            f"dealt: {core.first[player]}",
            f"moves: {moves or '-'}",
        ]
        if play.turn == player and play.pending:
            chosen = ", ".join(table.encoding.action_text(a) for a in play.pending)
            lines.append(f"chosen: {chosen}")
        lines.append(f"observation: {observed}")
        return "\n".join(lines)


def _steps(core: _Core, player: int) -> list[tuple[int, int | None]]:
    """The deal's actions as ``player`` saw them (None: one it did not see), then its own
    pending actions."""
    encoding = core.table.encoding
    play = core.play
    assert play is not None
    steps: list[tuple[int, int | None]] = []
    for seat, move in core.view(player).history:
        try:
            actions: list[int | None] = list(encoding.encode(move))
        except ValueError:  # a move hidden from the player (``hide ??``)
            actions = [None]
        steps += ((seat, a) for a in actions)
    if play.turn == player:
        steps += ((player, a) for a in play.pending)
    return steps


def _render(table: _Table, observation: npt.NDArray[np.int8]) -> str:
    """An observation as text: each part with any 1s, the places of its 1s (rows of a part
    of two dimensions separated by ``|``)."""
    found: dict[int, list[int]] = {}
    for i in np.flatnonzero(observation).tolist():
        part = table.part_of[i]
        found.setdefault(part, []).append(i - table.parts[part][1])
    out = []
    for part, places in found.items():
        name, _, rows, width = table.parts[part]
        if rows == 0:
            text = " ".join(map(str, places))
        else:
            by_row: list[list[str]] = [[] for _ in range(rows)]
            for place in places:
                by_row[place // width].append(str(place % width))
            text = " | ".join(" ".join(r) or "-" for r in by_row)
        out.append(f"{name}: {text}")
    return "; ".join(out)


# ---------------------------------------------------------------------- registration


@functools.cache
def game_class(spec: AnyGame) -> type[HukumGame]:
    """The ``pyspiel.Game`` class of a game that offers a learning facet (NotOfferedError
    if it does not), made once: OpenSpiel keeps what it registers until after Python has
    stopped, so the class lives until the very end (a plain function would be freed without
    the interpreter, aborting the process at exit)."""
    learning_of(spec)
    return type(
        f"Hukum{spec.title.replace(' ', '')}Game",
        (HukumGame,),
        {
            "hukum_game": spec.name,
            "game_type": _game_type(spec),
            "__doc__": f"{spec.title} as a ``pyspiel.Game``.",
        },
    )


for _spec in GAMES.values():
    if _spec.learning is not None and game_name(_spec.name) not in pyspiel.registered_names():
        pyspiel.register_game(game_class(_spec).game_type, game_class(_spec))
