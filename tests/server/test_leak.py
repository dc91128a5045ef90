"""Many full deals through the real app: nothing a seat receives gives away another seat's
cards before they are played, the deck order, or the seed before the deal is over."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.mindi.helpers import VARIANTS
from tests.server.conftest import create, play
from tests.server.helpers import Player, check_no_leaks, seat_socket


@pytest.mark.parametrize(("preset", "options"), VARIANTS)
def test_no_leaks_over_full_deals(client: TestClient, preset: str, options: dict[str, Any]) -> None:
    deals = 2  # a 3-deal match played at full speed can outrun the rate limit (40 in a burst)
    made = create(
        client,
        start_now=True,
        preset=preset,
        bots="random",
        options={**options, "deals": deals, "target": None},
    )
    player = Player(choose=lambda view: view["legal"][-1])
    with seat_socket(client, made["code"], made["token"]) as ws:
        play(ws, player)
    assert player.match_over and not player.errors
    assert check_no_leaks(player.log, seat=0) == deals
