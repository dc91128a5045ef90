"""How often a Mindi bot's decisions give away what perfect play would keep (hindsight).

From recorded games (``hukum arena ... --records DIR``) it takes positions with a few tricks
left, lets the bot choose from the seat's own view, and judges the choice with the exact
solver on the true deal, all hands known: a decision *loses* if its result under perfect
play from then on is worse for the mover's team than the best move's. No player that sees
only its own hand can avoid every such loss. It shows where decisions lose value, in
minutes; it does not rank bots: it finds the rule-based player's decisions lose value less
often than the search player's, which beats it in the arena (docs/strength.md), because
perfect play afterwards gives no credit for the chances a move leaves players who err.
Only the arena ranks bots.

    .venv/bin/python scripts/hindsight.py DIR --left 7 10 --positions 400 --option infer=0.5

The same DIR, ``--left`` and ``--positions`` give the same positions, so runs compare
decision by decision; each position's bot is seeded from ``--seed`` and the position. The
rule-based player is judged on the same positions, as a yardstick, and both are counted
by the kind of decision: a lead, a card of the suit led, a cut (another suit while the
mover does not know trump), a trump on another suit, a discard, a request to turn up the
face-down trump.

With ``--trump`` the decisions are the trump choices (the face-down card of band hukum, the
announced suit) of the records' distinct deals, and the bot's choice and the rule-based
player's are both judged against the best of the choices worth trying
(:func:`hukum.bots.rules.trump_candidates`), each solved from the first lead on, with the
mean match points that perfect play then gives the chooser's team:

    .venv/bin/python scripts/hindsight.py DIR --trump --positions 200 --bot expert
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from hukum import records
from hukum.bots import BOT_NAMES, make_bot
from hukum.bots.rules import RulesBot, trump_candidates
from hukum.bots.solver import Solver, SolverBudgetError
from hukum.cli.args import UsageError, parse_options
from hukum.mindi import Deal, Move, View


def positions(folder: Path, low: int, high: int, count: int) -> list[tuple[Deal, int]]:
    """Up to ``count`` decisions (a finished deal, the number of moves before the decision)
    with ``low`` to ``high`` tricks left and more than one legal move, evenly spread over
    the records' last deals."""
    found: list[tuple[Deal, int]] = []
    for path in sorted(folder.glob("*.json")):
        deal = records.load(path).deals[-1]
        replay = Deal(deal.rules, deal.dealer, deal.dealt, shown_card=deal.shown_card)
        for seat, move in deal.history:
            left = deal.rules.hand_size - len(replay.tricks)
            if replay.phase == "play" and low <= left <= high and len(replay.legal_moves()) > 1:
                found.append((deal, len(replay.history)))
            replay.push(move, seat=seat)
    return found[:: max(1, len(found) // count)][:count]


def trump_decisions(folder: Path, count: int) -> list[Deal]:
    """Up to ``count`` distinct deals of the records, as dealt, whose first decision is a
    trump choice (each deal of an arena run is recorded once for each seating)."""
    found: list[Deal] = []
    seen: set[tuple[int, tuple[tuple[Any, ...], ...]]] = set()
    for path in sorted(folder.glob("*.json")):
        deal = records.load(path).deals[-1]
        key = (deal.dealer, tuple(tuple(hand) for hand in deal.dealt))
        fresh = Deal(deal.rules, deal.dealer, deal.dealt, shown_card=deal.shown_card)
        if key not in seen and fresh.phase in ("hide", "announce"):
            seen.add(key)
            found.append(fresh)
    return found[:count]


def judge_trump(
    folder: Path, count: int, bot_name: str, seed: int, options: Any, max_nodes: int
) -> None:
    """Print how often the bot's trump choice, and the rule-based player's, is worse under
    perfect play than the best choice tried, and their mean match points; a deal where a
    solve searches more than ``max_nodes`` positions is left out, and counted."""
    deals = trump_decisions(folder, count)
    if not deals:
        raise SystemExit(f"no trump choices in {folder}: record deals of band or announce hukum")
    solvers: dict[Any, Solver] = {}
    judged = {"bot": [0, 0], "rules": [0, 0]}  # decisions that lost value, match points
    yardstick = RulesBot()
    unsolved = 0
    start = time.perf_counter()
    for i, deal in enumerate(deals):
        turn = deal.turn
        assert turn is not None
        view = deal.view(turn)
        solver = solvers.get(deal.rules)
        if solver is None:
            solver = solvers[deal.rules] = Solver(deal.rules, table_bits=22)
        bot = make_bot(bot_name, seed=seed + i, **options)
        choices = {"bot": bot.choose(view), "rules": yardstick.choose(view)}
        tried = trump_candidates(view)
        try:
            points: dict[Move, int] = {
                move: solver.value(deal, max_nodes, move).score(turn % 2)
                for move in [*tried, *choices.values()]
            }
        except SolverBudgetError:
            unsolved += 1
            continue
        best = max(points[move] for move in tried)
        for name, choice in choices.items():
            judged[name][0] += points[choice] < best
            judged[name][1] += points[choice]
    seconds = time.perf_counter() - start
    done = len(deals) - unsolved
    for name, label in (("bot", f"{bot_name} {options}"), ("rules", "rules")):
        lost, total = judged[name]
        print(
            f"{label}: {done} trump choices, {lost} worse under perfect play than the best "
            f"tried ({100 * lost / max(1, done):.1f}%), mean {total / max(1, done):+.3f} "
            f"match points for the chooser's team"
        )
    print(f"{unsolved} deals left out (a solve past {max_nodes:,} positions); {seconds:.0f} s")


def kind(view: View, move: Move) -> str:
    """What sort of decision a move is: ``reveal`` (asking for the face-down trump),
    ``lead``, ``follow`` (the suit led), ``cut`` (another suit while trump is unset or
    hidden from the mover, which may set it), ``trump`` (a trump on another suit) or
    ``discard``."""
    card = move.card
    if card is None:
        return move.kind.value
    if not view.trick:
        return "lead"
    if card.suit == view.trick[0].card.suit:
        return "follow"
    if view.trump is None:
        return "cut"
    return "trump" if card.suit == view.trump else "discard"


def judge_decisions(
    chosen: list[tuple[Deal, int]],
    bot_name: str,
    seed: int,
    options: Any,
    span: str,
    max_nodes: int,
) -> None:
    """Print how many of the decisions the bot's choice lost value under perfect play, and
    the rule-based player's on the same decisions, in all and by :func:`kind`; a decision
    whose solve searches more than ``max_nodes`` positions is left out, and counted."""
    solvers: dict[Any, Solver] = {}
    yardstick = RulesBot()
    unsolved = 0
    judged: dict[str, dict[str, list[int]]] = {"bot": {}, "rules": {}}  # decisions, lost, value
    start = time.perf_counter()
    for i, (played, number) in enumerate(chosen):
        deal = Deal(played.rules, played.dealer, played.dealt, shown_card=played.shown_card)
        for seat, move in played.history[:number]:
            deal.push(move, seat=seat)
        turn = deal.turn
        assert turn is not None
        view = deal.view(turn)
        solver = solvers.get(deal.rules)
        if solver is None:
            solver = solvers[deal.rules] = Solver(deal.rules)
        try:
            solution = solver.solve(deal, max_nodes)
        except SolverBudgetError:
            unsolved += 1
            continue
        bot = make_bot(bot_name, seed=seed + i, **options)
        choices = {"bot": bot.choose(view), "rules": yardstick.choose(view)}
        sign = 1 if turn % 2 == 0 else -1
        for name, choice in choices.items():
            loss = sign * (solution.best.value - solution.moves[choice].value)
            for key in ("all", kind(view, choice)):
                row = judged[name].setdefault(key, [0, 0, 0])
                row[0] += 1
                row[1] += loss > 0
                row[2] += loss
    seconds = time.perf_counter() - start
    for name, label in (("bot", f"{bot_name} {options}"), ("rules", "rules")):
        rows = judged[name]
        if not rows:
            break  # every solve past the budget
        count, lost, value = rows["all"]
        print(
            f"{label}: {count} decisions with {span} tricks left, {lost} lost value under "
            f"perfect play ({100 * lost / count:.1f}%), {value} steps of Forecast.value in all"
        )
        for key in sorted(rows.keys() - {"all"}):
            count, lost, value = rows[key]
            print(f"  {key}: {count}, {lost} lost ({100 * lost / count:.1f}%), {value} steps")
    print(
        f"{len(chosen)} decisions in {seconds:.0f} s, {unsolved} left out "
        f"(a solve past {max_nodes:,} positions)"
    )


def main() -> None:
    """Print how many decisions lost value under perfect play, and how much."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path, help="a folder of records (arena --records)")
    parser.add_argument("--bot", default="expert", choices=BOT_NAMES)
    parser.add_argument("--left", type=int, nargs=2, default=(7, 10), metavar=("LOW", "HIGH"))
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument(
        "--trump", action="store_true", help="judge the trump choices (band, announce)"
    )
    parser.add_argument(
        "--max-nodes",
        type=int,
        default=20_000_000,
        help="leave out a decision (with --trump a deal) whose solve searches more positions",
    )
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="bot option"
    )
    args = parser.parse_args()
    try:
        options = parse_options(args.option)
    except UsageError as e:
        parser.error(str(e))
    if args.trump:
        judge_trump(args.records, args.positions, args.bot, args.seed, options, args.max_nodes)
        return
    chosen = positions(args.records, args.left[0], args.left[1], args.positions)
    if not chosen:
        parser.error(f"no decisions with {args.left[0]} to {args.left[1]} tricks left there")
    span = f"{args.left[0]}–{args.left[1]}"
    judge_decisions(chosen, args.bot, args.seed, options, span, args.max_nodes)


if __name__ == "__main__":
    main()
