"""Train the policy model the expert may judge its worlds by (:mod:`hukum.bots.policy`).

It plays ``--deals`` duplicate deals of the expert against the search player (``--bots``)
under each preset of ``--presets`` in the arena (seeded, so the same games every time),
recording every game in ``--games DIR`` with a results file a preset, so a run cut off plays
on from where it stopped when started again; then it fits the model to every decision with a
choice in the recorded games (the moves of both bots), holding out every tenth game to report
the fit, and writes the model to ``--out``. The data is made here, never downloaded:

    .venv/bin/python scripts/train_policy.py --deals 150 --seed 5000 --workers 2

(``make policy``; about 30 minutes on two cores, most of it playing the games). The fit is
printed as the mean log-probability of the moves made (higher is better) and how often the
likeliest move is the one made, with the rule-based player's agreement beside it.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from hukum import records
from hukum.arena import run_arena
from hukum.bots.policy import FEATURES, Decisions, log_likelihood, train
from hukum.games import game_named


def play(
    folder: Path, bots: list[str], presets: list[str], deals: int, seed: int, workers: int
) -> None:
    """The games to learn from: ``deals`` duplicate deals a preset of the two bots."""
    spec = game_named("mindi")
    for preset in presets:
        games = folder / preset
        games.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        report = run_arena(
            bots[0],
            bots[1],
            deals,
            spec.make_rules(preset),
            seed,
            workers,
            record_dir=games,
            results=folder / f"{preset}.jsonl",
        )
        print(f"{preset}: {report.deals} deals in {time.perf_counter() - start:.0f} s")


def decisions(folder: Path) -> tuple[Decisions, Decisions]:
    """Every decision with a choice of the recorded games in ``folder``: nine games of ten
    to train on, the tenth held out."""
    fit, held = Decisions(), Decisions()
    for i, path in enumerate(sorted(folder.glob("*/*.json"))):
        (held if i % 10 == 9 else fit).add_deal(records.load(path).deals[-1])
    return fit, held


def rules_agreement(data: Decisions) -> float:
    """How often the move made is the rule-based player's."""
    x, _mask, y = data.arrays()
    return float(x[np.arange(len(y)), y, FEATURES.index("rules_move")].mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=150, help="duplicate deals a preset")
    parser.add_argument("--presets", nargs="+", default=["classic", "hidden"])
    parser.add_argument(
        "--bots", nargs=2, default=["expert", "search"], help="the two bots whose games to learn"
    )
    parser.add_argument("--seed", type=int, default=5000, help="the deals' seed")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--games", type=Path, default=Path("build/policy-games"))
    parser.add_argument("--hidden", type=int, default=32, help="hidden units")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--out", type=Path, default=Path("src/hukum/bots/policy.npz"))
    args = parser.parse_args(argv)
    if args.deals > 0:
        play(args.games, args.bots, args.presets, args.deals, args.seed, args.workers)
    fit, held = decisions(args.games)
    if not len(fit) or not len(held):
        parser.error(f"no recorded games to learn from in {args.games}")
    print(f"{len(fit)} decisions to fit, {len(held)} held out")
    start = time.perf_counter()
    model = train(fit, hidden=args.hidden, epochs=args.epochs, seed=args.seed)
    print(f"trained in {time.perf_counter() - start:.0f} s")
    for name, data in (("fit", fit), ("held out", held)):
        ll, top = log_likelihood(model, data)
        print(
            f"{name}: log-probability of the move made {ll:.3f}, likeliest move made "
            f"{top:.1%} (the rule-based player's move made {rules_agreement(data):.1%})"
        )
    model.save(args.out)
    print(f"model written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
