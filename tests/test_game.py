"""The core of a game spec and its facets (:mod:`hukum.game`): the rules schema read from
each engine's ``Rules`` dataclass, the facets each shipped game offers, and the terminal
screen a terminal facet names."""

from __future__ import annotations

import itertools

import pytest

from hukum.game import GameError, RulesError, TerminalFacet
from hukum.games import GAMES
from hukum.ganjifa import Rules as GanjifaRules
from hukum.mindi import Rules as MindiRules
from hukum.terminal import screen_class
from hukum.terminal.mindi import MindiScreen


def test_mindis_schema_takes_its_choices_from_the_engine() -> None:
    schema = {o.name: o for o in GAMES["mindi"].rules_schema()}
    assert list(schema) == [f for f in MindiRules.__dataclass_fields__]
    assert schema["players"].choices == (4, 6, 8) and schema["deck"].choices == (52, 48)
    assert schema["trump"].choices == ("cut", "band", "open", "announce")
    assert schema["must_trump"].choices == (False, True) and schema["must_trump"].rule == "M-8"
    assert schema["target"].nullable and schema["target"].kind == "count"
    assert schema["points"].kind == "points" and schema["points"].default == (1, 2, 3)
    assert schema["tie_break"].label == "opt.tie_break"
    # Every pair of listed players and decks is what the engine accepts, or refuses itself.
    for players, deck in itertools.product(
        schema["players"].choices or (), schema["deck"].choices or ()
    ):
        try:
            MindiRules(players=players, deck=deck)
        except RulesError as e:
            assert "deck=48" in str(e)
    for name in ("players", "deck"):
        choices = schema[name].choices
        assert choices is not None
        with pytest.raises(RulesError):
            MindiRules(**{name: max(choices) + 1})


def test_ganjifas_schema_and_every_options_default_is_the_engines() -> None:
    schema = GAMES["ganjifa"].rules_schema()
    assert [(o.name, o.rule) for o in schema] == [
        ("time", "G-5"),
        ("void_rule", "G-7"),
        ("dukal", "G-9"),
        ("deals", None),
    ]
    assert schema[0].choices == ("day", "night") and not schema[3].nullable
    for spec in GAMES.values():
        default = spec.rules_type()
        for option in spec.rules_schema():
            assert getattr(default, option.name) == option.default
            assert option.description and "\n" not in option.description
    assert GanjifaRules().time == "day"


def test_the_shipped_games_offer_their_facets() -> None:
    mindi, ganjifa = GAMES["mindi"], GAMES["ganjifa"]
    for spec in (mindi, ganjifa):
        assert spec.web is not None and spec.records is not None and spec.arena is not None
        assert spec.learning is not None and spec.terminal is not None
    assert mindi.analysis is not None and ganjifa.analysis is None
    assert mindi.terminal is not None and mindi.terminal.screen.endswith(":MindiScreen")


def test_an_unknown_option_is_refused_by_name() -> None:
    spec = GAMES["ganjifa"]
    with pytest.raises(GameError, match="no rule option 'colour'"):
        spec.make_rules(options={"colour": "red"})


def test_a_screen_is_the_class_its_terminal_facet_names(monkeypatch: pytest.MonkeyPatch) -> None:
    mindi = GAMES["mindi"]
    assert screen_class(mindi) is MindiScreen
    monkeypatch.setattr(mindi, "terminal", TerminalFacet("hukum.mindi:Deal"))
    with pytest.raises(TypeError, match=r"hukum\.mindi:Deal is not a terminal Screen"):
        screen_class(mindi)
