"""Alembic environment of the hukum server; run by :func:`hukum.server.db.migrate`."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, pool, text

from hukum.server.db import Base
from hukum.server.identity import models  # noqa: F401  (its tables in Base.metadata)
from hukum.server.play import models as play_models  # noqa: F401  (its tables too)

#: PostgreSQL advisory lock held while migrating, so that servers (or test workers) that
#: start at the same moment on one database migrate one after the other.
MIGRATION_LOCK = 0x68756B756D  # "hukum"

config = context.config
url = config.get_main_option("sqlalchemy.url") or "sqlite:///hukum.db"

if context.is_offline_mode():
    context.configure(url=url, target_metadata=Base.metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    engine = create_engine(url, poolclass=pool.NullPool)
    with engine.connect() as connection:
        postgres = connection.dialect.name == "postgresql"
        if postgres:
            connection.execute(text("SELECT pg_advisory_lock(:k)"), {"k": MIGRATION_LOCK})
            connection.commit()
        context.configure(connection=connection, target_metadata=Base.metadata)
        with context.begin_transaction():
            context.run_migrations()
        if postgres:
            connection.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": MIGRATION_LOCK})
            connection.commit()
    engine.dispose()
