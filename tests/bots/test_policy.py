"""The learnt policy model (hukum.bots.policy) and the expert judging its worlds by it."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import numpy as np
import pytest

from hukum.bots import make_bot
from hukum.bots.expert import ExpertBot
from hukum.bots.policy import (
    FEATURES,
    Decisions,
    ModelError,
    PolicyModel,
    log_likelihood,
    move_features,
    train,
)
from hukum.bots.rules import Knowledge, RulesBot
from hukum.bots.search import replay, sample_world
from hukum.mindi import Deal, Move, MoveKind, Rules


def _played(rules: Rules, seed: int, moves: int) -> Deal:
    """A deal ``moves`` moves in, played by the rule-based player."""
    deal = Deal.new(rules, dealer=seed % 4, seed=seed)
    bot = RulesBot()
    while len(deal.history) < moves and not deal.is_over():
        deal.push(bot.choose(deal.view(deal.turn or 0)))
    return deal


def _finished(rules: Rules, seed: int) -> Deal:
    return _played(rules, seed, 10**6)


def test_the_package_model_gives_every_legal_move_a_probability() -> None:
    """The model shipped in the package loads, and its probabilities over the legal moves
    (cards and, under band hukum, the reveal) are positive and sum to 1."""
    model = PolicyModel.default()
    for rules in (Rules(), Rules(trump="band"), Rules(trump="band", reveal="on_request")):
        for seed in range(6):
            deal = _played(rules, seed, 9 + 5 * seed)
            view = deal.view(deal.turn or 0)
            probs = model.probabilities(Knowledge.of_view(view), view.legal_moves)
            assert probs.shape == (len(view.legal_moves),)
            assert (probs > 0).all() and abs(probs.sum() - 1.0) < 1e-9


def test_the_model_likes_the_natural_play() -> None:
    """Trained on the search and expert players, whose moves are often the rule-based
    player's, the model gives the rule-based player's move more than an even share."""
    model = PolicyModel.default()
    bot = RulesBot()
    shares = []
    for seed in range(10):
        deal = _played(Rules(), seed, 4 + seed * 3)
        view = deal.view(deal.turn or 0)
        moves = view.legal_moves
        if len(moves) < 2:
            continue
        probs = model.probabilities(Knowledge.of_view(view), moves)
        shares.append(probs[moves.index(bot.choose(view))] * len(moves))
    assert shares and float(np.mean(shares)) > 1.5


def test_features_describe_the_move() -> None:
    """A few facts checked by hand: the reveal move has only its flag and the position's
    facts; a 10 has the ten flag; the rule-based player's move has its flag."""
    deal = _played(Rules(trump="band", reveal="on_request"), 3, 0)
    while not any(m.kind is MoveKind.REVEAL for m in deal.legal_moves()):
        deal.push(RulesBot().choose(deal.view(deal.turn or 0)))
    view = deal.view(deal.turn or 0)
    moves = view.legal_moves
    x = move_features(Knowledge.of_view(view), moves)
    reveal = moves.index(Move.REVEAL_TRUMP)
    assert x[reveal, FEATURES.index("reveal")] == 1.0
    assert x[reveal, FEATURES.index("rank")] == 0.0
    natural = RulesBot().choose(view)
    assert x[:, FEATURES.index("rules_move")].tolist() == [float(m == natural) for m in moves]
    for i, move in enumerate(moves):
        if move.card is not None:
            assert x[i, FEATURES.index("ten")] == float(move.card & 15 == 8)


def test_a_missing_or_corrupt_model_file_is_refused_with_the_reason(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="cannot read the policy model"):
        PolicyModel.load(tmp_path / "none.npz")
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a numpy file")
    with pytest.raises(ModelError, match="is not a policy model file"):
        PolicyModel.load(bad)
    good = tmp_path / "good.npz"
    PolicyModel.default().save(good)
    cut = tmp_path / "cut.npz"
    cut.write_bytes(good.read_bytes()[:300])
    with pytest.raises(ModelError, match="is not a policy model file"):
        PolicyModel.load(cut)
    other = tmp_path / "other.npz"
    w = np.zeros((3, 2))
    np.savez(other, w1=w, b1=np.zeros(2), w2=np.zeros(2), features=np.array(["a", "b", "c"]))
    with pytest.raises(ModelError, match="other facts"):
        PolicyModel.load(other)
    with pytest.raises(ModelError, match="not finite"):
        PolicyModel(np.full((len(FEATURES), 2), np.nan), np.zeros(2), np.zeros(2))


def test_an_expert_whose_model_cannot_be_read_judges_by_the_rules(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The expert told to use a corrupt model warns with the reason and plays as the
    default expert (worlds judged by the rule-based player), move for move."""
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"\x00" * 50)
    with caplog.at_level(logging.WARNING):
        expert = ExpertBot(seed=4, samples=4, inference="model", model=str(bad))
    assert expert.model_error is not None and "is not a policy model file" in expert.model_error
    assert "judges its worlds by the rules instead" in caplog.text
    default = ExpertBot(seed=4, samples=4)
    for seed in range(3):
        deal = _played(Rules(), seed, 20)
        view = deal.view(deal.turn or 0)
        assert expert.choose(view) == default.choose(view)


def test_replay_weighs_a_world_by_every_other_seats_play_with_a_choice() -> None:
    """The world's weight is the product of the likelihood over the other seats' past plays
    that had more than one legal move (the seat's own plays do not count)."""
    deal = _played(Rules(), 5, 23)
    me = deal.turn or 0
    view = deal.view(me)
    counted: list[int] = []

    def half(k: Knowledge, legal: object, move: Move) -> float:
        counted.append(k.me)
        return 0.5

    _, weight = replay(view, (deal.hand_masks(), None), half)  # the true world
    assert counted and me not in counted
    assert weight == 0.5 ** len(counted)
    check = Deal(deal.rules, deal.dealer, deal.dealt, shown_card=deal.shown_card)
    choices = 0
    for seat, move in deal.history:
        if seat != me and len(check.legal_moves()) > 1:
            choices += 1
        check.push(move, seat=seat)
    assert len(counted) == choices


def test_a_world_with_unlikely_plays_weighs_less() -> None:
    """Judged by the model, the true world (where every play was made by the rule-based
    player, which the model finds likely) weighs more than most sampled worlds."""
    model = PolicyModel.default()
    deal = _played(Rules(), 8, 26)
    me = deal.turn or 0
    view = deal.view(me)
    _, true_weight = replay(view, (deal.hand_masks(), None), model.likelihood())
    rng = random.Random(2)
    sampled = [replay(view, sample_world(view, rng), model.likelihood())[1] for _ in range(30)]
    assert sum(w < true_weight for w in sampled) > 20


def test_the_expert_judges_worlds_by_the_model_and_draws_them_by_weight() -> None:
    deal = _played(Rules(), 2, 24)
    view = deal.view(deal.turn or 0)
    expert = ExpertBot(seed=1, samples=5, inference="model", draws=3)
    assert expert.model_error is None
    assert expert.choose(view) in view.legal_moves
    assert expert.last_samples == 5
    for options in ({"draws": 3}, {"power": 0.5}):
        made = [
            ExpertBot(seed=9, samples=5, inference="model", **options).choose(view)
            for _ in range(2)
        ]
        assert made[0] == made[1] and made[0] in view.legal_moves


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"inference": "guess"}, "judged by rules or model"),
        ({"power": 0}, "power=0"),
        ({"draws": 0}, "draws=0"),
    ],
)
def test_bad_inference_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ExpertBot(**options)  # type: ignore[arg-type]
    with pytest.raises(Exception, match=message):
        make_bot("expert", seed=0, **options)


def test_training_fits_the_moves_made_and_is_repeatable() -> None:
    """Trained on the rule-based player's games, the model predicts its moves far better
    than chance, and the same data and seed give the same model."""
    fit, held = Decisions(), Decisions()
    for seed in range(24):
        (held if seed % 4 == 0 else fit).add_deal(_finished(Rules(), seed))
    assert len(fit) > 300
    model = train(fit, hidden=8, epochs=15, seed=3)
    _x, mask, _y = held.arrays()
    uniform = float(np.mean(-np.log(mask.sum(axis=1))))
    ll, top = log_likelihood(model, held)
    assert ll > uniform + 0.3
    assert top > 0.6
    again = train(fit, hidden=8, epochs=15, seed=3)
    assert np.array_equal(again.w1, model.w1) and np.array_equal(again.w2, model.w2)
    with pytest.raises(ValueError, match="no decisions"):
        train(Decisions())
