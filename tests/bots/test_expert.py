"""The expert player: exact solves over sampled worlds in the last tricks, search before."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hukum.bots import BotError, make_bot
from hukum.bots.expert import ExpertBot
from hukum.bots.rules import RulesBot
from hukum.bots.search import SearchBot
from hukum.bots.solver import Solver
from hukum.mindi import Deal, Move, Rules, View


def _late(rules: Rules, seed: int, left: int) -> Deal:
    deal = Deal.new(rules, dealer=seed % 4, seed=seed)
    rng = random.Random(seed)
    while rules.hand_size - len(deal.tricks) > left or len(deal.legal_moves()) < 2:
        deal.push(rng.choice(deal.legal_moves()))
    return deal


def _after(seed: int, moves: int) -> tuple[Deal, View]:
    """A classic deal of ``seed`` after ``moves`` random moves, and the view of the seat to
    move."""
    deal = Deal.new(Rules(), dealer=seed % 4, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        deal.push(rng.choice(deal.legal_moves()))
    assert deal.turn is not None
    return deal, deal.view(deal.turn)


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(trump="band"), Rules(trump="band", reveal="on_request"), Rules(deck=48)],
    ids=["classic", "hidden", "on_request", "deck48"],
)
def test_solves_the_last_tricks(rules: Rules) -> None:
    """With few tricks left every sample is solved, and the move is legal (M-8, M-12)."""
    bot = ExpertBot(seed=3, samples=3, steps=200)
    for seed in range(4):
        deal = _late(rules, seed, 3)
        assert deal.turn is not None
        assert bot.choose(deal.view(deal.turn)) in deal.legal_moves()
        assert bot.last_samples == 3


def test_search_plays_before_the_solver_fits() -> None:
    """Early in the deal the search player decides; its choice is legal."""
    bot = ExpertBot(seed=1, samples=3, steps=200)
    deal = _late(Rules(), 1, 12)
    assert deal.turn is not None
    assert bot.choose(deal.view(deal.turn)) in deal.legal_moves()
    assert bot.last_samples == 0


def test_solves_from_ten_tricks_left_by_default() -> None:
    """The defaults (docs/strength.md): solved from 10 tricks left, the search player at 11."""
    bot = ExpertBot(seed=1, samples=3, steps=200)
    for seed, left, solved in ((4, 10, True), (5, 11, False)):
        deal = _late(Rules(), seed, left)
        assert deal.turn is not None
        assert Rules().hand_size - len(deal.tricks) == left
        assert bot.choose(deal.view(deal.turn)) in deal.legal_moves()
        assert (bot.last_samples >= 2) == solved, (left, bot.last_samples)


def test_equal_moves_can_go_to_the_most_tricks() -> None:
    """Of the moves the solves find equal, the one after which the mover's team ends with
    the most tricks when both teams play for the best result and then for tricks (the
    natural move if it is one of those). With the true deal as the only world, the move
    chosen is the one an independent solver's trick counts pick."""
    differ = 0
    for seed, moves in ((6, 24), (31, 36), (38, 40), (9, 20), (12, 28), (14, 32)):
        deal, view = _after(seed, moves)
        legal = list(deal.legal_moves())
        bot = ExpertBot(seed=seed, samples=3)
        truth: list[tuple[Deal, float]] = [(deal, 1.0)] * 3
        bot._worlds = lambda view, truth=truth: iter(truth)  # type: ignore[method-assign,misc]
        chosen = bot.choose(view)
        assert bot.last_samples == 3
        solver = Solver(Rules())
        solved = solver.solve(deal).moves
        team = view.seat % 2
        result = {
            m: f.score(team) + 0.05 * (f.tens[team] - f.tens[1 - team]) for m, f in solved.items()
        }
        equal = [m for m in legal if result[m] >= max(result.values()) - 1e-9]
        tricks = {m: solver.tricks(deal, m)[team] for m in equal}
        best = [m for m in equal if tricks[m] == max(tricks.values())]
        natural = RulesBot().choose(view)
        assert chosen == (natural if natural in best else best[0]), seed
        differ += natural in equal and natural not in best
    assert differ > 0, "the natural move always takes the most tricks"


def test_a_solve_past_the_node_budget_falls_back_to_search() -> None:
    """``max_nodes``: the worlds solved within the budget decide; with fewer than two, the
    search player does. Either way the move is legal."""
    deal = _late(Rules(), 2, 7)
    assert deal.turn is not None
    view = deal.view(deal.turn)
    full = ExpertBot(seed=1, samples=3)
    assert full.choose(view) in deal.legal_moves()
    assert full.last_samples == 3
    starved = ExpertBot(seed=1, samples=3, max_nodes=20, steps=200)
    assert starved.choose(view) in deal.legal_moves()
    assert starved.last_samples == 0
    with pytest.raises(ValueError, match="max_nodes"):
        ExpertBot(max_nodes=0)


def test_same_seed_same_choice() -> None:
    deal = _late(Rules(), 7, 4)
    assert deal.turn is not None
    view = deal.view(deal.turn)
    first = ExpertBot(seed=5, samples=4).choose(view)
    assert ExpertBot(seed=5, samples=4).choose(view) == first
    assert isinstance(first, Move)


def test_made_by_name_with_options() -> None:
    bot = make_bot("expert", seed=2, samples=5, solve_tricks=4)
    assert bot.name == "expert" and isinstance(bot, ExpertBot) and bot.samples == 5
    with pytest.raises(BotError, match="expert"):
        make_bot("expert", nonsense=1)
    with pytest.raises(ValueError, match="infer"):
        ExpertBot(infer=0.0)


def test_every_world_is_solved_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each of the ``samples`` worlds is a new one and is solved (a solution must not be
    taken for another world's)."""
    solved: list[int] = []
    solve = Solver.solve

    def counting(self: Solver, deal: Deal, **kw: object) -> object:
        solved.append(id(deal))
        return solve(self, deal, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(Solver, "solve", counting)
    bot = ExpertBot(seed=2, samples=8)
    deal = _late(Rules(), 6, 5)
    assert deal.turn is not None
    bot.choose(deal.view(deal.turn))
    assert bot.last_samples == 8
    assert len(solved) == 8


@pytest.mark.parametrize("preset", ["hidden", "dehla-pakad"])
def test_the_trump_choice_is_the_rule_based_players(preset: str) -> None:
    """The face-down card (M-12) and the announced suit (M-15) are the rule-based player's."""
    rules = Rules.preset(preset)
    for seed in range(6):
        deal = Deal.new(rules, dealer=seed % 4, seed=seed)
        assert deal.turn is not None
        view = deal.view(deal.turn)
        assert ExpertBot(seed=seed).choose(view) == RulesBot().choose(view)


def test_the_early_search_has_the_search_players_budgets_unless_told() -> None:
    """``steps``, ``worlds`` and ``min_worlds`` go to the search player of the early tricks,
    whose defaults are the search bot's own."""
    default, told = ExpertBot().search, ExpertBot(steps=500, worlds=9, min_worlds=2).search
    plain = SearchBot()
    assert (default.steps, default.worlds, default.min_worlds, default.time_budget) == (
        plain.steps,
        plain.worlds,
        plain.min_worlds,
        None,
    )
    assert (told.steps, told.worlds, told.min_worlds) == (500, 9, 2)


@pytest.mark.parametrize(
    "option",
    [
        {"blend": 0.5},
        {"equal": "natural"},
        {"natural_margin": 0.01},
        {"inference": "model"},
        {"draws": 3},
        {"early": "ismcts"},
        {"early_follow": "rules"},
        {"early_trick": 0.02},
        {"trump_worlds": 128},
        {"natural_z": 1.0},
        {"trick": 0.01},
    ],
    ids=lambda o: next(iter(o)),
)
def test_the_options_measured_and_not_kept_are_refused(option: dict[str, Any]) -> None:
    """docs/strength.md keeps their results; the bots no longer take them."""
    with pytest.raises(BotError, match="bad option for the expert bot"):
        make_bot("expert", **option)


def test_the_weighing_is_what_the_expert_chooses_by() -> None:
    """``weigh`` exposes the per-move totals ``choose`` decides by: with the same worlds (the
    same seed) the move chosen has the best weighted mean, and the means are the totals over
    the worlds' weight."""
    deal = _late(Rules(), seed=12, left=5)
    assert deal.turn is not None
    view = deal.view(deal.turn)
    moves = deal.legal_moves()
    chosen = ExpertBot(seed=4, samples=6).choose(view)
    weighing = ExpertBot(seed=4, samples=6).weigh(view, moves)
    assert weighing is not None and len(weighing.solved) == 6
    assert weighing.weight == pytest.approx(sum(w for _, w, _ in weighing.solved))
    means = weighing.means()
    assert set(means) == set(moves)
    assert means[chosen] == pytest.approx(max(means.values()))
    for move in moves:
        assert means[move] * weighing.weight == pytest.approx(weighing.totals[move])
