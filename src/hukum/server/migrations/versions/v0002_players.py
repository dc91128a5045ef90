"""Players (guests and accounts), their sessions, blocks, reports and sanctions.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("username", sa.String(20), nullable=True),
        sa.Column("username_key", sa.String(20), nullable=True, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("prefs", sa.JSON(), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("seen_at", WHEN, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "player",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("seen_at", WHEN, nullable=False),
        sa.Column("agent", sa.String(200), nullable=False),
    )
    op.create_index("ix_sessions_player", "sessions", ["player"])
    op.create_table(
        "blocks",
        sa.Column(
            "player",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "blocked",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("created_at", WHEN, nullable=False),
    )
    op.create_index("ix_blocks_blocked", "blocks", ["blocked"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "reporter",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column(
            "reported",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("room", sa.String(16), sa.ForeignKey("rooms.code"), nullable=False),
        sa.Column("reason", sa.String(32), nullable=False),
        sa.Column("note", sa.String(500), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("closed_at", WHEN, nullable=True),
    )
    op.create_index("ix_reports_reporter", "reports", ["reporter"])
    op.create_index("ix_reports_reported", "reports", ["reported"])
    op.create_table(
        "sanctions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "player",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "moderator",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("until", WHEN, nullable=True),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("lifted_at", WHEN, nullable=True),
        sa.Column(
            "lifted_by",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("lift_reason", sa.String(500), nullable=False),
    )
    op.create_index("ix_sanctions_player", "sanctions", ["player"])


def downgrade() -> None:
    for table in ("sanctions", "reports", "blocks", "sessions", "players"):
        op.drop_table(table)
