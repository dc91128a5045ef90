"""Alembic environment of the hukum server; run by :func:`hukum.server.db.migrate`."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, pool

from hukum.server.db import Base

config = context.config
url = config.get_main_option("sqlalchemy.url") or "sqlite:///hukum.db"

if context.is_offline_mode():
    context.configure(url=url, target_metadata=Base.metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    engine = create_engine(url, poolclass=pool.NullPool)
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=Base.metadata)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()
