"""docs/research.md's training example is examples/train_ppo.py, and it runs: it trains a
Maskable PPO policy (briefly here) and measures it in the arena against random and rules.
It needs PyTorch and sb3-contrib (the extra ``train``); CI installs them and sets
HUKUM_REQUIRE_TRAINING=1, so there it runs instead of skipping."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "train_ppo.py"


def test_the_document_shows_the_example_as_it_is() -> None:
    code = EXAMPLE.read_text(encoding="utf-8")
    body = code.split('"""', 2)[2].strip()  # the example without its docstring
    assert body in (ROOT / "docs" / "research.md").read_text(encoding="utf-8")


def test_the_training_example_trains_and_measures_a_policy() -> None:
    if importlib.util.find_spec("sb3_contrib") is None:
        if os.environ.get("HUKUM_REQUIRE_TRAINING"):
            pytest.fail("the training example needs: pip install -e '.[train]'")
        pytest.skip("the training example needs PyTorch and sb3-contrib: pip install -e '.[train]'")
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "2048", "4"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for opponent, line in zip(("random", "rules"), lines, strict=True):
        assert re.fullmatch(
            rf"ppo vs {opponent}: \d+\.\d% of 4 duplicate deals \(95% interval .*\)", line
        ), line
