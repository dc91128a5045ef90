"""Train a small Mindi policy with Maskable PPO (sb3-contrib) on the CPU, then measure it
in duplicate against hukum's random and rules bots (docs/research.md).

    pip install -e '.[rl]' torch stable-baselines3 sb3-contrib
    python examples/train_ppo.py [STEPS] [DEALS]
"""

import sys

from sb3_contrib import MaskablePPO

from hukum.arena import run_arena
from hukum.envs.agents import PolicyPlayer
from hukum.envs.gym import VersusBots

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 300_000
deals = int(sys.argv[2]) if len(sys.argv) > 2 else 500

# The learner plays team 0 (seats 0 and 2, one policy) against two random bots.
env = VersusBots("mindi", "classic", opponents="random", seed=0)
model = MaskablePPO("MlpPolicy", env, n_steps=1024, batch_size=256, seed=0, verbose=0)
model.learn(total_timesteps=steps)


def ppo(observation, mask):
    action, _ = model.predict(observation, action_masks=mask == 1, deterministic=True)
    return int(action)


for opponent in ("random", "rules"):
    entrant = PolicyPlayer.factory("mindi", ppo, "ppo")
    report = run_arena(entrant, opponent, deals=deals, rules=env.game.rules, seed=1)
    low, high = report.interval
    print(f"ppo vs {opponent}: {report.win_rate:.1%} of {deals} duplicate deals "
          f"(95% interval {low:.1%}-{high:.1%})")
