"""Dashavatara Ganjifa through the real app: a whole game against two bots, the errors a
player can cause (G-6, G-9), nothing leaked (G-11), a restart, and the fair-shuffle check."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from hukum import ganjifa
from hukum.server.app import create_app
from hukum.server.fairness import commitment
from tests.server.conftest import create, play
from tests.server.helpers import Player, check_no_leaks, seat_socket


def choose(view: dict[str, Any]) -> str:
    """A Dukal when one may be led, else the last legal card; answers give the first k."""
    if view["phase"] == "answer":
        return "give " + " ".join(view["allowed"][: view["need"]])
    legal: list[str] = view["legal"]
    dukals = [m for m in legal if m.startswith("dukal ")]
    return dukals[0] if dukals else legal[-1]


def test_a_whole_game_against_two_bots_leaks_nothing(client: TestClient) -> None:
    made = create(client, game="ganjifa", options={"time": "night"}, bots="random", start_now=True)
    player = Player(choose=choose)
    with seat_socket(client, made["code"], made["token"]) as ws:
        play(ws, player)
    assert player.match_over and not player.errors, player.errors
    assert check_no_leaks(player.log, seat=0) == 1
    end = next(m for m in player.log if m.get("kind") == "deal_over")
    view, table = end["view"], end["table"]
    assert view["game"] == table["game"] == "ganjifa" and view["trump"] == "Kr"
    outcome = view["outcome"]
    assert sum(outcome["scores"]) == 120  # G-10
    top = max(outcome["scores"])
    assert outcome["winners"] == [s for s in range(3) if outcome["scores"][s] == top]
    assert len(table["seats"]) == 3
    over = next(m for m in player.log if m.get("kind") == "match_over")
    assert over["winners"] == outcome["winners"] and over["scores"] == outcome["scores"]
    # Every seat's moves went through the engine: the record replays.
    record = client.get(f"/api/tables/{made['code']}/record").json()
    assert (
        record["game"] == "ganjifa"
        and record["deals"][0]["outcome"]["scores"] == (outcome["scores"])
    )


def _first_state(client: TestClient, made: dict[str, Any]) -> dict[str, Any]:
    with seat_socket(client, made["code"], made["token"]) as ws:
        state: dict[str, Any] = ws.receive_json()
    return state


def test_wrong_moves_are_refused_with_the_rule_and_change_nothing(client: TestClient) -> None:
    made = create(client, game="ganjifa", bots="rules")
    code = made["code"]
    tokens = [made["token"]]
    for seat in (1, 2):
        r = client.post(f"/api/tables/{code}/seats/{seat}", json={"name": f"P{seat}"})
        tokens.append(r.json()["token"])
    assert client.post(f"/api/tables/{code}/start", json={"token": tokens[0]}).status_code == 200
    state = _first_state(client, made)
    view = state["view"]
    assert view["phase"] == "lead" and view["trump"] == "Ra"
    leader = view["turn"]
    other = (leader + 1) % 3
    with seat_socket(client, code, tokens[other]) as ws:
        ws.receive_json()
        ws.send_json({"type": "move", "move": "RaR", "ref": 1})
        refusal = ws.receive_json()["error"]
        assert refusal["code"] == "not_your_turn" and refusal["turn"] == leader
    with seat_socket(client, code, tokens[leader]) as ws:
        mine = ws.receive_json()["view"]
        assert "RaR" in mine["hand"] and mine["legal"] == ["RaR"]  # G-6
        wrong = next(c for c in mine["hand"] if c != "RaR")
        ws.send_json({"type": "move", "move": wrong, "ref": 2})
        answer = ws.receive_json()
        assert answer["error"]["code"] == "illegal_move" and "G-6" in answer["error"]["message"]
        assert answer["error"]["rule_ids"] == ["G-6"]
        ws.send_json({"type": "move", "move": "dukal Ra1", "ref": 3})
        assert ws.receive_json()["error"]["code"] == "invalid_move"
    assert _first_state(client, made)["event"] == state["event"]


def test_bad_room_settings_are_refused(client: TestClient) -> None:
    def error(body: dict[str, Any]) -> str:
        r = client.post("/api/tables", json=body)
        assert r.status_code >= 400
        code: str = r.json()["error"]["code"]
        return code

    assert error({"game": "ganjifa", "options": {"time": "dusk"}}) == "bad_rules"
    assert error({"game": "ganjifa", "preset": "classic"}) == "bad_rules"
    assert error({"game": "ganjifa", "bots": "expert"}) == "bad_request"


def test_a_restarted_server_resumes_the_game(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    with TestClient(create_app(url, bot_delay=0)) as first:
        made = create(first, game="ganjifa", bots="random", start_now=True)
        player = Player(choose=choose)
        with seat_socket(first, made["code"], made["token"]) as ws:
            play(ws, player, moves=3)
            # The bots play on until it is my turn again; then nothing moves.
            before = player.latest
            while before is None or before["view"]["turn"] != 0:
                before = ws.receive_json()
                if before["type"] != "event":
                    before = None
    with TestClient(create_app(url, bot_delay=0)) as second:
        after = _first_state(second, made)
    assert before is not None
    assert after["view"] == before["view"] and after["event"] == before["event"]


def test_the_fair_shuffle_check_deals_the_ganjifa_hands(client: TestClient) -> None:
    seed = 987654321
    r = client.get(
        "/api/verify",
        params={"commitment": commitment(seed), "seed": str(seed), "dealer": 2, "game": "ganjifa"},
    )
    data = r.json()
    assert data["commitment_ok"] and data["shown_card"] is None
    assert data["hands"] == [[c.code for c in h] for h in ganjifa.deal_hands(2, seed)]
    r = client.get(
        "/api/verify",
        params={"commitment": "00", "seed": "1", "dealer": 3, "game": "ganjifa"},
    )
    assert r.json()["error"]["code"] == "bad_request"


def test_a_long_dukal_answer_fits_in_a_message_but_no_longer_move(client: TestClient) -> None:
    made = create(client, game="ganjifa", bots="rules", start_now=True)
    with seat_socket(client, made["code"], made["token"]) as ws:
        hand = ws.receive_json()["view"]["hand"]
        answer = "give " + " ".join(hand[:8])  # an answer to a Dukal of 8: longer than 32
        assert len(answer) > 32
        ws.send_json({"type": "move", "move": answer, "ref": 1})
        reply = ws.receive_json()
        while reply["type"] != "error":
            reply = ws.receive_json()
        # Read and judged by the engine (not this seat's turn, or not an answer now).
        assert reply["error"]["code"] in ("not_your_turn", "illegal_move")
        ws.send_json({"type": "move", "move": "give " + " ".join(hand * 2), "ref": 2})
        reply = ws.receive_json()
        while reply["type"] != "error":
            reply = ws.receive_json()
        assert reply["error"]["code"] == "bad_message"  # longer than any move of the game
