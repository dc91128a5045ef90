"""``hukum play --game ganjifa``, ``hukum replay`` of a Ganjifa record and
``hukum arena --game ganjifa``, run for real."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from hukum import records
from hukum.bots.ganjifa import make_bot
from hukum.ganjifa import Match, Rules
from hukum.terminal import Terminal, screen_for
from tests.test_cli import hukum, ok


def test_a_whole_deal_in_the_terminal_with_every_kind_of_input(tmp_path: Path) -> None:
    match = Match(Rules(), seed=11)
    helper = make_bot("rules")
    typed: list[str] = []

    def read(prompt: str) -> str:
        deal = match.current
        assert deal is not None
        view = deal.view(0)
        if len(typed) == 0:
            typed.append("Ma0")  # not a card: refused, asked again
            return "Ma0"
        move = helper.choose(view)
        # Answers without the word "give"; everything else in notation.
        text = str(move).removeprefix("give ") if view.phase == "answer" else str(move)
        typed.append(text)
        return text

    out = io.StringIO()
    record = tmp_path / "g.json"
    game = Terminal(
        screen_for(match, Console(file=out, width=120, color_system=None), seat=0),
        {s: make_bot("random", seed=s) for s in (1, 2)},
        read=read,
        record=record,
    )
    assert game.run() == 0
    text = out.getvalue()
    assert "not a move: 'Ma0'" in text
    assert "Record saved" in text and ("wins:" in text or "share the win" in text)
    loaded = records.load_any(record)
    assert isinstance(loaded, Match) and loaded.scores == match.scores


def test_play_quit_saves_the_record_and_replay_prints_it(tmp_path: Path) -> None:
    record = tmp_path / "quit.json"
    args = ("play", "--game", "ganjifa", "--seed", "3", "--seat", "2", "--record", str(record))
    out = ok(hukum(*args, input="1\nhelp\nquit\n"))
    assert "Seat 2" not in out.split("Deal 1")[1].splitlines()[1]  # the human is "you"
    assert "You hold the RaR and lead it (G-6)." in out and "You play RaR" in out
    assert "dukal Ra3 Ra4 Ra5" in out and "Stopped." in out
    shown = ok(hukum("replay", str(record)))
    assert "Dashavatara Ganjifa record" in shown and "The deal is in progress." in shown


def test_play_ganjifa_rejects_bad_options() -> None:
    result = hukum("play", "--game", "ganjifa", "--option", "time=dusk")
    assert result.returncode == 2 and "time='dusk' is not an option" in result.stderr
    result = hukum("play", "--game", "ganjifa", "--seat", "3")
    assert result.returncode == 2 and "seats are 0 to 2" in result.stderr


def test_arena_ganjifa_prints_the_report() -> None:
    out = ok(
        hukum(
            "arena",
            "--game",
            "ganjifa",
            "rules",
            "random",
            "--deals",
            "2",
            "--workers",
            "1",
            "--no-progress",
            "--rule",
            "dukal=either",
        )
    )
    assert "Ganjifa: rules (A) vs 2 × random (B): 2 duplicate deals" in out
    assert "duplicate win rate" in out and "dukal" in out
    result = hukum("arena", "--game", "ganjifa", "rules", "nobody", "--deals", "1")
    assert result.returncode == 2 and "no Ganjifa bot 'nobody'" in result.stderr
