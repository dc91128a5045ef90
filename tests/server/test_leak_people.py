"""Four people at one table of a real ``hukum serve`` process, over real WebSockets: every
message each seat receives is checked for cards of other hands, the deck order and the
seed before the deal is over."""

from __future__ import annotations

import asyncio
import json
import signal
from pathlib import Path

import httpx2 as httpx
import pytest
import websockets

from tests.server.helpers import Player, check_no_leaks, hello
from tests.server.test_restart import free_port, run, start_server


async def seat_plays(url: str, token: str, player: Player) -> None:
    """Play the seat ``token`` holds until the match is over."""
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps(hello(token)))
        while not player.match_over:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))
            for out in player.feed(message):
                await ws.send(json.dumps(out))


async def table_of_four(url: str, tokens: list[str], players: list[Player]) -> None:
    await asyncio.gather(*(seat_plays(url, t, p) for t, p in zip(tokens, players, strict=True)))


@pytest.mark.parametrize(
    ("preset", "options"),
    [("classic", {}), ("hidden", {"reveal": "on_request"}), ("dehla-pakad", {})],
)
def test_no_seat_of_four_people_sees_another_hand(
    tmp_path: Path, preset: str, options: dict[str, object]
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(f"sqlite:///{tmp_path / 'hukum.db'}", port)
    try:
        made = httpx.post(
            f"{base}/api/tables",
            json={
                "preset": preset,
                "options": {**options, "deals": 2, "target": None},
                "name": "Asha",
            },
        ).json()
        code = made["code"]
        tokens = [made["token"]]
        for seat, name in ((1, "Ravi"), (2, "Meera"), (3, "Kabir")):
            r = httpx.post(f"{base}/api/tables/{code}/seats/{seat}", json={"name": name})
            assert r.status_code == 200, r.text
            tokens.append(r.json()["token"])
        r = httpx.post(f"{base}/api/tables/{code}/start", json={"token": tokens[0]})
        assert r.status_code == 200, r.text
        players = [Player(choose=lambda view: view["legal"][-1]) for _ in range(4)]
        run(table_of_four(f"ws://127.0.0.1:{port}/ws/{code}", tokens, players))
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    for seat, player in enumerate(players):
        assert player.match_over and not player.errors, player.errors
        assert check_no_leaks(player.log, seat=seat) == 2
    # The check is not vacuous: seat 1's messages, read as if seat 0 had received them,
    # show cards of a hand that is not seat 0's.
    with pytest.raises(AssertionError):
        check_no_leaks(players[1].log, seat=0)
