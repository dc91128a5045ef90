"""Fair-play screening of finished deals: the solver's best cards against the view-based
choice, which decisions matter and which are hits."""

from __future__ import annotations

import importlib.util
import math
import random
from pathlib import Path
from types import ModuleType

import pytest

from hukum.bots import make_bot
from hukum.bots.base import Bot, check_turn
from hukum.bots.expert import ExpertBot
from hukum.bots.rules import RulesBot
from hukum.bots.solver import Solver, move_classes
from hukum.mindi import Deal, Move, Rules, View
from hukum.play import play_deal
from hukum.screening import CHEAT_SHARE, TOLERANCE, ScreenError, screen, step
from hukum.screening import _decision_seed as decision_seed

SAMPLES = 8


def _script() -> ModuleType:
    """scripts/screening.py, whose cheats exist for the measurement and these tests only."""
    path = Path(__file__).resolve().parent.parent / "scripts" / "screening.py"
    spec = importlib.util.spec_from_file_location("script_screening", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class ViewedBot(Bot[View, Move]):
    """Plays, in the screened window, the first card of the screening's own view-based
    choice (the same worlds: the screening's seed for the decision): an honest player the
    screening can never call a hit."""

    name = "viewed"

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.judge = ExpertBot(samples=SAMPLES)
        self.rules = RulesBot()

    def choose(self, view: View) -> Move:
        moves = check_turn(view)
        if view.rules.hand_size - len(view.tricks) > self.judge.solve_tricks or len(moves) < 2:
            return self.rules.choose(view)
        self.judge.rng = random.Random(decision_seed(self.seed, len(view.history) + 1))
        weighing = self.judge.weigh(view, moves)
        assert weighing is not None
        means = weighing.means()
        return max(moves, key=lambda m: means[m])


def _played(seed: int, first: Bot[View, Move] | None = None, level: str = "rules") -> Deal:
    deal = Deal.new(Rules(), dealer=seed % 4, seed=seed)
    players = [first or make_bot(level, seed=seed)] + [make_bot(level, seed=s) for s in (1, 2, 3)]
    play_deal(deal, players)
    return deal


def test_each_decision_is_the_solvers_best_against_the_view_based_choice() -> None:
    deal = _played(5, level="random")
    report = screen(deal, seats=(0, 1, 2, 3), seed=3, samples=SAMPLES)
    assert report.tricks == 10
    assert report.decisions
    solver = Solver(deal.rules)
    for d in report.decisions:
        assert deal.history[d.number - 1] == (d.seat, d.card)
        position = Deal(deal.rules, deal.dealer, deal.dealt, seed=deal.seed)
        for seat, move in deal.history[: d.number - 1]:
            position.push(move, seat=seat)
        assert deal.rules.hand_size - len(position.tricks) <= 10
        assert len(move_classes(position)) > 1
        assert set(d.best) == set(solver.solve(position).best_moves)
        legal = position.legal_moves()
        if set(d.best) == set(legal):  # nothing can matter: no view-based judgement
            assert d.viewed == () and not d.matters and d.chance == 1.0
        else:
            assert d.viewed and set(d.viewed) <= set(legal)
            assert d.matters == (not set(d.viewed) & set(d.best))
            assert d.chance == len(d.best) / len(legal) < 1.0
        assert d.hit == (d.matters and d.card in d.best)
    assert any(d.matters for d in report.decisions)
    for totals in report.totals:
        mine = [d for d in report.decisions if d.seat == totals.seat]
        assert totals.decisions == len(mine)
        assert totals.matters == sum(d.matters for d in mine)
        assert totals.hits == sum(d.hit for d in mine)
        steps = [step(d.chance, d.hit) for d in mine if d.matters]
        assert totals.llr == pytest.approx(sum(steps))


def test_the_screening_is_deterministic_and_each_decision_its_own() -> None:
    deal = _played(9)
    every = screen(deal, seats=range(4), seed=11, samples=SAMPLES)
    again = screen(deal, seats=range(4), seed=11, samples=SAMPLES)
    assert every == again
    alone = screen(deal, seats=(2,), seed=11, samples=SAMPLES)
    assert alone.decisions == tuple(d for d in every.decisions if d.seat == 2)
    assert [t.seat for t in alone.totals] == [2]


def test_the_full_view_cheat_hits_where_it_matters() -> None:
    cheats = _script()
    deal = Deal.new(Rules(), dealer=2, seed=6)
    play_deal(deal, [cheats.FullViewBot(deal, seed=6)] + [make_bot("rules") for _ in range(3)])
    report = screen(deal, seats=(0,), seed=6, samples=SAMPLES)
    (totals,) = report.totals
    assert totals.matters >= 1
    assert totals.hits == totals.matters
    assert all(d.card in d.best for d in report.decisions)
    # Each hit raises the seat's ratio by the odds of the cheat against a random card.
    odds = [(d.chance + (1 - d.chance) * CHEAT_SHARE) / d.chance for d in report.decisions if d.hit]
    assert totals.llr == pytest.approx(math.log(math.prod(odds))) and totals.llr > 0


@pytest.mark.parametrize(("seed", "matters"), [(4, 0), (6, 1)])
def test_a_player_of_the_view_based_choice_never_hits(seed: int, matters: int) -> None:
    deal = _played(seed, first=ViewedBot(seed))
    report = screen(deal, seats=(0,), seed=seed, samples=SAMPLES)
    (totals,) = report.totals
    assert totals.decisions >= 3
    assert totals.matters == matters  # where it matters, its card is not the solver's best
    assert totals.hits == 0
    assert totals.llr == pytest.approx(matters * math.log(1 - CHEAT_SHARE))
    assert all(d.card in d.viewed for d in report.decisions if d.viewed)
    assert any(d.viewed for d in report.decisions)


def test_the_partner_peek_cheat_deals_worlds_with_the_partners_hand() -> None:
    cheats = _script()
    deal = Deal.new(Rules(), dealer=0, seed=4)
    rng = random.Random(4)
    while len(deal.tricks) < 5:
        deal.push(rng.choice(deal.legal_moves()))
    assert deal.turn is not None
    peek = cheats.PeekBot(deal, seed=1)
    peek.samples = 5
    partner = (deal.turn + 2) % 4
    worlds = list(peek._worlds(deal.view(deal.turn)))
    assert len(worlds) == 5
    assert all(w.hand(partner) == deal.hand(partner) for w, _ in worlds)
    assert any(w.hand((partner + 1) % 4) != deal.hand((partner + 1) % 4) for w, _ in worlds)


def test_bad_deals_and_seats_are_refused() -> None:
    deal = Deal.new(Rules(), dealer=0, seed=1)
    with pytest.raises(ScreenError, match="finished"):
        screen(deal, seats=(0,))
    finished = _played(1)
    with pytest.raises(ScreenError, match="seats"):
        screen(finished, seats=(4,))
    with pytest.raises(ScreenError, match="seats"):
        screen(finished, seats=())
    with pytest.raises(ScreenError, match="tricks"):
        screen(finished, seats=(0,), tricks=14)
    three = Deal.new(Rules(players=6, deck=48), dealer=0, seed=1)
    while not three.is_over():
        three.push(three.legal_moves()[0])
    with pytest.raises(ScreenError, match="4 players"):
        screen(three, seats=(0,))


def test_the_measurement_counts_again_as_the_engine_counted() -> None:
    """scripts/screening.py keeps each judged decision's means and counts again at another
    tolerance (``--report --tolerance``): at the engine's own it gets the engine's counts."""
    script = _script()
    record = script.play_and_screen("honest", "rules", 0, 1)
    counted = script.recount(record, TOLERANCE)
    assert sum(m for m, _, _ in counted) >= 1  # this deal has decisions that matter
    assert [(m, h) for m, h, _ in counted] == [(s["matters"], s["hits"]) for s in record["seats"]]
    assert [llr for _, _, llr in counted] == pytest.approx([s["llr"] for s in record["seats"]])
    assert all(m == 0 for m, _, _ in script.recount(record, 100.0))  # every card viewed
