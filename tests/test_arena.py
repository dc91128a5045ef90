"""The arena: duplicate scoring, the Wilson interval and the report of a tiny fixed match."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from rich.console import Console

from hukum import records
from hukum.arena import (
    arena_of,
    code_digest,
    compare,
    format_report,
    package_digest,
    read_results,
    run_arena,
    wilson,
)
from hukum.bots import BotError, RandomBot
from hukum.cli import main
from hukum.games import GAMES
from hukum.games.mindi import PlayResult, decided_by, mean_tens, rate
from hukum.mindi import Rules

duplicate_score = arena_of(GAMES["mindi"]).duplicate_score


def play(a_won: bool, tens: tuple[int, int], points: int = 1, tricks: int = 7) -> PlayResult:
    pts = (points, 0) if a_won else (0, points)
    return PlayResult(0, 0, a_won, "win", tens, (tricks, 13 - tricks), pts)


def test_a_duplicate_deal_is_won_by_more_plays_won() -> None:
    assert duplicate_score([play(True, (3, 1)), play(True, (2, 2))]) == 1.0
    assert duplicate_score([play(False, (1, 3)), play(False, (2, 2), tricks=6)]) == 0.0


def test_one_play_each_is_decided_by_tens_then_points_then_tricks() -> None:
    assert duplicate_score([play(True, (4, 0), points=2), play(False, (1, 3))]) == 1.0
    assert duplicate_score([play(True, (3, 1)), play(False, (0, 4), points=2)]) == 0.0
    # Tens 5–3 … level tens, then points: a mendikot against a plain win.
    assert duplicate_score([play(True, (4, 0), points=2), play(False, (0, 4))]) == 1.0
    even = [play(True, (3, 1), tricks=8), play(False, (1, 3), tricks=6)]
    assert duplicate_score(even) == 1.0  # tricks 14–12
    assert duplicate_score([play(True, (3, 1)), play(False, (1, 3), tricks=6)]) == 0.5


def test_the_report_says_what_decided_the_deals() -> None:
    """Each deal is counted once, under the first figure on which the bots differ, for the
    bot it favoured; the match points a play are the mean of each team's."""
    deals = [
        [play(True, (3, 1)), play(True, (2, 2))],  # plays: A
        [play(True, (4, 0), points=2), play(False, (1, 3))],  # tens: A
        [play(True, (4, 0)), play(False, (0, 4), points=2)],  # match points: B
        [play(True, (3, 1), tricks=8), play(False, (1, 3), tricks=6)],  # tricks: A
        [play(True, (3, 1)), play(False, (1, 3), tricks=6)],  # level throughout
    ]
    assert [decided_by(d) for d in deals] == [
        ("single plays", 1.0),
        ("tens", 1.0),
        ("match points", 0.0),
        ("tricks", 1.0),
        (None, 0.5),
    ]
    plays = [replace(p, deal=n) for n, d in enumerate(deals) for p in d]
    rows = {name: (a, b) for name, a, b in arena_of(GAMES["mindi"]).rows(plays)}
    assert rows["deals won on single plays"] == ("1 (20.0%)", "0 (0.0%)")
    assert rows["deals won on tens"] == ("1 (20.0%)", "0 (0.0%)")
    assert rows["deals won on match points"] == ("0 (0.0%)", "1 (20.0%)")
    assert rows["deals won on tricks"] == ("1 (20.0%)", "0 (0.0%)")
    assert rows["deals tied"] == ("1 (20.0%)", "")
    assert rows["mean match points a play"] == ("0.700", "0.500")
    assert [name for name, _, _ in arena_of(GAMES["mindi"]).rows([])][
        -1
    ] == "mean match points a play"


def test_wilson_interval_matches_known_values() -> None:
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(10, 10)
    assert lo == pytest.approx(0.7225, abs=1e-4) and hi == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_the_same_deterministic_bot_on_both_sides_ties_every_deal() -> None:
    report = run_arena("rules", "rules", deals=3, rules=Rules(), seed=4, workers=1)
    assert [duplicate_score(r.plays) for r in report.results] == [0.5, 0.5, 0.5]
    for r in report.results:
        first, second = r.plays
        assert (first.a_team, second.a_team) == (0, 1)
        assert first.tens == second.tens[::-1] and first.a_won != second.a_won
    assert report.win_rate == 0.5


def test_report_figures_of_a_tiny_match() -> None:
    report = run_arena("rules", "random", deals=4, rules=Rules(), seed=2, workers=1)
    plays = report.plays
    assert report.deals == 4 and len(plays) == 8
    assert all(sum(p.tens) == 4 and sum(p.tricks) == 13 for p in plays)
    assert report.score == sum(duplicate_score(r.plays) for r in report.results)
    assert mean_tens(plays, "A") + mean_tens(plays, "B") == pytest.approx(4.0)
    assert rate(plays, "mendikot", "A") == sum(
        p.a_won and p.kind == "mendikot" for p in plays
    ) / len(plays)
    # Each bot makes 13 decisions per seat, two seats, two plays.
    assert all(len(r.times_a) == len(r.times_b) == 52 for r in report.results)
    p50, p95, top = report.time_stats("A")
    assert 0 <= p50 <= p95 <= top
    lo, hi = report.interval
    assert lo <= report.win_rate <= hi
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(format_report(report))
    assert f"{report.win_rate:.1%} [{lo:.1%}, {hi:.1%}]" in console.export_text()


def test_parallel_workers_give_the_same_results() -> None:
    one = run_arena("rules", "random", deals=4, rules=Rules.preset("hidden"), seed=3, workers=1)
    two = run_arena("rules", "random", deals=4, rules=Rules.preset("hidden"), seed=3, workers=2)
    assert [r.plays for r in one.results] == [r.plays for r in two.results]


def test_a_run_split_in_parts_gives_the_results_of_the_whole(
    capsys: pytest.CaptureFixture[str],
) -> None:
    whole = run_arena("rules", "random", deals=5, rules=Rules(), seed=8, workers=1)
    first = run_arena("rules", "random", deals=2, rules=Rules(), seed=8, workers=1)
    rest = run_arena("rules", "random", 3, Rules(), seed=8, workers=2, first_deal=2)
    assert [r.deal for r in rest.results] == [2, 3, 4] and rest.first_deal == 2
    assert [r.plays for r in first.results + rest.results] == [r.plays for r in whole.results]
    with pytest.raises(ValueError, match="numbered from 0"):
        run_arena("rules", "random", 1, Rules(), seed=8, first_deal=-1)
    args = ["rules", "random", "--deals", "1", "--workers", "1", "--no-progress"]
    assert main(["arena", *args, "--first-deal", "4"]) == 0
    assert "1 duplicate deals from deal 4, seed 1" in capsys.readouterr().out
    assert main(["arena", *args, "--first-deal", "-1"]) == 2


def test_every_game_saves_as_a_record_that_replays(tmp_path: Path) -> None:
    report = run_arena(
        "random", "rules", deals=2, rules=Rules(), seed=5, workers=1, record_dir=tmp_path
    )
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 4
    first = records.load(files[0])
    outcome = first.deals[0].outcome()
    assert outcome is not None
    p = report.results[0].plays[0]
    assert outcome.tens[p.a_team] == p.tens[0]


def test_main_prints_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "rules", "random", "--deals", "2", "--workers", "1", "--no-progress"])
    assert code == 0
    assert "duplicate win rate" in capsys.readouterr().out
    assert (
        main(["arena", "rules", "nobody", "--deals", "1", "--workers", "1", "--no-progress"]) == 2
    )


def test_bot_options_reach_the_bots() -> None:
    with pytest.raises(BotError, match="colour"):
        run_arena("search", "rules", 1, Rules(), seed=6, options_a={"colour": "blue"})
    args = ["search", "rules", "--deals", "1", "--workers", "1", "--no-progress"]
    assert main(["arena", *args, "--a", "worlds=1", "--a", "time_budget=none"]) == 0
    assert main(["arena", *args, "--a", "worlds=1", "--a", "colour=blue"]) == 2


def test_rule_options_are_read_as_the_play_command_reads_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["arena", "rules", "random", "--deals", "1", "--workers", "1", "--no-progress"]
    assert main([*args, "--rule", "points=1,2,4", "--rule", "must-trump=yes"]) == 0
    assert "must_trump=True, points=(1, 2, 4)" in capsys.readouterr().out.replace("\n", " ")
    assert main([*args, "--rule", "points"]) == 2
    assert "--rule 'points': write key=value" in capsys.readouterr().err


def test_a_results_file_keeps_the_deals_played_and_a_rerun_plays_only_the_rest(
    tmp_path: Path,
) -> None:
    file = tmp_path / "run.jsonl"
    whole = run_arena("rules", "random", deals=6, rules=Rules(), seed=4, workers=1)
    first = run_arena("rules", "random", 4, Rules(), seed=4, workers=1, results=file)
    lines = file.read_text().splitlines()
    assert len(lines) == 5 and json.loads(lines[0])["format"] == "hukum-arena-results"
    assert first.resumed == 0
    # The whole run again: four deals read back, two played (and added), the same results.
    again = run_arena("rules", "random", 6, Rules(), seed=4, workers=2, results=file)
    assert again.resumed == 4 and len(file.read_text().splitlines()) == 7
    assert [r.plays for r in again.results] == [r.plays for r in whole.results]
    assert again.win_rate == whole.win_rate
    # A part of it is read from the file alone, nothing played.
    part = run_arena("rules", "random", 2, Rules(), seed=4, workers=1, results=file, first_deal=3)
    assert part.resumed == 2 and [r.deal for r in part.results] == [3, 4]
    assert len(file.read_text().splitlines()) == 7
    out = io.StringIO()
    Console(file=out, width=200).print(format_report(again))
    assert "resultsin" in "".join(out.getvalue().split())
    assert "4dealsreadfromit" in "".join(out.getvalue().split())


def test_a_results_file_of_another_run_or_corrupt_is_refused_unchanged(tmp_path: Path) -> None:
    file = tmp_path / "run.jsonl"
    run_arena("rules", "random", 2, Rules(), seed=4, workers=1, results=file)
    before = file.read_bytes()
    for bot_b, seed, options, differ in (
        ("rules", 4, {}, "bot_b"),
        ("random", 5, {}, "seed"),
        ("random", 4, {"hold_gone": 0}, "options_a"),
    ):
        with pytest.raises(ValueError, match=rf"holds the results of another run \({differ} "):
            run_arena("rules", bot_b, 2, Rules(), seed=seed, options_a=options, results=file)
    with pytest.raises(ValueError, match=r"another run \(rules differ\)"):
        run_arena("rules", "random", 2, Rules.preset("hidden"), seed=4, results=file)
    assert file.read_bytes() == before
    lines = before.decode().splitlines()
    file.write_text(lines[0] + "\n" + "{not json\n" + lines[2] + "\n")
    with pytest.raises(ValueError, match="line 2: not a deal's result"):
        run_arena("rules", "random", 2, Rules(), seed=4, results=file)
    file.write_text("hello\n")
    with pytest.raises(ValueError, match="line 1: not an arena results file"):
        run_arena("rules", "random", 2, Rules(), seed=4, results=file)
    file.write_bytes(b"\xff\xfe\n")
    with pytest.raises(ValueError, match="not an arena results file"):
        run_arena("rules", "random", 2, Rules(), seed=4, results=file)
    assert file.read_bytes() == b"\xff\xfe\n"
    assert main(["arena", "rules", "random", "--deals", "1", "--results", str(file)]) == 2
    with pytest.raises(ValueError, match="bots given by name"):
        run_arena(lambda seed: RandomBot(seed), "random", 1, Rules(), seed=4, results=file)


def test_runs_on_the_same_deals_are_compared_deal_by_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base, same, other = (tmp_path / f"{name}.jsonl" for name in ("base", "same", "other"))
    played = run_arena("rules", "random", 6, Rules(), seed=4, results=base)
    run_arena("rules", "random", 6, Rules(), seed=4, results=same)
    run_arena("random", "rules", 4, Rules(), seed=4, first_deal=2, results=other)
    read = read_results(base)
    assert [r.plays for r in read.results] == [r.plays for r in played.results]
    assert (read.bot_a, read.bot_b, read.seed, read.rules) == ("rules", "random", 4, Rules())
    # The same bots play the same deals alike: no difference, and an interval of nothing.
    alike = compare(read, read_results(same))
    assert (alike.deals, alike.differ, alike.difference, alike.interval) == (6, 0, 0.0, (0, 0))
    # Deals 2-5 are in both; the difference is the mean of the per-deal differences.
    mine = [duplicate_score(r.plays) for r in played.results[2:]]
    theirs = [duplicate_score(r.plays) for r in read_results(other).results]
    steps = [b - a for a, b in zip(mine, theirs, strict=True)]
    c = compare(read, read_results(other))
    assert (c.deals, c.base, c.other) == (4, sum(mine) / 4, sum(theirs) / 4)
    assert c.differ == sum(1 for x in steps if x) > 0
    assert c.difference == pytest.approx(sum(steps) / 4)
    mean = sum(steps) / 4
    half = 1.959964 * (sum((x - mean) ** 2 for x in steps) / 3) ** 0.5 / 2
    assert c.interval == pytest.approx((mean - half, mean + half))
    assert main(["compare", str(base), str(same), str(other)]) == 0
    out = "".join(capsys.readouterr().out.split())
    assert "rulesvsrandom" in out and "randomvsrules" in out and "dealsinboth" in out
    assert f"{c.difference:+.1%}" in out


def test_runs_on_other_deals_or_not_results_are_refused_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base, seed5, hidden, later = (tmp_path / f"{n}.jsonl" for n in ("b", "s", "h", "l"))
    run_arena("rules", "random", 2, Rules(), seed=4, results=base)
    run_arena("rules", "random", 2, Rules(), seed=5, results=seed5)
    run_arena("rules", "random", 2, Rules.preset("hidden"), seed=4, results=hidden)
    run_arena("rules", "random", 2, Rules(), seed=4, first_deal=2, results=later)
    first = read_results(base)
    with pytest.raises(ValueError, match=r"not of the same deals: seed \(4 and 5\) differ"):
        compare(first, read_results(seed5))
    with pytest.raises(ValueError, match="not of the same deals: rules differ"):
        compare(first, read_results(hidden))
    with pytest.raises(ValueError, match="no deal in common"):
        compare(first, read_results(later))
    junk = tmp_path / "junk.jsonl"
    for text in ("hello\n", '{"format": "hukum-arena-results", "game": "chess"}\n', ""):
        junk.write_text(text)
        with pytest.raises(ValueError, match=r"not an arena (results file|run)"):
            read_results(junk)
    with pytest.raises(ValueError, match="not an arena results file"):
        read_results(tmp_path / "missing.jsonl")
    assert main(["compare", str(base), str(seed5)]) == 2
    assert "seed (4 and 5) differ" in capsys.readouterr().err


def test_a_half_written_last_line_is_dropped_and_its_deal_played_again(tmp_path: Path) -> None:
    file = tmp_path / "run.jsonl"
    whole = run_arena("rules", "random", 3, Rules(), seed=9, workers=1, results=file)
    text = file.read_text()
    file.write_text(text[: text.rindex("\n", 0, len(text) - 1) + 20])  # deal 2 cut short
    again = run_arena("rules", "random", 3, Rules(), seed=9, workers=1, results=file)
    assert again.resumed == 2
    assert [r.plays for r in again.results] == [r.plays for r in whole.results]

    def deals(text: str) -> list[object]:
        return [(d.get("deal"), d.get("plays")) for d in map(json.loads, text.splitlines())]

    assert deals(file.read_text()) == deals(text)


def test_an_arena_run_killed_goes_on_from_its_results_file(tmp_path: Path) -> None:
    """The command killed (SIGKILL) in the middle of a run, then started again with the same
    results file: it plays only the deals missing, and reports what one whole run reports."""
    file = tmp_path / "run.jsonl"
    deals = 1500
    args = ["rules", "random", "--deals", str(deals), "--workers", "1", "--no-progress"]
    command = [sys.executable, "-m", "hukum", "arena", *args, "--seed", "2"]
    process = subprocess.Popen([*command, "--results", str(file)], stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if file.exists() and len(file.read_bytes().splitlines()) > 50:
                break
            time.sleep(0.05)
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.wait()
    kept = len(file.read_bytes().splitlines()) - 1
    assert 50 <= kept < deals, "the run was not killed in its middle"
    resumed = subprocess.run(
        [*command, "--results", str(file)], capture_output=True, text=True, check=True
    ).stdout
    assert "dealsreadfromit" in "".join(resumed.split())
    whole = run_arena("rules", "random", deals, Rules(), seed=2, workers=2)
    lo, hi = whole.interval
    assert f"{whole.win_rate:.1%} [{lo:.1%}, {hi:.1%}]" in resumed
    assert len(file.read_bytes().splitlines()) == deals + 1


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_games_plays_read_back_from_a_results_file(game: str, tmp_path: Path) -> None:
    spec = GAMES[game]
    rules = spec.make_rules()
    file = tmp_path / f"{game}.jsonl"
    played = run_arena("rules", "random", 2, rules, seed=3, game=game, results=file)
    read = run_arena("rules", "random", 2, rules, seed=3, game=game, results=file)
    assert read.resumed == 2
    assert [r.plays for r in read.results] == [r.plays for r in played.results]
    assert all(isinstance(p, arena_of(spec).play_type) for r in read.results for p in r.plays)


def test_deals_read_back_that_other_code_played_are_counted(tmp_path: Path) -> None:
    """Each deal's line names the code that played it; a run that reads back deals played by
    other code (or by a version that did not note it) says how many."""
    file = tmp_path / "run.jsonl"
    run_arena("rules", "random", 3, Rules(), seed=4, workers=1, results=file)
    lines = file.read_text().splitlines()
    assert all(json.loads(line)["code"] == code_digest() for line in lines[1:])
    same = run_arena("rules", "random", 3, Rules(), seed=4, workers=1, results=file)
    assert same.resumed == 3 and same.other_code == 0
    changed = json.loads(lines[1])
    changed["code"] = "0" * 16
    older = json.loads(lines[2])
    del older["code"]
    lines[1:3] = [json.dumps(changed), json.dumps(older)]
    file.write_text("\n".join(lines) + "\n")
    mixed = run_arena("rules", "random", 4, Rules(), seed=4, workers=1, results=file)
    assert mixed.resumed == 3 and mixed.other_code == 2
    assert [r.plays for r in mixed.results[:3]] == [r.plays for r in same.results]
    out = io.StringIO()
    Console(file=out, width=300).print(format_report(mixed))
    assert "2 of them played by other code than this" in " ".join(out.getvalue().split())


def test_the_code_digest_counts_code_not_comments_or_docstrings(tmp_path: Path) -> None:
    """A results file's deals played before a docstring or comment was edited are not
    counted as other code's; a change to the code, or to the model's weights, is; the
    server and the command line do not count."""
    package = tmp_path / "package"
    (package / "bots").mkdir(parents=True)
    (package / "cli").mkdir()
    source = package / "bots" / "bot.py"
    original = '"""A bot."""\n\ndef lead(cards):\n    """The lowest."""\n    return min(cards)\n'
    source.write_text(original)
    (package / "bots" / "model.npz").write_bytes(b"weights")
    first = package_digest(package)

    source.write_text(
        '"""A bot: it leads low."""\n\n\ndef lead(cards):  # the lowest card\n'
        '    """Its lowest card."""\n    return min(cards)\n'
    )
    (package / "cli" / "main.py").write_text("print('hello')\n")
    assert package_digest(package) == first
    source.write_text(
        '"""A bot."""\n\ndef lead(cards):\n    """The lowest."""\n    return max(cards)\n'
    )
    assert package_digest(package) != first
    source.write_text(original)
    assert package_digest(package) == first
    (package / "bots" / "model.npz").write_bytes(b"other weights")
    assert package_digest(package) != first


@pytest.mark.skipif(sys.platform == "win32", reason="the lock is POSIX flock")
def test_a_results_file_in_use_by_another_run_is_refused(tmp_path: Path) -> None:
    """Two runs on one results file at once would both write it: the second is refused, the
    file unchanged, and once the first lets go the file is free again."""
    import fcntl

    file = tmp_path / "run.jsonl"
    run_arena("rules", "random", 2, Rules(), seed=4, workers=1, results=file)
    before = file.read_bytes()
    with file.open("a") as other:  # another run holding it
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(ValueError, match="in use by another arena run"):
            run_arena("rules", "random", 3, Rules(), seed=4, workers=1, results=file)
        assert file.read_bytes() == before
    again = run_arena("rules", "random", 3, Rules(), seed=4, workers=1, results=file)
    assert again.resumed == 2 and again.deals == 3
    # A refused file of another run lets go of it too.
    with pytest.raises(ValueError, match="another run"):
        run_arena("rules", "random", 3, Rules(), seed=5, workers=1, results=file)
    with file.open("a") as other:
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
    # So does a run that fails before it plays: here its records folder cannot be made.
    (tmp_path / "taken").write_text("a file, not a folder")
    with pytest.raises(OSError) as failed:  # kept: its frames would keep a held file open
        run_arena(
            "rules",
            "random",
            3,
            Rules(),
            seed=4,
            workers=1,
            results=file,
            record_dir=tmp_path / "taken" / "records",
        )
    with file.open("a") as other:
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
    assert failed.value.filename is not None
