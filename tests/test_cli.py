"""The ``hukum`` command, run for real: play with piped input, replay, bench, errors."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import IO

import pytest
from rich.console import Console
from rich.text import Span

from hukum import __version__, records
from hukum.bots import make_bot
from hukum.cards import Card, Suit
from hukum.game import IllegalMoveError, InvalidMoveError
from hukum.mindi import Deal, Match, Rules
from hukum.terminal import PROMPT, Terminal, screen_for

ENV = {**os.environ, "COLUMNS": "200", "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1"}
CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([♣♦♥♠])")


def hukum(*args: str, input: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hukum", *args],
        input=input,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=ENV,
        timeout=60,
    )


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    return result.stdout


def cards_in(text: str) -> list[Card]:
    return [Card.parse(rank + suit) for rank, suit in CARD.findall(text)]


# ---------------------------------------------------------------- basics


def test_version_and_help() -> None:
    assert ok(hukum("--version")).strip() == f"hukum {__version__}"
    for command in ("play", "replay", "bench"):
        assert "usage: hukum " + command in ok(hukum(command, "--help"))
    result = hukum()
    assert result.returncode == 2 and "play" in result.stderr


def test_user_mistakes_exit_2_with_a_message_and_no_traceback() -> None:
    cases = [
        (["play", "--option", "colour=red"], "no rule option 'colour'"),
        (["play", "--option", "must_trump"], "write key=value"),
        (["play", "--option", "players=6"], "set deck=48"),
        (["play", "--seat", "4"], "seats are 0 to 3"),
        (["play", "--preset", "poker"], "invalid choice"),
        (["play", "--deals", "0"], "must be 1 or more"),
        (["play", "--record", "/no/such/folder/game.json"], "does not exist"),
        (["bench", "--seconds", "x"], "not a number of seconds"),
        (["replay", "/no/such/file.json"], "cannot read the file"),
    ]
    for args, message in cases:
        result = hukum(*args)
        assert result.returncode == 2, args
        assert message in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.stderr


# ---------------------------------------------------------------- play


def test_play_a_whole_deal_by_always_choosing_number_1(tmp_path: Path) -> None:
    out = ok(hukum("play", "--seed", "3", "--deals", "1", input="1\n" * 20))
    assert out.count(PROMPT) == 13  # one card per trick, never refused
    assert out.count(" plays ") == 39
    assert re.search(r"Team [01] (wins|wins with mendikot|wins a whitewash): \d–\d tens", out)
    assert "Match over" in out and "Match score: team 0 " in out


def test_play_an_illegal_card_is_refused_and_the_game_goes_on(tmp_path: Path) -> None:
    rules = Rules(deals=1)
    hand = Match(rules, seed=3).start_deal().dealt[0]
    elsewhere = next(c for c in map(Card, range(64)) if c in _pack() and c not in hand)
    path = tmp_path / "game.json"
    out = ok(
        hukum(
            "play",
            "--seed",
            "3",
            "--deals",
            "1",
            "--record",
            str(path),
            input=f"{elsewhere.code}\nbanana\n77\nhelp\n1\n" + "1\n" * 20,
        )
    )
    assert f"{elsewhere} is not in your hand." in out
    assert "Not a move: 'banana'" in out
    assert "No move number 77: choose 1 to 13" in out
    assert "last         show the last trick" in out
    assert out.count(PROMPT) == 13 + 4
    match = records.load(path)
    assert match.is_over() and len(match.deals[0].moves) == 52


def test_play_must_follow_suit_is_refused_with_the_rule() -> None:
    # Drive the game turn by turn through the real pipe: at the first trick where the human
    # holds the led suit and another, try the other suit first.
    with subprocess.Popen(
        [sys.executable, "-m", "hukum", "play", "--seed", "11", "--deals", "1", "--seat", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        refused = False
        for _ in range(13):
            screen = _read_until(proc.stdout, PROMPT)
            if not screen.endswith(PROMPT):
                break
            led = re.search(
                r"Trick \d+: Seat \d(?: \(your partner\))? (10|[2-9JQKA])([♣♦♥♠]) \(led", screen
            )
            hand = _hand(screen)
            if not refused and led:
                suit = Suit.parse(led.group(2))
                if any(c.suit == suit for c in hand) and any(c.suit != suit for c in hand):
                    bad = next(c for c in hand if c.suit != suit)
                    proc.stdin.write(f"{bad.code}\n".encode())
                    proc.stdin.flush()
                    answer = _read_until(proc.stdout, PROMPT)
                    # Said to the person, the rule that says so after it (issue 40).
                    assert f"You must follow {suit.symbol}.  (rule M-8)" in answer
                    assert "seat 1" not in answer
                    refused = True
            proc.stdin.write(b"1\n")
            proc.stdin.flush()
        proc.stdin.close()
        rest = proc.stdout.read().decode()
        assert proc.wait(timeout=30) == 0
    assert refused, "no trick where seat 1 could break the follow rule"
    assert "Match over" in rest


def test_a_refusal_is_said_to_the_person_with_the_rule_after_it() -> None:
    screen = screen_for(Match(Rules(), seed=1), Console(file=io.StringIO()), seat=2)
    cases = [
        (
            IllegalMoveError("seat 2 must follow ♠ (M-8)", rule_ids=("M-8",)),
            "You must follow ♠.  (rule M-8)",
        ),
        (
            IllegalMoveError("seat 2 must play a trump (♥) (must_trump, M-8)", rule_ids=("M-8",)),
            "You must play a trump (♥).  (rule M-8; must_trump)",
        ),
        (IllegalMoveError("K♠ is not in seat 2's hand"), "K♠ is not in your hand."),
        # Another seat keeps its number; a parenthesis that is no rule stays in the sentence.
        (
            IllegalMoveError("seat 1 must follow ♠ (M-8)", rule_ids=("M-8",)),
            "Seat 1 must follow ♠.  (rule M-8)",
        ),
        (
            InvalidMoveError("no move number 77: choose 1 to 13"),
            "No move number 77: choose 1 to 13.",
        ),
    ]
    for error, said in cases:
        text = screen.refusal(error)
        assert text.plain == said
        assert text.style == "red"
        sentence = said.split("  (")[0]
        # The rule is quiet: dim, after the sentence.
        quiet = [Span(len(sentence), len(said), "dim")] if "(rule" in said else []
        assert text.spans == quiet


def test_the_draw_names_seats_and_the_partner_is_named() -> None:
    out = ok(hukum("play", "--seed", "3", "--seat", "1", input="quit\n"))
    draw = Match(Rules(), seed=3).draw.rounds[0]
    assert not re.search(r"player \d", out)
    assert "You are seat 1, on team 1 with seat 3, your partner." in out
    assert (
        f"Draw for the first dealer: seat 0 {draw[0]}, you {draw[1]}, seat 2 {draw[2]}, "
        f"seat 3 (your partner) {draw[3]}"
    ) in out
    # When the draw makes the teams, each card is shown at the seat its drawer took.
    options = ("--option", "draw_partnerships=true", "--option", "players=6", "--option", "deck=48")
    out = ok(hukum("play", "--seed", "3", "--seat", "1", *options, input="quit\n"))
    match = Match(Rules(players=6, deck=48, draw_partnerships=True), seed=3)
    seating, drawn = match.draw.seating, match.draw.rounds[0]
    assert seating != tuple(range(6)), "the draw kept the seats: choose another seed"
    names = ["seat 0", "you", "seat 2", "seat 3 (your partner)", "seat 4", "seat 5 (your partner)"]
    line = ", ".join(f"{name} {drawn[seating[seat]]}" for seat, name in enumerate(names))
    assert f"Draw for the first dealer: {line}" in out
    assert "with seats 3 and 5, your partners" in out
    assert not re.search(r"player \d", out)


def test_quit_and_end_of_input_save_the_match_in_progress(tmp_path: Path) -> None:
    path = tmp_path / "quit.json"
    out = ok(hukum("play", "--seed", "8", "--record", str(path), input="1\n1\nquit\n"))
    assert "Stopped." in out and f"Record saved to {path}" in out
    match = records.load(path)
    assert match.current is not None and not match.is_over()
    assert [s for s, _ in match.current.history].count(0) == 2
    eof = tmp_path / "eof.json"
    out = ok(hukum("play", "--seed", "8", "--record", str(eof), input="1\n"))
    assert "Stopped." in out and f"Record saved to {eof}" in out
    ended = records.load(eof).current
    assert ended is not None and [s for s, _ in ended.history].count(0) == 1
    assert ended.moves == match.current.moves[: len(ended.moves)]  # the same game so far


def test_no_to_the_next_deal_stops_and_saves(tmp_path: Path) -> None:
    path = tmp_path / "one.json"
    out = ok(hukum("play", "--seed", "2", "--record", str(path), input="1\n" * 13 + "no\n"))
    assert "Play the next deal? [Y/n] no" in out and "Stopped." in out
    match = records.load(path)
    assert len(match.deals) == 1 and match.current is None and not match.is_over()


def test_record_then_replay(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    ok(
        hukum(
            "play",
            "--seed",
            "21",
            "--preset",
            "hidden",
            "--deals",
            "2",
            "--record",
            str(path),
            input="1\n" * 60,  # the answer to "Play the next deal?" too
        )
    )
    match = records.load(path)
    assert len(match.deals) == 2 and match.is_over()
    out = ok(hukum("replay", str(path)))
    assert "Deal 1" in out and "Deal 2" in out
    for deal in match.deals:
        outcome = deal.outcome()
        assert outcome is not None and outcome.describe() in out
        face_down = deal.face_down
        assert face_down is not None and f"lays {face_down} face down" in out
    rows = re.findall(r"^ +(\d+) +\d +(?:\S+ +){4}\d\b", out, flags=re.M)
    assert rows == [str(n) for n in range(1, 14)] * 2
    a, b = match.scores
    assert f"team 0 {a} – {b} team 1" in out


def test_replay_of_a_corrupt_record_exits_2_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    result = hukum("replay", str(path))
    assert result.returncode == 2 and result.stdout == ""
    assert f"hukum replay: error: {path}: not a record: not valid JSON" in result.stderr
    assert "Traceback" not in result.stderr
    # A record whose moves break the rules names the deal, the move and the rule.
    match = Match(Rules(deals=1), seed=1)
    deal = match.start_deal()
    data = records.to_dict(match)
    first = deal.turn
    assert first is not None
    data["deals"][0]["moves"] = [deal.dealt[(first + 1) % 4][0].code]
    path.write_text(json.dumps(data), encoding="utf-8")
    result = hukum("replay", str(path))
    assert result.returncode == 2
    assert f"deal 1, move 1 ({deal.dealt[(first + 1) % 4][0].code}): " in result.stderr
    assert f"is not in seat {first}'s hand" in result.stderr


def test_bench_prints_figures_for_every_preset() -> None:
    out = ok(hukum("bench", "--deals", "3", "--all-presets"))
    assert "deals/s" in out and "moves/s" in out
    for name in ("classic", "hidden", "mindi-world", "mendicot", "dehla-pakad"):
        assert re.search(rf"│ {name}\s+│\s+3 │", out), name
    assert "│ hidden " in ok(hukum("bench", "--preset", "hidden", "--deals", "2"))


def test_solver_bench_prints_the_trump_kinds_asked_for() -> None:
    out = ok(hukum("bench", "--solver", "--tricks", "3", "--deals", "2", "--trump", "known"))
    assert "3 tricks left" in out and re.search(r"│ known \(open\)\s+│\s+2 │", out)
    assert "cut, not yet set" not in out
    assert re.search(r"Median positions searched: known \(open\) [0-9,]+\n", out), out


def test_solver_bench_marks_positions_past_the_node_budget() -> None:
    # Six tricks left need more than 50 positions searched: every one is unsolved.
    out = ok(hukum("bench", "--solver", "--tricks", "6", "--deals", "2", "--max-nodes", "50"))
    assert re.search(r"│ cut, not yet set\s+│\s+2 \(2 unsolved\) │\s+unsolved │", out), out
    assert "not solved within 50 positions searched" in out
    assert "must be 1 or more" in hukum("bench", "--solver", "--max-nodes", "0").stderr


# ---------------------------------------------------------------- serve (issue 40, item 11)

#: Runs ``hukum`` (its arguments after ``-c``) with every module of pyproject.toml's extras
#: (dev, rl, train) refused on import, as in an environment of the package alone (make run).
WITHOUT_EXTRAS = """
import importlib.abc, sys
EXTRAS = {"pettingzoo", "gymnasium", "pyspiel", "open_spiel", "playwright", "torch",
          "stable_baselines3", "sb3_contrib", "pytest", "hypothesis", "httpx", "_pytest"}
class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in EXTRAS:
            raise ImportError(f"{name} comes with an extra, not with the package")
sys.meta_path.insert(0, Refuse())
import hukum.cli, hukum.server, hukum.server.app
sys.exit(hukum.cli.main())
"""


def test_serve_needs_no_extra_and_says_where_to_open_the_page_once_it_answers(
    tmp_path: Path,
) -> None:
    database = f"sqlite:///{tmp_path / 'serve.db'}"
    args = ["serve", "--port", "0", "--database-url", database, "--log-level", "warning"]
    with subprocess.Popen(
        [sys.executable, "-c", WITHOUT_EXTRAS, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=ENV,
    ) as proc:
        assert proc.stdout is not None
        # A server that never says so is stopped, and the test fails on what it said.
        timer = threading.Timer(120, proc.kill)
        timer.start()
        try:
            said = _read_until(proc.stdout, "(Ctrl-C stops it)")
            opened = re.search(r"hukum is running: open (http://127\.0\.0\.1:\d+/) ", said)
            assert opened, said
            assert said.startswith(f"hukum: starting on {database}"), said
            with urllib.request.urlopen(opened.group(1), timeout=30) as page:
                assert page.status == 200 and b"<html" in page.read().lower()
        finally:
            timer.cancel()
            proc.terminate()
            proc.wait(timeout=30)


# ---------------------------------------------------------------- what the human sees (M-20)


def check_no_other_hand_shown(out: str, deals: list[Deal], seat: int) -> None:
    """Every card on the screen is the human's own, or was played, shown or turned up."""
    segments = re.split(r"^─+ Deal \d+ ─+$", out, flags=re.M)
    assert len(segments) == len(deals) + 1
    for line in segments[0].splitlines():  # the intro: only the draw, from its own pack
        assert line.startswith("Draw for the first dealer") or not cards_in(line), line
    for deal, text in zip(deals, segments[1:], strict=True):
        rules = deal.rules
        hands = deal.dealt
        public = set(hands[seat])
        if deal.shown_card is not None:
            public.add(deal.shown_card)
        plays = 0
        for line in text.splitlines():
            played = re.match(r"Seat (\d)(?: \(your partner\))? plays (\S+)", line)
            if played:
                card = Card.parse(played.group(2))
                assert card in hands[int(played.group(1))], line
                public.add(card)
                plays += 1
            turned = re.search(r"the face-down card (\S+) is turned up", line)
            if turned:
                assert deal.chooser is not None
                card = Card.parse(turned.group(1))
                assert card in hands[deal.chooser], line
                public.add(card)
            for card in cards_in(line):
                assert card in public, f"{card} of another hand shown: {line!r}"
        assert plays == (rules.players - 1) * rules.hand_size


def test_the_play_screen_never_shows_another_seats_card() -> None:
    out = ok(hukum("play", "--seed", "5", "--deals", "1", "--seat", "2", input="1\n" * 30))
    check_no_other_hand_shown(out, [Match(Rules(deals=1), 5).start_deal()], seat=2)


@pytest.mark.parametrize(
    "rules",
    [
        Rules.preset("classic", deals=2),
        Rules.preset("hidden", deals=2),
        Rules.preset("hidden", reveal="on_request", deals=2),
        Rules.preset("dehla-pakad", deals=2),
        Rules(trump="open", must_trump=True, deals=2),
        Rules(players=6, deck=48, trump="band", deals=2),
    ],
    ids=["classic", "hidden", "on_request", "dehla-pakad", "open", "six-band"],
)
@pytest.mark.parametrize("seat", [0, 1, 3])
def test_no_other_hand_shown_under_every_trump_method(rules: Rules, seat: int) -> None:
    for seed in range(3):
        buffer = io.StringIO()
        console = Console(file=buffer, width=200, no_color=True, highlight=False)
        match = Match(rules, seed)
        game = Terminal(
            screen_for(match, console, seat),
            {s: make_bot("random", seed=s) for s in range(rules.players) if s != seat},
            read=_answers("1"),
        )
        assert game.run() == 0
        assert match.is_over() and len(match.deals) == 2
        check_no_other_hand_shown(buffer.getvalue(), match.deals, seat)


# ---------------------------------------------------------------- helpers


def _pack() -> set[Card]:
    return {Card.of(s, r) for s in Suit for r in range(2, 15)}


def _answers(text: str) -> Callable[[str], str]:
    def read(prompt: str) -> str:
        return text

    return read


def _read_until(stream: IO[bytes], marker: str) -> str:
    data = b""
    goal = marker.encode()
    while not data.endswith(goal):
        chunk = os.read(stream.fileno(), 1)
        if not chunk:
            break
        data += chunk
    return data.decode("utf-8", errors="replace")


def _hand(screen: str) -> list[Card]:
    part = screen.rsplit("Your hand", 1)[-1].split(PROMPT)[0]
    return cards_in(part.split("\n", 1)[1] if "\n" in part else "")


def test_bench_env_prints_the_environment_beside_the_engine() -> None:
    out = ok(hukum("bench", "--env", "--deals", "5"))
    assert "environment steps/s" in out and "engine moves/s" in out
    for game in ("mindi (classic)", "ganjifa"):
        assert re.search(rf"│ {re.escape(game)}\s+│\s+[\d,]+ │\s+[\d,]+ │\s+\d+% │", out), game


# ---------------------------------------------------------------- issue 19, item 11

#: The environment of output piped to another program: no COLUMNS, so Rich cannot ask.
PIPED = {k: v for k, v in ENV.items() if k != "COLUMNS"}


def test_help_describes_both_games() -> None:
    out = ok(hukum("--help"))
    assert "Mindi (Mendikot, Dehla Pakad): 4, 6 or 8 players in two teams" in out
    assert "Dashavatara Ganjifa (--game ganjifa): 3 players, each for themselves" in out
    commands = out.split("COMMAND\n", 1)[1]
    assert re.search(r"play +play Mindi or Ganjifa in the terminal", commands)
    assert re.search(r"solve +Mindi: ", commands)
    assert re.search(r"arena +bot against bot in duplicate deals of either game", commands)


def test_replay_and_solve_do_not_wrap_at_80_columns_when_piped(tmp_path: Path) -> None:
    from tests.test_analysis import _played_at_random

    mindi, ganjifa = tmp_path / "mindi.json", tmp_path / "ganjifa.json"
    records.save(_played_at_random(2), mindi)
    ok(hukum("play", "--game", "ganjifa", "--seed", "3", "--record", str(ganjifa), input="1\n"))
    runs: list[tuple[str, ...]] = [("replay", str(mindi)), ("replay", str(ganjifa))]
    for args in [*runs, ("solve", str(mindi))]:
        done = subprocess.run(
            [sys.executable, "-m", "hukum", *args],
            capture_output=True,
            text=True,
            encoding="utf-8",
            env=PIPED,
            timeout=120,
        )
        out = ok(done)
        lines = out.splitlines()
        assert max(map(len, lines)) > 80, args  # something is wider than 80 columns
        rules = [line for line in lines if line.startswith("──")]
        assert all(len(line) == 80 for line in rules), args  # a rule stays 80 wide
        if args[0] == "solve":
            row = next(line for line in lines if " 9S " in line)
            assert re.search(r"42\D+11\D+2\D+9S\b.*lost a mindi\W+AS\b", row)
            assert len({len(line) for line in lines if line[:1] and line[0] in "┏┃┡│└"}) == 1
        elif args[1] == str(ganjifa):
            assert rules, args
            hand = next(line for line in lines if line.startswith("Seat 0: "))
            assert len(hand.split()) == 2 + 40  # all 40 cards on one line
        else:
            assert rules, args
            rows = re.findall(r"^ +(\d+) +\d +(?:\S+ +){4}\d\b", out, flags=re.M)
            assert rows == [str(n) for n in range(1, 14)]  # each trick on one line


def test_bench_says_how_many_ganjifa_deals_it_plays() -> None:
    usage = ok(hukum("bench", "--help"))
    assert "N/5 Ganjifa deals" in " ".join(usage.split())
    out = ok(hukum("bench", "--deals", "50"))
    assert re.search(r"│ Mindi\s+│ classic\s+│\s+50 │", out), out
    assert re.search(r"│ Ganjifa\s+│ cardavia\s+│\s+10 │", out), out
    assert "Ganjifa plays a fifth of --deals (10 of 50)" in out


def test_wave_bench_prints_every_pool_and_the_target() -> None:
    out = ok(hukum("bench", "--wave", "--tickets", "300", "--waves", "2"))
    assert "pair 300 waiting tickets in one wave, 2 waves per pool" in out
    for pool in ("mindi", "band", "ganjifa"):
        assert re.search(rf"│ {pool}\s+│\s+[0-9.]+ │\s+[0-9.]+ │", out), pool
    assert "target: under 50 ms a wave" in out
