"""A learnt model of how Mindi players choose their cards: how likely each legal move is.

The model scores every legal move of a position from facts the mover can see (its
:class:`~hukum.bots.rules.Knowledge`): the card's rank and suit role, whether it wins the
trick now or surely, whether it is a master, a 10, a trump, whether the rule-based player
would play it, and the state of the trick and the deal. A small neural network (one hidden
layer, numpy only) turns each move's facts into a score, and the scores of the legal moves
into probabilities (a softmax). It is trained on the moves of the search and expert players
in recorded games (``scripts/train_policy.py``, ``make policy``), never on downloaded data.

The expert uses it to judge how likely a sampled world is: a world in which the other
seats' past plays were likely plays is likelier (``ExpertBot(inference="model")``).

>>> from hukum.mindi import Deal, Rules
>>> from hukum.bots.rules import Knowledge
>>> deal = Deal.new(Rules(), dealer=0, seed=2)
>>> model = PolicyModel.default()
>>> view = deal.view(deal.turn)
>>> probs = model.probabilities(Knowledge.of_view(view), view.legal_moves)
>>> len(probs) == len(view.legal_moves), round(float(probs.sum()), 6)
(True, 1.0)
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from hukum.bots.rules import Knowledge, RulesBot
from hukum.bots.search import Likelihood
from hukum.mindi import Deal, Move, MoveKind

__all__ = [
    "FEATURES",
    "Decisions",
    "ModelError",
    "PolicyModel",
    "log_likelihood",
    "move_features",
    "train",
]

Array = npt.NDArray[np.float64]

_SUIT = 0x1FFF
_TEN = 8

#: The facts of one legal move, in the order of the model's inputs.
FEATURES = (
    "rules_move",
    "reveal",
    "rank",
    "ten",
    "ace",
    "king",
    "queen_jack",
    "low",
    "trump",
    "follows",
    "cuts",
    "discards",
    "wins_now",
    "wins_surely",
    "master",
    "live_above",
    "suit_length",
    "lowest_of_suit",
    "highest_of_suit",
    "guards_own_ten",
    "ten_live_elsewhere",
    "opponent_may_ruff",
    "partner_void",
    # The position (the same for every move of a decision; they act through the hidden layer).
    "leading",
    "second",
    "third",
    "last",
    "partner_winning",
    "tens_in_trick",
    "trump_known",
    "cut_unset",
    "tricks_left",
    "our_tens",
    "their_tens",
    "decided",
    "trick_mode",
)

_RULES = RulesBot()
_CONTEXT = FEATURES.index("leading")  # the first of the position's facts


class ModelError(ValueError):
    """A model file that cannot be read as a policy model (missing, corrupt, wrong shape)."""


def move_features(k: Knowledge, moves: Sequence[Move]) -> Array:
    """The facts of every move in ``moves`` (rows) as the model's inputs (``FEATURES``)."""
    natural = _RULES.play(k, moves)
    n = k.n
    led = k.led
    trick = k.trick
    trump = k.trump
    best, best_seat = k.best() if trick else (-1, -1)
    partner_winning = 1.0 if trick and best_seat & 1 == k.team else 0.0
    position = len(trick)
    tens_here = k.tens_in_trick()
    hand = k.hand
    others = k.others_mask
    opps = [s for s in range(n) if s & 1 != k.team]
    partners = [s for s in range(n) if s & 1 == k.team and s != k.me]
    left = hand.bit_count() / 13.0
    ctx = [
        1.0 if position == 0 else 0.0,
        1.0 if position == 1 else 0.0,
        1.0 if position == 2 else 0.0,
        1.0 if position == 3 else 0.0,
        partner_winning,
        float(tens_here),
        1.0 if k.trump_known else 0.0,
        1.0 if k.cut_unset else 0.0,
        left,
        k.tens[0] / 4.0,
        k.tens[1] / 4.0,
        float(k.decided),
        1.0 if k.trick_mode else 0.0,
    ]
    rows = np.zeros((len(moves), len(FEATURES)))
    for i, move in enumerate(moves):
        row = rows[i]
        if move == natural:
            row[0] = 1.0
        row[_CONTEXT:] = ctx
        card = move.card
        if move.kind is not MoveKind.PLAY or card is None:
            row[1] = 1.0
            continue
        s = card >> 4
        r = card & 15
        mine = hand >> (s << 4) & _SUIT
        row[2] = r / 12.0
        row[3] = 1.0 if r == _TEN else 0.0
        row[4] = 1.0 if r == 12 else 0.0
        row[5] = 1.0 if r == 11 else 0.0
        row[6] = 1.0 if r in (9, 10) else 0.0
        row[7] = 1.0 if r <= 3 else 0.0
        is_trump = trump >= 0 and s == trump
        row[8] = 1.0 if is_trump else 0.0
        if led >= 0:
            follows = s == led
            row[9] = 1.0 if follows else 0.0
            row[10] = 1.0 if not follows and (is_trump or k.cut_unset) else 0.0
            row[11] = 1.0 if not follows and not (is_trump or k.cut_unset) else 0.0
            key = k.card_key(card, trump)
            if key > best:
                row[12] = 1.0
                if k.sure(key, trump):
                    row[13] = 1.0
        if k.is_master(card):
            row[14] = 1.0
        above = (others >> (s << 4) & _SUIT) >> (r + 1)
        row[15] = above.bit_count() / 13.0
        row[16] = mine.bit_count() / 13.0
        row[17] = 1.0 if not mine & ((1 << r) - 1) else 0.0
        row[18] = 1.0 if not mine >> (r + 1) else 0.0
        row[19] = 1.0 if mine >> _TEN & 1 and r != _TEN else 0.0
        row[20] = 1.0 if others >> ((s << 4) + _TEN) & 1 else 0.0
        if led < 0:
            row[21] = 1.0 if any(k.may_ruff(o, s, trump) for o in opps) else 0.0
            row[22] = 1.0 if any(k.void(p, s) and k.poss[p] for p in partners) else 0.0
    return rows


class PolicyModel:
    """Scores for legal moves: ``relu(x @ w1 + b1) @ w2`` for each move's facts ``x``."""

    def __init__(self, w1: Array, b1: Array, w2: Array) -> None:
        """A model from its weights: ``w1`` (facts × hidden), ``b1`` and ``w2`` (hidden)."""
        f = len(FEATURES)
        if w1.ndim != 2 or w1.shape[0] != f or b1.shape != (w1.shape[1],) or w2.shape != b1.shape:
            raise ModelError(
                f"weights of shapes {w1.shape}, {b1.shape}, {w2.shape}: expected "
                f"({f}, H), (H,), (H,) for the {f} facts of hukum.bots.policy.FEATURES"
            )
        if not (np.isfinite(w1).all() and np.isfinite(b1).all() and np.isfinite(w2).all()):
            raise ModelError("weights that are not finite numbers")
        self.w1 = w1
        self.b1 = b1
        self.w2 = w2

    def scores(self, x: Array) -> Array:
        """The score of each row of facts (higher: likelier)."""
        h = np.maximum(x @ self.w1 + self.b1, 0.0)
        return h @ self.w2

    def probabilities(self, k: Knowledge, moves: Sequence[Move]) -> Array:
        """How likely each of ``moves`` (the legal moves) is, as the model sees it."""
        s = self.scores(move_features(k, moves))
        e: Array = np.exp(s - s.max())
        out: Array = e / e.sum()
        return out

    def likelihood(self, power: float = 1.0) -> Likelihood:
        """How likely the model finds a move, to the power ``power`` (for
        :func:`hukum.bots.search.replay`: 1 weighs worlds by the model's probabilities, lower
        trusts it less)."""

        def likelihood(k: Knowledge, legal: Sequence[Move], move: Move) -> float:
            p = float(self.probabilities(k, legal)[legal.index(move)])
            return float(max(p, 1e-9) ** power)

        return likelihood

    def save(self, path: Path) -> None:
        """Write the model as a numpy ``.npz`` file with the names of its facts."""
        with path.open("wb") as f:
            np.savez(f, w1=self.w1, b1=self.b1, w2=self.w2, features=np.array(FEATURES))

    @classmethod
    def load(cls, path: Path) -> PolicyModel:
        """Read a model written by :meth:`save`; :class:`ModelError` says what is wrong."""
        try:
            data = path.read_bytes()
        except OSError as e:
            raise ModelError(f"cannot read the policy model {path}: {e.strerror}") from None
        return cls.from_bytes(data, str(path))

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "the policy model") -> PolicyModel:
        """A model from the bytes of an ``.npz`` file."""
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as npz:
                parts = {key: np.asarray(npz[key]) for key in ("w1", "b1", "w2", "features")}
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as e:
            raise ModelError(f"{name} is not a policy model file: {e}") from None
        names = tuple(str(x) for x in parts["features"])
        if names != FEATURES:
            raise ModelError(
                f"{name} was trained on other facts than hukum.bots.policy.FEATURES: retrain "
                "it (make policy)"
            )
        try:
            return cls(*(parts[key].astype(np.float64) for key in ("w1", "b1", "w2")))
        except ModelError as e:
            raise ModelError(f"{name}: {e}") from None

    @classmethod
    def default(cls) -> PolicyModel:
        """The model shipped in the package (``hukum/bots/policy.npz``)."""
        ref = resources.files("hukum.bots").joinpath("policy.npz")
        try:
            data = ref.read_bytes()
        except OSError as e:
            raise ModelError(
                f"the package's policy model hukum/bots/policy.npz is missing ({e.strerror}): "
                "reinstall hukum or retrain it (make policy)"
            ) from None
        return cls.from_bytes(data, "the package's policy model hukum/bots/policy.npz")


# ------------------------------------------------------------ training


class Decisions:
    """Decisions of recorded games for training: each one's move facts and the move made."""

    def __init__(self) -> None:
        """No decisions yet."""
        self.features: list[Array] = []
        self.chosen: list[int] = []

    def __len__(self) -> int:
        return len(self.chosen)

    def add_deal(self, deal: Deal) -> None:
        """Every play-phase decision with more than one legal move in a finished ``deal``."""
        replay = Deal(deal.rules, deal.dealer, deal.dealt, shown_card=deal.shown_card)
        for seat, move in deal.history:
            if replay.phase == "play":
                legal = replay.legal_moves()
                if len(legal) > 1:
                    k = Knowledge.of_view(replay.view(seat))
                    self.features.append(move_features(k, legal))
                    self.chosen.append(legal.index(move))
            replay.push(move, seat=seat)

    def arrays(self) -> tuple[Array, npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
        """Facts padded to the most legal moves (decisions × moves × facts), which entries
        are moves, and the index of the move made."""
        width = max(len(x) for x in self.features)
        x = np.zeros((len(self), width, len(FEATURES)))
        mask = np.zeros((len(self), width), dtype=bool)
        for i, rows in enumerate(self.features):
            x[i, : len(rows)] = rows
            mask[i, : len(rows)] = True
        return x, mask, np.array(self.chosen, dtype=np.int64)


def _log_softmax(s: Array, mask: npt.NDArray[np.bool_]) -> Array:
    s = np.where(mask, s, -np.inf)
    top = s.max(axis=1, keepdims=True)
    z = np.log(np.exp(s - top).sum(axis=1, keepdims=True)) + top
    return np.where(mask, s - z, -np.inf)


def log_likelihood(model: PolicyModel, data: Decisions) -> tuple[float, float]:
    """The mean log-probability the model gives the moves made, and how often the move made
    is the model's likeliest."""
    x, mask, y = data.arrays()
    logp = _log_softmax(model.scores(x), mask)
    rows = np.arange(len(y))
    return float(logp[rows, y].mean()), float((logp.argmax(axis=1) == y).mean())


def train(
    data: Decisions, hidden: int = 32, epochs: int = 30, seed: int = 0, l2: float = 1e-4
) -> PolicyModel:
    """A model fitted to the moves made (cross-entropy, Adam, minibatches of 512), from a
    seeded start, so the same data and arguments give the same model."""
    if not len(data):
        raise ValueError("no decisions to train on")
    x, mask, y = data.arrays()
    rng = np.random.default_rng(seed)
    f = len(FEATURES)
    params = [
        rng.normal(0.0, 1.0 / np.sqrt(f), (f, hidden)),
        np.zeros(hidden),
        rng.normal(0.0, 0.1, hidden),
    ]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    rate, beta1, beta2, step = 0.01, 0.9, 0.999, 0
    for _ in range(epochs):
        order = rng.permutation(len(y))
        for start in range(0, len(y), 512):
            batch = order[start : start + 512]
            xb, mb, yb = x[batch], mask[batch], y[batch]
            w1, b1, w2 = params
            pre = xb @ w1 + b1
            h = np.maximum(pre, 0.0)
            logp = _log_softmax(h @ w2, mb)
            p = np.where(mb, np.exp(logp), 0.0)
            p[np.arange(len(yb)), yb] -= 1.0
            ds = p / len(yb)
            dpre = ds[..., None] * w2 * (pre > 0)
            grads = [
                np.einsum("nmf,nmh->fh", xb, dpre) + l2 * w1,
                dpre.sum(axis=(0, 1)),
                np.einsum("nmh,nm->h", h, ds) + l2 * w2,
            ]
            step += 1
            for i, g in enumerate(grads):
                m[i] = beta1 * m[i] + (1 - beta1) * g
                v[i] = beta2 * v[i] + (1 - beta2) * g * g
                mhat = m[i] / (1 - beta1**step)
                vhat = v[i] / (1 - beta2**step)
                params[i] = params[i] - rate * mhat / (np.sqrt(vhat) + 1e-8)
    return PolicyModel(*params)
