"""Hidden cards and hostile input, checked from outside against a running server: the test
suite's leak scan and hostile frames, sent to a URL (e.g. the load balancer of ``make
cluster``, so that a table's sockets reach different processes).

    make cluster &                     # HAProxy on :8000 over two hukum serve processes
    .venv/bin/python scripts/probe.py --url http://127.0.0.1:8000 --rounds 10

Each round plays, through the URL:

- a one-person table with bots under each Mindi preset of the leak test (classic, hidden,
  hidden with the reveal on request, dehla-pakad, open trump with must-trump, six-player
  mindi-world) and a Ganjifa table, each with a watcher;
- a Mindi table of four people, each on a connection of its own (behind a balancer on
  two processes, some reach the table's owner and some another process, which relays).

Every message a seat or a watcher receives is scanned as the test suite scans it
(``tests/server/helpers.py``: no card of another hand before it is played or shown, no
seed before the deal is over, no deck order; a watcher sees no hand at all). Then the
hostile frames of the cluster test and the hostile HTTP bodies of the hostile-input test
are sent: each must be refused with its error code, and the table must be unchanged.
Prints the messages and deals scanned and what each hostile input got; exit status 1 on
any leak or any hostile input not refused as documented.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import httpx2 as httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' leak scan
from tests.mindi.helpers import VARIANTS
from tests.server.helpers import Player, check_no_leaks, hello
from tests.server.test_ganjifa import choose as ganjifa_choose
from tests.server.test_spectators import check_no_watcher_leaks

ONE = {"deals": 1, "target": None}


class Probe:
    """The figures and failures of one run."""

    def __init__(self, url: str) -> None:
        self.http = url.rstrip("/")
        self.ws = "ws" + self.http.removeprefix("http")
        self.messages = 0
        self.deals = 0
        self.watched = 0
        self.failures: list[str] = []
        self.refused: Counter[str] = Counter()
        self.answered_by: Counter[str] = Counter()

    def fail(self, what: str) -> None:
        self.failures.append(what)
        print("FAIL:", what, file=sys.stderr)

    async def post(self, client: httpx.AsyncClient, path: str, body: Any) -> dict[str, Any]:
        response = await client.post(self.http + path, json=body)
        response.raise_for_status()
        data: dict[str, Any] = response.json()
        return data

    async def seat(self, code: str, token: str, choose: Any) -> Player:
        """Play a seat to the end of the match; its messages scanned."""
        player = Player(choose=choose)
        async with websockets.connect(f"{self.ws}/ws/{code}", max_size=2**22) as ws:
            await ws.send(json.dumps(hello(token)))
            while not player.match_over:
                message = json.loads(await asyncio.wait_for(ws.recv(), 120))
                if message.get("type") == "reconnect":
                    raise RuntimeError(f"{code}: the table moved to another process")
                for out in player.feed(message):
                    await ws.send(json.dumps(out))
        return player

    async def watcher(self, code: str, until: asyncio.Event) -> list[dict[str, Any]]:
        """Watch a table until ``until`` is set and the match is over; every message."""
        log: list[dict[str, Any]] = []
        async with websockets.connect(f"{self.ws}/ws/{code}", max_size=2**22) as ws:
            await ws.send(json.dumps(hello(None, watch=True)))
            while True:
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                except TimeoutError:
                    if until.is_set():
                        return log
                    continue
                log.append(message)
                table = message.get("table") or {}
                if message.get("kind") == "match_over" or table.get("status") == "over":
                    return log

    def scan(self, what: str, log: list[dict[str, Any]], seat: int | None) -> None:
        self.messages += len(log)
        try:
            if seat is None:
                self.watched += len(log)
                check_no_watcher_leaks(log)
            else:
                self.deals += check_no_leaks(log, seat)
        except AssertionError as e:
            self.fail(f"{what}: leak: {str(e)[:300]}")

    async def bots_table(
        self, client: httpx.AsyncClient, body: dict[str, Any], rng: random.Random
    ) -> None:
        made = await self.post(
            client,
            "/api/tables",
            {**body, "start_now": True, "spectators": True, "turn_timeout": None},
        )
        code = made["code"]
        done = asyncio.Event()
        watching = asyncio.create_task(self.watcher(code, done))
        ganjifa = body.get("game") == "ganjifa"
        choose = ganjifa_choose if ganjifa else (lambda view: rng.choice(view["legal"]))
        player = await self.seat(code, made["token"], choose)
        done.set()
        what = f"{body.get('game', 'mindi')} {body.get('preset')} {body.get('options')}"
        if player.errors:
            self.fail(f"{what}: errors {player.errors[:2]}")
        self.scan(what, player.log, 0)
        self.scan(what + " (watcher)", await watching, None)

    async def people_table(self, client: httpx.AsyncClient, rng: random.Random) -> None:
        made = await self.post(
            client,
            "/api/tables",
            {"preset": "classic", "options": ONE, "turn_timeout": None, "spectators": True},
        )
        code, tokens = made["code"], [made["token"]]
        for seat in (1, 2, 3):
            tokens.append(
                (await self.post(client, f"/api/tables/{code}/seats/{seat}", {"name": f"P{seat}"}))[
                    "token"
                ]
            )
        players = [
            asyncio.create_task(self.seat(code, t, lambda v: rng.choice(v["legal"])))
            for t in tokens
        ]
        await asyncio.sleep(0.5)  # every seat connected before the match starts
        await self.post(client, f"/api/tables/{code}/start", {"token": tokens[0]})
        for seat, player in enumerate(await asyncio.gather(*players)):
            self.scan(f"four people, seat {seat}", player.log, seat)

    async def hostile(self, client: httpx.AsyncClient) -> None:
        """The cluster test's hostile frames at a table, and the hostile bodies."""
        made = await self.post(
            client,
            "/api/tables",
            {"preset": "classic", "options": ONE, "start_now": True, "turn_timeout": None},
        )
        code, token = made["code"], made["token"]
        frames = [
            ("nested", "[" * 3000 + "]" * 3000, "bad_json"),
            ("5000 digits", '{"type": "ping", "ref": ' + "7" * 5000 + "}", "bad_json"),
            ("not json", "not json", "bad_json"),
            ("long move", json.dumps({"type": "move", "move": "x" * 500, "ref": 1}), "bad_message"),
            ("not a card", json.dumps({"type": "move", "move": "ZZ", "ref": 2}), "invalid_move"),
            (
                "another's seat",
                json.dumps({"type": "move", "move": "2S", "seat": 1, "ref": 3}),
                "not_your_seat",
            ),
            (
                "future turn",
                json.dumps({"type": "move", "move": "2S", "event": 10**9, "ref": 4}),
                "bad_message",
            ),
            ("unknown type", json.dumps({"type": "shuffle", "ref": 5}), "bad_message"),
            ("second hello", json.dumps({"type": "hello", "token": token}), "bad_message"),
        ]
        async with websockets.connect(f"{self.ws}/ws/{code}") as ws:
            await ws.send(json.dumps(hello(token)))
            state = json.loads(await ws.recv())
            while state["view"] is None or state["view"]["turn"] != 0:
                state = json.loads(await ws.recv())
            before = (await client.get(f"{self.http}/api/tables/{code}")).json()
            for name, frame, expected in frames:
                await ws.send(frame)
                answer = json.loads(await ws.recv())
                code_got = (answer.get("error") or {}).get("code")
                self.refused[f"frame {name}: {code_got}"] += 1
                if answer.get("type") != "error" or code_got != expected:
                    self.fail(f"frame {name}: expected error {expected}, got {answer}")
            after = (await client.get(f"{self.http}/api/tables/{code}")).json()
            if after != before:
                self.fail(f"hostile frames changed the table: {before} -> {after}")
            legal = state["view"]["legal"][0]
            await ws.send(
                json.dumps({"type": "move", "move": legal, "ref": 9, "event": state["event"]})
            )
            while (answer := json.loads(await ws.recv())).get("type") != "ack":
                if answer.get("type") == "error":
                    self.fail(f"a good move after the hostile frames was refused: {answer}")
                    break
        bodies = [
            ("nested body", ("[" * 3000 + "]" * 3000).encode(), "bad_json"),
            ("5000-digit body", b'{"game": "mindi", "bots": ' + b"9" * 5000 + b"}", "bad_json"),
            ("not UTF-8", b"\xff\xfe{", "bad_json"),
        ]
        for name, body, expected in bodies:
            response = await client.post(
                f"{self.http}/api/tables",
                content=body,
                headers={"content-type": "application/json"},
            )
            got = response.json().get("error", {}).get("code")
            self.refused[f"body {name}: {response.status_code} {got}"] += 1
            if got != expected:
                self.fail(
                    f"{name}: expected {expected}, got {response.status_code} {response.text[:200]}"
                )
        query = {"commitment": "ab", "seed": "1", "dealer": 0, "rules": "[" * 999 + "]" * 999}
        response = await client.get(f"{self.http}/api/verify", params=query)
        got = response.json().get("error", {}).get("code")
        self.refused[f"verify nested rules: {response.status_code} {got}"] += 1
        if got != "bad_rules":
            self.fail(f"verify nested rules: {response.status_code} {response.text[:200]}")

    async def run(self, rounds: int, seed: int) -> None:
        rng = random.Random(seed)
        async with httpx.AsyncClient(timeout=60) as client:
            for number in range(rounds):
                tables = [{"preset": p, "options": {**o, **ONE}} for p, o in VARIANTS]
                tables.append(
                    {"game": "ganjifa", "options": {"time": rng.choice(["day", "night"])}}
                )
                await asyncio.gather(
                    *(self.bots_table(client, body, rng) for body in tables),
                    self.people_table(client, rng),
                )
                await self.hostile(client)
                for _ in range(4):
                    health = (await client.get(f"{self.http}/api/health")).json()
                    self.answered_by[str(health.get("process", "one process"))] += 1
                print(
                    f"round {number + 1}: {self.messages} messages, {self.deals} deals "
                    f"scanned, {len(self.failures)} failures",
                    flush=True,
                )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--url", default="http://127.0.0.1:8000", help="the server (or load balancer)"
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    probe = Probe(args.url)
    asyncio.run(probe.run(args.rounds, args.seed))
    print(
        f"scanned {probe.messages} messages ({probe.watched} a watcher's) over "
        f"{probe.deals} deals seen from a seat"
    )
    print(
        "hostile input refused:", ", ".join(f"{k} x{n}" for k, n in sorted(probe.refused.items()))
    )
    print("GET /api/health answered by:", dict(probe.answered_by))
    print(f"failures: {len(probe.failures)}")
    return 1 if probe.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
