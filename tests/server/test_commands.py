"""The one table of table commands (:mod:`hukum.server.tables.commands`) and the one table
of error codes (:data:`hukum.server.protocol.ERRORS`): every way into a table reads the
first, only the protocol knows the second, and a command added as docs/architecture.md says
("How to add a table command") is taken over a real WebSocket of a real app."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hukum.server.protocol import ERRORS, client_types, close_code, http_status
from hukum.server.tables import Registry, Table
from hukum.server.tables.commands import (
    COMMANDS,
    AtSeat,
    Caller,
    Command,
    Said,
    Sender,
    by_message,
)
from tests.server.conftest import create
from tests.server.helpers import seat_socket

SERVER = Path(__file__).resolve().parents[2] / "src" / "hukum" / "server"
DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_wire_names_of_the_commands_stay() -> None:
    """The WebSocket message types, in docs/protocol.md's order, and the names the cluster's
    processes send each other (a process of the version before reads the same)."""
    assert client_types() == (
        "move",
        "next_deal",
        "take_back",
        "rematch",
        "hint",
        "say",
        "ping",
    )
    assert set(COMMANDS) == {
        "submit_move",
        "ready",
        "take_back",
        "rematch",
        "hint",
        "say",
        "take_seat",
        "fill_with_bots",
        "start",
        "follow",
        "unfollow",
        "attach",
        "detach",
    }
    for name, command in COMMANDS.items():
        assert command.name == name
        seated = command.sender is Sender.SEAT
        assert (command.message is not None) == seated, name
        if command.message is not None:
            assert by_message(command.message) is command


def test_a_command_is_declared_whole_or_refused() -> None:
    """A seat's command without its message type, or one with both handlers, is refused
    when it is declared, not when someone sends it."""

    async def run(table: Table, payload: AtSeat, by: Caller) -> int:
        return 0

    with pytest.raises(ValueError, match="message and read"):
        Command("x", AtSeat, Sender.SEAT, run=run)
    with pytest.raises(ValueError, match="exactly one"):
        Command("x", AtSeat, Sender.PROCESS)
    with pytest.raises(ValueError, match="message and read"):
        Command("x", AtSeat, Sender.HOLDER, run=run, message="x", read=lambda s, m: AtSeat(s))


def _raised_codes() -> dict[str, list[str]]:
    """Every error code the server's source raises, with where (``TableError("code", …)``,
    ``ProtocolError("code", …)``, ``error_body("code", …)``)."""
    found: dict[str, list[str]] = {}
    for path in sorted(SERVER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            first = node.args[0]
            if name in ("TableError", "ProtocolError", "error_body") and isinstance(
                first, ast.Constant
            ):
                found.setdefault(str(first.value), []).append(f"{path.name}:{node.lineno}")
    return found


def test_every_error_code_has_its_status_and_is_documented() -> None:
    raised = _raised_codes()
    assert {"seat_taken", "not_your_turn", "bad_token", "hello_timeout"} <= set(raised)
    assert set(raised) <= set(ERRORS), {c: raised[c] for c in set(raised) - set(ERRORS)}
    protocol = (DOCS / "protocol.md").read_text(encoding="utf-8")
    undocumented = [c for c in ERRORS if f"`{c}`" not in protocol]
    assert not undocumented
    # The statuses and close codes docs/protocol.md gives.
    assert [http_status(c) for c in ("seat_taken", "unknown_seat", "bad_token", "busy")] == [
        409,
        404,
        403,
        503,
    ]
    assert close_code("bad_token") == 4401 and close_code("hello_timeout") == 4408
    assert http_status("a_code_nobody_raises") == 400


def test_the_tables_know_nothing_of_http() -> None:
    """No module of ``hukum.server.tables`` imports the protocol, a route or the web
    framework, and a table's error is a code, a reason and details: never a status."""
    for path in sorted((SERVER / "tables").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                assert not module.startswith(
                    ("hukum.server.protocol", "hukum.server.routes", "hukum.server.app")
                ), f"{path.name} imports {module}"
                assert not module.startswith(("fastapi", "starlette")), path.name
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "TableError":
                assert len(node.args) == 2, f"{path.name}:{node.lineno}: a status?"


# ------------------------------------------------------------ How to add a table command


async def _name(table: Table, payload: AtSeat, by: Caller) -> str:
    """The handler: the name of the person at the seat, read under the table's lock."""
    async with table.lock:
        return table.seats[payload.seat].name


def _read(seat: int, said: Said) -> AtSeat:
    return AtSeat(seat)


def _reply(name: str) -> dict[str, Any]:
    return {"type": "name", "name": name}


#: The entry, as docs/architecture.md's "How to add a table command" declares one.
NAME: Command[AtSeat, str] = Command(
    "seat_name", AtSeat, Sender.SEAT, run=_name, message="name", read=_read, reply=_reply
)


def test_a_command_added_as_the_architecture_says(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One entry and its handler: the game socket takes it from a seated player (never from
    a watcher), and the cluster's handler runs it by name for another process."""
    made = create(client, name="Asha", spectators=True)
    code, token = made["code"], made["token"]
    with seat_socket(client, code, token) as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "name", "ref": 1})
        before = ws.receive_json()
        assert before["error"]["code"] == "bad_message"  # not a command yet
        assert "type must be one of move," in before["error"]["message"]
    monkeypatch.setitem(COMMANDS, NAME.name, NAME)
    assert "name" in client_types()
    with seat_socket(client, code, token) as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "name", "ref": 2})
        assert ws.receive_json() == {"type": "name", "ref": 2, "name": "Asha"}
        ws.send_json({"type": "name", "seat": 1, "ref": 3})
        assert ws.receive_json()["error"]["code"] == "not_your_seat"
    with seat_socket(client, code, None, watch=True) as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "name", "ref": 4})
        assert ws.receive_json()["error"]["code"] == "watcher"
    registry: Registry = client.app.state.registry  # type: ignore[attr-defined]
    assert client.portal is not None
    by_another = client.portal.call(registry.command, "other", "seat_name", code, {"seat": 0})
    assert by_another == "Asha"
    assert re.fullmatch(r"[a-z_]+", NAME.name)
