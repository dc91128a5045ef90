"""Does the fair-play screening work? (issue 42: the screening's figures.)

Honest players of every level (random, rules, search, expert, and ``noisy``: the expert
with a quarter of its cards random) play classic Mindi deals, the four seats of a deal at
one level, and every seat is screened (:func:`hukum.screening.screen`): four honest
player-deals a deal. An honest *player* is one seat of one level over ``--player-deals``
consecutive deals; the false-positive rate is the share of those players the product's
statistic (:class:`hukum.online.screening.Tally`, the test judged against chance) ever
flags. Two cheats, for this measurement only (never a
product bot): ``fullview`` plays the exact solver's best card with every hand known, and
``peek`` is the expert with its partner's hand known (its worlds dealt with that hand
fixed). Each cheat sits at seat 0 with the expert at seats 1-3 (as in the daily challenge)
for ``--runs`` runs, each run deal after deal until the statistic flags it (at most
``--cap`` deals).

Every screened deal is appended to ``--results`` (JSON lines after a first line naming the
run); a rerun with the same file reads back what is done and goes on, so the run can be
stopped and started again. Each record keeps the judged decisions (the card played, the
solver's best, the view-based means), and every count and ratio is computed again from them
(:func:`recount`), so files written before the test changed are read as any other.
``--report`` prints the figures of the file without playing: per level the hit rates (a
description) and the mean ratio a player-deal, the false-positive rate with its 95 % Wilson
interval, the deals until each cheat is flagged (median, p95), and the CPU seconds per
screened player-deal.

    .venv/bin/python scripts/screening.py --workers 1 --results screening.jsonl
    .venv/bin/python scripts/screening.py --results screening.jsonl --report
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from hukum.bots import make_bot
from hukum.bots.base import Bot, check_turn
from hukum.bots.expert import ExpertBot
from hukum.bots.rules import RulesBot
from hukum.bots.search import SearchBot
from hukum.bots.solver import Solver, SolverBudgetError
from hukum.bots.worlds import replay, sample_world
from hukum.cards import CardSet
from hukum.mindi import Deal, Move, Rules, View
from hukum.online.screening import Tally, step
from hukum.play import play_deal
from hukum.screening import TOLERANCE, screen

LEVELS = ("random", "rules", "search", "expert", "noisy")
CHEATS = ("fullview", "peek")
#: The opponents and partner of a cheat.
CHEAT_COMPANY = "expert"


class NoisyBot(Bot[View, Move]):
    """The expert, with a share ``noise`` of its decisions a uniformly random legal card."""

    name = "noisy"

    def __init__(self, seed: int = 0, noise: float = 0.25) -> None:
        self.rng = random.Random(seed)
        self.noise = noise
        self.expert = ExpertBot(seed=seed)

    def choose(self, view: View) -> Move:
        """A random legal move now and then, else the expert's."""
        moves = check_turn(view)
        if len(moves) > 1 and self.rng.random() < self.noise:
            return moves[self.rng.randrange(len(moves))]
        return self.expert.choose(view)


class FullViewBot(Bot[View, Move]):
    """A cheat (this measurement only): in the expert's window, the exact solver's best move
    for ``deal`` as it is (every hand known; of equal ones the rule-based player's, else the
    first); before it the search player."""

    name = "fullview"

    def __init__(self, deal: Deal, seed: int = 0, solve_tricks: int = 10) -> None:
        self.deal = deal
        self.solve_tricks = solve_tricks
        self.solver = Solver(deal.rules, table_bits=18)
        self.search = SearchBot(seed=seed)
        self.judge = RulesBot()

    def choose(self, view: View) -> Move:
        """The solver's best move with every hand known (see the class doc)."""
        moves = check_turn(view)
        left = view.rules.hand_size - len(view.tricks)
        if len(moves) == 1:
            return moves[0]
        if view.phase != "play" or left > self.solve_tricks:
            return self.search.choose(view)
        try:
            best = self.solver.solve(self.deal, max_nodes=5_000_000).best_moves
        except SolverBudgetError:
            return self.search.choose(view)
        natural = self.judge.choose(view)
        return natural if natural in best else best[0]


class PeekBot(ExpertBot):
    """A cheat (this measurement only): the expert with its partner's hand known, its worlds
    dealt with that hand fixed."""

    name = "peek"

    def __init__(self, deal: Deal, seed: int = 0) -> None:
        super().__init__(seed=seed)
        self.deal = deal

    def _worlds(self, view: View) -> Iterator[tuple[Deal, float]]:
        partner = (view.seat + 2) % 4
        hand = self.deal.hand(partner)
        known = list(view.known)
        known[partner] = CardSet(hand.mask)
        peeked = dataclasses.replace(
            view, known=tuple(known), unseen=CardSet(view.unseen.mask & ~hand.mask)
        )
        for _ in range(self.samples):
            yield replay(view, sample_world(peeked, self.rng), self.likelihood)


def deal_seed(*parts: object) -> int:
    """A deal's seed from its place in the measurement."""
    return random.Random(":".join(map(str, parts))).getrandbits(63)


def make_player(level: str, seed: int, deal: Deal) -> Bot[View, Move]:
    """An honest player of ``level`` or a cheat (given the deal it cheats in)."""
    if level == "noisy":
        return NoisyBot(seed=seed)
    if level == "fullview":
        return FullViewBot(deal, seed=seed)
    if level == "peek":
        return PeekBot(deal, seed=seed)
    return make_bot(level, seed=seed)


def play_and_screen(kind: str, name: str, run: int, index: int) -> dict[str, Any]:
    """Play one deal and screen it: an honest deal (all four seats ``name``, all screened)
    or a cheat's (``name`` at seat 0, screened there)."""
    seed = deal_seed(kind, name, run, index)
    deal = Deal.new(Rules(), dealer=index % 4, seed=seed)
    if kind == "honest":
        players = [make_player(name, seed + s, deal) for s in range(4)]
        seats: tuple[int, ...] = (0, 1, 2, 3)
    else:
        players = [make_player(name, seed, deal)]
        players += [make_bot(CHEAT_COMPANY, seed=seed + s) for s in (1, 2, 3)]
        seats = (0,)
    start = time.process_time()
    play_deal(deal, players)
    played = time.process_time()
    report = screen(deal, seats=seats, seed=seed)
    screened = time.process_time()
    return {
        "kind": kind,
        "engine": 3,
        "company": CHEAT_COMPANY if kind == "cheat" else name,
        "name": name,
        "run": run,
        "index": index,
        "seed": seed,
        "seats": [dataclasses.asdict(t) for t in report.totals],
        "decisions": [
            {
                "n": d.number,
                "seat": d.seat,
                "card": str(d.card),
                "best": [str(m) for m in d.best],
                "means": {str(m): round(v, 5) for m, v in d.means},
            }
            for d in report.decisions
            if d.means
        ],
        "play_cpu": round(played - start, 4),
        "screen_cpu": round(screened - played, 4),
        "nodes": report.nodes,
    }


def read_results(path: Path, run: dict[str, Any]) -> list[dict[str, Any]]:
    """The deals already in ``path`` (which must name the same run), making it if new."""
    if not path.exists() or path.stat().st_size == 0:
        path.write_text(json.dumps(run) + "\n")
        return []
    lines = path.read_text().splitlines()
    first = json.loads(lines[0])
    if first != run:
        sys.exit(f"{path} holds another run: {first}")
    done = []
    for line in lines[1:]:
        try:
            done.append(json.loads(line))
        except json.JSONDecodeError:
            break  # a line cut off by a stop: played again
    return done


Counts = tuple[int, int, float]
"""A seat's deal: decisions that matter, hits, log-likelihood ratio."""


def recount(record: dict[str, Any], tolerance: float = TOLERANCE) -> list[Counts]:
    """Each screened seat's decisions that matter, hits and log-likelihood ratio (the
    product's :func:`hukum.online.screening.step` summed) in ``record``, computed from its
    decisions at ``tolerance`` (at the engine's default: the engine's own counts)."""
    counts: dict[int, list[Any]] = {s["seat"]: [0, 0, 0.0] for s in record["seats"]}
    for d in record["decisions"]:
        top = max(d["means"].values())
        viewed = {m for m, v in d["means"].items() if v >= top - tolerance - 1e-9}
        if not viewed & set(d["best"]):
            hit = d["card"] in d["best"]
            mine = counts[d["seat"]]
            mine[0] += 1
            mine[1] += hit
            mine[2] += step(len(d["best"]) / len(d["means"]), hit)
    return [(m, h, llr) for m, h, llr in counts.values()]


def cheat_runs(done: list[dict[str, Any]]) -> dict[tuple[str, int], list[dict[str, Any]]]:
    """Each cheat run's deals, in order."""
    runs: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for r in done:
        if r["kind"] == "cheat":
            runs[r["name"], r["run"]].append(r)
    for deals in runs.values():
        deals.sort(key=lambda r: r["index"])
    return runs


def flagged_after(deals: list[dict[str, Any]], tolerance: float = TOLERANCE) -> int | None:
    """The number of deals after which a player's statistic (the product's :class:`Tally`)
    first flags (None: never)."""
    tally = Tally()
    for n, r in enumerate(deals, start=1):
        ((matters, hits, llr),) = recount(r, tolerance)
        tally = tally.add(matters, hits, llr)
        if tally.verdict() == "flag":
            return n
    return None


class Plan:
    """Which deal to play next: round robin over the honest levels (until each has its
    share of ``--honest``; each four times a round) and the cheat runs still going (a run's
    next deal once its last is screened and it is not flagged, up to ``--cap``)."""

    def __init__(self, args: argparse.Namespace, done: list[dict[str, Any]]) -> None:
        have = {(r["name"], r["index"]) for r in done if r["kind"] == "honest"}
        per_level = math.ceil(args.honest / 4 / len(LEVELS))
        self.honest = {
            level: [i for i in range(per_level) if (level, i) not in have] for level in LEVELS
        }
        self.runs = cheat_runs(done)
        self.cap = args.cap
        self.keys = [(c, r) for r in range(args.runs) for c in CHEATS]
        self.busy: set[tuple[str, int]] = set()
        # An honest level's turn comes round four times as often as a cheat run's: the
        # false-positive rate needs the most deals.
        self.lanes: list[str | tuple[str, int]] = []
        for i, key in enumerate(self.keys):
            if i % (len(self.keys) // 4 or 1) == 0:
                self.lanes += LEVELS
            self.lanes.append(key)
        self.turn = 0

    def _open(self, key: tuple[str, int]) -> bool:
        deals = self.runs.get(key, [])
        return len(deals) < self.cap and flagged_after(deals) is None

    def next(self) -> tuple[str, str, int, int] | None:
        """The next deal to play, or None if none can start now."""
        for ahead in range(len(self.lanes)):
            lane = self.lanes[(self.turn + ahead) % len(self.lanes)]
            if isinstance(lane, str):
                if self.honest[lane]:
                    self.turn = (self.turn + ahead + 1) % len(self.lanes)
                    return ("honest", lane, 0, self.honest[lane].pop(0))
            elif lane not in self.busy and self._open(lane):
                self.busy.add(lane)
                self.turn = (self.turn + ahead + 1) % len(self.lanes)
                return ("cheat", lane[0], lane[1], len(self.runs.get(lane, [])))
        return None

    def screened(self, record: dict[str, Any]) -> None:
        """Note a screened deal (a cheat run's next deal may start)."""
        if record["kind"] == "cheat":
            key = (record["name"], record["run"])
            self.busy.discard(key)
            self.runs[key].append(record)


def simulate(args: argparse.Namespace) -> None:
    """Play and screen deals until the honest target and every cheat run are done."""
    run = {"run": "screening", "honest": args.honest, "runs": args.runs, "cap": args.cap}
    done = read_results(args.results, run)
    print(f"{len(done)} deals already in {args.results}", flush=True)
    plan = Plan(args, done)
    pending: dict[Future[dict[str, Any]], tuple[str, str, int, int]] = {}
    started = time.monotonic()
    new = 0
    with ProcessPoolExecutor(args.workers) as pool, args.results.open("a") as out:
        while True:
            while len(pending) < args.workers and (task := plan.next()) is not None:
                pending[pool.submit(play_and_screen, *task)] = task
            if not pending:
                break
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                pending.pop(future)
                record = future.result()
                out.write(json.dumps(record) + "\n")
                out.flush()
                plan.screened(record)
                new += 1
                if new % args.every == 0:
                    print(f"{new} new deals, {time.monotonic() - started:.0f} s", flush=True)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of ``k`` successes in ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def quantile(values: list[float], q: float) -> float:
    """The nearest-rank ``q`` quantile of ``values``."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def report(args: argparse.Namespace) -> None:
    """Print the figures of the results file."""
    run = {"run": "screening", "honest": args.honest, "runs": args.runs, "cap": args.cap}
    done = read_results(args.results, run)
    honest = [r for r in done if r["kind"] == "honest"]
    print(f"{args.results}: {len(honest)} honest deals, {len(done) - len(honest)} cheat deals")
    print(
        "level     player-deals  decisions  matters  hits  hit rate (95% Wilson)    unjudged"
        "  ratio a player-deal"
    )
    players: dict[tuple[str, int, int], list[Counts]] = defaultdict(list)
    tol = TOLERANCE if args.tolerance is None else args.tolerance
    for level in LEVELS:
        rows = sorted((r for r in honest if r["name"] == level), key=lambda r: r["index"])
        seats = [s for r in rows for s in r["seats"]]
        counts = [c for r in rows for c in recount(r, tol)]
        dec = sum(s["decisions"] for s in seats)
        mat = sum(m for m, _, _ in counts)
        hits = sum(h for _, h, _ in counts)
        unj = sum(s["unjudged"] for s in seats)
        rate = f"{hits / mat:.3f}" if mat else "-"
        lo, hi = wilson(hits, mat)
        mean = statistics.fmean(llr for _, _, llr in counts) if counts else 0.0
        print(
            f"{level:9} {len(seats):12} {dec:10} {mat:8} {hits:5}  {rate:>8}"
            f" [{lo:.3f}, {hi:.3f}]  {unj:8}  {mean:+.3f}"
        )
        for r in rows:
            for s, c in zip(r["seats"], recount(r, tol), strict=True):
                players[level, s["seat"], r["index"] // args.player_deals].append(c)
    flagged = watched = 0
    peak = 0.0
    for counts in players.values():
        tally = Tally()
        for matters, hits, llr in counts:
            tally = tally.add(matters, hits, llr)
        flagged += tally.verdict() == "flag"
        watched += tally.verdict() == "watch"
        peak = max(peak, tally.peak)
    n = len(players)
    lo, hi = wilson(flagged, n)
    print(
        f"honest players ({args.player_deals} deals each, the last maybe fewer): {n}, "
        f"flagged {flagged} (rate {flagged / n if n else 0:.3f}, 95% Wilson [{lo:.3f}, {hi:.3f}]),"
        f" watch {watched}, highest log-likelihood ratio reached {peak:.2f}"
    )
    for cheat in CHEATS:
        runs = {k: v for k, v in cheat_runs(done).items() if k[0] == cheat}
        until = {k: flagged_after(v, tol) for k, v in runs.items()}
        hit = [u for u in until.values() if u is not None]
        counts = [c for v in runs.values() for r in v for c in recount(r, tol)]
        mat = sum(m for m, _, _ in counts)
        hits = sum(h for _, h, _ in counts)
        line = f"{cheat}: {len(runs)} runs, {len(hit)} flagged"
        if hit:
            median, p95 = statistics.median(hit), quantile(hit, 0.95)
            line += f"; deals until flagged median {median}, p95 {p95} (each: {sorted(hit)})"
        open_runs = [len(v) for k, v in runs.items() if until[k] is None]
        if open_runs:
            line += f"; not flagged yet after {sorted(open_runs)} deals"
        line += f"; hit rate {hits}/{mat}" + (f" = {hits / mat:.3f}" if mat else "")
        if counts:
            line += f"; ratio a player-deal {statistics.fmean(c[2] for c in counts):+.3f}"
        print(line)
    current = [r for r in done if r.get("engine") == 3]  # the engine that skips all-best
    per_seat = [r["screen_cpu"] / len(r["seats"]) for r in current]
    if per_seat:
        med, p95 = statistics.median(per_seat), quantile(per_seat, 0.95)
        mean = statistics.fmean(per_seat)
        print(
            f"CPU seconds per screened player-deal ({len(per_seat)} deals): median {med:.2f},"
            f" p95 {p95:.2f}, mean {mean:.2f}; one process screens about {60 / mean:.0f}"
            " player-deals a minute"
        )
        plays = [r["play_cpu"] for r in current if r["kind"] == "honest"]
        print(f"(playing an honest deal, all four seats: median {statistics.median(plays):.2f} s)")


def main() -> None:
    """Run or report the measurement."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--results", type=Path, default=Path("screening.jsonl"))
    parser.add_argument("--honest", type=int, default=2000, help="honest player-deals to play")
    parser.add_argument("--runs", type=int, default=10, help="runs of each cheat")
    parser.add_argument("--cap", type=int, default=300, help="deals at most a cheat run")
    parser.add_argument("--player-deals", type=int, default=25, help="deals of an honest player")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--tolerance",
        type=float,
        help="--report: count again at this tolerance of the view-based choice (default:"
        " hukum.screening.TOLERANCE)",
    )
    parser.add_argument("--every", type=int, default=20, help="a progress line every N deals")
    parser.add_argument("--report", action="store_true", help="print the file's figures only")
    args = parser.parse_args()
    if args.report:
        report(args)
    else:
        simulate(args)


if __name__ == "__main__":
    main()
