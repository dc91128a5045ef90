"""Every script in scripts/ runs from a clean install (``make test``'s environment): each
imports, and answers ``--help`` where it takes options."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = sorted((Path(__file__).resolve().parent.parent / "scripts").glob("*.py"))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_a_script_imports(script: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location(f"script_{script.stem}", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # as `python script.py` would have it
    spec.loader.exec_module(module)  # its __main__ part does not run


def test_the_load_test_runs() -> None:
    """scripts/load.py starts a server and plays against it (issue 18: it did not import)."""
    script = SCRIPTS[[p.name for p in SCRIPTS].index("load.py")]
    done = subprocess.run(
        [sys.executable, str(script), "--clients", "4", "--seconds", "2", "--warmup", "1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "clients     4  moves/s" in done.stdout


def test_the_rules_tuner_runs_a_sweep() -> None:
    """scripts/tune_rules.py plays its trials in the arena and names the weights it kept."""
    script = SCRIPTS[0].parent / "tune_rules.py"
    run = subprocess.run(
        [sys.executable, str(script), "--deals", "2", "--sweeps", "1", "--workers", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    lines = run.stdout.splitlines()
    assert lines[0].startswith("sweep 0 lead_ten 40 -> 20: ")
    assert lines[-1].startswith("weights: ")
