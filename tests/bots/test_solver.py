"""The solver against exhaustive minimax on the engine, for every 4-player rule option."""

from __future__ import annotations

import random
import zlib
from typing import Any

import pytest

from hukum.bots import solver as solver_module
from hukum.bots.solver import Forecast, Solver, SolverBudgetError, SolverError
from hukum.cards import Card
from hukum.mindi import Deal, Move, Rules
from tests.bots.solver_helpers import (
    VARIANTS,
    minimax,
    quiet_endgame,
    random_endgame,
    scripted_endgame,
)


def _same(deal: Deal, solver: Solver) -> None:
    """Every legal move's forecast is the exact minimax result on the engine."""
    solution = solver.solve(deal)
    assert set(solution.moves) == set(deal.legal_moves())
    for move, forecast in solution.moves.items():
        deal.push(move)
        outcome = deal.outcome() if deal.is_over() else minimax(deal)[1]
        deal.pop()
        assert outcome is not None
        got = (forecast.tens, forecast.winner, forecast.kind, forecast.points)
        assert got == (outcome.tens, outcome.winner, outcome.kind, outcome.points), (
            deal.history,
            move,
        )
        for value in (forecast.value, forecast.value + 1):  # the one search each side of it
            assert solver.at_least(deal, value, move) == (forecast.value >= value)
        # The most tricks within the best result: minimax's order counts them last.
        assert solver.tricks(deal, move, value=forecast.value) == outcome.tricks
        assert solver.tricks(deal, move) == outcome.tricks
    assert solver.value(deal) == solution.best
    assert solver.tricks(deal) == minimax(deal)[1].tricks
    for value in range(-1, 10):
        assert solver.at_least(deal, value) == (solution.best.value >= value)


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: str(r.differences() or "classic"))
def test_endgames_match_minimax(rules: Rules) -> None:
    """M-8 … M-17: random endgames of up to 4 cards a hand, trump set, unset or face down."""
    # Seeded from the options' text, not hash(): the same positions on every run.
    rng = random.Random(zlib.crc32(repr(sorted(rules.differences().items())).encode()))
    solver = Solver(rules, table_bits=14)
    for i in range(120):
        make = quiet_endgame if i % 2 else random_endgame
        deal = make(rules, rng, (1, 2, 2, 3, 3)[i % 5])
        if not deal.is_over():
            _same(deal, solver)
    for i in range(2):  # four cards a hand, a card or more of the trick played
        deal = (quiet_endgame, random_endgame)[i](rules, rng, 4)
        while len(deal.trick) < 2:
            deal.push(rng.choice(deal.legal_moves()))
        _same(deal, solver)


def test_quiet_endgames_keep_trump_unset() -> None:
    """The quiet positions do test what they are for: trump unset, card face down (M-11, M-12)."""
    rng = random.Random(3)
    for rules in (Rules(), Rules(trump="band"), Rules(trump="band", reveal="on_request")):
        deal = quiet_endgame(rules, rng, 4)
        while len(deal.trick):
            deal.pop()
        assert not deal.trump_known
        assert len(deal.hand(deal.turn or 0)) >= 3


def test_refusals() -> None:
    """Six players, a finished deal and other rules are refused with a clear error."""
    with pytest.raises(SolverError, match="4-player"):
        Solver(Rules(players=6, deck=48))
    deal = Deal.new(Rules(), dealer=0, seed=1)
    with pytest.raises(SolverError, match="other rules"):
        Solver(Rules(trump="open")).value(deal)
    with pytest.raises(ValueError, match="value=8: a forecast value, 0 to 7"):
        Solver(Rules()).tricks(deal, value=8)
    while not deal.is_over():
        deal.push(deal.legal_moves()[0])
    with pytest.raises(SolverError, match="over"):
        Solver(Rules()).value(deal)


def test_a_node_budget_gives_up_and_keeps_the_solver_sound() -> None:
    """``max_nodes``: a search that runs out says so, and the solver's table stays true, so
    the same solver then gives the exact values; a budget large enough changes nothing."""
    for rules in (Rules(), Rules(trump="open")):
        deals = [Deal.new(rules, dealer=0, seed=seed) for seed in (4, 5, 6)]
        for deal in deals:
            while len(deal.tricks) < 5:
                deal.push(deal.legal_moves()[-1])
        exact = [Solver(rules).solve(deal) for deal in deals]
        solver = Solver(rules)
        for deal, expected in zip(deals, exact, strict=True):
            assert expected.nodes > 100
            with pytest.raises(SolverBudgetError, match="within 100 positions"):
                solver.solve(deal, max_nodes=100)
            with pytest.raises(SolverBudgetError):
                solver.value(deal, max_nodes=50)
            again = solver.solve(deal)
            assert (again.best, again.moves) == (expected.best, expected.moves)
            assert solver.value(deal, max_nodes=expected.nodes) == expected.best
    with pytest.raises(ValueError, match="max_nodes=0"):
        Solver(rules).value(deals[0], max_nodes=0)


def test_clear_forgets_what_was_proven() -> None:
    """A solved position is found in the table the second time; after ``clear`` the solver
    searches it again from nothing, as a new solver does."""
    deal = Deal.new(Rules(), dealer=0, seed=4)
    while len(deal.tricks) < 5:
        deal.push(deal.legal_moves()[-1])
    solver = Solver(Rules())
    first = solver.value(deal)
    fresh = solver.nodes
    assert solver.value(deal) == first and solver.nodes < fresh
    solver.clear()
    assert solver.value(deal) == first and solver.nodes == fresh


def test_forecast_reads() -> None:
    """A forecast names the result and scores it for both teams."""
    rng = random.Random(9)
    deal = random_endgame(Rules(), rng, 2)
    forecast = Solver(Rules()).value(deal)
    assert forecast.score(forecast.winner) == forecast.points > 0
    assert forecast.score(1 - forecast.winner) == -forecast.points
    assert forecast.describe().startswith(f"Team {forecast.winner} ")
    assert sum(forecast.tens) == 4
    # The winner's tens first, as in every result people read (Outcome.describe).
    assert Forecast(2, (1, 3), 1, "win", 1).describe() == "Team 1 wins: 3–1 tens"
    assert Forecast(1, (0, 4), 1, "mendikot", 2).describe() == "Team 1 wins with mendikot: 4–0 tens"


def test_a_cut_with_the_ten_saves_a_mindi() -> None:
    """Cut hukum, trump not yet set (M-11): seat 0 leads K♠ and seat 1, out of spades, sets
    trump with the card it plays. Cutting with the 10♥ wins the trick with it; cutting with
    2♦ or 2♣ leaves the 10♥ to be caught by the A♥ later, a mendikot for team 0."""
    rules = Rules()
    deal = scripted_endgame(rules, 0, "KS AH 2S", "10H 2D 2C", "10S 3S 4S", "3H 4H 5H")
    assert not deal.trump_known and len(deal.tricks) == 10
    deal.push(Move.parse("KS"))
    solution = Solver(rules).solve(deal)
    assert [str(m) for m in solution.best_moves] == ["10H"]
    assert solution.best.tens == (3, 1) and solution.best.winner == 0
    for text in ("2C", "2D"):
        forecast = solution.moves[Move.parse(text)]
        assert (forecast.tens, forecast.kind) == ((4, 0), "mendikot")
    for move, forecast in solution.moves.items():  # and the engine agrees, line by line
        deal.push(move)
        assert minimax(deal)[1].tens == forecast.tens
        deal.pop()


def test_a_squeeze_wins_the_last_ten() -> None:
    """Open hukum (clubs, all played), 48 cards, team 0 holds three tens. West (seat 3) keeps
    the 10♠, master of spades, and the K♦ that guards it against South's Q♦. South cashes
    A♥ and K♥: West, out of hearts, throws the idle 4♠ on the first, but on the second must
    let go of the 10♠ (caught at once) or the K♦ (then the Q♦ wins the last trick, under
    which the 10♠ falls): a mendikot. Leading the Q♦ first lets West win the K♦ and cash
    the 10♠: only 3–1 (M-9, M-16, M-17)."""
    rules = Rules(trump="open", deck=48)
    deal = scripted_endgame(rules, 0, "AH KH QD", "3H 4H 5S", "6S 3D 4D", "10S 4S KD", shown="3C")
    assert deal.trump_known and len(deal.tricks) == 9
    solver = Solver(rules)
    solution = solver.solve(deal)
    assert sorted(str(m) for m in solution.best_moves) == ["AH", "KH"]
    assert (solution.best.tens, solution.best.kind) == ((4, 0), "mendikot")
    assert solution.moves[Move.parse("QD")].tens == (3, 1)
    for move, forecast in solution.moves.items():  # and the engine agrees, line by line
        deal.push(move)
        assert minimax(deal)[1].tens == forecast.tens
        deal.pop()
    for text in ["AH", "3H", "3D", "4S", "KH", "4H", "4D"]:
        deal.push(Move.parse(text))
    # The squeeze: West holds the 10♠ and the K♦, and either card loses the ten.
    assert deal.turn == 3 and set(deal.hand(3)) == {Card.parse("10S"), Card.parse("KD")}
    assert {f.tens for f in solver.solve(deal).moves.values()} == {(4, 0)}


def test_the_search_lets_other_threads_run() -> None:
    """The compiled search, the solver's one entry from Python, runs without the GIL: a
    server thread analysing a deal for seconds must not stop its event loop
    (checked on the dispatcher's options; a timing test would be flaky on a busy machine)."""
    dispatcher: Any = solver_module._rank
    assert dispatcher.targetoptions.get("nogil") is True
