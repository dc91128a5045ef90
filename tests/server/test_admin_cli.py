"""Issue 41: ``hukum admin grant-moderator NAME`` and ``revoke-moderator NAME``, by user name,
on the database of ``--database-url``."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, select

from hukum.cli import main
from hukum.server.db import Store, migrate
from hukum.server.identity.models import Player


def _role(url: str, player: str) -> str:
    engine = create_engine(url)
    with engine.connect() as conn:
        role: str = conn.execute(select(Player.role).where(Player.id == player)).scalar_one()
    engine.dispose()
    return role


def test_grant_and_revoke_moderator_by_user_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'h.db'}"
    migrate(url)
    store = Store(create_engine(url))
    with store.session() as s:
        s.add(Player(id="a" * 32, name="Asha", username="Asha", username_key="asha", prefs={}))
        s.commit()
    store.close()
    assert main(["admin", "grant-moderator", "ASHA", "--database-url", url]) == 0
    assert "Asha is a moderator now" in capsys.readouterr().out
    assert _role(url, "a" * 32) == "moderator"
    assert main(["admin", "revoke-moderator", "asha", "--database-url", url]) == 0
    assert _role(url, "a" * 32) == "player"
    assert main(["admin", "grant-moderator", "Nobody", "--database-url", url]) == 1
    assert "no account has the user name 'Nobody'" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["admin", "grant-moderator"])  # a user name is needed
