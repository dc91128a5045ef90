"""Reinforcement-learning environments for every hukum game and variant
(``pip install 'hukum[rl]'``; docs/research.md):

- :mod:`hukum.envs.pettingzoo`: PettingZoo AEC environments;
- :mod:`hukum.envs.openspiel`: OpenSpiel games;
- :mod:`hukum.envs.agents`: hukum's bots as agents in both, and any policy as a hukum player
  (to measure it in the arena).

Both are built once, for every game, on :mod:`hukum.encoding` and :mod:`hukum.envs.core`.
"""
