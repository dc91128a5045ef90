"""A finished deal move by move with every hand face up (``GET /api/tables/<code>/deals/<n>``),
for the page's analysis board: the engine replays the deal, so the page needs no rules of
its own to know who played each card, who won each trick and what was trump."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from hukum.server.deps import get_registry
from hukum.server.play.challenge import refuse_open
from hukum.server.protocol import ProtocolError
from hukum.server.tables import Registry

router = APIRouter(prefix="/api/tables")


@router.get("/{code}/deals/{number}")
async def replay(
    code: str, number: int, registry: Annotated[Registry, Depends(get_registry)]
) -> dict[str, Any]:
    """Deal ``number`` (from 1) of a table once it is over (all its cards are public then;
    never a deal in progress): its moves, each with its seat and trick, and every position
    from the deal as dealt to its end (:meth:`hukum.game.WebFacet.replay_to_dict`)."""
    table = await registry.require(code)
    refuse_open(table.config)
    deal = await table.finished_deal(number)
    finished = sum(1 for d in table.match.deals if d.is_over()) if table.match else 0
    web = table.spec.web
    if web is None:
        raise ProtocolError("no_replay", f"{table.spec.title} offers no replay of its deals")
    data = web.replay_to_dict(deal)
    return {
        "deal": number,
        "deals": finished,
        "game": table.spec.name,
        "dealer": deal.dealer,
        **data,
    }
