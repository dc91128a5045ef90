"""Ganjifa game records: round trip through JSON, and every kind of corrupt record refused."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from hukum import records
from hukum.ganjifa import Match, Rules
from hukum.ganjifa import record as ganjifa_record
from hukum.records import RecordError


def _played(rules: Rules | None = None, seed: int = 5) -> Match:
    match = Match(rules or Rules(), seed=seed)
    while not match.is_over():
        deal = match.start_deal()
        while not deal.is_over():
            deal.push(deal.legal_moves()[-1])  # Dukals and answers when there are some
    return match


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    return records.to_dict(_played(Rules(time="night", dukal="either", deals=2)))


def test_record_round_trips_through_json_and_files(tmp_path: Path) -> None:
    match = _played(Rules(time="night", void_rule="trump_first", deals=2))
    text = records.dumps(match)
    data = json.loads(text)
    assert data["game"] == "ganjifa" and data["version"] == 1
    assert any(m.startswith("dukal ") for m in data["deals"][0]["moves"])
    assert any(m.startswith("give ") for m in data["deals"][0]["moves"])
    again = records.loads_any(text)
    assert isinstance(again, Match)
    assert again.scores == match.scores and records.dumps(again) == text
    path = tmp_path / "ganjifa.json"
    records.save(match, path)
    loaded = records.load_any(path)
    assert isinstance(loaded, Match) and loaded.winners() == match.winners()
    assert ganjifa_record.loads(text).scores == match.scores


def test_record_of_a_deal_in_progress_loads() -> None:
    match = Match(Rules(), seed=9)
    deal = match.start_deal()
    for _ in range(10):
        deal.push(deal.legal_moves()[0])
    again = records.loads_any(records.dumps(match))
    assert isinstance(again, Match)
    current = again.current
    assert current is not None and current.history == deal.history


def test_mindi_reader_names_the_other_reader() -> None:
    text = records.dumps(_played())
    with pytest.raises(RecordError, match="loads_any reads every game"):
        records.loads(text)


def _error(data: dict[str, Any], change: Any) -> str:
    broken = copy.deepcopy(data)
    change(broken)
    with pytest.raises(RecordError) as info:
        records.from_dict_any(broken)
    return str(info.value)


def _set(path: list[Any], value: Any) -> Any:
    def change(d: Any) -> None:
        for key in path[:-1]:
            d = d[key]
        d[path[-1]] = value

    return change


@pytest.mark.parametrize(
    "path,value,message",
    [
        (["rules", "time"], "dusk", 'rules: time "dusk" is not an option'),
        (["rules", "deals"], 2.0, "rules: 'deals' must be a whole number"),
        (["seed"], "5", "'seed' must be a whole number"),
        (["draw", "dealer"], 7, "draw: the recorded dealer 7 differs"),
        (["deals", 0, "dealer"], 7, "deal 1: the record says seat 7 deals"),
        (["deals", 0, "seed"], 12345, "deal 1: the hand of seat 0 is not the one seed 12345"),
        (["deals", 0, "moves", 0], "Ma0", "deal 1, move 1 (Ma0): not a move"),
        (["deals", 0, "moves", 1], "KrR", "deal 1, move 2 (KrR): KrR is not in seat"),
        (["deals", 0, "outcome", "scores"], [40, 40, 40], "recorded outcome differs"),
        (["deals", 0, "outcome"], None, "says the deal is in progress"),
        (["deals", 0, "extra"], 1, "unknown field 'extra'"),
        (["scores"], [0, 0, 0], "the recorded scores"),
        (["winners"], [0, 1, 2], "the recorded winners"),
        (["version"], 9, "record version 9 is newer"),
        (["format"], "other", "not a record"),
    ],
)
def test_corrupt_records_are_refused_with_the_place_named(
    data: dict[str, Any], path: list[Any], value: Any, message: str
) -> None:
    assert message in _error(data, _set(path, value))


def test_truncated_and_malformed_records(data: dict[str, Any]) -> None:
    def cut(d: Any) -> None:
        d["deals"][0]["moves"] = d["deals"][0]["moves"][:-5]

    assert "leave the deal unfinished" in _error(data, cut)

    def drop_hand(d: Any) -> None:
        d["deals"][0]["hands"] = d["deals"][0]["hands"][:2]

    assert "'hands' must be a list of 3 hands" in _error(data, drop_hand)

    def missing(d: Any) -> None:
        del d["draw"]

    assert "the field 'draw' is missing" in _error(data, missing)
    with pytest.raises(RecordError, match="not valid JSON"):
        records.loads_any("{")
    with pytest.raises(RecordError, match="not UTF-8"):
        records.loads_any(b"\xff\xfe")
    with pytest.raises(RecordError, match="cannot read"):
        records.load_any("/nonexistent/ganjifa.json")
