"""Ganjifa for learning programs (:mod:`hukum.ganjifa.encoding`): the tracker's observations
are those built from each seat's view, nothing of another hand leaks into them, every move
is made by its actions and back, illegal actions are refused, and rewards are zero-sum."""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import pytest

from hukum.encoding import ActionError
from hukum.envs.core import EnvGame, learning_of
from hukum.games import GAMES
from hukum.ganjifa import Answers, CardSet, Deal, Move, MoveKind, Outcome, Rules
from hukum.ganjifa.cards import bits
from hukum.ganjifa.dukal import patterns
from hukum.ganjifa.encoding import GanjifaEncoding, GanjifaTracker

RULES = {
    "default": Rules(),
    "night": Rules(time="night"),
    "trump_first": Rules(void_rule="trump_first"),
    "either": Rules(dukal="either"),
    "royal_run": Rules(dukal="royal_run"),
}


def _choose(enc: GanjifaEncoding, deal: Deal, pending: Sequence[int], rng: random.Random) -> int:
    """A random legal action; a Dukal half the time when one may be led."""
    legal = deal.legal_moves()
    if isinstance(legal, Answers):
        return rng.choice(enc.legal_actions(legal, pending))
    dukals = [m for m in legal if m.kind is MoveKind.DUKAL]
    pick_dukal = dukals and rng.random() < 0.5
    move = rng.choice(dukals) if pick_dukal else legal[rng.randrange(len(legal))]
    return enc.encode(move)[0]


def _act(
    enc: GanjifaEncoding, deal: Deal, tracker: GanjifaTracker, pending: list[int], action: int
) -> list[int]:
    """Make ``action`` (pushing the move it completes); the pending actions after it."""
    move = enc.decode(deal.legal_moves(), pending, action)
    if move is None:
        return [*pending, action]
    deal.push(move)
    tracker.pushed()
    return []


def _differences(enc: GanjifaEncoding, got: np.ndarray, expected: np.ndarray) -> list[str]:
    return [
        name
        for name in enc.names
        if not np.array_equal(enc.segment(got, name), enc.segment(expected, name))
    ]


def _check(enc: GanjifaEncoding, deal: Deal, tracker: GanjifaTracker, pending: list[int]) -> None:
    """The tracker gives every seat what its view gives (the pending cards to the mover)."""
    for seat in range(3):
        mine = pending if seat == deal.turn else ()
        expected = enc.observe(deal.view(seat), mine)
        got = tracker.observe(seat, mine)
        assert got.dtype == np.int8
        assert got.shape == (enc.observation_size,)
        assert np.array_equal(got, expected), (
            f"seat {seat} after {len(deal.history)} moves, pending {mine}: "
            f"{_differences(enc, got, expected)} differ"
        )


# ---------------------------------------------------------------------- the tracker


@pytest.mark.parametrize("name", list(RULES))
def test_tracker_agrees_with_views(name: str) -> None:
    """After every move and every card chosen of an answer, for all three seats; a copied
    tracker of a copied deal goes on agreeing, and the original is not disturbed."""
    rules = RULES[name]
    enc = GanjifaEncoding(rules)
    dukals = answers = 0
    for number in range(20):
        rng = random.Random(f"{name} {number}")
        deal = Deal.new(rules, dealer=number % 3, seed=rng.randrange(2**32))
        tracker = enc.tracker(deal)
        pending: list[int] = []
        fork_at = rng.randrange(20, 100) if number % 4 == 0 else -1
        steps = 0
        while True:
            _check(enc, deal, tracker, pending)
            if deal.is_over():
                break
            if steps == fork_at:
                other = deal.copy()
                other_tracker = tracker.copy(other)
                other_pending = list(pending)
                other_rng = random.Random(steps)
                while not other.is_over():
                    action = _choose(enc, other, other_pending, other_rng)
                    other_pending = _act(enc, other, other_tracker, other_pending, action)
                    _check(enc, other, other_tracker, other_pending)
            action = _choose(enc, deal, pending, rng)
            dukals += action >= 120
            answers += deal.phase == "answer"
            pending = _act(enc, deal, tracker, pending, action)
            steps += 1
    assert dukals > 5 and answers > 10  # the Dukal paths were exercised


def test_tracker_of_a_deal_in_progress() -> None:
    """A tracker made in the middle of a deal, or one not told of some moves, catches up."""
    rules = Rules(dukal="either")
    enc = GanjifaEncoding(rules)
    rng = random.Random(5)
    deal = Deal.new(rules, dealer=1, seed=5)
    tracker = enc.tracker(deal)
    pending: list[int] = []
    while len(deal.history) < 60 or pending:
        pending = _act(enc, deal, tracker, pending, _choose(enc, deal, pending, rng))
    _check(enc, deal, enc.tracker(deal), [])
    deal.push(deal.legal_moves()[0])
    deal.push(deal.legal_moves()[0])
    tracker.pushed()  # told of one move of two
    _check(enc, deal, tracker, [])


# ---------------------------------------------------------------------- what it shows


def test_segments_mean_what_they_say() -> None:
    """The parts of an observation, read back, are the view's facts, seats from the
    observer."""
    rules = Rules()
    enc = GanjifaEncoding(rules)
    rng = random.Random(11)
    deal = Deal.new(rules, dealer=2, seed=11)
    tracker = enc.tracker(deal)
    pending: list[int] = []
    while len(deal.history) < 30 or deal.phase != "follow" or len(deal.trick) != 1:
        pending = _act(enc, deal, tracker, pending, _choose(enc, deal, pending, rng))
    for seat in range(3):
        view = deal.view(seat)
        obs = enc.observe(view)
        order = [(seat + r) % 3 for r in range(3)]

        def cards(part: np.ndarray) -> int:
            return sum(1 << int(c) for c in np.flatnonzero(part))

        assert cards(enc.segment(obs, "hand")) == view.hand.mask
        assert not enc.segment(obs, "pending").any()
        captured = enc.segment(obs, "captured")
        assert [cards(captured[r]) for r in range(3)] == [view.captured[s].mask for s in order]
        trick = enc.segment(obs, "trick")
        leader = view.trick[0].seat
        assert [cards(trick[r]) for r in range(3)] == [
            view.trick[0].move.mask if s == leader else 0 for s in order
        ]
        played = enc.segment(obs, "played")
        assert int(played.sum()) == 120 - sum(view.hand_sizes)
        moves = [p for t in view.tricks for p in t.plays] + list(view.trick)
        assert [cards(played[r]) for r in range(3)] == [
            sum(p.move.mask for p in moves if p.seat == s) for s in order
        ]
        sizes = enc.segment(obs, "hand_sizes")
        assert [int(np.argmax(sizes[r])) for r in range(3)] == [view.hand_sizes[s] for s in order]
        assert enc.segment(obs, "turn").tolist() == [int(s == view.turn) for s in order]
        assert enc.segment(obs, "leader").tolist() == [int(s == leader) for s in order]
        assert enc.segment(obs, "dealer").tolist() == [int(s == 2) for s in order]
        assert enc.segment(obs, "phase").tolist() == [0, 1, 0, 0]
        assert enc.segment(obs, "need").tolist() == [1] + [0] * 12
        assert int(np.argmax(enc.segment(obs, "trump"))) == view.trump
        voids = enc.segment(obs, "voids")
        assert [set(np.flatnonzero(voids[r]).tolist()) for r in range(3)] == [
            {int(v) for v in view.voids[s]} for s in order
        ]


def test_pending_cards_are_shown_to_the_mover() -> None:
    deal = _deal_with_dukal(Rules())
    enc = GanjifaEncoding(deal.rules)
    deal.push(deal.dukals()[0])
    tracker = enc.tracker(deal)
    assert deal.turn is not None
    view = deal.view(deal.turn)
    assert view.phase == "answer"
    chosen = list(bits(view.hand.mask))[: view.dukal - 1]
    obs = tracker.observe(view.seat, chosen)
    assert np.flatnonzero(enc.segment(obs, "pending")).tolist() == chosen
    assert int(np.argmax(enc.segment(obs, "need"))) == view.dukal
    assert enc.segment(obs, "phase").tolist() == [0, 0, 1, 0]
    assert np.array_equal(obs, enc.observe(view, chosen))


@pytest.mark.parametrize("name", ["default", "either"])
def test_nothing_of_another_hand_leaks(name: str) -> None:
    """A deal with the other two hands dealt again to agree with the observer's view, the
    same moves replayed, gives the observer the same observation (by view and by a tracker
    told of every move)."""
    rules = RULES[name]
    enc = GanjifaEncoding(rules)
    spec = GAMES["ganjifa"]
    changed = 0
    for number in range(6):
        rng = random.Random(f"leak {name} {number}")
        deal = Deal.new(rules, dealer=number % 3, seed=rng.randrange(2**32))
        tracker = enc.tracker(deal)
        pending: list[int] = []
        stops = set(rng.sample(range(110), 6))
        steps = 0
        while not deal.is_over():
            if steps in stops:
                for seat in range(3):
                    mine = pending if seat == deal.turn else ()
                    view = deal.view(seat)
                    other = learning_of(spec).sample_deal(view, rng)
                    changed += any(other.hand(s) != deal.hand(s) for s in range(3))
                    replayed = Deal(rules, deal.dealer, other.dealt)
                    other_tracker = enc.tracker(replayed)
                    for who, move in other.history:
                        replayed.push(move, seat=who)
                        other_tracker.pushed()
                    expected = tracker.observe(seat, mine)
                    assert np.array_equal(other_tracker.observe(seat, mine), expected)
                    assert np.array_equal(enc.observe(other.view(seat), mine), expected)
            pending = _act(enc, deal, tracker, pending, _choose(enc, deal, pending, rng))
            steps += 1
    assert changed > 50  # the other hands really were different


# ---------------------------------------------------------------------- actions


def test_action_space() -> None:
    enc = GanjifaEncoding(Rules())
    assert enc.actions == 120 + 10 * 84 == 960
    assert enc.pack == tuple(range(120)) and enc.hand_size == 40 and enc.players == 3
    assert enc.card_index(77) == 77 and not enc.shows_card and enc.game == "ganjifa"
    assert enc.action_text(9) == "put down Ma1"
    assert enc.action_text(960) == enc.action_text(-1) == "no such action"
    seen: dict[int, Move] = {}
    for option in ("run", "royal_run", "either"):
        for suit in range(10):
            for pattern in patterns(option):
                move = Move.dukal(CardSet(pattern << (12 * suit)))
                [action] = enc.encode(move)
                assert 120 <= action < 960
                assert seen.setdefault(action, move) == move
                assert enc.action_text(action) == str(move)
                assert enc.decode((Move.play(0), move), (), action) is move
    assert sorted(seen) == list(range(120, 960))  # every Dukal action is a Dukal of an option
    with pytest.raises(ValueError, match="not a Dukal"):
        enc.encode(Move.dukal("Ra3 Ra5"))


def _deal_with_dukal(rules: Rules, seed: int = 0) -> Deal:
    """A deal played at random until the seat to lead may lead a Dukal."""
    rng = random.Random(seed)
    while True:
        deal = Deal.new(rules, dealer=0, seed=rng.randrange(2**32))
        while not deal.is_over():
            if deal.dukals():
                return deal
            legal = deal.legal_moves()
            deal.push(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("name", ["default", "royal_run", "either"])
def test_legal_actions_match_legal_moves(name: str) -> None:
    """Each legal play and Dukal is one legal action and back; an answer is any k cards of
    the hand, chosen card by card in any order."""
    rules = RULES[name]
    enc = GanjifaEncoding(rules)
    given = 0
    for number in range(4):
        rng = random.Random(f"actions {name} {number}")
        deal = Deal.new(rules, dealer=number % 3, seed=rng.randrange(2**32))
        tracker = enc.tracker(deal)
        pending: list[int] = []
        while not deal.is_over():
            legal = deal.legal_moves()
            actions = enc.legal_actions(legal, pending)
            assert enc.action_mask(legal, pending) == sum(1 << a for a in actions)
            if isinstance(legal, Answers):
                assert actions == list(bits(legal.hand & ~sum(1 << a for a in pending)))
                if not pending:  # the whole answer, in a random order, then its encoding
                    cards = rng.sample(actions, legal.k)
                    for i, card in enumerate(cards):
                        move = enc.decode(legal, cards[:i], card)
                        assert (move is None) == (i < legal.k - 1)
                    assert move is not None and move.kind is MoveKind.GIVE
                    assert move == Move.give(CardSet(sum(1 << c for c in cards)))
                    assert move in legal and enc.encode(move) == sorted(cards)
                    given += 1
            else:
                assert not enc.legal_actions(legal, [actions[0]])  # nothing pending here
                encoded = [enc.encode(m) for m in legal]
                assert all(len(e) == 1 for e in encoded)
                assert sorted(e[0] for e in encoded) == actions  # one each, all different
                for move, [action] in zip(legal, encoded, strict=True):
                    assert enc.decode(legal, (), action) is move
            pending = _act(enc, deal, tracker, pending, _choose(enc, deal, pending, rng))
    assert given > 3


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    game = EnvGame("ganjifa")
    enc = game.encoding
    assert isinstance(enc, GanjifaEncoding)
    rng = random.Random(2)
    play = game.new_play(seed=4)
    # to the first Dukal that may be led
    while not (play.deal.phase == "lead" and play.deal.dukals()):  # type: ignore[attr-defined]
        play.apply(rng.choice(play.legal_actions()))
    legal = play.legal_actions()
    assert any(a >= 120 for a in legal)
    illegal_card = next(c for c in range(120) if c not in legal)
    illegal_dukal = next(a for a in range(120, 960) if a not in legal)
    for bad in (illegal_card, illegal_dukal, -1, 960, 10**9, 1.5, "3", None):
        _refused(play, bad)
    for odd in (True, False, np.int64(illegal_card), 1.0):  # the environment takes numpy ints
        with pytest.raises(ActionError, match="is not legal now"):
            enc.decode(play.deal.legal_moves(), (), odd)  # type: ignore[arg-type]
    with pytest.raises(ActionError, match="is not legal now; legal: "):
        enc.decode(play.deal.legal_moves(), [legal[0]], legal[0])  # nothing is pending here
    play.apply(next(a for a in legal if a >= 120))
    assert play.phase == "answer"
    hand = play.deal.hand(play.turn)  # type: ignore[attr-defined]
    first = play.legal_actions()[0]
    play.apply(first)
    assert play.pending == (first,)
    not_held = next(c for c in range(120) if not hand >> c & 1)
    for bad in (first, not_held, illegal_dukal, -1, 960):
        _refused(play, bad)
    moves = play.deal.legal_moves()
    with pytest.raises(ActionError):
        enc.decode(moves, [not_held], first)  # a pending card not in the hand
    with pytest.raises(ActionError):
        enc.decode(moves, [first, first], play.legal_actions()[0])  # the same card twice


def _refused(play, bad: object) -> None:
    enc = play.game.encoding
    before = (play.pending, list(play.deal.history), len(play.actions))
    observations = [play.observe(s) for s in range(3)]
    with pytest.raises(ActionError) as caught:
        play.apply(bad)
    message = str(caught.value)
    assert "is not legal now; legal: " in message
    if isinstance(bad, int) and not isinstance(bad, bool) and 0 <= bad < 960:
        assert f"action {bad} ({enc.action_text(bad)})" in message
    else:
        assert f"action {bad!r}" in message
    first = play.legal_actions()[0]
    assert f"{first} ({enc.action_text(first)})" in message
    assert (play.pending, list(play.deal.history), len(play.actions)) == before
    assert all(np.array_equal(play.observe(s), o) for s, o in enumerate(observations))


def test_environment_plays_a_deal_by_actions() -> None:
    """Through :class:`hukum.envs.core.EnvPlay`, the spec's encoding, with a copy."""
    game = EnvGame("ganjifa", options={"dukal": "either"}, reward="points")
    enc = game.encoding
    assert isinstance(enc, GanjifaEncoding) and enc.observation_size == 1509
    rng = random.Random(8)
    play = game.new_play(seed=8)
    copy = None
    while not play.is_over():
        for seat in range(3):
            pending = play.pending if seat == play.turn else ()
            assert np.array_equal(play.observe(seat), enc.observe(play.view(seat), pending))
        if len(play.actions) == 40:
            copy = play.copy()
        play.apply(rng.choice(play.legal_actions()))
    assert copy is not None and not copy.is_over()
    while not copy.is_over():
        copy.apply(rng.choice(copy.legal_actions()))
    for done in (play, copy):
        rewards = done.rewards()
        assert sum(rewards) == 0
        assert list(rewards) == [s - 40 for s in done.deal.scores]  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- rewards


class _Over:
    def __init__(self, scores: tuple[int, int, int] | None) -> None:
        self.scores = scores

    def outcome(self) -> Outcome | None:
        return None if self.scores is None else Outcome.of(self.scores)


@pytest.mark.parametrize(
    ("scores", "win"),
    [
        ((51, 30, 39), (1.0, -0.5, -0.5)),
        ((30, 45, 45), (-0.5, 0.25, 0.25)),
        ((40, 40, 40), (0.0, 0.0, 0.0)),
        ((0, 0, 120), (-0.5, -0.5, 1.0)),
    ],
)
def test_rewards(scores: tuple[int, int, int], win: tuple[float, ...]) -> None:
    enc = GanjifaEncoding(Rules())
    deal = _Over(scores)
    assert enc.rewards(deal, "win") == pytest.approx(win)  # type: ignore[arg-type]
    points = enc.rewards(deal, "points")  # type: ignore[arg-type]
    assert points == tuple(s - 40.0 for s in scores)
    for kind, got in (("win", enc.rewards(deal, "win")), ("points", points)):  # type: ignore[arg-type]
        assert sum(got) == pytest.approx(0)
        low, high = enc.reward_range(kind)  # type: ignore[arg-type]
        assert all(low <= r <= high for r in got)
    assert enc.reward_range("win") == (-0.5, 1.0) and enc.reward_range("points") == (-40, 80)
    with pytest.raises(ValueError, match="not over"):
        enc.rewards(_Over(None))  # type: ignore[arg-type]


def test_rewards_of_played_deals_sum_to_zero() -> None:
    enc = GanjifaEncoding(Rules())
    for seed in range(10):
        deal = Deal.new(Rules(), dealer=seed % 3, seed=seed)
        rng = random.Random(seed)
        while not deal.is_over():
            legal = deal.legal_moves()
            deal.push(legal[rng.randrange(len(legal))])
        for kind in ("win", "points"):
            assert sum(enc.rewards(deal, kind)) == pytest.approx(0)
