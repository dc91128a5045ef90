"""The rules page's data (``GET /api/rules``) and the fair-shuffle check (``GET /api/verify``)."""

from __future__ import annotations

import functools
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from sqlalchemy import text
from sqlalchemy.orm import Session

from hukum.game import AnyGame, GameError
from hukum.games import GAMES, game_named
from hukum.server.deps import get_session
from hukum.server.fairness import verify
from hukum.server.protocol import ProtocolError, load_json, refused

router = APIRouter(prefix="/api")

#: The game whose options and presets the top level of ``GET /api/rules`` gives, as it
#: always has (the page's first game); every game's are under ``games``.
FIRST = next(iter(GAMES))


@functools.cache
def game_info(spec: AnyGame) -> dict[str, Any]:
    """A game's rules as the lobby form and the rules page read them: every option from its
    rules schema (name, type, values, default, rule id, label key, description), its
    presets, the default one, its numbers of players and its computer players."""
    return {
        "title": spec.title,
        "options": [o.to_dict() for o in spec.rules_schema()],
        "presets": {name: spec.rules_to_dict(rules) for name, rules in spec.presets.items()},
        "default_preset": spec.default_preset,
        "players": list(spec.player_counts),
        "bots": list(spec.bots),
    }


def rules_info() -> dict[str, Any]:
    """Every game's rules (``games``, :func:`game_info`, worked out once a game) and, at the
    top level, those of the first game (``options``, ``presets``, ``bots``) and each game's
    computer players (``levels``)."""
    games = {name: game_info(spec) for name, spec in GAMES.items()}
    first = games[FIRST]
    return {
        "options": first["options"],
        "presets": first["presets"],
        "bots": first["bots"],
        "levels": {name: info["bots"] for name, info in games.items()},
        "games": games,
    }


@router.get("/rules")
async def get_rules() -> dict[str, Any]:
    """Every game's presets and rule options with their values and descriptions."""
    return rules_info()


@router.get("/verify")
async def get_verify(
    commitment: Annotated[str, Query(max_length=128)],
    seed: Annotated[str, Query(max_length=64)],
    dealer: Annotated[int, Query(ge=0, le=7)],
    rules: Annotated[str | None, Query(max_length=2000)] = None,
    preset: Annotated[str | None, Query(max_length=32)] = None,
    game: Annotated[str, Query(max_length=20)] = "mindi",
) -> dict[str, Any]:
    """Recompute a deal from a revealed seed and check it against its commitment."""
    if not (seed.isascii() and seed.isdigit()):  # "²" is a digit to str.isdigit, not to int
        raise ProtocolError("bad_request", "seed is a whole number, in the digits 0-9")
    try:
        spec = game_named(game)
    except GameError as e:
        raise refused(e) from None
    try:
        options = load_json(rules) if rules else {}
    except ProtocolError:
        raise ProtocolError("bad_rules", "rules must be a JSON object of options") from None
    if not isinstance(options, dict):
        raise ProtocolError("bad_rules", "rules must be a JSON object of options")
    try:
        chosen = spec.make_rules(preset or spec.default_preset, options)
    except GameError as e:
        raise refused(e) from None
    players = spec.players(chosen)
    if dealer >= players:
        raise ProtocolError("bad_request", f"dealer must be a seat, 0 to {players - 1}")
    return verify(commitment, int(seed), chosen, dealer, spec)


@router.get("/health")
def health(session: Annotated[Session, Depends(get_session)], request: Request) -> dict[str, Any]:
    """The server is up and the database answers (for load balancers); in a cluster, also
    the process's name there."""
    session.execute(text("SELECT 1"))
    cluster = request.app.state.cluster
    return {"ok": True} if cluster is None else {"ok": True, "process": cluster.id}
