"""The parallel deal analysis (worker processes) against the serial one: the same values,
the same budget behaviour, counts of positions searched that depend only on the deal and
the number of workers; and the classes of equivalent moves it searches once each."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from hukum.analysis import Analyser, AnalysisError, Progress, analyse
from hukum.bots.rules import RulesBot
from hukum.bots.solver import Solver, move_classes
from hukum.mindi import Deal, Rules
from tests.bots.solver_helpers import VARIANTS, random_endgame


@pytest.fixture(scope="module")
def pool() -> Iterator[Analyser]:
    with Analyser(workers=2) as analyser:
        yield analyser


def _by_rules_bots(preset: str, seed: int) -> Deal:
    """A finished deal of ``preset`` played by the rules bot at every seat."""
    deal = Deal.new(Rules.preset(preset, deals=1, target=None), dealer=seed % 4, seed=seed)
    bot = RulesBot()
    while not deal.is_over():
        turn = deal.turn
        assert turn is not None
        deal.push(bot.choose(deal.view(turn)))
    return deal


def _at_random(preset: str, seed: int) -> Deal:
    """A finished deal of ``preset`` played at random (many mistakes to find)."""
    deal = Deal.new(Rules.preset(preset, deals=1, target=None), dealer=seed % 4, seed=seed)
    rng = random.Random(seed)
    while not deal.is_over():
        deal.push(rng.choice(deal.legal_moves()))
    return deal


@pytest.mark.parametrize(
    ("preset", "seed", "play"),
    [
        ("classic", 0, _by_rules_bots),
        ("classic", 1, _at_random),
        ("hidden", 2, _at_random),
        ("mindi-world", 2, _at_random),
        ("dehla-pakad", 4, _at_random),
    ],
)
def test_parallel_values_are_the_serial_ones(
    pool: Analyser, preset: str, seed: int, play: Callable[[str, int], Deal]
) -> None:
    """The last six tricks of seeded deals: every move's results before and after it and
    its better moves, the same from two worker processes as from one solver in this
    process."""
    deal = play(preset, seed)
    serial = analyse(deal, tricks=6)
    parallel = pool.analyse(deal, tricks=6)
    assert parallel == serial
    assert len(serial.moves) == 24 and serial.skipped == len(deal.history) - 24
    if play is _at_random:
        assert serial.mistakes  # something to agree on beyond "best play"


def test_a_budget_stops_at_the_same_trick_every_time(pool: Analyser) -> None:
    """A budget too small for the whole deal: the analysis says how many tricks it covered
    (the others are not analysed), the moves it covered are right, and the positions searched
    are the same on every run with the same number of workers, so is where it stops."""
    deal = _by_rules_bots("classic", 0)  # a deal of some 26 million positions searched
    budget = 3_000_000
    runs = []
    for _ in range(2):
        seen: list[Progress] = []
        report = pool.analyse(deal, max_nodes=budget, progress=seen.append)
        runs.append((report, seen))
    (first, seen), (second, again) = runs
    assert first == second and seen == again
    assert 1 <= first.tricks < 13 and first.skipped == 52 - 4 * first.tricks
    assert [p.tricks for p in seen] == list(range(first.tricks + 1))
    assert all(p.of == 13 and p.nodes <= budget for p in seen)
    assert first.moves == analyse(deal, tricks=first.tricks).moves
    # In this process the same budget stops at a trick too, with the same values so far.
    serial = analyse(deal, tricks=13, max_nodes=budget)
    assert 1 <= serial.tricks < 13
    shared = min(serial.tricks, first.tricks) * 4
    assert serial.moves[-shared:] == first.moves[-shared:]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: repr(r.differences() or "classic"))
def test_equivalent_moves_lead_to_the_same_result(rules: Rules) -> None:
    """Each class of :func:`move_classes` holds moves of one value (the solver's), and the
    classes hold every legal move once; some position has a class of more than one."""
    rng = random.Random(len(repr(rules)))
    solver = Solver(rules, table_bits=16)
    merged = 0
    for _ in range(12):
        deal = random_endgame(rules, rng, left=rng.choice((3, 4, 5)))
        if deal.is_over() or deal.phase != "play":
            continue
        classes = move_classes(deal)
        assert sorted(str(m) for c in classes for m in c) == sorted(map(str, deal.legal_moves()))
        solution = solver.solve(deal)
        for c in classes:
            assert len({solution.moves[m].value for m in c}) == 1
            merged += len(c) > 1
    if rules.tie_break != "highest_trick":
        assert merged > 0


def test_a_closed_pool_says_so() -> None:
    analyser = Analyser(workers=1)
    analyser.close()
    with pytest.raises(AnalysisError, match="closed"):
        analyser.analyse(_by_rules_bots("classic", 0), tricks=1)
    with pytest.raises(ValueError, match="workers"):
        Analyser(workers=0)
