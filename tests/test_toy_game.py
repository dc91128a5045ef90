"""A third game added the documented way (docs/architecture.md, "How to add a game"): High
Card (tests/toygame.py) is registered through its GameSpec, which writes the core and the
records facet only. The referee loop plays it and records save and replay it with no other
file touched; what it does not offer (the arena, learning, the terminal, analysis) is
refused as not offered, and the arena plays it once a test gives it an arena facet. The
server plays it too: tests/server/test_toy_game.py."""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from rich.console import Console

from hukum import records, terminal
from hukum.arena import format_report, run_arena
from hukum.cli import main
from hukum.envs.core import EnvGame
from hukum.game import ArenaFacet, NotOfferedError, Side
from hukum.games import GAMES, game_named, make_bot, spec_of
from hukum.play import play_deal
from hukum.recordfile import RecordError
from tests.toygame import NAME, SPEC, Card, Deal, Rules


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(GAMES, NAME, SPEC)
        yield


@dataclass(frozen=True)
class Play:
    """One arena play from bot A's side."""

    deal: int
    a_seat: int
    a_tricks: int


class HighCardArena(ArenaFacet[Rules, Deal]):
    """An arena facet for High Card: how a game that lacks one gains it, in one class."""

    play_type = Play

    def one_deal(self, rules: Rules) -> Rules:
        return Rules(deals=1)

    def seatings(self, rules: Rules) -> Sequence[tuple[Side, ...]]:
        return [(Side("A", (a,), 0), Side("B", (1 - a,), 1)) for a in (0, 1)]

    def play(self, number: int, a_seats: tuple[int, ...], deal: Deal) -> Play:
        outcome = deal.outcome()
        assert outcome is not None
        return Play(number, a_seats[0], outcome.tricks[a_seats[0]])

    def duplicate_score(self, plays: Sequence[Play]) -> float:
        tricks = sum(p.a_tricks for p in plays)
        return 1.0 if tricks > 5 else 0.5 if tricks == 5 else 0.0

    def rows(self, plays: Sequence[Play]) -> list[tuple[str, str, str]]:
        mean = sum(p.a_tricks for p in plays) / len(plays) if plays else 0.0
        return [("mean tricks a play", f"{mean:.2f}", f"{5 - mean:.2f}")]


@pytest.fixture
def with_arena() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(SPEC, "arena", HighCardArena())
        yield


def test_what_the_core_alone_does_not_offer_is_refused_as_not_offered(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (SPEC.web, SPEC.arena, SPEC.learning, SPEC.analysis, SPEC.terminal) == (None,) * 5
    with pytest.raises(NotOfferedError, match="High Card is not offered in the arena"):
        run_arena("high", "random", 2, Rules(), seed=1, game=NAME)
    with pytest.raises(NotOfferedError, match="High Card is not offered to learning programs"):
        EnvGame(NAME)
    with pytest.raises(terminal.NoScreenError, match="cannot show High Card"):
        terminal.screen_for(SPEC.new_match(Rules(), seed=1), Console(file=io.StringIO()))
    assert main(["arena", "high", "random", "--game", NAME, "--deals", "2"]) == 2
    assert "High Card is not offered in the arena" in capsys.readouterr().err


def test_without_its_records_facet_it_keeps_no_records(monkeypatch: pytest.MonkeyPatch) -> None:
    text = records.dumps(SPEC.new_match(Rules(), seed=1))
    monkeypatch.setattr(SPEC, "records", None)
    with pytest.raises(RecordError, match="High Card keeps no records"):
        records.dumps(SPEC.new_match(Rules(), seed=1))
    with pytest.raises(RecordError, match="High Card keeps no records"):
        records.loads_any(text)


def test_its_rules_schema_comes_from_its_rules_dataclass() -> None:
    (deals,) = SPEC.rules_schema()
    assert (deals.name, deals.kind, deals.default, deals.choices) == ("deals", "count", 1, None)
    assert deals.description == "Deals in a match." and deals.label == "opt.deals"
    assert SPEC.rules_to_dict(SPEC.make_rules(options={"deals": 3})) == {"deals": 3}
    assert SPEC.describe_rules(Rules(deals=3)) == "deals=3" and SPEC.no_scores(Rules()) == [0, 0]


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


def test_the_arena_plays_it_in_duplicate_on_one_or_two_workers(with_arena: None) -> None:
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


def test_the_arena_command_plays_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, with_arena: None
) -> None:
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
