"""Deal analysis: the move that lost a ten is named, and checked against the engine."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hukum import records
from hukum.analysis import analyse, verdict
from hukum.bots.solver import Solver
from hukum.mindi import Deal, Match, Rules
from tests.bots.solver_helpers import minimax


def _played_at_random(seed: int) -> Match:
    match = Match(Rules.preset("classic", deals=1, target=None), seed=seed)
    deal = match.start_deal()
    rng = random.Random(seed)
    while not deal.is_over():
        deal.push(rng.choice(deal.legal_moves()))
    return match


def test_the_move_that_lost_a_ten_is_named() -> None:
    """A recorded deal (seed 2, random play): seat 2's 9S at move 42 lost a mindi, AS kept it;
    the engine's own exhaustive minimax agrees (M-16)."""
    match = records.loads(records.dumps(_played_at_random(2)))
    deal = match.deals[0]
    report = analyse(deal, tricks=3)
    assert report.skipped == 40 and len(report.moves) == 12
    [lost] = [m for m in report.mistakes if m.before.tens[m.team] > m.after.tens[m.team]]
    assert (lost.number, lost.seat, str(lost.move)) == (42, 2, "9S")
    assert [str(m) for m in lost.best] == ["AS"]
    assert lost.describe().startswith("move 42, seat 2 played 9S: lost a mindi")
    # The same position on the engine: every line tried.
    position = Deal(deal.rules, deal.dealer, deal.dealt)
    for seat, move in deal.history[: lost.number - 1]:
        position.push(move, seat=seat)
    tens = {}
    for move in (lost.move, *lost.best):
        position.push(move)
        tens[str(move)] = minimax(position)[1].tens[lost.team]
        position.pop()
    assert tens["AS"] == tens["9S"] + 1 == lost.before.tens[lost.team]


def test_a_perfect_move_changes_nothing() -> None:
    """Moves that keep the forced result are not mistakes, and the result only moves one way:
    the mover can lose value, never gain it, when the opponents play perfectly."""
    report = analyse(_played_at_random(5).deals[0], tricks=4)
    for m in report.moves:
        sign = 1 if m.team == 0 else -1
        assert sign * (m.after.value - m.before.value) <= 0
        assert m.mistake == bool(m.best) and m.move not in m.best
    follows = zip(report.moves, report.moves[1:], strict=False)
    for a, b in follows:
        assert a.after == b.before  # after one move is before the next


@pytest.mark.parametrize("preset", ["classic", "hidden", "mindi-world", "dehla-pakad"])
def test_the_analysis_is_that_of_solving_every_position(preset: str) -> None:
    """Where the mover could not have done better (one null-window search), the analysis
    skips solving every move of the position: the results before and after each move, and
    the better moves of each mistake, are still those of the full solve."""
    rules = Rules.preset(preset, deals=1, target=None)
    deal = Deal.new(rules, dealer=2, seed=2)
    rng = random.Random(2)
    while not deal.is_over():
        deal.push(rng.choice(deal.legal_moves()))
    report = analyse(deal, tricks=5)
    assert len(report.moves) == 20 and 0 < len(report.mistakes) < 20
    solver = Solver(rules)
    position = Deal(rules, deal.dealer, deal.dealt, shown_card=deal.shown_card, seed=deal.seed)
    for seat, move in deal.history[: report.skipped]:
        position.push(move, seat=seat)
    for m in report.moves:
        solution = solver.solve(position)
        assert (m.before, m.after) == (solution.best, solution.moves[m.move])
        assert m.best == (tuple(solution.best_moves) if m.mistake else ())
        position.push(m.move, seat=m.seat)


def test_a_node_budget_analyses_whole_tricks_from_the_end() -> None:
    """``max_nodes``: the analysis works back from the last trick and keeps only whole
    tricks, the same moves and forecasts as the analysis of that many tricks."""
    deal = _played_at_random(8).deals[0]  # a deal solved whole in a second or two
    whole = analyse(deal, tricks=13, max_nodes=10**9)
    assert whole.tricks == 13 and len(whole.moves) == 52 and whole.skipped == 0
    assert whole.moves == analyse(deal, tricks=13).moves
    solved = [Solver(deal.rules, table_bits=18) for _ in range(2)]
    short = analyse(deal, tricks=13, max_nodes=20_000, solver=solved[0])
    assert 1 <= short.tricks < 13
    assert len(short.moves) == 4 * short.tricks and short.skipped == 52 - 4 * short.tricks
    assert short.moves == analyse(deal, tricks=short.tricks, solver=solved[1]).moves
    with pytest.raises(ValueError, match="max_nodes"):
        analyse(deal, max_nodes=0)


def test_verdicts_read_as_people_say_them() -> None:
    solver = Solver(Rules())
    win31, win22, lose13, mendikot = (solver.forecast(v) for v in (5, 4, 2, 6))
    assert verdict(win31, win22, 0) == "lost a mindi"
    assert verdict(win31, lose13, 0) == "turned a win into a loss, lost 2 mindis"
    assert verdict(mendikot, win31, 0) == "turned a mendikot into a plain win, lost a mindi"
    assert verdict(win31, win31, 0) == ""


def test_the_window_is_checked() -> None:
    deal = Deal.new(Rules(), dealer=0, seed=1)
    with pytest.raises(ValueError, match="tricks"):
        analyse(deal, tricks=0)


def _solve(*args: str) -> subprocess.CompletedProcess[str]:
    """``hukum solve`` with these arguments, in a wide plain terminal."""
    return subprocess.run(
        [sys.executable, "-m", "hukum", "solve", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, "COLUMNS": "200", "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1"},
        timeout=120,
    )


def test_hukum_solve_prints_the_analysis(tmp_path: Path) -> None:
    """``hukum solve RECORD`` names the move that lost a mindi and the better one."""
    path = tmp_path / "deal.json"
    records.save(_played_at_random(2), path)
    result = _solve(str(path), "--tricks", "3")
    assert result.returncode == 0, result.stderr
    row = next(line for line in result.stdout.splitlines() if " 9S " in line)
    assert re.search(r"42\D+11\D+2\D+9S\b.*lost a mindi\W+AS\b", row)
    assert "40 earlier moves not analysed" in result.stdout
    # A node budget too small for the whole deal: it stops at a trick and says why.
    short = _solve(str(path), "--max-nodes", "5000")
    assert short.returncode == 0, short.stderr
    note = re.search(
        r"(\d+) earlier moves not analysed \(more than (\d+) tricks left; "
        r"the trick before needed more than 5,000 positions searched\)",
        short.stdout,
    )
    assert note and int(note[1]) == 52 - 4 * int(note[2]) and 1 <= int(note[2]) < 13, short.stdout
    bad = _solve(str(path), "--deal", "2")
    assert bad.returncode == 2 and "the record has deals 1 to 1" in bad.stderr
