"""The migrations build exactly the tables the models describe (no column the code expects
is missing from a migrated database, none left over), on SQLite and, when available,
PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine

from hukum.server.db import Base, migrate
from hukum.server.identity import models  # noqa: F401  (its tables in Base.metadata)
from hukum.server.play import models as play_models  # noqa: F401  (its tables too)


def _differences(url: str) -> list[object]:
    migrate(url)
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return list(compare_metadata(MigrationContext.configure(conn), Base.metadata))
    finally:
        engine.dispose()


def test_sqlite_migrations_match_the_models(tmp_path: Path) -> None:
    assert _differences(f"sqlite:///{tmp_path / 'm.db'}") == []


def test_postgres_migrations_match_the_models(postgres_url: str) -> None:
    assert _differences(postgres_url) == []
