"""The Rules object: options, validation, presets, serialisation (RULES.md Part 1)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from hukum.mindi import PRESETS, Rules, RulesError


def test_defaults_are_preset_classic():
    r = Rules()
    assert r == Rules.preset("classic")
    assert (r.players, r.deck, r.direction, r.trump, r.reveal) == (
        4,
        52,
        "anticlockwise",
        "cut",
        "auto",
    )
    assert (r.must_trump, r.capture, r.tie_break, r.dealer_rotation) == (
        False,
        "tricks",
        "tricks",
        "losers_deal",
    )
    assert (r.points, r.target, r.deals) == ((1, 2, 3), 7, None)
    assert r.differences() == {}


def test_m1_players_and_teams():
    for players, deck, hand in ((4, 52, 13), (4, 48, 12), (6, 48, 8), (8, 48, 6)):
        r = Rules(players=players, deck=deck)
        assert r.hand_size == hand
    bad: Any
    for bad in (2, 3, 5, 7, 10, 0, -4, 4.0, "4", True):
        with pytest.raises(RulesError, match="players"):
            Rules(players=bad, deck=48)


def test_m2_deck_sizes():
    with pytest.raises(RulesError, match=r"6 players play with 48 cards.*M-2"):
        Rules(players=6)
    with pytest.raises(RulesError, match=r"8 players play with 48 cards.*M-2"):
        Rules(players=8, deck=52)
    bad: Any
    for bad in (32, 36, 51, 52.0, "52", None):
        with pytest.raises(RulesError, match="deck"):
            Rules(deck=bad)
    assert Rules(deck=48).hand_size == 12


def test_m4_direction_gives_the_next_seat():
    anti = Rules()
    assert [anti.next_seat(s) for s in range(4)] == [1, 2, 3, 0]
    clock = Rules(direction="clockwise")
    assert [clock.next_seat(s) for s in range(4)] == [3, 0, 1, 2]
    six = Rules(players=6, deck=48, direction="clockwise")
    assert [six.next_seat(s) for s in range(6)] == [5, 0, 1, 2, 3, 4]
    eight = Rules(players=8, deck=48)
    assert [eight.next_seat(s) for s in range(8)] == [1, 2, 3, 4, 5, 6, 7, 0]


@pytest.mark.parametrize(
    ("name", "direction", "trump", "tie_break", "rotation", "capture"),
    [
        ("classic", "anticlockwise", "cut", "tricks", "losers_deal", "tricks"),
        ("hidden", "anticlockwise", "band", "tricks", "losers_deal", "tricks"),
        ("mindi-world", "clockwise", "cut", "highest_trick", "rotate", "tricks"),
        ("mendicot", "clockwise", "cut", "tricks", "rotate", "tricks"),
        ("dehla-pakad", "anticlockwise", "announce", "tricks", "losers_deal", "dehla"),
    ],
)
def test_presets_match_the_rule_book_table(name, direction, trump, tie_break, rotation, capture):
    r = Rules.preset(name)
    assert r is PRESETS[name] or r == PRESETS[name]
    assert (r.direction, r.trump, r.tie_break, r.dealer_rotation, r.capture) == (
        direction,
        trump,
        tie_break,
        rotation,
        capture,
    )
    assert r.reveal == "auto"
    assert (r.players, r.deck, r.must_trump) == (4, 52, False)


def test_presets_are_exactly_the_five_of_the_rule_book():
    assert list(PRESETS) == ["classic", "hidden", "mindi-world", "mendicot", "dehla-pakad"]


def test_preset_with_changes():
    r = Rules.preset("hidden", reveal="on_request", must_trump=True)
    assert (r.trump, r.reveal, r.must_trump) == ("band", "on_request", True)
    assert Rules.preset("classic", players=6, deck=48).hand_size == 8
    assert PRESETS["hidden"].reveal == "auto"  # presets are not changed
    with pytest.raises(RulesError, match="no preset 'nope'"):
        Rules.preset("nope")
    with pytest.raises(RulesError, match="no rule option 'colour'"):
        Rules.preset("classic", colour="red")


def test_unknown_option_message_lists_the_options_in_order():
    with pytest.raises(RulesError) as info:
        Rules().replace(colour="red")
    names = ", ".join(f.name for f in dataclasses.fields(Rules))
    assert str(info.value).endswith(names)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"direction": "left"}, 'direction "left" is not an option'),
        ({"first_dealer": "oldest"}, "first_dealer"),
        ({"trump": "hukum"}, 'trump "hukum"'),
        ({"reveal": "never"}, "reveal"),
        ({"capture": "all"}, "capture"),
        ({"tie_break": "coin"}, "tie_break"),
        ({"dealer_rotation": "winner"}, "dealer_rotation"),
        ({"must_trump": 1}, "must_trump must be true or false"),
        ({"draw_partnerships": "yes"}, "draw_partnerships"),
        ({"reveal": "on_request"}, r"reveal on_request applies only to trump band \(M-12\)"),
        ({"points": (1, 2)}, "points"),
        ({"points": [1, 2, 3]}, "points"),
        ({"points": (1, -2, 3)}, "points"),
        ({"points": (1, 2.5, 3)}, "points"),
        ({"points": (True, 2, 3)}, "points"),
        ({"target": 0}, "target"),
        ({"target": 2.0}, "target"),
        ({"target": True}, "target"),
        ({"deals": -1}, "deals"),
        ({"target": None, "deals": None}, "a match needs an end"),
    ],
)
def test_invalid_options_are_rules_errors(changes, message):
    with pytest.raises(RulesError, match=message):
        Rules(**changes)
    with pytest.raises(RulesError, match=message):
        Rules().replace(**changes)


def test_rules_error_is_a_value_error():
    assert issubclass(RulesError, ValueError)


def test_rules_are_frozen_and_hashable():
    r = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.players = 6  # type: ignore[misc]
    assert hash(r) == hash(Rules())
    assert len({Rules(), Rules.preset("classic"), Rules.preset("hidden")}) == 2


def test_valid_match_ends():
    assert Rules(target=None, deals=5).deals == 5
    assert Rules(target=10, deals=3).target == 10


@pytest.mark.parametrize("name", list(PRESETS))
def test_to_dict_from_dict_round_trip_through_json(name):
    r = Rules.preset(name, must_trump=True, points=(2, 4, 8), deals=9)
    data = r.to_dict()
    assert data["points"] == [2, 4, 8]
    again = Rules.from_dict(json.loads(json.dumps(data)))
    assert again == r
    assert isinstance(again.points, tuple)


def test_from_dict_fills_missing_options_and_rejects_bad_data():
    assert Rules.from_dict({}) == Rules()
    assert Rules.from_dict({"trump": "band", "reveal": "on_request"}).reveal == "on_request"
    with pytest.raises(RulesError, match="no rule option 'speed'"):
        Rules.from_dict({"speed": 3})
    with pytest.raises(RulesError, match="an object of options"):
        Rules.from_dict([("players", 4)])  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="players"):
        Rules.from_dict({"players": 5})


def test_differences_from_the_defaults():
    r = Rules.preset("mindi-world")
    assert r.differences() == {
        "direction": "clockwise",
        "tie_break": "highest_trick",
        "dealer_rotation": "rotate",
    }
    assert Rules.preset("dehla-pakad").differences() == {"trump": "announce", "capture": "dehla"}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"points": (None, None)},
            "points must be three whole numbers, 0 or more, for a win, "
            'a mendikot and a whitewash (e.g. 1, 2, 3), not "none, none"',
        ),
        ({"points": ("a", 2, 3)}, 'not "a, 2, 3"'),
        ({"points": ()}, 'not "nothing"'),
        (
            {"trump": "hukum"},
            'trump "hukum" is not an option; choose one of cut, band, open, announce',
        ),
        ({"target": 0}, 'target must be a whole number from 1 up, or none, not "0"'),
        ({"players": 5}, "players: Mindi is played by 4, 6 or 8, not 5 (M-1)"),
        ({"deck": 50}, "deck: the pack has 52 cards, or 48 without the 2s, not 50"),
        ({"must_trump": None}, 'must_trump must be true or false, not "none"'),
    ],
)
def test_rules_errors_read_for_people(changes: dict[str, Any], message: str) -> None:
    """A rules error names the option and says what it takes, with the value given written
    as a person (or the command line) writes it: no Python reprs, None, tuples or quotes."""
    with pytest.raises(RulesError) as info:
        Rules(**changes)
    text = str(info.value)
    assert message in text
    assert "None" not in text and "(None" not in text and "'" not in text
