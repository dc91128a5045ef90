"""The rules page's data (``GET /api/rules``) and the fair-shuffle check (``GET /api/verify``)."""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import itertools
import typing
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from sqlalchemy import text
from sqlalchemy.orm import Session

from hukum.game import GameError
from hukum.games import GAMES, game_named
from hukum.games.mindi import MindiSpec
from hukum.mindi import PRESETS, Rules
from hukum.mindi import rules as rules_module
from hukum.server.deps import get_session
from hukum.server.fairness import verify
from hukum.server.protocol import ProtocolError, load_json, refused

router = APIRouter(prefix="/api")


@functools.cache
def option_docs() -> dict[str, str]:
    """The one-line docstring under each field of :class:`Rules` (read from its source)."""
    tree = ast.parse(inspect.getsource(rules_module))
    docs: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "Rules":
            body = node.body
            for a, b in itertools.pairwise(body):
                if (
                    isinstance(a, ast.AnnAssign)
                    and isinstance(a.target, ast.Name)
                    and isinstance(b, ast.Expr)
                    and isinstance(b.value, ast.Constant)
                    and isinstance(b.value.value, str)
                ):
                    docs[a.target.id] = " ".join(b.value.value.split())
    return docs


def _values(name: str, annotation: Any) -> list[Any] | None:
    if name == "players":
        return [4, 6, 8]
    if name == "deck":
        return [52, 48]
    args = typing.get_args(annotation)
    if annotation is bool:
        return [False, True]
    if args and all(isinstance(a, str) for a in args):
        return list(args)
    return None


@functools.cache
def rules_info() -> dict[str, Any]:
    """Every option (name, type, choices, default, one-line description), the presets, the
    computer players of Mindi (``bots``) and of each game (``levels``)."""
    hints = typing.get_type_hints(Rules)
    docs = option_docs()
    default = Rules()
    options = []
    for f in dataclasses.fields(Rules):
        values = _values(f.name, hints[f.name])
        value = getattr(default, f.name)
        options.append(
            {
                "name": f.name,
                "type": "choice"
                if values is not None
                else ("points" if f.name == "points" else "count"),
                "values": values,
                "nullable": f.name in ("target", "deals"),
                "default": list(value) if isinstance(value, tuple) else value,
                "description": docs.get(f.name, ""),
            }
        )
    return {
        "options": options,
        "presets": {name: rules.to_dict() for name, rules in PRESETS.items()},
        "bots": list(MindiSpec.bots),
        "levels": {name: list(spec.bots) for name, spec in GAMES.items()},
    }


@router.get("/rules")
async def get_rules() -> dict[str, Any]:
    """The presets and every rule option with its values and description."""
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
