"""The fair shuffle: each deal's commitment, the revealed seed, /api/verify and hukum verify."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hukum.cli import main
from tests.server.conftest import create, play
from tests.server.helpers import Player, seat_socket


def test_commitments_match_seeds_and_hands(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    made = create(client, start_now=True, preset="hidden", options={"deals": 2, "target": None})
    player = Player()
    with seat_socket(client, made["code"], made["token"]) as ws:
        play(ws, player)
    starts: dict[int, dict[str, Any]] = {}
    for m in player.log:
        if m.get("view") is not None:
            starts.setdefault(m["view"]["deal_number"], m)  # the first message of each deal
    ends = [m for m in player.log if m.get("kind") == "deal_over"]
    assert len(starts) == len(ends) == 2
    record = client.get(f"/api/tables/{made['code']}/record").json()
    rules = json.dumps(record["rules"])
    for start, end, dealt in zip(starts.values(), ends, record["deals"], strict=True):
        c, seed = start["view"]["commitment"], end["seed"]
        assert start.get("seed") is None and start["view"]["seed"] is None
        assert end["commitment"] == c and end["view"]["seed"] == seed
        assert hashlib.sha256(f"hukum-deal:{seed}".encode()).hexdigest() == c
        dealer = start["view"]["dealer"]
        query: dict[str, Any] = {"commitment": c, "seed": seed, "dealer": dealer, "rules": rules}
        check = client.get("/api/verify", params=query).json()
        assert check["commitment_ok"] and check["hands"] == dealt["hands"]
        assert not client.get("/api/verify", params={**query, "seed": int(seed) + 1}).json()[
            "commitment_ok"
        ]
        args = ["verify", "--seed", seed, "--commitment", c, "--dealer", str(dealer)]
        assert main([*args, "--preset", "hidden", "--rules", rules, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["hands"] == dealt["hands"]
        assert main(["verify", "--seed", "1", "--commitment", c, "--dealer", "0"]) == 1
        assert "DOES NOT match" in capsys.readouterr().out


def test_verify_errors(client: TestClient) -> None:
    r = client.get("/api/verify", params={"commitment": "ab", "seed": "x", "dealer": 0})
    assert r.json()["error"]["code"] == "bad_request"
    r = client.get(
        "/api/verify", params={"commitment": "ab", "seed": "1", "dealer": 0, "rules": "[1]"}
    )
    assert r.json()["error"]["code"] == "bad_rules"
    r = client.get("/api/verify", params={"commitment": "ab", "seed": "1", "dealer": 0})
    assert r.json()["commitment_ok"] is False


def test_verify_command_checks_a_ganjifa_deal(capsys: pytest.CaptureFixture[str]) -> None:
    c = hashlib.sha256(b"hukum-deal:77").hexdigest()
    args = ["verify", "--game", "ganjifa", "--seed", "77", "--commitment", c, "--dealer", "2"]
    assert main([*args, "--rules", '{"time": "night"}', "--json"]) == 0
    hands = json.loads(capsys.readouterr().out)["hands"]
    assert [len(h) for h in hands] == [40, 40, 40]
    assert main([*args[:-1], "3"]) == 2
    assert "the dealer is a seat from 0 to 2" in capsys.readouterr().out
    assert main([*args, "--preset", "classic"]) == 2
    assert "no Ganjifa preset 'classic'" in capsys.readouterr().out
