"""The expert player: exact solves over sampled worlds in the last tricks, search before."""

from __future__ import annotations

import random

import pytest

from hukum.bots import BotError, make_bot
from hukum.bots.expert import ExpertBot
from hukum.bots.ismcts import IsmctsBot
from hukum.bots.rules import RulesBot
from hukum.bots.search import playout_value, search_trump
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


def test_moves_equal_under_perfect_play_can_go_to_the_natural_one() -> None:
    """``equal="natural"``: once the tens are shared out 3–1 and both teams hold a trick,
    every card gives the same result, and the expert plays as the rule-based player would,
    not just the first legal card."""
    for seed, moves in ((6, 24), (31, 36), (38, 40)):
        deal, view = _after(seed, moves)
        assert sorted(len(tens) for tens in view.tens) == [1, 3]
        assert min(view.tricks_won) > 0
        natural = RulesBot().choose(view)
        assert natural != deal.legal_moves()[0]
        bot = ExpertBot(seed=seed, samples=3, equal="natural")
        assert bot.choose(view) == natural
        assert bot.last_samples == 3


def _played_out_value(deal: Deal, move: Move, trick: float) -> float:
    """The search player's value of ``move`` for the mover's team, the deal played out by
    the rule-based player from each seat's view (the engine's path, not the play-outs'),
    plus ``trick`` a trick more than the other team's; the deal is left as it was."""
    assert deal.turn is not None
    team = deal.turn % 2
    made = 1
    deal.push(move)
    while not deal.is_over():
        assert deal.turn is not None
        deal.push(RulesBot().choose(deal.view(deal.turn)))
        made += 1
    value = playout_value(deal, team, trick)
    for _ in range(made):
        deal.pop()
    return value


def test_equal_moves_can_go_to_the_best_play_out() -> None:
    """``equal="playouts"``: of the moves the solves find equal, the one whose play-out by
    the rule-based player in the solved worlds scores best, a trick counting ``trick`` (the
    natural move if it is one of the best). With the true deal as the only world: its
    play-out values, and the move they pick."""
    differ = 0
    for seed, moves in ((6, 24), (31, 36), (38, 40), (9, 20), (12, 28)):
        deal, view = _after(seed, moves)
        legal = list(deal.legal_moves())
        bot = ExpertBot(seed=seed, samples=3, equal="playouts", trick=0.1)
        truth: list[tuple[int, Deal, float]] = [(0, deal, 1.0)] * 3
        bot._worlds = lambda view, truth=truth: iter(truth)  # type: ignore[method-assign,misc]
        chosen = bot.choose(view)
        assert bot.last_samples == 3
        values = dict(zip(legal, (_played_out_value(deal, m, 0.1) for m in legal), strict=True))
        played = bot._played_out(view, view.seat % 2, legal, [(0, deal, 1.0)])
        assert played == pytest.approx(values), seed
        solved = Solver(Rules()).solve(deal).moves
        team = view.seat % 2
        result = {
            m: f.score(team) + 0.05 * (f.tens[team] - f.tens[1 - team]) for m, f in solved.items()
        }
        equal = [m for m in legal if result[m] >= max(result.values()) - 1e-9]
        best = [m for m in equal if values[m] >= max(values[e] for e in equal) - 1e-9]
        natural = RulesBot().choose(view)
        assert chosen == (natural if natural in best else best[0]), seed
        differ += natural in equal and natural not in best
    assert differ > 0, "the natural move is always among the best play-outs"
    with pytest.raises(ValueError, match="equal"):
        ExpertBot(equal="first")
    with pytest.raises(ValueError, match="trick"):
        ExpertBot(trick=-0.01)


def test_equal_moves_can_go_to_the_most_tricks() -> None:
    """``equal="tricks"``, the default: of the moves the solves find equal, the one after
    which the mover's team ends with the most tricks when both teams play for the best result
    and then for tricks (the natural move if it is one of those). With the true deal as the
    only world, the move chosen is the one an independent solver's trick counts pick."""
    differ = 0
    for seed, moves in ((6, 24), (31, 36), (38, 40), (9, 20), (12, 28), (14, 32)):
        deal, view = _after(seed, moves)
        legal = list(deal.legal_moves())
        bot = ExpertBot(seed=seed, samples=3, equal="tricks")
        truth: list[tuple[int, Deal, float]] = [(0, deal, 1.0)] * 3
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
    assert ExpertBot().equal == "tricks"  # the default (docs/strength.md)


def test_a_blend_adds_the_play_outs_to_the_solved_results() -> None:
    """``blend``: every move's play-out value in the solved worlds, so weighted, is added to
    its solved result; a large blend changes the move where the solves alone decide."""
    differ = 0
    for seed in range(8):
        deal = _late(Rules(), 300 + seed, 6)
        assert deal.turn is not None
        view = deal.view(deal.turn)
        alone = ExpertBot(seed=seed, samples=4).choose(view)
        blended = ExpertBot(seed=seed, samples=4, blend=100.0)
        move = blended.choose(view)
        assert move in deal.legal_moves() and blended.last_samples == 4
        differ += move != alone
    assert differ > 0, "the blend never changed the move"
    with pytest.raises(ValueError, match="blend"):
        ExpertBot(blend=-1.0)


def test_a_natural_move_within_the_margin_is_played_over_a_better_mean() -> None:
    """``natural_margin``: where the rule-based player's move is within the margin of the
    best mean result it is played; at 0 only exact ties go to it, and the best mean wins."""
    differ = 0
    for seed in range(12):
        deal = _late(Rules(), 100 + seed, 5)
        assert deal.turn is not None
        view = deal.view(deal.turn)
        natural = RulesBot().choose(view)
        exact = ExpertBot(seed=seed, samples=4, equal="natural").choose(view)
        wide = ExpertBot(seed=seed, samples=4, natural_margin=10.0, equal="natural")
        assert wide.choose(view) == natural and wide.last_samples == 4  # 10 points: any move
        differ += exact != natural
    assert differ > 0, "no position where the exact expert and the rules differ"
    with pytest.raises(ValueError, match="natural_margin"):
        ExpertBot(natural_margin=-0.1)


def test_early_follows_can_be_the_rule_based_players() -> None:
    """``early_follow="rules"``: before the solved tricks a card played to a trick already
    led is the rule-based player's; a lead is still searched, as by default."""
    differ = {"lead": 0, "follow": 0}
    for seed in range(16):
        deal = _late(Rules(), 200 + seed, 12)
        if seed % 2:  # a card to follow a lead, in the same trick
            rng = random.Random(seed)
            deal.push(rng.choice(deal.legal_moves()))
            while len(deal.legal_moves()) < 2:
                deal.push(rng.choice(deal.legal_moves()))
        assert deal.turn is not None
        view = deal.view(deal.turn)
        kind = "follow" if view.trick else "lead"
        natural = RulesBot().choose(view)
        searched = ExpertBot(seed=seed, steps=2000).choose(view)
        ruled = ExpertBot(seed=seed, steps=2000, early_follow="rules").choose(view)
        assert ruled == (natural if kind == "follow" else searched), (seed, kind)
        differ[kind] += searched != natural
    assert differ["follow"] > 0 and differ["lead"] > 0, differ
    with pytest.raises(ValueError, match="early_follow"):
        ExpertBot(early_follow="search")


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


@pytest.mark.parametrize("preset", ["hidden", "dehla-pakad"])
def test_the_trump_choice_is_searched_unless_told_to_take_the_rules_one(preset: str) -> None:
    """The face-down card (M-12) and the announced suit (M-15) are played out in
    ``trump_worlds`` deals; with 0 they are the rule-based player's choice."""
    rules = Rules.preset(preset)
    for seed in range(6):
        deal = Deal.new(rules, dealer=seed % 4, seed=seed)
        assert deal.turn is not None
        view = deal.view(deal.turn)
        searched = ExpertBot(seed=seed, trump_worlds=24).choose(view)
        assert searched == search_trump(view, random.Random(seed), 24, RulesBot())
        assert searched in deal.legal_moves()
        assert ExpertBot(seed=seed, trump_worlds=0).choose(view) == RulesBot().choose(view)
    with pytest.raises(ValueError, match="trump_worlds"):
        ExpertBot(trump_worlds=-1)


def test_the_expert_plays_its_early_tricks_by_tree_search_when_asked() -> None:
    deal = Deal.new(Rules(), dealer=0, seed=6)
    turn = deal.turn
    assert turn is not None
    view = deal.view(turn)
    expert = ExpertBot(seed=2, early="ismcts", steps=700)
    assert isinstance(expert.search, IsmctsBot)
    assert expert.choose(view) == IsmctsBot(seed=2, steps=700).choose(view)
    with pytest.raises(ValueError, match="early"):
        ExpertBot(early="guess")


def test_made_by_name_with_options() -> None:
    bot = make_bot("expert", seed=2, samples=5, solve_tricks=4)
    assert bot.name == "expert" and isinstance(bot, ExpertBot) and bot.samples == 5
    with pytest.raises(BotError, match="expert"):
        make_bot("expert", nonsense=1)
    with pytest.raises(ValueError, match="infer"):
        ExpertBot(infer=0.0)


@pytest.mark.parametrize("draws", [1, 3])
def test_every_world_is_solved_once_and_only_a_world_drawn_again_is_reused(
    draws: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With one draw each of the ``samples`` worlds is a new one and is solved (a solution
    must not be taken for another world's); with more, a world drawn twice is solved once."""
    from hukum.bots.solver import Solver

    solved: list[int] = []
    solve = Solver.solve

    def counting(self: Solver, deal: Deal, **kw: object) -> object:
        solved.append(id(deal))
        return solve(self, deal, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(Solver, "solve", counting)
    bot = ExpertBot(seed=2, samples=8, draws=draws)
    deal = _late(Rules(), 6, 5)
    assert deal.turn is not None
    bot.choose(deal.view(deal.turn))
    assert bot.last_samples == 8
    if draws == 1:
        assert len(solved) == 8
    else:
        assert 1 <= len(solved) == len(set(solved)) <= 8
