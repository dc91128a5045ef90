"""The lobby API against the real app on a real SQLite file."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import create, play
from tests.server.helpers import Player, seat_socket


def error_code(r: object) -> str:
    from httpx2 import Response

    assert isinstance(r, Response)
    assert 400 <= r.status_code < 500, r.text
    body = r.json()
    # The code and the message, and only the further fields docs/protocol.md names.
    assert set(body) == {"error"} and {"code", "message"} <= set(body["error"])
    assert set(body["error"]) <= {"code", "message", "rule_ids", "turn"}, body
    code: str = body["error"]["code"]
    return code


def test_create_take_seats_fill_start(client: TestClient) -> None:
    made = create(client, preset="hidden", name="Asha", bots="random", turn_timeout=30)
    code, token = made["code"], made["token"]
    assert made["seat"] == 0 and made["invite"] == f"/t/{code}" and len(token) == 32
    table = client.get(f"/api/tables/{code}").json()
    assert table["status"] == "waiting" and table["rules"]["trump"] == "band"
    assert [s["kind"] for s in table["seats"]] == ["human", "empty", "empty", "empty"]
    assert "token" not in str(table)
    seat = client.post(f"/api/tables/{code}/seats/2", json={"name": "Ravi"}).json()
    assert seat["seat"] == 2 and seat["token"] != token
    assert error_code(client.post(f"/api/tables/{code}/seats/2", json={})) == "seat_taken"
    assert error_code(client.post(f"/api/tables/{code}/start", json={"token": token})) == (
        "seats_empty"
    )
    r = client.post(f"/api/tables/{code}/bots", json={"token": seat["token"]})
    assert [s["kind"] for s in r.json()["table"]["seats"]] == ["human", "bot", "human", "bot"]
    r = client.post(f"/api/tables/{code}/start", json={"token": token})
    assert r.json()["table"]["status"] == "playing"
    assert error_code(client.post(f"/api/tables/{code}/start", json={"token": token})) == (
        "already_started"
    )
    assert error_code(client.post(f"/api/tables/{code}/seats/1", json={})) == "seat_taken"


def test_play_now_starts_at_once(client: TestClient) -> None:
    made = create(client, start_now=True, bots="rules")
    table = client.get(f"/api/tables/{made['code']}").json()
    assert table["status"] == "playing" and table["deal_number"] == 1
    assert [s["kind"] for s in table["seats"]] == ["human", "bot", "bot", "bot"]


def test_expert_bots_play_into_the_solved_tricks(client: TestClient) -> None:
    """The expert computer player fills seats; eight tricks in, it plays on the exact solver."""
    info = client.get("/api/rules").json()
    assert info["bots"] == ["random", "rules", "search", "expert"]
    assert info["levels"] == {"mindi": info["bots"], "ganjifa": ["random", "rules", "search"]}
    made = create(client, start_now=True, bots="expert")
    player = Player()
    with seat_socket(client, made["code"], made["token"]) as ws:
        play(ws, player, moves=8)
    table = client.get(f"/api/tables/{made['code']}").json()
    assert [s["kind"] for s in table["seats"]] == ["human", "bot", "bot", "bot"]
    assert player.moves == 8 and not player.errors, player.errors


def test_errors(client: TestClient) -> None:
    made = create(client)
    code = made["code"]
    assert error_code(client.get("/api/tables/zzzzzzzz")) == "unknown_table"
    assert error_code(client.get("/api/tables/nope")) == "unknown_table"
    assert error_code(client.post(f"/api/tables/{code}/seats/7", json={})) == "unknown_seat"
    assert error_code(client.post(f"/api/tables/{code}/bots", json={"token": "x" * 32})) == (
        "bad_token"
    )
    r = client.post(
        "/api/tables", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert error_code(r) == "bad_json"
    assert error_code(client.post("/api/tables", json={"preset": 3})) == "bad_request"
    assert error_code(client.post("/api/tables", json={"colour": "red"})) == "bad_request"
    assert error_code(client.post("/api/tables", json={"bots": "genius"})) == "bad_request"
    assert error_code(client.post("/api/tables", json={"game": "chess"})) == "bad_request"
    assert error_code(client.post("/api/tables", json={"preset": "chess"})) == "bad_rules"
    r = client.post("/api/tables", json={"options": {"players": 6}})
    assert error_code(r) == "bad_rules" and "deck=48" in r.json()["error"]["message"]
    assert error_code(client.post("/api/tables", json={"options": {"target": 0}})) == "bad_rules"
    assert error_code(client.get(f"/api/tables/{code}/record")) == "not_started"
    # nothing changed
    table = client.get(f"/api/tables/{code}").json()
    assert table["event"] == 1 and table["status"] == "waiting"


def test_rules_info(client: TestClient) -> None:
    info = client.get("/api/rules").json()
    options = {o["name"]: o for o in info["options"]}
    assert options["trump"]["values"] == ["cut", "band", "open", "announce"]
    assert options["must_trump"]["values"] == [False, True]
    assert "M-8" in options["must_trump"]["description"]
    assert all(o["description"] for o in info["options"])
    assert info["presets"]["dehla-pakad"]["capture"] == "dehla"
    # Descriptions for people: no markup ("seat *i*"), no Python values ("None").
    for o in info["options"]:
        text = o["description"]
        assert "*" not in text and "None" not in text and "`" not in text, text
    # Every game's rules, from its schema: Ganjifa's options, presets, players and bots.
    assert info["games"]["mindi"]["options"] == info["options"]
    ganjifa = info["games"]["ganjifa"]
    options = {o["name"]: o for o in ganjifa["options"]}
    assert options["time"]["values"] == ["day", "night"] and options["time"]["rule"] == "G-5"
    assert options["dukal"]["label"] == "opt.dukal" and options["deals"]["type"] == "count"
    assert ganjifa["presets"] == {
        "cardavia": {"time": "day", "void_rule": "choice", "dukal": "run", "deals": 1}
    }
    assert ganjifa["players"] == [3] and ganjifa["bots"] == info["levels"]["ganjifa"]
    assert info["games"]["mindi"]["players"] == [4, 6, 8]


def test_custom_rules_and_record(client: TestClient) -> None:
    made = create(client, preset="classic", options={"deals": 1, "target": None, "trump": "open"})
    table = client.get(f"/api/tables/{made['code']}").json()
    assert table["rules"]["trump"] == "open" and table["rules"]["deals"] == 1


def test_index_and_spa_routes(client: TestClient) -> None:
    assert client.get("/").status_code == 200
    assert client.get("/t/abcdefgh").status_code == 200
    assert client.get("/api/health").json() == {"ok": True}
