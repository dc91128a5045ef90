"""Every script in scripts/ runs from a clean install (``make test``'s environment): each
imports, and answers ``--help`` where it takes options."""

from __future__ import annotations

import datetime as dt
import fcntl
import importlib.util
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

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


def load_script(name: str) -> ModuleType:
    """A script of scripts/ as a module (its __main__ part does not run)."""
    script = SCRIPTS[0].parent / name
    spec = importlib.util.spec_from_file_location(f"script_{script.stem}", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_quick_match_under_load_runs() -> None:
    """scripts/matchload.py (issue 43): people press the button, meet at tables, play them
    and come back; the figures are printed, nobody sat at two unfinished tables, no 5xx."""
    script = SCRIPTS[0].parent / "matchload.py"
    command = [sys.executable, str(script), "--people", "8", "--seconds", "10", "--ramp", "1"]
    command += ["--think", "0.05", "0.2", "--bot-delay", "0.05", "--pool-countdown", "2"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.strip()}
    for fmt in ("mindi", "band", "ganjifa", "all"):
        assert fmt in rows, out
    assert int(rows["all"][1]) >= 2, out  # tables made (8 people, a 2-second countdown)
    assert re.search(r"button->first card", out) and re.search(r"computer seats", out), out
    spread = r"\d+\.\d\d / +\d+\.\d\d s \( *\d+\)"  # median / p95 (people measured)
    assert re.search(rf"^all +\d+ +\d+ +{spread} +{spread} +\d+\.\d%$", out, re.M), out
    assert re.search(r"move->ack p50 \d+\.\d ms  p99 \d+\.\d ms +\(\d+ moves;", out), out
    assert "players at two unfinished tables: 0 (" in out, out
    assert "the database's 0 of " in out and "tables seated twice: 0" in out, out
    assert re.search(r"^5xx: 0  wrong seats: 0", out, re.M), out


def test_the_daily_challenge_under_load_runs() -> None:
    """scripts/challengeload.py (issue 42): people claim accounts and play the day's deals
    against the expert; the expert's decision times, the move-to-ack latency and the deals
    are printed, no 5xx, no error."""
    script = SCRIPTS[0].parent / "challengeload.py"
    command = [sys.executable, str(script), "--people", "3", "--seconds", "20", "--ramp", "1"]
    command += ["--think", "0.05", "0.2", "--bot-delay", "0"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert re.search(
        r"^day \d{4}-\d\d-\d\d: 3 of 3 accounts claimed .*deals started [1-9]", out, re.M
    ), out
    spread = r"p50 \d+ ms  p95 \d+ ms  \(([1-9]\d*)\)"  # the expert decided at least once
    assert re.search(rf"^expert decision, seen by the people: {spread}$", out, re.M), out
    assert re.search(rf"^expert decision, the server's event times: {spread}$", out, re.M), out
    assert re.search(r"^move->ack p50 \d+\.\d ms  p99 \d+\.\d ms  \([1-9]\d* moves;", out, re.M), (
        out
    )
    assert re.search(r"^5xx: 0  errors: none$", out, re.M), out
    assert re.search(r"^server CPU \d+% \(of one core\)", out, re.M), out


def test_the_load_check_finds_a_player_at_two_unfinished_tables(tmp_path: Path) -> None:
    """matchload's check of the database after a run counts a player seated at a second
    table while the first is unfinished (and no one for tables made before the run)."""
    from fastapi.testclient import TestClient

    from hukum.server.app import create_app

    matchload = load_script("matchload.py")
    url = f"sqlite:///{tmp_path / 'two.db'}"
    body = {"options": {"deals": 1, "target": None}, "start_now": True, "bots": "rules"}
    with TestClient(create_app(url, bot_delay=60)) as client:

        def table(guest: str) -> None:
            client.cookies.clear()
            client.cookies.set("hukum_session", guest)
            assert client.post("/api/tables", json=body).status_code == 200

        guests = []
        for _ in range(2):
            client.cookies.clear()
            assert client.post("/api/me/guest").status_code == 200
            guests.append(client.cookies["hukum_session"])
        table(guests[0])
        table(guests[1])
        since = dt.datetime.now(dt.UTC)
        assert matchload.seated_twice(url, since) == (0, 0, 0)  # made before: not counted
        table(guests[0])
        assert matchload.seated_twice(url, since) == (0, 0, 1)  # one table since
        table(guests[1])
        assert matchload.seated_twice(url, since) == (0, 0, 2)
        table(guests[0])  # the first guest's second unfinished table since
        assert matchload.seated_twice(url, since) == (1, 0, 2)


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


# ---------------------------------------------------------------- scripts/venv.sh (issue 40)

ROOT = SCRIPTS[0].parent.parent
FAKE_PYTHON = """#!/usr/bin/env bash
# python3 -m venv DIR, making a pip and a python that write their arguments to DIR/pip.log
# and DIR/python.log.
mkdir -p "$3/bin"
printf '#!/usr/bin/env bash\\necho "$*" >> "%s/pip.log"\\n' "$3" > "$3/bin/pip"
printf '#!/usr/bin/env bash\\necho "$*" >> "%s/python.log"\\n' "$3" > "$3/bin/python"
chmod +x "$3/bin/pip" "$3/bin/python"
"""


def test_the_environment_installs_each_extra_once_and_grows(tmp_path: Path) -> None:
    """make run installs the package alone; a command that needs extras adds only those
    missing, in one pip run; a change to pyproject.toml installs again what is asked."""
    python = tmp_path / "python"
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    venv = tmp_path / "venv"
    log = venv / "pip.log"

    def install(*extras: str) -> tuple[str, list[str]]:
        before = log.read_text().splitlines() if log.exists() else []
        done = subprocess.run(
            [str(ROOT / "scripts" / "venv.sh"), *extras],
            env={**os.environ, "PYTHON": str(python), "VENV": str(venv)},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout, log.read_text().splitlines()[len(before) :]

    said, ran = install()  # make run
    assert ran == ["install --quiet --upgrade pip", "install --progress-bar on -e ."]
    assert "hukum: installing" in said
    # The solver compiled once after the install, by the environment's python.
    compiled = ["-c from hukum.analysis import compile_solver; compile_solver()"]
    assert (venv / "python.log").read_text().splitlines() == compiled
    assert "compiling the exact solver" in said
    assert install() == ("", [])  # nothing again, nothing said
    assert (venv / "python.log").read_text().splitlines() == compiled
    assert install("dev", "rl")[1] == ["install --progress-bar on -e .[dev,rl]"]  # make test
    assert install("rl") == ("", []) and install() == ("", [])  # make bench, make run after
    assert install("dev,rl,train", "dev", "rl")[1] == ["install --progress-bar on -e .[train]"]
    assert sorted(p.name for p in venv.glob(".installed*")) == [
        ".installed",
        ".installed-dev",
        ".installed-rl",
        ".installed-train",
    ]
    for stamp in venv.glob(".installed*"):  # older than pyproject.toml: installed again
        os.utime(stamp, (0, 0))
    assert install("rl")[1] == ["install --progress-bar on -e .[rl]"]
    assert install("rl") == ("", []) and install("dev")[1] == [
        "install --progress-bar on -e .[dev]"
    ]


def test_each_make_command_installs_the_extras_it_needs() -> None:
    """make run the package alone (serving needs no extra); test and lint dev and rl; CI's
    EXTRAS added to each."""

    def installs(*args: str) -> list[list[str]]:
        # As a person types it: not under CI's `make EXTRAS=…`, whose variables a make
        # started from a test would inherit (MAKEFLAGS).
        clean = {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "EXTRAS"}
        env = {k: v for k, v in os.environ.items() if k not in clean}
        done = subprocess.run(
            ["make", "-n", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        return [
            line.split("venv.sh")[1].split()
            for line in done.stdout.splitlines()
            if "venv.sh" in line
        ]

    assert installs("run") == [[]]
    assert installs("test") == [["dev", "rl"]] and installs("lint") == [["dev", "rl"]]
    assert installs("bench") == [["rl"]]
    assert (
        installs("EXTRAS=dev,rl,train", "lint", "test") == [["dev", "rl", "dev", "rl", "train"]] * 2
    )


def test_the_ratings_measurement_runs_and_resumes(tmp_path: Path) -> None:
    """scripts/ratings.py pairs accounts through the pool's wave, plays and rates their
    matches, keeps each in its results file and goes on from it when run again."""
    script = SCRIPTS[0].parent / "ratings.py"
    results = tmp_path / "ratings.jsonl"
    small = ["--levels", "random,rules", "--per-level", "2", "--results", str(results)]

    def run(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, str(script), *small, "--workers", "1", *args],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    first = run("--matches", "4", "--every", "2")
    assert first.startswith("0 matches read back") and "4 matches (" in first
    assert "== 4 one-deal rated matches of pool mindi; 4 accounts;" in first
    assert len(results.read_text().splitlines()) == 1 + 4
    again = run("--matches", "6")
    assert again.startswith("4 matches read back") and "== 6 one-deal rated matches" in again
    report = run("--report")
    assert "== 6 one-deal rated matches" in report and "playing" not in report
    for line in ("coin", "OpenSkill PlackettLuce (rated play's, beta 33.3)", "Elo on teams, K=32"):
        assert re.search(rf"  {re.escape(line)}\s+[0-9.]+\s+[0-9.]+\n", report), line
    assert re.search(r'"mindi": \{"random": \([0-9.]+, [0-9.]+\), "rules": ', report)
    assert re.search(r"mean shown rating per level: random \d+, rules \d+", report)
    # Another run's file is refused.
    other = subprocess.run(
        [sys.executable, str(script), *small, "--seed", "1", "--report"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert other.returncode != 0 and "holds another run" in other.stderr
    # One run at a time plays into a file.
    with results.open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        busy = subprocess.run(
            [sys.executable, str(script), *small, "--matches", "8"],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert busy.returncode != 0 and "in use by another run" in busy.stderr
    assert len(results.read_text().splitlines()) == 1 + 6
    # The ratings of the run, scored on tables drawn at random from where it left them.
    drawn = tmp_path / "drawn.jsonl"
    evaluated = run("--evaluate", str(results), "--results", str(drawn), "--matches", "4")
    assert "win prediction on the tables drawn at random: matches 7–10 (4)" in evaluated
    matches = [json.loads(line) for line in drawn.read_text().splitlines()[1:]]
    assert len(matches) == 4
    assert all(seat["account"] is not None for m in matches for seat in m["seats"])
    assert json.loads(drawn.read_text().splitlines()[0])["run"]["evaluate"] == str(results)


def old_screening_record(kind: str, name: str, run: int, index: int, hit: bool) -> dict[str, Any]:
    """A deal of scripts/screening.py's results as the script wrote them before the test
    judged against chance (no ratio kept): one decision of seat 0 that matters, a quarter
    of its legal cards best, the card played best or not."""
    means = {"QH": 0.5, "AD": 0.4, "2C": 0.1, "3C": 0.1}  # the view-based choice: QH
    return {
        "kind": kind,
        "engine": 3,
        "company": "expert" if kind == "cheat" else name,
        "name": name,
        "run": run,
        "index": index,
        "seed": index,
        "seats": [{"seat": 0, "decisions": 3, "matters": 1, "hits": int(hit), "unjudged": 0}],
        "decisions": [
            {"n": 40, "seat": 0, "card": "AD" if hit else "QH", "best": ["AD"], "means": means}
        ],
        "play_cpu": 0.1,
        "screen_cpu": 0.2,
        "nodes": 1000,
    }


def test_the_screening_measurement_judges_an_old_file_by_the_products_test(
    tmp_path: Path,
) -> None:
    """scripts/screening.py reads back a results file written before the test changed and
    computes every ratio again from its decisions with the product's statistic: a cheat
    hitting where a quarter of the legal cards were best is flagged at its seventh deal (7
    x log(2.8) >= log(1000)); the fixed rates (0.6 against 0.95) needed 16 hits."""
    script = load_script("screening.py")
    cheat = [old_screening_record("cheat", "fullview", 0, i, True) for i in range(10)]
    assert script.flagged_after(cheat) == 7
    assert script.recount(cheat[0]) == [(1, 1, pytest.approx(math.log(2.8)))]
    honest = [old_screening_record("honest", "rules", 0, i, i % 4 == 0) for i in range(8)]
    assert script.recount(honest[1]) == [(1, 0, pytest.approx(math.log(0.4)))]
    results = tmp_path / "screening.jsonl"
    run = {"run": "screening", "honest": 2000, "runs": 10, "cap": 300}
    lines = [run, *cheat[:7], old_screening_record("cheat", "peek", 0, 0, False), *honest]
    results.write_text("".join(json.dumps(line) + "\n" for line in lines))
    script_path = str(SCRIPTS[0].parent / "screening.py")
    done = subprocess.run(
        [sys.executable, script_path, "--results", str(results), "--report", "--player-deals", "4"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "fullview: 1 runs, 1 flagged; deals until flagged median 7" in done.stdout
    assert "peek: 1 runs, 0 flagged; not flagged yet after [1] deals" in done.stdout
    # The hit rates stay (a description), beside the mean ratio a player-deal.
    rules = next(line for line in done.stdout.splitlines() if line.startswith("rules"))
    assert " 2     0.250 " in rules
    mean = (2 * math.log(2.8) + 6 * math.log(0.4)) / 8
    assert rules.endswith(f"{mean:+.3f}")
    assert "flagged 0" in done.stdout
    # The resumed run plays no more deals of the flagged cheat run.
    args = script.argparse.Namespace(honest=0, runs=1, cap=300)
    plan = script.Plan(args, [json.loads(line) for line in results.read_text().splitlines()[1:]])
    assert plan.next() == ("cheat", "peek", 0, 1)
    assert plan.next() is None
