"""A third game added the documented way (docs/architecture.md, "How to add a game"): High
Card (tests/toygame.py) is registered through its GameSpec, and the referee loop, the arena
(library and command), records and replays play it with no other file touched. The server
plays it too: tests/server/test_toy_game.py."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from hukum import records
from hukum.arena import format_report, run_arena
from hukum.cli import main
from hukum.games import GAMES, game_named, make_bot, spec_of
from hukum.play import play_deal
from hukum.recordfile import RecordError
from tests.toygame import NAME, SPEC, Card, Rules


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(GAMES, NAME, SPEC)
        yield


def test_the_registry_knows_the_game_by_name_and_by_its_matches() -> None:
    match = game_named(NAME).new_match(Rules(deals=2), seed=3)
    assert spec_of(match) is SPEC
    assert make_bot(NAME, "high").name == "high"


def test_the_referee_loop_plays_it_and_refuses_a_card_not_held() -> None:
    match = SPEC.new_match(Rules(), seed=3)
    deal = match.start_deal()
    seats: list[int] = []
    play_deal(
        deal,
        [SPEC.make_bot("high"), SPEC.make_bot("random", seed=1)],
        lambda seat, move, seconds: seats.append(seat),
    )
    outcome = deal.outcome()
    assert outcome is not None and sum(outcome.tricks) == 5 and len(seats) == 10
    for _ in range(10):
        deal.pop()
    assert deal.view(0).hand == deal.dealt[0]
    assert deal.turn == 1
    with pytest.raises(ValueError, match="seat 1 does not hold"):
        deal.push(deal.dealt[0][0], seat=1)
    assert deal.moves == []


def test_the_arena_plays_it_in_duplicate_on_one_or_two_workers() -> None:
    one = run_arena("high", "random", 4, Rules(), seed=1, game=NAME, workers=1)
    two = run_arena("high", "random", 4, Rules(), seed=1, game=NAME, workers=2)
    assert one.deals == 4 and len(one.plays) == 8
    assert [r.plays for r in one.results] == [r.plays for r in two.results]
    assert {p.a_seat for p in one.plays} == {0, 1}
    mirror = run_arena("high", "high", 3, Rules(), seed=2, game=NAME)
    assert mirror.win_rate == 0.5  # the same bot in both seats ties every duplicate deal
    console = Console(record=True, width=200, file=io.StringIO())
    console.print(format_report(one))
    assert "mean tricks a play" in console.export_text()


def test_the_arena_command_plays_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    args = ["arena", "high", "random", "--game", NAME, "--deals", "2", "--workers", "1"]
    assert main([*args, "--no-progress", "--records", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "high (A) vs random (B)" in out
    assert "2 duplicate deals" in out
    saved = sorted(tmp_path.glob("*.json"))
    assert len(saved) == 4
    match = records.load_any(saved[0])
    assert spec_of(match) is SPEC and match.deals[0].is_over()
    assert main([*args, "--no-progress", "--rule", "colour=red"]) == 2
    assert "no rule option 'colour'" in capsys.readouterr().err


def test_records_of_the_game_save_and_replay(tmp_path: Path) -> None:
    match = SPEC.new_match(Rules(deals=2), seed=9)
    for _ in range(2):
        deal = match.start_deal()
        play_deal(deal, [SPEC.make_bot("random", seed=4)] * 2)
    path = tmp_path / "game.json"
    records.save(match, path)
    again = records.load_any(path)
    assert records.dumps(again) == records.dumps(match)
    assert again.scores == match.scores
    text = records.dumps(match).replace(f'"{match.deals[0].moves[0]}"', '"11"', 1)
    with pytest.raises(RecordError, match="not a card"):
        records.loads_any(text)


def test_without_registration_the_game_is_unknown() -> None:
    text = records.dumps(SPEC.new_match(Rules(), seed=1))
    with pytest.MonkeyPatch.context() as mp:
        mp.delitem(GAMES, NAME)
        with pytest.raises(RecordError, match="reads records of mindi, ganjifa"):
            records.loads_any(text)
    assert records.loads_any(text).seed == 1
    assert str(Card(7)) == "7"
