"""``hukum play --game ganjifa``, ``hukum replay`` of a Ganjifa record and
``hukum arena --game ganjifa``, run for real."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from hukum import records
from hukum.bots.ganjifa import make_bot
from hukum.game import InvalidMoveError
from hukum.ganjifa import Deal, Match, Move, Rules
from hukum.terminal import Terminal, screen_for
from tests.ganjifa.helpers import hands_with
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
    assert "Not a move: 'Ma0'" in text
    assert "Record saved" in text and ("wins with" in text or "share the win" in text)
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
    assert result.returncode == 2 and 'time "dusk" is not an option' in result.stderr
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


# ---------------------------------------------------------------- issue 19, item 11


def test_answering_a_dukal_the_cards_are_numbered_and_numbers_are_taken() -> None:
    match = Match(Rules(), seed=1)
    asked: list[str] = []
    typed: list[str] = []
    answers: list[list[str]] = []  # the cards numbered 1 … k when each answer was typed

    def read(prompt: str) -> str:
        asked.append(prompt)
        deal = match.current
        assert deal is not None
        view = deal.view(0)
        if view.phase != "answer":
            return "1"
        k = view.dukal
        if not answers and "1" not in typed:
            typed.append("1")
            return "1"  # one card: too few, refused, asked again
        shown = out.getvalue().rsplit("Your hand", 1)[1]
        numbered = re.findall(r"\[(\d+)\] (\w+)", shown)
        assert [int(n) for n, _ in numbered] == list(range(1, len(view.hand) + 1))
        answers.append([code for _, code in numbered[:k]])
        return " ".join(str(n) for n in range(1, k + 1))

    out = io.StringIO()
    game = Terminal(
        screen_for(match, Console(file=out, width=200, color_system=None), seat=0),
        {s: make_bot("rules", seed=s) for s in (1, 2)},
        read=read,
    )
    assert game.run() == 0 and match.is_over()
    text = out.getvalue()
    assert answers, "no Dukal was answered: choose another seed"
    k = len(answers[0])
    assert f"Give up {k} cards (numbers or cards; help): " in asked
    assert f"Give up exactly {k} cards to the Dukal, not 1.  (rule G-9)" in text
    assert "not a move: '1'" not in text.lower()
    given = [
        move for seat, move in match.deals[0].history if seat == 0 and move.kind.value == "give"
    ]
    assert [sorted(str(c) for c in move.cards) for move in given] == [sorted(a) for a in answers]


def test_an_answer_may_mix_numbers_and_cards() -> None:
    deal = Deal(Rules(), 0, hands_with({1: "RaR Ma3 Ma4 Ma5"}))
    for _ in range(3):  # the opening trick: seat 1 leads the trump Raja and takes it
        deal.push(deal.legal_moves()[0])
    deal.push(Move.dukal("Ma3 Ma4 Ma5"))
    assert deal.phase == "answer" and deal.turn == 2
    match = Match(Rules(), seed=1)
    screen = screen_for(match, Console(file=io.StringIO(), width=200), seat=2)
    view = deal.view(2)
    numbered = screen.show(view)
    first, second = (m.card for m in numbered[:2])
    move = screen.parse(f"give 1, {second} 3", view, numbered)
    assert move == Move.give([first, second, numbered[2].card])
    with pytest.raises(InvalidMoveError, match="no move number 99"):
        screen.parse("1 2 99", view, numbered)
    with pytest.raises(InvalidMoveError, match="twice"):
        screen.parse(f"1 2 {first}", view, numbered)


def test_the_draw_for_dealer_shows_each_tie_and_the_draw_again(tmp_path: Path) -> None:
    # Seed 61 draws three times: Pa9 and Vr2 tie, then Ma7 and Vr7, then Ku5 beats Ka5.
    record = tmp_path / "draw.json"
    out = ok(
        hukum("play", "--game", "ganjifa", "--seed", "61", "--record", str(record), input="quit\n")
    )
    draw = Match(Rules(), seed=61).draw
    assert [len(r) for r in draw.rounds] == [3, 2, 2] and draw.dealer == 2
    line = (
        "Draw for the first dealer: seat 0 Bu5, seat 1 Pa9, seat 2 Vr2; seats 1 and 2 tie "
        "and draw again: seat 1 Ma7, seat 2 Vr7; they tie again: seat 1 Ka5, seat 2 Ku5; "
        "seat 2 deals first."
    )
    assert line in out
    assert line in ok(hukum("replay", str(record)))


def test_replay_prints_the_rules_as_people_read_them(tmp_path: Path) -> None:
    record = tmp_path / "night.json"
    args = ("--option", "time=night", "--option", "dukal=either", "--record", str(record))
    ok(hukum("play", "--game", "ganjifa", "--seed", "3", *args, input="quit\n"))
    out = ok(hukum("replay", str(record)))
    assert "{" not in out and "'time'" not in out
    assert "Rules: preset cardavia with time=night, dukal=either." in out
    assert "It is night: Krishna is trump." in out


def test_solve_of_a_ganjifa_record_says_the_solver_is_for_mindi(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    ok(hukum("play", "--game", "ganjifa", "--seed", "3", "--record", str(record), input="quit\n"))
    result = hukum("solve", str(record))
    assert result.returncode == 2 and result.stdout == ""
    assert f"hukum solve: error: {record}: a Ganjifa record;" in result.stderr
    assert "analyses Mindi deals only" in result.stderr
    assert "hukum.records" not in result.stderr and "loads_any" not in result.stderr


def test_a_card_that_does_not_follow_is_refused_in_words_for_the_person() -> None:
    match = Match(Rules(), seed=4)
    helper = make_bot("rules")
    refused: list[str] = []  # the led suit, once a wrong card was typed

    def read(prompt: str) -> str:
        deal = match.current
        assert deal is not None
        view = deal.view(0)
        if not refused and view.phase == "follow":
            led = next(iter(view.trick[0].move.cards)).suit
            other = [c for c in view.hand if c.suit != led and c not in view.allowed]
            if other and view.hand.suit(led):
                refused.append(led.avatar)
                return other[0].code
        return str(helper.choose(view))

    out = io.StringIO()
    game = Terminal(
        screen_for(match, Console(file=out, width=200, color_system=None), seat=0),
        {s: make_bot("rules", seed=s) for s in (1, 2)},
        read=read,
    )
    assert game.run() == 0
    assert refused, "seat 0 never had a card that does not follow: choose another seed"
    text = out.getvalue()
    assert f"You must follow {refused[0]}.  (rule G-7)" in text
    assert "seat 0 must" not in text
