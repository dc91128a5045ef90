"""How fast the OpenSpiel games run (docs/research.md): random actions through
``apply_action`` from the first chance node to the end, and one seat played by OpenSpiel's
IS-MCTS (20 simulations a move, random roll-outs) against random players for a whole deal.

    .venv/bin/python scripts/openspiel_speed.py [--deals 200]

Run it on a quiet machine: the figures are wall-clock rates.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import hukum.envs.openspiel  # noqa: F401  (registers the games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="random deals (default 200)")
    args = parser.parse_args()
    rng = random.Random(0)
    # A Ganjifa deal is about three times the actions of a Mindi deal.
    for name, deals in (
        ("python_hukum_mindi", args.deals),
        ("python_hukum_ganjifa", max(1, args.deals // 3)),
    ):
        game = pyspiel.load_game(name)
        actions, start = 0, time.perf_counter()
        for _ in range(deals):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
        seconds = time.perf_counter() - start
        print(f"{name}: {actions / seconds:,.0f} actions/s, {deals / seconds:,.0f} deals/s")
    game = pyspiel.load_game("python_hukum_mindi(seed=5)")
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, 1.4, 20, random_state=np.random.RandomState(2))
    state, start = game.new_initial_state(), time.perf_counter()
    while not state.is_terminal():
        mine = state.current_player() == 0
        state.apply_action(bot.step(state) if mine else rng.choice(state.legal_actions()))
    print(f"IS-MCTS, 20 simulations, seat 0 of a Mindi deal: {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
